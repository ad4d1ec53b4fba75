import { Migration } from '@mikro-orm/migrations';

/**
 * Subscriptions (memberships a company sells), their settings, price and capacity rules,
 * contracts (one membership of one client, with its code and current period), usages (a
 * booking covered by a contract) and the visit ledger.
 *
 * The ledger (`subscription_visit`) is append-only: a trigger refuses every UPDATE and every
 * DELETE issued directly against it; only the cascade of deleting the whole contract or company
 * removes entries. The balance of a contract is the sum of its entries' amounts. Anything that
 * takes a visit locks the contract row (`select ... for update`) before it reads the balance and
 * appends, so parallel bookings cannot overdraw it. `seq` orders entries made at the same instant.
 *
 * The cart of a client is the set of its `pending_payment` contracts with `in_cart = true`;
 * the cart expires at the earliest `pending_expires_at` among them (no separate cart row).
 */
export class Migration20261122000900Subscription extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table subscription (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      title text not null check (length(title) between 1 and 500),
      duration text,
      available_from timestamptz,
      available_to timestamptz,
      limitations jsonb not null default '{}',
      rrule text,
      recurring_config jsonb,
      recurring_enabled boolean not null default false,
      recurring_interval text check (recurring_interval in ('day', 'week', 'month', 'year')),
      recurring_interval_count integer check (recurring_interval_count >= 1),
      recurring_provider text,
      renew_period text,
      service_ids uuid[] not null default '{}',
      resource_ids uuid[] not null default '{}',
      ticket_ids uuid[] not null default '{}',
      roll_over_settings jsonb not null default '{"rollOverType":"none","settings":{}}',
      archived_at timestamptz,
      meta_data jsonb not null default '{}',
      meta_data_version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id),
      check (available_from is null or available_to is null or available_from < available_to)
    )`);
    this.addSql(`create index subscription_company_idx on subscription (company_id, created_at, id)`);

    this.addSql(`create table subscription_settings (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      cart_expiration text not null default 'PT15M',
      currency text,
      tax_inclusive boolean not null default false,
      tax_rate double precision not null default 0 check (tax_rate >= 0 and tax_rate <= 100),
      meta_data jsonb not null default '{}',
      meta_data_version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint subscription_settings_company_key unique (company_id)
    )`);

    this.addSql(`create table subscription_price_rule (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      subscription_ids uuid[] not null default '{}',
      price integer not null check (price >= 0),
      compared_price integer check (compared_price >= 0),
      priority integer not null default 0,
      start_date timestamptz,
      end_date timestamptz,
      archived_at timestamptz,
      meta_data jsonb not null default '{}',
      meta_data_version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id),
      check (start_date is null or end_date is null or start_date < end_date)
    )`);
    this.addSql(`create index subscription_price_rule_company_idx on subscription_price_rule (company_id, created_at, id)`);
    this.addSql(`create index subscription_price_rule_ids_idx on subscription_price_rule using gin (subscription_ids)`);

    this.addSql(`create table subscription_capacity_rule (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      subscription_ids uuid[] not null default '{}',
      max_count integer not null check (max_count >= 0),
      priority integer not null default 0,
      start_date timestamptz,
      end_date timestamptz,
      archived_at timestamptz,
      meta_data jsonb not null default '{}',
      meta_data_version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id),
      check (start_date is null or end_date is null or start_date < end_date)
    )`);
    this.addSql(`create index subscription_capacity_rule_company_idx on subscription_capacity_rule (company_id, created_at, id)`);
    this.addSql(`create index subscription_capacity_rule_ids_idx on subscription_capacity_rule using gin (subscription_ids)`);

    this.addSql(`create table subscription_contract (
      id uuid primary key,
      company_id uuid not null,
      subscription_id uuid not null,
      client_id uuid,
      code text not null,
      status text not null check (status in ('pending_payment', 'active', 'expired', 'cancelled')),
      active_from timestamptz,
      expires_at timestamptz,
      pending_expires_at timestamptz,
      duration text,
      limitations jsonb not null default '{}',
      service_ids uuid[] not null default '{}',
      resource_ids uuid[] not null default '{}',
      ticket_ids uuid[] not null default '{}',
      price integer not null default 0 check (price >= 0),
      currency text,
      tax_inclusive boolean not null default false,
      tax_rate double precision not null default 0 check (tax_rate >= 0 and tax_rate <= 100),
      tax_amount integer not null default 0 check (tax_amount >= 0),
      period_start timestamptz,
      period_end timestamptz,
      period_index integer not null default 0 check (period_index >= 0),
      in_cart boolean not null default false,
      payment_transaction_id uuid,
      payment_url text,
      renewal_transaction_id uuid,
      renewal_payment_url text,
      renewed_at timestamptz,
      cancelled_at timestamptz,
      meta_data jsonb not null default '{}',
      meta_data_version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id),
      constraint subscription_contract_code_key unique (company_id, code),
      check (active_from is null or expires_at is null or active_from < expires_at),
      check (period_start is null or period_end is null or period_start < period_end),
      check (not in_cart or status = 'pending_payment'),
      foreign key (company_id, subscription_id) references subscription (company_id, id),
      foreign key (company_id, client_id) references client (company_id, id)
    )`);
    this.addSql(`create index subscription_contract_company_idx on subscription_contract (company_id, created_at, id)`);
    this.addSql(`create index subscription_contract_subscription_idx on subscription_contract (company_id, subscription_id, status)`);
    this.addSql(
      `create index subscription_contract_client_idx on subscription_contract (company_id, client_id, created_at) where client_id is not null`,
    );
    this.addSql(
      `create index subscription_contract_pending_idx on subscription_contract (pending_expires_at) where status = 'pending_payment'`,
    );
    this.addSql(`create index subscription_contract_expiry_idx on subscription_contract (expires_at) where status = 'active'`);

    this.addSql(`create table subscription_usage (
      id uuid primary key,
      company_id uuid not null,
      contract_id uuid not null,
      subscription_id uuid not null,
      client_id uuid,
      booking_id uuid,
      source text not null default 'booking',
      status text not null check (status in ('reserved', 'used', 'cancelled')),
      meta_data jsonb not null default '{}',
      meta_data_version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id),
      foreign key (company_id, contract_id) references subscription_contract (company_id, id) on delete cascade
    )`);
    this.addSql(`create index subscription_usage_contract_idx on subscription_usage (company_id, contract_id, created_at, id)`);
    this.addSql(
      `create unique index subscription_usage_booking_key on subscription_usage (company_id, booking_id) where booking_id is not null and status <> 'cancelled'`,
    );

    this.addSql(`create table subscription_visit (
      id uuid primary key,
      company_id uuid not null,
      contract_id uuid not null,
      subscription_id uuid not null,
      client_id uuid,
      amount integer not null check (amount <> 0),
      transaction_type text not null check (transaction_type in ('ALLOCATION', 'USAGE', 'REVERSAL', 'EXPIRATION', 'ROLLOVER', 'ADJUSTMENT')),
      expires_at timestamptz,
      reason text,
      source_allocation_id uuid,
      usage_id uuid,
      period_start timestamptz,
      meta_data jsonb not null default '{}',
      seq bigint generated always as identity,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id),
      foreign key (company_id, contract_id) references subscription_contract (company_id, id) on delete cascade,
      foreign key (company_id, source_allocation_id) references subscription_visit (company_id, id) on delete cascade,
      foreign key (company_id, usage_id) references subscription_usage (company_id, id) on delete cascade
    )`);
    this.addSql(`create index subscription_visit_contract_idx on subscription_visit (company_id, contract_id, created_at, seq)`);
    // Append-only: src/db/functions/subscription_visit_append_only.sql (the trigger and its function).
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists subscription_visit');
    this.addSql('drop function if exists subscription_visit_append_only()');
    this.addSql('drop table if exists subscription_usage');
    this.addSql('drop table if exists subscription_contract');
    this.addSql('drop table if exists subscription_capacity_rule');
    this.addSql('drop table if exists subscription_price_rule');
    this.addSql('drop table if exists subscription_settings');
    this.addSql('drop table if exists subscription');
  }
}
