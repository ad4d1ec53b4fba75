import type { AppModule } from '../../kernel/module';
import { availabilityDirect } from './availability.direct';
import { AvailabilityResolver } from './availability.resolver';
import { AvailabilityLiveResolver } from './availability-live.resolver';
import { availabilityRoutes } from './availability.routes';

export const availabilityModule: AppModule = {
  name: 'availability',
  description: 'Available dates and times of a service, computed from the schedule, rules, slots and bookings.',
  entities: [],
  resolvers: [AvailabilityResolver, AvailabilityLiveResolver],
  routes: availabilityRoutes,
  graphqlDirect: availabilityDirect,
};
