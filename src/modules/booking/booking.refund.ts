import type { EntityManager } from '@mikro-orm/postgresql';
import type { Ctx } from '../../kernel/context';
import { paidShare, refundItem } from '../payment/payment.api';

/**
 * `refundPercent` on a booking is the share of what was paid for it that is refunded in all:
 * setting it refunds whatever is missing to reach floor(paid * percent / 100), in the
 * update's transaction. The missing amount is computed under the payment transaction's row
 * lock from the refunds that exist, so repeating the same update refunds nothing more, and
 * concurrent updates (or refunds made through the payments API) can never together refund
 * more than was paid. A lower percent than what is already refunded, 0, or a booking without
 * a paid transaction only stores the value: money is never taken back.
 */
export async function refundBookingTo(ctx: Ctx, em: EntityManager, companyId: string, bookingId: string, percent: number): Promise<void> {
  if (!(percent > 0)) return;
  const share = await paidShare(em, companyId, bookingId);
  if (!share) return;
  const missing = Math.floor((share.paid * percent) / 100) - share.refunded;
  if (missing <= 0) return;
  await refundItem(ctx, em, {
    companyId,
    transactionId: share.transactionId,
    itemId: bookingId,
    amount: missing,
    // Derived from the booking and the percent, so the refund is recognisable and cannot be repeated under the same key.
    idempotencyKey: `booking:${bookingId}:refund:${percent}`,
    reason: `booking refundPercent set to ${percent}`,
  });
}
