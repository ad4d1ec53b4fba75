import { Migration } from '@mikro-orm/migrations';

const SIGNATURE = 'availability_snapshot(uuid, uuid, timestamptz, timestamptz, timestamptz, timestamptz, uuid[], uuid[])';

/**
 * `availability_snapshot` keeps one generic plan per statement and connection. With the default
 * (`auto`) PL/pgSQL planned a custom plan of every statement on every call, because its
 * estimate of the generic plan came out higher: the document of one booking's check cost about
 * 1.7 ms of database time, of which about 1.1 ms was planning (0.5 ms with generic plans; a
 * month of 20 resources 4.1 -> 3.7 ms), measured with pgbench on the benchmarks' data. Every
 * statement in it filters by company and service or resource through an index, so the plan
 * does not depend on the values.
 */
export class Migration20261124002000SnapshotGenericPlan extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter function ${SIGNATURE} set plan_cache_mode = force_generic_plan`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter function ${SIGNATURE} reset plan_cache_mode`);
  }
}
