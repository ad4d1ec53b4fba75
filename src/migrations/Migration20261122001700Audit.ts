import { Migration } from '@mikro-orm/migrations';

/**
 * The audit log: one row per changed record, written in the transaction of the change
 * (kernel/audit.ts). Append-only. No foreign keys: an entry is written in the same flush as
 * the record it names (whose insert may come later in that flush) and outlives it.
 * `company_id` is null for records above companies (API keys, merchants).
 */
export class Migration20261122001700Audit extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table audit_entry (
      id uuid primary key,
      -- insertion order: entries of one instant keep the order they were written in
      seq bigint generated always as identity,
      company_id uuid,
      merchant_id uuid,
      actor_type text not null check (actor_type in ('api_key', 'client', 'system')),
      actor_id text not null,
      actor_name text,
      action text not null,
      record_type text not null,
      record_id text not null,
      changes jsonb not null default '{}',
      request_id text,
      created_at timestamptz not null
    )`);
    // newest first per company, and the two filters that narrow most
    this.addSql(`create index audit_entry_company_idx on audit_entry (company_id, created_at desc, seq desc)`);
    this.addSql(`create index audit_entry_record_idx on audit_entry (company_id, record_id, created_at desc)`);
    this.addSql(`create index audit_entry_actor_idx on audit_entry (company_id, actor_id, created_at desc)`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists audit_entry');
  }
}
