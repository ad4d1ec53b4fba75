import { recordEvent, type EventType } from '../../kernel/events';
import type { PaymentTransaction } from './payment.entity';
import type { PaymentStatus } from './payment.status';
import { paymentJson } from './transaction.service';
import type { Ctx } from '../../kernel/context';

/**
 * The events of payment transactions in the outbox (kernel/events.ts), with the transaction's
 * REST JSON as `data`. A cancelled or expired payment is `payment.failed` (its `status` tells
 * them apart: `cancelled`, `failed`); a full or partial refund is `payment.refunded`.
 */
const EVENT_OF: Record<PaymentStatus, EventType | null> = {
  pending: null,
  paid: 'payment.paid',
  failed: 'payment.failed',
  cancelled: 'payment.failed',
  refunded: 'payment.refunded',
  partially_refunded: 'payment.refunded',
};

export const paymentEventType = (status: PaymentStatus): EventType | null => EVENT_OF[status];

/** Records the event of the transaction's new status, in the caller's transaction (none for pending). */
export async function recordPaymentEvent(ctx: Ctx, tx: PaymentTransaction, at: Date): Promise<void> {
  const type = EVENT_OF[tx.status];
  if (type) await recordEvent(ctx, { companyId: tx.companyId, type, payload: paymentJson(tx), at });
}
