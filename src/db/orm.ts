import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../config/mikro-orm.config';

/** Connects, and applies pending migrations when asked (npm start does; tests use a migrated template). */
export async function createOrm(url: string, opts: { migrate?: boolean; poolMax?: number } = {}): Promise<MikroORM> {
  const orm = await MikroORM.init(ormConfig(url, { poolMax: opts.poolMax }));
  if (opts.migrate) await orm.getMigrator().up();
  return orm;
}
