import type { CodeCheck, CodeEffect, CodeHandler, CodeTarget, FoundCode } from '../../kernel/codes';
import { conflict, DomainError, invalid } from '../../shared/errors';
import { evaluatePromo, isUsageRefusal, REFUSAL_MESSAGES, type PromoOutcome, type PromoRefusal } from './discount';
import type { PromoCode } from './promocode.entity';
import { ruleOf } from './promocode.json';
import { clientHasUsage, findPromoByCode, lockPromo, moveUsages, takeUsage } from './promocode.store';
import type { Ctx } from '../../kernel/context';

/**
 * Promo codes on booking requests: the discount lowers the booking's price, and a usage
 * linked to the booking is `reserved` until the booking is confirmed (`used`) or fails, is
 * cancelled or its payment expires (`released`, the use goes back to the code).
 */

export const PROMO_NAMESPACE = 'promocodes';

/** Why a code cannot apply, as the booking request's error: usage limits are 409, the rest 400. */
export function refusalError(reason: PromoRefusal): DomainError {
  const message = REFUSAL_MESSAGES[reason];
  return isUsageRefusal(reason) ? conflict(message, [{ path: 'code', message }]) : invalid(message, [{ path: 'code', message }]);
}

async function outcomeFor(ctx: Ctx, promo: PromoCode, target: CodeTarget, now: Date): Promise<PromoOutcome> {
  const used =
    target.clientId !== null && promo.usageType === 'one_per_customer'
      ? await clientHasUsage(ctx, target.companyId, promo.id, target.clientId)
      : false;
  return evaluatePromo(ruleOf(promo), {
    now: now.getTime(),
    price: target.price,
    serviceIds: [target.serviceId],
    bookingStart: target.start,
    clientHasUsage: used,
  });
}

const responseOf = (promo: PromoCode, discount: number | null, error: string | null): Record<string, unknown> => ({
  promoCodeID: promo.id,
  code: promo.code,
  title: promo.title,
  discountType: promo.discountType,
  discountAmount: discount,
  errorMessage: error,
});

export const promoCodeHandler: CodeHandler<Ctx> = {
  namespace: PROMO_NAMESPACE,

  async find(ctx, companyId, code): Promise<FoundCode | null> {
    const promo = await findPromoByCode(ctx, companyId, code);
    return promo ? { namespace: PROMO_NAMESPACE, ref: promo.id, code: promo.code } : null;
  },

  async check(ctx, found, target, now): Promise<CodeCheck> {
    const promo = await findPromoByCode(ctx, target.companyId, found.code);
    if (!promo) return { ok: false, error: invalid('unknown code', [{ path: 'code', message: 'unknown code' }]), response: {} };
    const outcome = await outcomeFor(ctx, promo, target, now);
    if (!outcome.ok)
      return { ok: false, error: refusalError(outcome.reason), response: responseOf(promo, null, REFUSAL_MESSAGES[outcome.reason]) };
    return { ok: true, discount: outcome.discount, covered: 0, response: responseOf(promo, outcome.discount, null) };
  },

  async apply(ctx, found, target, now): Promise<CodeEffect> {
    // The lock queues every booking that uses this code; the rule then sees the count and the
    // client's usages as the previous booking left them.
    const promo = await lockPromo(ctx, target.companyId, found.ref);
    if (!promo) throw invalid('unknown code', [{ path: 'code', message: 'unknown code' }]);
    const outcome = await outcomeFor(ctx, promo, target, now);
    if (!outcome.ok) throw refusalError(outcome.reason);
    const taken = await takeUsage(ctx, {
      companyId: target.companyId,
      promo,
      clientId: target.clientId,
      reservationId: target.bookingId,
      discountAmount: outcome.discount,
      currency: target.currency,
      now,
    });
    if (!taken) throw refusalError(promo.usageType === 'single_use' ? 'used' : 'limit_reached');
    return { discount: outcome.discount, covered: 0, response: responseOf(promo, outcome.discount, null) };
  },

  async bookingsChanged(ctx, companyId, bookingIds, event, now): Promise<void> {
    if (!bookingIds.length) return;
    await moveUsages(ctx, companyId, bookingIds, event === 'confirmed' ? 'used' : 'released', now);
  },
};
