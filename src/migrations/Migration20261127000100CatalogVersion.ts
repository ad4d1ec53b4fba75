import { Migration } from '@mikro-orm/migrations';

/**
 * A catalog version per company, so that a booking's check can use a catalog kept in the
 * process: the insert itself verifies that the version it was checked at is still current.
 * The triggers that give a company a new version when a catalog row changes, and the kept
 * catalog's functions, live in `src/db/functions/` (catalog_touch*.sql, kept_catalog_snapshot.sql,
 * booking_kept_catalog.sql, booking_insert_at_version.sql), applied after the migrations.
 */
export class Migration20261127000100CatalogVersion extends Migration {
  override async up(): Promise<void> {
    this.addSql('create sequence catalog_version_seq');
    this.addSql('create table catalog_version (company_id uuid primary key, version bigint not null, touched_by xid8)');
    this.addSql(`insert into catalog_version (company_id, version) select id, nextval('catalog_version_seq') from company`);
  }

  override async down(): Promise<void> {
    this.addSql(
      'drop function if exists booking_insert_at_version(bigint, uuid, jsonb, uuid, timestamptz, timestamptz, uuid[], text[], text, timestamptz, jsonb)',
    );
    this.addSql('drop function if exists booking_kept_catalog(uuid, uuid, uuid, timestamptz, timestamptz)');
    this.addSql(
      'drop function if exists kept_catalog_snapshot(uuid, uuid, timestamptz, timestamptz, timestamptz, timestamptz, uuid[], uuid[])',
    );
    // with their triggers on the catalog tables
    this.addSql('drop function if exists catalog_touch_all() cascade');
    this.addSql('drop function if exists catalog_touch() cascade');
    this.addSql('drop function if exists catalog_touch_company(uuid)');
    this.addSql('drop table catalog_version');
    this.addSql('drop sequence catalog_version_seq');
  }
}
