import type { AppModule } from '../../kernel/module';
import { GiftCard, GiftCardContract, GiftCardUsage } from './giftcard.entity';
import { ClientGiftCardResolver, GiftCardResolver } from './giftcard.resolver';
import { giftCardRoutes } from './giftcard.routes';
import { giftCardHandler } from './giftcard.codes';
import { GIFT_CARD_ITEM, settleGiftCards } from './giftcard.payable';

/**
 * Gift cards: definitions, contracts with codes and balances, usages, client purchases paid
 * through the payment module (`payables`), and gift card codes on bookings (kernel/codes.ts).
 */
export const giftCardModule: AppModule = {
  name: 'giftcard',
  entities: [GiftCard, GiftCardContract, GiftCardUsage],
  resolvers: [GiftCardResolver, ClientGiftCardResolver],
  routes: giftCardRoutes,
  payables: { [GIFT_CARD_ITEM]: { settle: settleGiftCards } },
  codes: [giftCardHandler],
};
