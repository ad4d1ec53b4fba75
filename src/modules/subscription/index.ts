import type { AppModule } from '../../kernel/module';
import { subscriptionEntities } from './subscription.entity';

/**
 * Subscriptions (memberships): plans, settings, price and capacity rules, contracts with codes,
 * the append-only visit ledger, the client cart and checkout, renewals.
 */
export const subscriptionModule: AppModule = {
  name: 'subscription',
  entities: subscriptionEntities,
  resolvers: [],
};
