import { Migration } from '@mikro-orm/migrations';

/**
 * Bookings and the occupancy that guards them. `booking_occupancy` holds one row per resource
 * a pending or confirmed booking occupies (related resources included), over the buffered
 * interval; the exclusion constraint makes overlapping occupancy impossible whatever the
 * application does. Group and ticket capacity is counted in `slot_usage`, changed only under a
 * row lock inside the booking's transaction.
 */
export class Migration20261122000400Booking extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table booking (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      service_id uuid not null,
      resource_id uuid not null,
      client_id uuid,
      type text not null,
      status text not null check (status in ('pending', 'confirmed', 'cancelled', 'rejected', 'failed', 'finished', 'no_show')),
      start_time timestamptz not null,
      end_time timestamptz,
      duration_sec integer,
      spots integer not null default 1 check (spots >= 0),
      tickets jsonb not null default '{}',
      price integer not null default 0,
      currency text,
      booking_policy text not null default 'instant',
      related_resource_ids jsonb not null default '[]',
      rrule text,
      recurring_id uuid,
      client_initiated boolean not null default false,
      payment_url text,
      payment_transaction_id uuid,
      plugin_data jsonb not null default '{}',
      code text,
      custom_purchase_description text,
      refund_percent integer,
      buffer_before_sec integer not null default 0,
      buffer_after_sec integer not null default 0,
      meta_data jsonb not null default '{}',
      meta_data_version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id),
      foreign key (company_id, service_id) references service (company_id, id),
      foreign key (company_id, resource_id) references resource (company_id, id)
    )`);
    this.addSql(`create index booking_company_start_idx on booking (company_id, start_time, id)`);
    this.addSql(`create index booking_company_client_idx on booking (company_id, client_id, start_time)`);
    this.addSql(`create index booking_recurring_idx on booking (company_id, recurring_id, start_time) where recurring_id is not null`);
    this.addSql(`create table booking_status_change (
      id uuid primary key,
      seq bigint generated always as identity,
      company_id uuid not null,
      booking_id uuid not null,
      old_status text,
      new_status text not null,
      meta_data jsonb not null default '{}',
      created_at timestamptz not null default now(),
      foreign key (company_id, booking_id) references booking (company_id, id) on delete cascade
    )`);
    this.addSql(`create index booking_status_change_idx on booking_status_change (company_id, booking_id, seq)`);
    this.addSql(`create table booking_occupancy (
      id uuid not null default gen_random_uuid(),
      company_id uuid not null,
      booking_id uuid not null,
      resource_id uuid not null,
      source text not null default 'booking' check (source in ('booking', 'related_resource')),
      during tstzrange not null check (not isempty(during)),
      primary key (company_id, booking_id, resource_id),
      foreign key (company_id, booking_id) references booking (company_id, id) on delete cascade,
      constraint booking_occupancy_no_overlap exclude using gist (company_id with =, resource_id with =, during with &&)
    )`);
    // Foreign-key checks against booking run as plans cached per connection; made while the
    // table is nearly empty they scan it sequentially until statistics change. Analyzing the
    // booking tables early (every 2 % of growth) replaces those plans soon after traffic starts.
    for (const t of ['booking', 'booking_occupancy', 'booking_status_change']) {
      this.addSql(`alter table ${t} set (autovacuum_analyze_scale_factor = 0.02, autovacuum_analyze_threshold = 200)`);
    }
    this.addSql(`create table slot_usage (
      company_id uuid not null,
      service_id uuid not null,
      resource_id uuid not null,
      start_time timestamptz not null,
      booked_spots integer not null default 0 check (booked_spots >= 0),
      booked_per_ticket jsonb not null default '{}',
      primary key (company_id, service_id, resource_id, start_time),
      foreign key (company_id, service_id) references service (company_id, id) on delete cascade
    )`);
    this.addSql(`create table idempotency_key (
      company_id uuid not null,
      key text not null,
      request_hash text not null,
      status integer not null,
      response jsonb not null,
      created_at timestamptz not null default now(),
      primary key (company_id, key)
    )`);
  }

  override async down(): Promise<void> {
    for (const t of ['idempotency_key', 'slot_usage', 'booking_occupancy', 'booking_status_change', 'booking'])
      this.addSql(`drop table if exists ${t}`);
  }
}
