import { Migration } from '@mikro-orm/migrations';

/**
 * An occupancy version per resource, so that a process can keep a resource's occupancy and slot
 * usage between availability requests and check with one small statement that nothing changed
 * since it read them (src/modules/availability/kept-availability.ts). A resource without a row
 * has had no occupancy or slot usage since this migration and none before it: the rows below
 * give every resource that has some a version. The trigger that gives a resource a new version
 * with every change of its occupancy or slot usage (occupancy_touch.sql) and the function that
 * reads the versions with what changed (availability_kept.sql) live in `src/db/functions/`.
 */
export class Migration20261129000100OccupancyVersion extends Migration {
  override async up(): Promise<void> {
    this.addSql('create sequence occupancy_version_seq');
    this.addSql(
      'create table occupancy_version (company_id uuid not null, resource_id uuid not null, version bigint not null, touched_by xid8, primary key (company_id, resource_id))',
    );
    this.addSql(
      `insert into occupancy_version (company_id, resource_id, version)
       select company_id, resource_id, nextval('occupancy_version_seq')
       from (select company_id, resource_id from booking_occupancy union select company_id, resource_id from slot_usage) x`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      'drop function if exists availability_kept(uuid, uuid, timestamptz, timestamptz, bigint, uuid[], bigint[], boolean)',
    );
    // with their triggers on booking_occupancy and slot_usage
    this.addSql('drop function if exists occupancy_touch_all() cascade');
    this.addSql('drop function if exists occupancy_touch() cascade');
    this.addSql('drop table occupancy_version');
    this.addSql('drop sequence occupancy_version_seq');
  }
}
