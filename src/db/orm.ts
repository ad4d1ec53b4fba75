import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../config/mikro-orm.config';
import { applyFunctionFiles } from './function-files';
import { sqlStats } from './stats';

export interface CreateOrmOptions {
  entities: Function[];
  migrate?: boolean;
  poolMax?: number;
  /** `statement_timeout` of the pool's connections, ms; migrations run without it */
  statementTimeoutMs?: number;
  acquireTimeoutMs?: number;
  /** where migrations run (a direct connection when `url` goes through a pooler); default `url` */
  migrateUrl?: string;
  /** told which database function files were applied (src/db/function-files.ts) */
  log?: (message: string) => void;
}

/** Pending migrations, then the function files that changed (src/db/functions), on `orm`'s connection. */
async function migrate(orm: MikroORM, log?: (message: string) => void): Promise<void> {
  const migrator = orm.getMigrator();
  if (log) {
    const pending = await migrator.getPendingMigrations();
    if (pending.length > 0) log(`applying ${pending.length} pending migration${pending.length === 1 ? '' : 's'} (in one transaction)`);
  }
  // all of them commit together (allOrNothing): each is reported once committed
  for (const m of await migrator.up()) log?.(`migration applied: ${m.name}`);
  const known = (orm.config.get('migrations').migrationsList ?? []).map((m) => m.name);
  const res = await applyFunctionFiles(orm.em.fork(), known);
  if (res.skipped) log?.(`database functions left as they are: ${res.skipped}`);
  else if (res.applied.length > 0) log?.(`database functions applied: ${res.applied.join(', ')}`);
}

/**
 * Connects, and applies pending migrations and then the database function files when asked
 * (npm start does; tests use a migrated template). Every statement is counted, so tests and
 * /metrics can prove query budgets.
 */
export async function createOrm(url: string, opts: CreateOrmOptions): Promise<MikroORM> {
  const base = { entities: opts.entities, poolMax: opts.poolMax, acquireTimeoutMs: opts.acquireTimeoutMs };
  // A migration may rewrite a large table: with a statement timeout or another address for it,
  // it runs on its own connection, with no statement timeout; else on the pool's.
  const apart = !!opts.migrate && !!(opts.statementTimeoutMs || opts.migrateUrl);
  const here = !!opts.migrate && !apart;
  if (apart) {
    const migrator = await MikroORM.init(ormConfig(opts.migrateUrl ?? url, { ...base, poolMax: 1, migrations: true }));
    try {
      await migrate(migrator, opts.log);
    } finally {
      await migrator.close(true);
    }
  }
  const orm = await MikroORM.init(
    ormConfig(url, {
      ...base,
      statementTimeoutMs: opts.statementTimeoutMs,
      onQuery: () => void sqlStats.statements++,
      migrations: here,
    }),
  );
  if (here) await migrate(orm, opts.log);
  return orm;
}

/**
 * The pool of writes (`DB_WRITE_POOL_MAX` connections, `kernel/context.ts`): a second ORM on the
 * same database, with the main one's statement timeout; none when the size is 0.
 */
export async function createWriteOrm(
  url: string,
  entities: Function[],
  config: { dbWritePoolMax: number; statementTimeoutMs?: number; dbAcquireTimeoutMs?: number },
): Promise<MikroORM | undefined> {
  if (config.dbWritePoolMax <= 0) return undefined;
  return createOrm(url, {
    entities,
    poolMax: config.dbWritePoolMax,
    statementTimeoutMs: config.statementTimeoutMs,
    acquireTimeoutMs: config.dbAcquireTimeoutMs,
  });
}

export interface MigrationStatus {
  applied: { name: string; executedAt: Date }[];
  pending: string[];
}

/** The migrations recorded as applied in the database at `url`, and those still to apply; changes nothing else. */
export async function migrationStatus(url: string, entities: Function[]): Promise<MigrationStatus> {
  const orm = await MikroORM.init(ormConfig(url, { entities, poolMax: 1, migrations: true }));
  try {
    const migrator = orm.getMigrator();
    const applied = (await migrator.getExecutedMigrations()).map((m) => ({ name: m.name, executedAt: m.executed_at }));
    const pending = (await migrator.getPendingMigrations()).map((m) => m.name);
    return { applied, pending };
  } finally {
    await orm.close(true);
  }
}
