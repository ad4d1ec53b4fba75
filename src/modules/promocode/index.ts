import type { AppModule } from '../../kernel/module';
import { PromoCode, PromoUsage } from './promocode.entity';
import { PromoCodeResolver } from './promocode.resolver';
import { promoCodeRoutes } from './promocode.routes';
import { promoCodeHandler } from './promocode.codes';

/** Promo codes: definitions, merchant validation, and the discount a code gives a booking (through kernel/codes.ts). */
export const promoCodeModule: AppModule = {
  name: 'promocode',
  description: 'Promo codes, their usages, and their validation for a booking.',
  entities: [PromoCode, PromoUsage],
  resolvers: [PromoCodeResolver],
  routes: promoCodeRoutes,
  codes: [promoCodeHandler],
};
