import type { AppModule } from '../../kernel/module';
import { GiftCard, GiftCardContract, GiftCardUsage } from './giftcard.entity';
import { ClientGiftCardResolver, GiftCardResolver } from './giftcard.resolver';
import { GiftCardContractFieldsResolver } from './giftcard-fields.resolver';
import { giftCardRoutes } from './giftcard.routes';
import { giftCardHandler } from './giftcard.codes';
import { GIFT_CARD_ITEM, settleGiftCards } from './giftcard.payable';
import { abandonedWhen } from '../../kernel/payable';
import { giftCardVoucher } from './giftcard.document';

/**
 * Gift cards: definitions, contracts with codes and balances, usages, client purchases paid
 * through the payment module (`payables`), gift card codes on bookings (kernel/codes.ts), and
 * vouchers printed by the document module (kernel/documents.ts).
 */
export const giftCardModule: AppModule = {
  name: 'giftcard',
  description: 'Gift cards: offers, issued cards (contracts), their usages and balance, and purchases by clients.',
  entities: [GiftCard, GiftCardContract, GiftCardUsage],
  resolvers: [GiftCardResolver, ClientGiftCardResolver, GiftCardContractFieldsResolver],
  routes: giftCardRoutes,
  payables: { [GIFT_CARD_ITEM]: { settle: settleGiftCards, abandoned: abandonedWhen('gift_card_contract', ['cancelled']) } },
  codes: [giftCardHandler],
  // a purchase prints as a voucher (PDF template or the default one)
  documents: { gift_card: giftCardVoucher },
};
