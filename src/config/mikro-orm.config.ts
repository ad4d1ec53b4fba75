import { defineConfig } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { migrationsList } from '../migrations';

export interface OrmOptions {
  /** every entity class of every module (the composition root collects them) */
  entities: Function[];
  poolMax?: number;
  debug?: boolean;
  /** sees every statement before it is sent */
  onQuery?: (sql: string) => void;
}

/**
 * MikroORM configuration; the connection URL is given at start (embedded or DATABASE_URL) and
 * the entities by the caller, so configuration depends on nothing above it.
 */
export function ormConfig(clientUrl: string, opts: OrmOptions) {
  return defineConfig({
    clientUrl,
    entities: opts.entities,
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
    onQuery: (sql: string) => {
      opts.onQuery?.(sql);
      return sql;
    },
    dataloader: true,
    forceUtcTimezone: true,
    allowGlobalContext: false,
    debug: opts.debug ?? false,
    discovery: { disableDynamicFileAccess: true, requireEntitiesArray: true },
  });
}
