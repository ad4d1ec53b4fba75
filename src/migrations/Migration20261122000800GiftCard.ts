import { Migration } from '@mikro-orm/migrations';

/**
 * Gift cards (what a company sells), contracts (one sold or issued card with its code and
 * balance) and usages (what was paid with a card). `balance` is amount minus the used usages;
 * it changes only with the usage, in one transaction, by conditional updates, and the CHECK
 * constraint `gift_card_contract_balance_check` refuses a negative balance whatever the
 * application does (translated to 409 insufficient_balance). Codes are unique per company.
 */
export class Migration20261122000800GiftCard extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table gift_card (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      title text not null,
      amount integer not null check (amount > 0),
      currency text not null,
      active boolean not null default true,
      tax_inclusive boolean not null default false,
      tax_rate double precision not null default 0 check (tax_rate >= 0 and tax_rate <= 100),
      available_from timestamptz,
      available_to timestamptz,
      validity_duration text,
      validity_sec integer check (validity_sec > 0),
      archived_at timestamptz,
      meta_data jsonb not null default '{}',
      meta_data_version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id),
      check (available_from is null or available_to is null or available_from < available_to)
    )`);
    this.addSql(`create index gift_card_company_idx on gift_card (company_id, created_at, id)`);
    this.addSql(`create table gift_card_contract (
      id uuid primary key,
      company_id uuid not null,
      gift_card_id uuid not null,
      client_id uuid,
      code text not null,
      amount integer not null check (amount > 0),
      currency text not null,
      balance integer not null,
      status text not null check (status in ('pending_payment', 'active', 'redeemed', 'expired', 'cancelled')),
      expires_at timestamptz,
      payment_transaction_id uuid,
      payment_url text,
      meta_data jsonb not null default '{}',
      meta_data_version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id),
      constraint gift_card_contract_code_key unique (company_id, code),
      constraint gift_card_contract_balance_check check (balance >= 0 and balance <= amount),
      foreign key (company_id, gift_card_id) references gift_card (company_id, id),
      foreign key (company_id, client_id) references client (company_id, id)
    )`);
    this.addSql(`create index gift_card_contract_company_idx on gift_card_contract (company_id, created_at, id)`);
    this.addSql(
      `create index gift_card_contract_client_idx on gift_card_contract (company_id, client_id, created_at) where client_id is not null`,
    );
    this.addSql(`create table gift_card_usage (
      id uuid primary key,
      company_id uuid not null,
      contract_id uuid not null,
      gift_card_id uuid not null,
      client_id uuid,
      reservation_id uuid,
      amount integer not null check (amount > 0),
      currency text not null,
      status text not null check (status in ('used', 'cancelled')),
      meta_data jsonb not null default '{}',
      meta_data_version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id),
      foreign key (company_id, contract_id) references gift_card_contract (company_id, id) on delete cascade
    )`);
    this.addSql(`create index gift_card_usage_contract_idx on gift_card_usage (company_id, contract_id, created_at, id)`);
    this.addSql(
      `create index gift_card_usage_reservation_idx on gift_card_usage (company_id, reservation_id) where reservation_id is not null`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists gift_card_usage');
    this.addSql('drop table if exists gift_card_contract');
    this.addSql('drop table if exists gift_card');
  }
}
