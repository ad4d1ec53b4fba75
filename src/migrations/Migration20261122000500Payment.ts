import { Migration } from '@mikro-orm/migrations';

const PROVIDERS = `('stripe', 'klix', 'decta', 'montonio', 'mercadopago', 'test')`;

/**
 * Payment settings, provider settings (signing secret stored encrypted), transactions and
 * refunds. Transactions point at their items by id only (bookings today, other item types
 * later), so there is no foreign key from `item_id`; the bookings a transaction covers are in
 * `item_ids`, searchable through a GIN index.
 */
export class Migration20261122000500Payment extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table payment_settings (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      preferred_provider text not null check (preferred_provider in ${PROVIDERS}),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id)
    )`);
    this.addSql(`create table payment_provider_settings (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      provider text not null check (provider in ${PROVIDERS}),
      success_redirect_url text check (length(success_redirect_url) <= 2000),
      failure_redirect_url text check (length(failure_redirect_url) <= 2000),
      cancel_redirect_url text check (length(cancel_redirect_url) <= 2000),
      enable_url_templating boolean not null default false,
      signing_secret_enc text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, provider)
    )`);
    this.addSql(`create table payment_transaction (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      client_id uuid,
      email text,
      amount integer not null check (amount >= 0),
      currency text not null,
      item_id uuid not null,
      item_ids jsonb not null default '[]',
      item_type text not null,
      per_item_amounts jsonb not null default '{}',
      plugin_namespace text,
      provider_type text not null check (provider_type in ${PROVIDERS}),
      purchase_id uuid,
      purchase_name text,
      reference_id text,
      status text not null check (status in ('pending', 'paid', 'failed', 'cancelled', 'refunded', 'partially_refunded')),
      tax_inclusive boolean not null default false,
      tax_rate double precision not null default 0,
      refunded_amount integer not null default 0 check (refunded_amount >= 0 and refunded_amount <= amount),
      expires_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id),
      foreign key (company_id, client_id) references client (company_id, id)
    )`);
    this.addSql(`create index payment_transaction_company_idx on payment_transaction (company_id, created_at, id)`);
    this.addSql(
      `create index payment_transaction_client_idx on payment_transaction (company_id, client_id, created_at) where client_id is not null`,
    );
    this.addSql(`create index payment_transaction_items_idx on payment_transaction using gin (item_ids)`);
    // The sweeper's scan: only pending rows, in expiry order.
    this.addSql(`create index payment_transaction_expiry_idx on payment_transaction (expires_at) where status = 'pending'`);
    this.addSql(`create table refund (
      id uuid primary key,
      company_id uuid not null,
      transaction_id uuid not null,
      item_id uuid not null,
      amount integer not null check (amount > 0),
      currency text not null,
      idempotency_key text,
      metadata jsonb not null default '{}',
      provider_refund_id text,
      reason text,
      status text not null check (status in ('pending', 'succeeded', 'failed')),
      -- Insertion order: "the latest refund" must not depend on two refunds' timestamps differing.
      seq bigint generated always as identity,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      foreign key (company_id, transaction_id) references payment_transaction (company_id, id) on delete cascade,
      constraint refund_idempotency_key unique (company_id, idempotency_key)
    )`);
    this.addSql(`create index refund_item_idx on refund (item_id, seq)`);
    this.addSql(`create index refund_transaction_idx on refund (company_id, transaction_id)`);
  }

  override async down(): Promise<void> {
    for (const t of ['refund', 'payment_transaction', 'payment_provider_settings', 'payment_settings'])
      this.addSql(`drop table if exists ${t}`);
  }
}
