import { Migration } from '@mikro-orm/migrations';

/**
 * Every process caches company rows; a change to one, by whatever means (the API, the command
 * line, an operator's SQL), is announced on the `company_changed` channel with the company id,
 * and each process drops its copy (src/db/change-feed.ts).
 */
export class Migration20261124001800CompanyChanges extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function company_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('company_changed', old.id::text);
        return null;
      end
    $$`);
    this.addSql(`create trigger company_changed after update or delete on company
      for each row execute function company_changed()`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger company_changed on company');
    this.addSql('drop function company_changed()');
  }
}
