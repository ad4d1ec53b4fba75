import type { AppModule } from '../../kernel/module';
import { Discount, PriceRule } from './pricing.entity';
import { DiscountResolver, PriceRuleResolver } from './pricing.resolver';
import { pricingRoutes } from './pricing.routes';

export const pricingModule: AppModule = {
  name: 'pricing',
  description: 'Price rules and discounts of services.',
  entities: [PriceRule, Discount],
  resolvers: [PriceRuleResolver, DiscountResolver],
  routes: pricingRoutes,
};
