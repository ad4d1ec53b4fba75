import { Migration } from '@mikro-orm/migrations';

/**
 * Created the `api_key_changed` trigger, which announces every change of an API key row. It
 * lives with its function in `src/db/functions/api_key_changed.sql` now; this migration stays
 * in the list so that databases it already ran on keep their history.
 */
export class Migration20261124002100ApiKeyChanges extends Migration {
  override async up(): Promise<void> {}

  override async down(): Promise<void> {}
}
