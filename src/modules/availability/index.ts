import type { AppModule } from '../../kernel/module';
import { availabilityDirect } from './availability.direct';
import { AvailabilityResolver } from './availability.resolver';
import { AvailabilityLiveResolver } from './availability-live.resolver';
import { availabilityRoutes } from './availability.routes';

export const availabilityModule: AppModule = {
  name: 'availability',
  entities: [],
  resolvers: [AvailabilityResolver, AvailabilityLiveResolver],
  routes: availabilityRoutes,
  graphqlDirect: availabilityDirect,
};
