import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../config/mikro-orm.config';
import { sqlStats } from './stats';

/**
 * Connects, and applies pending migrations when asked (npm start does; tests use a migrated
 * template). Every statement is counted, so tests and /metrics can prove query budgets.
 */
export async function createOrm(url: string, opts: { entities: Function[]; migrate?: boolean; poolMax?: number }): Promise<MikroORM> {
  const orm = await MikroORM.init(
    ormConfig(url, { entities: opts.entities, poolMax: opts.poolMax, onQuery: () => void sqlStats.statements++ }),
  );
  if (opts.migrate) await orm.getMigrator().up();
  return orm;
}
