import { LockMode } from '@mikro-orm/core';
import { PaymentTransaction, Refund } from './payment.entity';
import type { RefundStatus } from './payment.status';
import { refundStatusOf } from './providers/stripe-provider';
import type { Ctx } from '../../kernel/context';

/** Locks a transaction by id in any company (the caller checks the company). */
export async function lockTransaction(ctx: Ctx, id: string): Promise<PaymentTransaction | null> {
  return ctx.em.findOne(PaymentTransaction, { id: id.toLowerCase() }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/**
 * A Stripe refund changed status (`refund.updated`, or listed in `charge.refunded`): the
 * company's refund record with that provider id follows, under its transaction's row lock.
 * Only forward moves count (pending -> succeeded | failed; succeeded -> failed when Stripe
 * reverses a refund): a late event never moves a refund back. A failed refund gives its amount
 * back to what may still be refunded. Refunds this server did not create are not recorded.
 */
export async function applyRefundUpdate(ctx: Ctx, companyId: string, providerRefundId: string, stripeStatus: string | null): Promise<void> {
  const known = await ctx.em.findOne(Refund, { companyId, providerRefundId });
  if (!known) return;
  const tx = await lockTransaction(ctx, known.transactionId);
  if (!tx || tx.companyId !== companyId) return;
  const refund = (await ctx.em.findOne(Refund, { id: known.id, companyId }, { refresh: true }))!;
  const next: RefundStatus = refundStatusOf(stripeStatus);
  if (next === refund.status || refund.status === 'failed' || next === 'pending') return;
  const was = refund.status;
  refund.status = next;
  refund.updatedAt = ctx.now;
  if (next === 'failed') {
    tx.refundedAmount = Math.max(0, tx.refundedAmount - refund.amount);
    tx.updatedAt = ctx.now;
    ctx.log.warn(
      { transactionId: tx.id, refundId: refund.id, was },
      'Stripe reports a refund failed; its amount may be refunded again (the transaction keeps its status)',
    );
  }
  await ctx.em.flush();
}
