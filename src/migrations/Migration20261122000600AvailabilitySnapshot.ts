import { Migration } from '@mikro-orm/migrations';

/**
 * Created the first `availability_snapshot`. The function lives whole in
 * `src/db/functions/availability_snapshot.sql` now, applied after the migrations; this
 * migration stays in the list so that databases it already ran on keep their history.
 */
export class Migration20261122000600AvailabilitySnapshot extends Migration {
  override async up(): Promise<void> {}

  override async down(): Promise<void> {}
}
