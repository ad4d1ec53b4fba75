import { Migration } from '@mikro-orm/migrations';

/**
 * Grouped the occupancy of `availability_snapshot` by resource, in start order. The function
 * lives whole in `src/db/functions/availability_snapshot.sql` now; this migration stays in the
 * list so that databases it already ran on keep their history.
 */
export class Migration20261124000900SnapshotOccupancyOrder extends Migration {
  override async up(): Promise<void> {}

  override async down(): Promise<void> {}
}
