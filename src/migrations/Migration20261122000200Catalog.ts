import { Migration } from '@mikro-orm/migrations';

export class Migration20261122000200Catalog extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table service (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      name text not null,
      type text not null check (type in ('fixed', 'flexible', 'group', 'ticket', 'days', 'sharable')),
      color text,
      position integer not null default 0,
      settings jsonb not null default '{}',
      meta_data jsonb not null default '{}',
      meta_data_version integer not null default 1,
      disabled_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id)
    )`);
    this.addSql(`create index service_company_idx on service (company_id, position, created_at)`);
    this.addSql(`create table resource (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      name text not null,
      color text,
      related_resource_ids jsonb not null default '[]',
      meta_data jsonb not null default '{}',
      meta_data_version integer not null default 1,
      disabled_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id)
    )`);
    this.addSql(`create index resource_company_idx on resource (company_id, name)`);
    this.addSql(`create table service_resource_link (
      id uuid primary key,
      company_id uuid not null,
      service_id uuid not null,
      resource_id uuid not null,
      related_resource_ids jsonb not null default '{"all": [], "any": []}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      foreign key (company_id, service_id) references service (company_id, id) on delete cascade,
      foreign key (company_id, resource_id) references resource (company_id, id) on delete cascade,
      unique (company_id, service_id, resource_id)
    )`);
    this.addSql(`create index link_resource_idx on service_resource_link (company_id, resource_id)`);
    this.addSql(`create table ticket (
      id uuid primary key,
      company_id uuid not null,
      service_id uuid not null,
      name text not null,
      enabled boolean not null default true,
      meta_data jsonb not null default '{}',
      meta_data_version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      foreign key (company_id, service_id) references service (company_id, id) on delete cascade,
      unique (company_id, id)
    )`);
    this.addSql(`create index ticket_service_idx on ticket (company_id, service_id, created_at)`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists ticket');
    this.addSql('drop table if exists service_resource_link');
    this.addSql('drop table if exists resource');
    this.addSql('drop table if exists service');
  }
}
