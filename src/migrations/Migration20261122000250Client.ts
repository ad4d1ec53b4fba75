import { Migration } from '@mikro-orm/migrations';

export class Migration20261122000250Client extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table client (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      external_user_id text not null,
      email text not null,
      first_name text,
      last_name text,
      meta_data jsonb not null default '{}',
      meta_data_version integer not null default 1,
      state text not null default 'active' check (state in ('active', 'blocked')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id),
      constraint client_external_user_id_key unique (company_id, external_user_id)
    )`);
    // Lists page by (created_at, id); guest lookups and searches match lower(email).
    this.addSql(`create index client_company_idx on client (company_id, created_at, id)`);
    this.addSql(`create index client_email_idx on client (company_id, lower(email))`);
    this.addSql(`create table client_refresh_token (
      id uuid primary key,
      company_id uuid not null,
      client_id uuid not null,
      family_id uuid not null,
      token_hash text not null,
      expires_at timestamptz not null,
      used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      foreign key (company_id, client_id) references client (company_id, id) on delete cascade,
      unique (token_hash, company_id)
    )`);
    this.addSql(`create index client_refresh_token_family_idx on client_refresh_token (company_id, family_id)`);
    this.addSql(`create index client_refresh_token_client_idx on client_refresh_token (company_id, client_id)`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists client_refresh_token');
    this.addSql('drop table if exists client');
  }
}
