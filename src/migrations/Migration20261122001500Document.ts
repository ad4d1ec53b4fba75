import { Migration } from '@mikro-orm/migrations';

/**
 * PDF templates and their files. The bytes live in `pdf_file`, written in the transaction that
 * writes the template row, so no file is ever stored without its row or the other way round;
 * a template points at its file (restrict: a file in use cannot go), and the file is deleted
 * with the template, in one transaction too.
 */
export class Migration20261122001500Document extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table pdf_file (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      content bytea not null,
      byte_size integer not null check (byte_size > 0 and byte_size <= 10485760),
      sha256 text not null,
      created_at timestamptz not null default now(),
      unique (company_id, id)
    )`);
    this.addSql(`create table pdf_template (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      entity_type text not null check (entity_type in ('gift_card', 'membership')),
      entity_id uuid not null,
      fields jsonb not null default '[]',
      page_width double precision not null check (page_width > 0),
      page_height double precision not null check (page_height > 0),
      file_id uuid not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, id),
      unique (company_id, entity_type, entity_id),
      foreign key (company_id, file_id) references pdf_file (company_id, id) on delete restrict
    )`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists pdf_template');
    this.addSql('drop table if exists pdf_file');
  }
}
