import { Migration } from '@mikro-orm/migrations';

/**
 * The audit log is written by the database: a row trigger on every table that holds merchant
 * data (`src/db/functions/audit_record.sql`, with `audit_value.sql` and `audit_begin.sql`,
 * applied after the migrations). The booking insert functions no longer take the audit rows
 * their caller built: their signatures without them come from their files, and the old ones go.
 */
export class Migration20261129000100AuditTriggers extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'drop function if exists booking_insert_at_version(bigint, uuid, jsonb, uuid, timestamptz, timestamptz, uuid[], text[], text, timestamptz, jsonb)',
    );
    this.addSql(
      'drop function if exists booking_insert(uuid, jsonb, uuid, timestamptz, timestamptz, uuid[], text[], text, timestamptz, jsonb)',
    );
  }

  override async down(): Promise<void> {
    // with their triggers on every audited table
    this.addSql('drop function if exists audit_record() cascade');
    this.addSql('drop function if exists audit_value(jsonb, oid)');
    this.addSql('drop function if exists audit_begin(jsonb)');
  }
}
