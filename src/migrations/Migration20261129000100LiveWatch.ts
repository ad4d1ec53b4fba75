import { Migration } from '@mikro-orm/migrations';

/**
 * Which companies someone watches live (GraphQL subscriptions): one row per company, kind
 * (`bookings`, `availability`) and API process holding such a subscription, kept alive by that
 * process until `expires_at`. The triggers that announce changes (src/db/functions/
 * booking_changed.sql, availability_changed.sql) send a NOTIFY only for a watched company: a
 * commit that notifies takes PostgreSQL's one notification lock until it is flushed, which
 * serialises such commits, so companies nobody watches pay one index probe instead.
 */
export class Migration20261129000100LiveWatch extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table live_watch (
      company_id uuid not null references company(id) on delete cascade,
      kind text not null check (kind in ('bookings', 'availability')),
      watcher uuid not null,
      expires_at timestamptz not null,
      primary key (company_id, kind, watcher)
    )`);
  }
}
