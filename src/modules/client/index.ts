import type { AppModule } from '../../kernel/module';
import { Client, ClientRefreshToken } from './client.entity';
import { ClientResolver } from './client.resolver';
import { clientRoutes } from './client.routes';
import { bearer } from './client-auth.service';

export const clientModule: AppModule = {
  name: 'client',
  description: 'Clients of a company, and the client interface login (access and refresh tokens) and profile.',
  entities: [Client, ClientRefreshToken],
  resolvers: [ClientResolver],
  routes: clientRoutes,
  bearer,
};
