import { Migration } from '@mikro-orm/migrations';

/**
 * Promo codes and their usages. A code is unique in its company whatever its case
 * (`lower(code)`). `current_usage_count` counts the usages that are reserved or used; the
 * booking's transaction changes it under the code's row lock, and the checks below refuse a
 * count below zero or above the code's limit whatever the application does. One client holds
 * at most one live usage of a `one_per_customer` code (partial unique index).
 */
export class Migration20261122000700PromoCode extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table promo_code (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      title text not null,
      code text not null check (length(code) between 1 and 64),
      description text,
      active boolean not null default true,
      active_from timestamptz,
      active_to timestamptz,
      reservation_allowance_from timestamptz,
      reservation_allowance_to timestamptz,
      discount_type text not null check (discount_type in ('amount', 'percent')),
      discount_amount integer check (discount_amount >= 0),
      discount_percent double precision check (discount_percent >= 0 and discount_percent <= 100),
      max_discount_amount integer check (max_discount_amount >= 0),
      service_ids jsonb not null default '[]',
      usage_type text not null check (usage_type in ('single_use', 'one_per_customer', 'limited_count', 'unlimited')),
      usage_limit integer check (usage_limit >= 1),
      current_usage_count integer not null default 0 check (current_usage_count >= 0),
      archived_at timestamptz,
      meta_data jsonb not null default '{}',
      meta_data_version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id),
      check (discount_type <> 'amount' or discount_amount is not null),
      check (discount_type <> 'percent' or discount_percent is not null),
      check (usage_type <> 'limited_count' or usage_limit is not null),
      constraint promo_code_usage_count_check check (
        current_usage_count <= case usage_type when 'single_use' then 1 when 'limited_count' then usage_limit else current_usage_count end
      ),
      check (active_from is null or active_to is null or active_from < active_to),
      check (reservation_allowance_from is null or reservation_allowance_to is null or reservation_allowance_from < reservation_allowance_to)
    )`);
    this.addSql(`create unique index promo_code_code_key on promo_code (company_id, lower(code))`);
    this.addSql(`create index promo_code_company_idx on promo_code (company_id, created_at, id)`);
    this.addSql(`create table promo_usage (
      id uuid primary key,
      company_id uuid not null,
      promo_code_id uuid not null,
      client_id uuid,
      reservation_id uuid,
      usage_type text not null,
      discount_amount integer not null default 0 check (discount_amount >= 0),
      currency text,
      status text not null check (status in ('reserved', 'used', 'released')),
      meta_data jsonb not null default '{}',
      meta_data_version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      foreign key (company_id, promo_code_id) references promo_code (company_id, id) on delete cascade,
      foreign key (company_id, client_id) references client (company_id, id)
    )`);
    this.addSql(`create index promo_usage_code_idx on promo_usage (company_id, promo_code_id, created_at, id)`);
    this.addSql(`create index promo_usage_reservation_idx on promo_usage (company_id, reservation_id) where reservation_id is not null`);
    this.addSql(
      `create unique index promo_usage_one_per_customer_key on promo_usage (company_id, promo_code_id, client_id)
        where usage_type = 'one_per_customer' and status <> 'released'`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists promo_usage');
    this.addSql('drop table if exists promo_code');
  }
}
