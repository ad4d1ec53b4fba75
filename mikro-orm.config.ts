import 'reflect-metadata';
export { default } from './src/config/mikro-orm.config';
