import type { AppModule } from './module';
import { companyModule } from '../modules/company';

/** Every bounded context, in registration order. */
export const modules: AppModule[] = [companyModule];

export const allEntities = (): Function[] => modules.flatMap((m) => m.entities);
export const allResolvers = (): Function[] => modules.flatMap((m) => m.resolvers);
