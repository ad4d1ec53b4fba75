import { defineConfig } from '@mikro-orm/postgresql';
import type * as Migrations from '@mikro-orm/migrations';
import type * as MigrationList from '../migrations';

export interface OrmOptions {
  /** every entity class of every module (the composition root collects them) */
  entities: Function[];
  poolMax?: number;
  debug?: boolean;
  /** sees every statement before it is sent */
  onQuery?: (sql: string) => void;
  /** PostgreSQL `statement_timeout` of every connection, ms (0 or unset: none) */
  statementTimeoutMs?: number;
  /** how long a query waits for a pooled connection before it fails, ms (default 60 s) */
  acquireTimeoutMs?: number;
  /** with the migrator and the migrations (`orm.getMigrator()`), for an ORM that applies or lists them */
  migrations?: boolean;
}

/**
 * The migrator and the migrations, loaded only for an ORM that applies or lists them: the
 * others (every pool of a running server) never read them.
 */
function migrationsConfig() {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, see above */
  const { Migrator } = require('@mikro-orm/migrations') as typeof Migrations;
  const { migrationsList } = require('../migrations') as typeof MigrationList;
  /* eslint-enable @typescript-eslint/no-require-imports */
  return {
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
  };
}

/**
 * MikroORM configuration; the connection URL is given at start (embedded or DATABASE_URL) and
 * the entities by the caller, so configuration depends on nothing above it.
 */
export function ormConfig(clientUrl: string, opts: OrmOptions) {
  return defineConfig({
    clientUrl,
    entities: opts.entities,
    ...(opts.migrations ? migrationsConfig() : {}),
    pool: { min: 0, max: opts.poolMax ?? 20 },
    driverOptions: {
      // A failed connection attempt fails the waiting query at once (no minute-long wait while
      // PostgreSQL is down); a pool that stays full fails it after acquireTimeoutMs.
      acquireConnectionTimeout: opts.acquireTimeoutMs ?? 60_000,
      connection: {
        connectionTimeoutMillis: Math.min(opts.acquireTimeoutMs ?? 10_000, 10_000),
        ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
      },
    },
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
