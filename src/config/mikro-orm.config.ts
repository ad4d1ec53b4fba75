import { defineConfig } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { allEntities } from '../app/registry';
import { migrationsList } from '../migrations';
import { sqlStats } from '../db/stats';

/** MikroORM configuration; the connection URL is given at start (embedded or DATABASE_URL). */
export function ormConfig(clientUrl: string, opts: { poolMax?: number; debug?: boolean } = {}) {
  return defineConfig({
    clientUrl,
    entities: allEntities(),
    extensions: [Migrator],
    migrations: {
      migrationsList,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
      path: 'src/migrations',
      pathTs: 'src/migrations',
    },
    pool: { min: 0, max: opts.poolMax ?? 20 },
    // Every statement passes here; counting them lets tests and /metrics prove query budgets.
    onQuery: (sql: string) => {
      sqlStats.statements++;
      return sql;
    },
    dataloader: true,
    forceUtcTimezone: true,
    allowGlobalContext: false,
    debug: opts.debug ?? false,
    discovery: { disableDynamicFileAccess: true, requireEntitiesArray: true },
  });
}

export default ormConfig(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/booking');
