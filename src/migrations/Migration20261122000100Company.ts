import { Migration } from '@mikro-orm/migrations';

export class Migration20261122000100Company extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists btree_gist`);
    this.addSql(`create table merchant (
      id uuid primary key,
      name text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create table api_key (
      id uuid primary key,
      merchant_id uuid not null references merchant(id) on delete cascade,
      name text not null,
      key_hash text not null unique,
      key_prefix text not null,
      permissions jsonb not null,
      state text not null default 'active' check (state in ('active', 'revoked')),
      revoked_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create index api_key_merchant_idx on api_key (merchant_id, created_at)`);
    this.addSql(`create table company (
      id uuid primary key,
      merchant_id uuid not null references merchant(id) on delete cascade,
      name text not null,
      time_zone text not null,
      enabled boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create index company_merchant_idx on company (merchant_id, created_at)`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists company');
    this.addSql('drop table if exists api_key');
    this.addSql('drop table if exists merchant');
  }
}
