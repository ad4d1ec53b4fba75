import 'reflect-metadata';
import { allEntities } from './src/app/registry';
import { ormConfig } from './src/config/mikro-orm.config';

/** For the MikroORM CLI (migrations): every module's entities, DATABASE_URL or a local default. */
export default ormConfig(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/booking', { entities: allEntities() });
