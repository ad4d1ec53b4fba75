import { Migration } from '@mikro-orm/migrations';

/**
 * Made `availability_snapshot` cheaper (one sort of the occupancy, epoch milliseconds in float
 * arithmetic, wanted links only). The function lives whole in
 * `src/db/functions/availability_snapshot.sql` now; this migration stays in the list so that
 * databases it already ran on keep their history.
 */
export class Migration20261126000200SnapshotCheaper extends Migration {
  override async up(): Promise<void> {}

  override async down(): Promise<void> {}
}
