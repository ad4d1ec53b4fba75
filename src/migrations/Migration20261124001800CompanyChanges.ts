import { Migration } from '@mikro-orm/migrations';

/**
 * Created the `company_changed` trigger, which announces every change of a company row. It
 * lives with its function in `src/db/functions/company_changed.sql` now; this migration stays
 * in the list so that databases it already ran on keep their history.
 */
export class Migration20261124001800CompanyChanges extends Migration {
  override async up(): Promise<void> {}

  override async down(): Promise<void> {}
}
