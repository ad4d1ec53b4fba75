import type { AppModule } from '../../kernel/module';
import { ApiKey, Company, Merchant } from './company.entity';
import { ApiKeyResolver, CompanyResolver } from './company.resolver';
import { companyRoutes } from './company.routes';
import { followCompanyChanges } from './company.access';
import { followApiKeyChanges } from './apikey.service';

export const companyModule: AppModule = {
  name: 'company',
  description: 'Companies and the API keys that reach them.',
  entities: [Merchant, ApiKey, Company],
  resolvers: [CompanyResolver, ApiKeyResolver],
  routes: companyRoutes,
  start: (deps) => {
    const stops = [followCompanyChanges(deps), followApiKeyChanges(deps)];
    return async () => {
      for (const stop of stops) await stop?.();
    };
  },
};
