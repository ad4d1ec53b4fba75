import { Migration } from '@mikro-orm/migrations';

/**
 * Scheduling and pricing rules: working hours, closing periods, capacity rules, slots, price
 * rules and discounts. Each kind is one table keyed by `(company_id, resource_id)` or
 * `(company_id, service_id)`, so the availability service loads a kind in one indexed query.
 */
export class Migration20261122000300Rules extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table working_hours_rule (
      id uuid primary key,
      company_id uuid not null,
      resource_id uuid not null,
      service_ids jsonb not null default '[]',
      start_time timestamptz,
      end_time timestamptz,
      priority integer not null default 0,
      working_hours jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      foreign key (company_id, resource_id) references resource (company_id, id) on delete cascade,
      check (start_time is null or end_time is null or end_time > start_time)
    )`);
    this.addSql(`create index working_hours_rule_resource_idx on working_hours_rule (company_id, resource_id, created_at)`);

    this.addSql(`create table closing_period (
      id uuid primary key,
      company_id uuid not null,
      resource_id uuid not null,
      service_ids jsonb not null default '[]',
      start_time timestamptz not null,
      end_time timestamptz not null,
      priority integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      foreign key (company_id, resource_id) references resource (company_id, id) on delete cascade,
      check (end_time > start_time)
    )`);
    // Range searches ask for periods ending after `from` and starting before `to`.
    this.addSql(`create index closing_period_resource_idx on closing_period (company_id, resource_id, end_time, start_time)`);

    this.addSql(`create table capacity_rule (
      id uuid primary key,
      company_id uuid not null,
      service_id uuid not null,
      type text not null check (type in ('group', 'ticket')),
      priority integer not null default 0,
      spots integer not null check (spots >= 1),
      spots_per_ticket jsonb not null default '{}',
      limitation jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      foreign key (company_id, service_id) references service (company_id, id) on delete cascade
    )`);
    this.addSql(`create index capacity_rule_service_idx on capacity_rule (company_id, service_id, created_at)`);

    this.addSql(`create table price_rule (
      id uuid primary key,
      company_id uuid not null,
      service_id uuid not null,
      type text not null check (type in ('fixed', 'flexible', 'group', 'ticket', 'days', 'sharable')),
      priority integer not null,
      price integer not null check (price >= 0),
      compared_price integer check (compared_price >= 0),
      duration_sec integer check (duration_sec > 0),
      min_duration_sec integer check (min_duration_sec >= 0),
      max_duration_sec integer check (max_duration_sec >= 0),
      ticket_id uuid,
      limitation jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      foreign key (company_id, service_id) references service (company_id, id) on delete cascade,
      foreign key (company_id, ticket_id) references ticket (company_id, id) on delete cascade,
      check (min_duration_sec is null or max_duration_sec is null or min_duration_sec <= max_duration_sec)
    )`);
    this.addSql(`create index price_rule_service_idx on price_rule (company_id, service_id, created_at)`);

    this.addSql(`create table discount (
      id uuid primary key,
      company_id uuid not null,
      service_id uuid not null,
      type text not null check (type in ('ticket', 'spots')),
      priority integer not null,
      sums_up boolean not null default false,
      rules jsonb not null default '[]',
      limitation jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      foreign key (company_id, service_id) references service (company_id, id) on delete cascade
    )`);
    this.addSql(`create index discount_service_idx on discount (company_id, service_id, created_at)`);

    this.addSql(`create table slot (
      id uuid primary key,
      company_id uuid not null,
      service_id uuid not null,
      resource_id uuid,
      start_time timestamptz not null,
      duration_sec integer not null check (duration_sec > 0),
      rrule text,
      time_zone text,
      until timestamptz,
      exdates jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      foreign key (company_id, service_id) references service (company_id, id) on delete cascade,
      foreign key (company_id, resource_id) references resource (company_id, id) on delete cascade,
      check ((rrule is null) = (time_zone is null))
    )`);
    this.addSql(`create index slot_service_idx on slot (company_id, service_id, start_time)`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists slot');
    this.addSql('drop table if exists discount');
    this.addSql('drop table if exists price_rule');
    this.addSql('drop table if exists capacity_rule');
    this.addSql('drop table if exists closing_period');
    this.addSql('drop table if exists working_hours_rule');
  }
}
