import { Migration } from '@mikro-orm/migrations';

/**
 * Webhooks: the endpoints of a company, the outbox of events (`webhook_event`, written by
 * `kernel/events.ts` in the transaction of the change that caused the event), one delivery per
 * event and listening endpoint (its state and next attempt), and every attempt made (logged
 * when it begins, its outcome filled in when it ends).
 *
 * The delivery worker claims due deliveries with `for update skip locked` through the partial
 * index on pending deliveries; the outbox write looks endpoints up through the partial index
 * on enabled ones, so a company without endpoints costs one index probe per statement.
 */
export class Migration20261122001600Webhook extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table webhook_endpoint (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      url text not null check (length(url) between 1 and 2048),
      event_types text[] not null check (cardinality(event_types) >= 1),
      enabled boolean not null default true,
      description text,
      secret_enc text not null,
      failing_since timestamptz,
      disabled_reason text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id)
    )`);
    this.addSql(`create index webhook_endpoint_company_idx on webhook_endpoint (company_id, created_at, id)`);
    this.addSql(`create index webhook_endpoint_enabled_idx on webhook_endpoint (company_id) where enabled`);
    this.addSql(`create table webhook_event (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      type text not null,
      payload jsonb not null,
      occurred_at timestamptz not null,
      unique (company_id, id)
    )`);
    this.addSql(`create table webhook_delivery (
      id uuid primary key,
      company_id uuid not null,
      endpoint_id uuid not null,
      event_id uuid not null,
      status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
      attempts integer not null default 0 check (attempts >= 0),
      next_attempt_at timestamptz not null,
      last_attempt_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id),
      foreign key (company_id, endpoint_id) references webhook_endpoint (company_id, id) on delete cascade,
      foreign key (company_id, event_id) references webhook_event (company_id, id) on delete cascade
    )`);
    this.addSql(`create index webhook_delivery_due_idx on webhook_delivery (next_attempt_at) where status = 'pending'`);
    this.addSql(`create index webhook_delivery_endpoint_idx on webhook_delivery (company_id, endpoint_id, created_at desc, id desc)`);
    this.addSql(`create index webhook_delivery_event_idx on webhook_delivery (company_id, event_id)`);
    this.addSql(`create table webhook_attempt (
      id uuid primary key,
      company_id uuid not null,
      delivery_id uuid not null,
      attempt integer not null check (attempt >= 1),
      succeeded boolean not null,
      response_status integer,
      latency_ms integer not null check (latency_ms >= 0),
      response_excerpt text,
      error text,
      created_at timestamptz not null,
      foreign key (company_id, delivery_id) references webhook_delivery (company_id, id) on delete cascade
    )`);
    this.addSql(`create unique index webhook_attempt_delivery_key on webhook_attempt (company_id, delivery_id, attempt)`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists webhook_attempt');
    this.addSql('drop table if exists webhook_delivery');
    this.addSql('drop table if exists webhook_event');
    this.addSql('drop table if exists webhook_endpoint');
  }
}
