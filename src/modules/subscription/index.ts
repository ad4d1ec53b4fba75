import type { FastifyInstance } from 'fastify';
import type { AppModule } from '../../kernel/module';
import { subscriptionEntities } from './subscription.entity';
import { subscriptionRoutes } from './subscription.routes';
import { membershipCard } from './subscription.document';
import { subscriptionResolvers } from './subscription.resolver';
import { subscriptionClientRoutes } from './client.routes';
import { SubscriptionClientResolver } from './client.resolver';
import { subscriptionHandler } from './subscription.codes';
import { RENEWAL_ITEM, settleRenewals, settleSubscriptions, SUBSCRIPTION_ITEM } from './subscription.payable';
import { abandonedWhen } from '../../kernel/payable';
import { startSubscriptionSweeper } from './subscription.sweeper';
import { GIVEN_UP } from './subscription.status';

/**
 * Subscriptions (memberships): plans, settings, price and capacity rules, contracts with codes,
 * the append-only visit ledger, the client cart and checkout, renewals.
 */
export const subscriptionModule: AppModule = {
  name: 'subscription',
  description: 'Subscriptions: plans, client contracts and their visits, capacity and price rules, cart and purchases.',
  entities: subscriptionEntities,
  resolvers: [...subscriptionResolvers, SubscriptionClientResolver],
  routes: (app: FastifyInstance) => {
    subscriptionRoutes(app);
    subscriptionClientRoutes(app);
  },
  // a membership contract prints as a membership card (PDF template or the default one)
  documents: { membership: membershipCard },
  // checkouts and purchases pay for new contracts; renewals extend paid ones; a cancelled contract wants neither
  payables: {
    [SUBSCRIPTION_ITEM]: { settle: settleSubscriptions, abandoned: abandonedWhen('subscription_contract', GIVEN_UP) },
    [RENEWAL_ITEM]: { settle: settleRenewals, abandoned: abandonedWhen('subscription_contract', GIVEN_UP) },
  },
  // contract codes on bookings (kernel/codes.ts)
  codes: [subscriptionHandler],
  // cart expiry, period changes, contract expiry
  start: (deps) => startSubscriptionSweeper(deps),
};
