import { Migration } from '@mikro-orm/migrations';
import { changeNotifySql } from './change-notify';

const sql = changeNotifySql('company', 'company_changed');

/**
 * Every process caches company rows; a change to one, by whatever means (the API, the command
 * line, an operator's SQL), is announced on the `company_changed` channel with the company id,
 * and each process drops its copy (src/db/change-feed.ts).
 */
export class Migration20261124001800CompanyChanges extends Migration {
  override async up(): Promise<void> {
    for (const s of sql.up) this.addSql(s);
  }

  override async down(): Promise<void> {
    for (const s of sql.down) this.addSql(s);
  }
}
