import { Migration } from '@mikro-orm/migrations';

/**
 * Gave `availability_snapshot` generic plans (`plan_cache_mode`). The setting is part of the
 * function's file now (`src/db/functions/availability_snapshot.sql`); this migration stays in
 * the list so that databases it already ran on keep their history.
 */
export class Migration20261124002000SnapshotGenericPlan extends Migration {
  override async up(): Promise<void> {}

  override async down(): Promise<void> {}
}
