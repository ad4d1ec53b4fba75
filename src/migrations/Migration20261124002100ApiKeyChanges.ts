import { Migration } from '@mikro-orm/migrations';
import { changeNotifySql } from './change-notify';

const sql = changeNotifySql('api_key', 'api_key_changed');

/**
 * Every process caches active API keys; a change to a key row, by whatever means (revoked
 * through the API, the command line, an operator's SQL, a merchant deleted), is announced on the
 * `api_key_changed` channel with the key's id, and each process drops its copy
 * (src/modules/company/apikey.service.ts).
 */
export class Migration20261124002100ApiKeyChanges extends Migration {
  override async up(): Promise<void> {
    for (const s of sql.up) this.addSql(s);
  }

  override async down(): Promise<void> {
    for (const s of sql.down) this.addSql(s);
  }
}
