import type { AppModule } from '../../kernel/module';
import { subscriptionEntities } from './subscription.entity';
import { subscriptionRoutes } from './subscription.routes';
import { membershipCard } from './subscription.document';
import { subscriptionResolvers } from './subscription.resolver';

/**
 * Subscriptions (memberships): plans, settings, price and capacity rules, contracts with codes,
 * the append-only visit ledger, the client cart and checkout, renewals.
 */
export const subscriptionModule: AppModule = {
  name: 'subscription',
  entities: subscriptionEntities,
  resolvers: [...subscriptionResolvers],
  routes: subscriptionRoutes,
  // a membership contract prints as a membership card (PDF template or the default one)
  documents: { membership: membershipCard },
};
