import { Migration } from '@mikro-orm/migrations';

/**
 * Created `booking_insert` and `booking_documents`. They live whole in `src/db/functions/` now,
 * applied after the migrations; this migration stays in the list so that databases it already
 * ran on keep their history.
 */
export class Migration20261126000100BookingWriteFunctions extends Migration {
  override async up(): Promise<void> {}

  override async down(): Promise<void> {}
}
