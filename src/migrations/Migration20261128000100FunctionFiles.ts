import { Migration } from '@mikro-orm/migrations';

/**
 * Functions, trigger functions (with their triggers) and views live whole in
 * `src/db/functions/*.sql` and are applied after the migrations (src/db/function-files.ts);
 * this table records the checksum of each file as applied, so that an unchanged file is not
 * run again. The earlier migrations no longer create functions; on a database they already
 * ran on, the files replace what they created.
 *
 * The kept catalog's functions are named after it now (`booking_kept_catalog`,
 * `kept_catalog_snapshot`, from their files); the old names go.
 */
export class Migration20261128000100FunctionFiles extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table db_function_checksum (name text primary key, checksum text not null, applied_at timestamptz not null default now())',
    );
    this.addSql('drop function if exists booking_static(uuid, uuid, uuid, timestamptz, timestamptz)');
    this.addSql(
      'drop function if exists availability_static_snapshot(uuid, uuid, timestamptz, timestamptz, timestamptz, timestamptz, uuid[], uuid[])',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists db_function_checksum');
  }
}
