import type { CodeCheck, CodeEffect, CodeHandler, CodeTarget, FoundCode } from '../../kernel/codes';
import { DomainError, invalid } from '../../shared/errors';
import { formatTimestamp } from '../../shared/time';
import { normaliseGiftCode } from './gift-code';
import type { GiftCardContract } from './giftcard.entity';
import { effectiveStatus } from './giftcard.status';
import { cancelBookingUsages, contractByCode, insertUsage, lockContract, takeBalance } from './giftcard.store';
import { GIFT_CARD_NAMESPACE } from './giftcard.payable';
import type { Ctx } from '../../kernel/context';

/**
 * Gift cards on booking requests: the card pays the price (after discounts) up to its
 * balance, with a usage linked to the booking; the rest goes through the normal payment. A
 * booking that fails, is cancelled or whose payment expires cancels the usage and the balance
 * comes back.
 */

const at = (message: string) => [{ path: 'code', message }];

/** Why the card cannot pay for this booking, or null when it can. */
function refusal(card: GiftCardContract, target: CodeTarget, now: Date): DomainError | null {
  const status = effectiveStatus(card.status, card.expiresAt, now);
  const say = (m: string) => invalid(m, at(m));
  if (status === 'pending_payment') return say('the gift card is not paid yet');
  if (status === 'cancelled') return say('the gift card is cancelled');
  if (status === 'expired') return say('the gift card has expired');
  if (target.currency !== null && target.currency !== card.currency)
    return say(`the gift card is in ${card.currency}, the booking in ${target.currency}`);
  if (status === 'redeemed' || card.balance <= 0) {
    const m = 'the gift card has no balance left';
    return new DomainError('insufficient_balance', m, at(m));
  }
  return null;
}

const responseOf = (card: GiftCardContract, covered: number | null, balanceAfter: number | null, error: string | null) => ({
  giftCardContractID: card.id,
  giftCardId: card.giftCardId,
  balance: card.balance,
  currency: card.currency,
  expiresAt: formatTimestamp(card.expiresAt),
  amountCovered: covered,
  balanceAfter,
  errorMessage: error,
});

export const giftCardHandler: CodeHandler<Ctx> = {
  namespace: GIFT_CARD_NAMESPACE,

  async find(ctx, companyId, code): Promise<FoundCode | null> {
    const normal = normaliseGiftCode(code);
    if (!normal) return null;
    const card = await contractByCode(ctx, companyId, normal);
    return card ? { namespace: GIFT_CARD_NAMESPACE, ref: card.id, code: card.code } : null;
  },

  async check(ctx, found, target, now): Promise<CodeCheck> {
    const card = await contractByCode(ctx, target.companyId, found.code);
    if (!card) return { ok: false, error: invalid('unknown code', at('unknown code')), response: {} };
    const error = refusal(card, target, now);
    if (error) return { ok: false, error, response: responseOf(card, null, null, error.message) };
    const covered = Math.min(card.balance, target.due);
    return { ok: true, discount: 0, covered, response: responseOf(card, covered, card.balance - covered, null) };
  },

  async apply(ctx, found, target, now): Promise<CodeEffect> {
    // The card's row lock queues every booking paying with it: each sees the balance the previous one left.
    const card = await lockContract(ctx, target.companyId, found.ref);
    if (!card) throw invalid('unknown code', at('unknown code'));
    const error = refusal(card, target, now);
    if (error) throw error;
    const covered = Math.min(card.balance, target.due);
    if (covered <= 0) return { discount: 0, covered: 0, response: responseOf(card, 0, card.balance, null) };
    const balance = await takeBalance(ctx, target.companyId, card.id, covered, now);
    if (balance === null)
      throw new DomainError('insufficient_balance', 'the gift card has no balance left', at('the gift card has no balance left'));
    await insertUsage(ctx, {
      companyId: target.companyId,
      contract: card,
      clientId: target.clientId ?? card.clientId,
      reservationId: target.bookingId,
      amount: covered,
      now,
    });
    return { discount: 0, covered, response: responseOf(card, covered, balance, null) };
  },

  async bookingsChanged(ctx: Ctx, companyId, bookingIds, event, now): Promise<void> {
    // A usage is spent when the booking is made; only a booking that is undone gives it back.
    if (event === 'released') await cancelBookingUsages(ctx, companyId, bookingIds, now);
  },
};
