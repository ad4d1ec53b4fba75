import { Migration } from '@mikro-orm/migrations';

/**
 * Occupancy versions, so that a process can keep a resource's occupancy and slot usage between
 * availability requests and check with one small statement that nothing changed since it read
 * them (src/modules/availability/kept-availability.ts). A version belongs to a resource and a
 * week of the calendar (`bucket`: weeks since 1970-01-01, or -2147483648 for intervals without
 * an end or longer than 60 weeks), so that bookings of one resource in different weeks do not
 * wait for each other on one row. A week without a row has had no occupancy or slot usage
 * since this migration and none before it: the rows below give every week that has some a
 * version. The trigger that gives the weeks a row touches new versions (occupancy_touch.sql)
 * and the function that reads them with what changed (availability_kept.sql) live in
 * `src/db/functions/`.
 */
export class Migration20261129000100OccupancyVersion extends Migration {
  override async up(): Promise<void> {
    this.addSql('create sequence occupancy_version_seq');
    this.addSql(
      `create table occupancy_version (
        company_id uuid not null,
        resource_id uuid not null,
        bucket integer not null,
        version bigint not null,
        touched_by xid8,
        primary key (company_id, resource_id, bucket)
      )`,
    );
    this.addSql(
      `insert into occupancy_version (company_id, resource_id, bucket, version)
       select company_id, resource_id, bucket, nextval('occupancy_version_seq')
       from (
         select distinct o.company_id, o.resource_id, b.bucket
         from booking_occupancy o,
           lateral (select case when lower(o.during) is null or upper(o.during) is null or not isfinite(lower(o.during)) or not isfinite(upper(o.during))
               or floor(extract(epoch from upper(o.during)) / 604800) - floor(extract(epoch from lower(o.during)) / 604800) > 60 then null
             else floor(extract(epoch from lower(o.during)) / 604800)::integer end as b0,
             floor(extract(epoch from upper(o.during)) / 604800) as b1) r,
           lateral (select -2147483648 as bucket where r.b0 is null
             union all select g::integer from generate_series(r.b0, r.b1::integer) g where r.b0 is not null) b
         union
         select company_id, resource_id, floor(extract(epoch from start_time) / 604800)::integer from slot_usage
       ) x`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop function if exists availability_kept(uuid, uuid, timestamptz, timestamptz, bigint, uuid[], bigint[], boolean)');
    // with their triggers on booking_occupancy and slot_usage
    this.addSql('drop function if exists occupancy_touch_all() cascade');
    this.addSql('drop function if exists occupancy_touch() cascade');
    this.addSql('drop function if exists occupancy_touch_range(uuid, uuid, timestamptz, timestamptz)');
    this.addSql('drop table occupancy_version');
    this.addSql('drop sequence occupancy_version_seq');
  }
}
