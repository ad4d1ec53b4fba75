import type { AppModule } from '../../kernel/module';
import { ApiKey, Company, Merchant } from './company.entity';
import { ApiKeyResolver, CompanyResolver } from './company.resolver';
import { companyRoutes } from './company.routes';
import { followCompanyChanges } from './company.access';

export const companyModule: AppModule = {
  name: 'company',
  entities: [Merchant, ApiKey, Company],
  resolvers: [CompanyResolver, ApiKeyResolver],
  routes: companyRoutes,
  start: followCompanyChanges,
};
