import type { PayableItems, SettlementOutcome } from '../../kernel/payable';
import { isUuid } from '../../shared/ids';
import { PaymentTransaction } from './payment.entity';
import { recordPaymentEvent } from './payment.events';
import { refundEvent, transitionPayment } from './payment.status';
import { issueRefund, paidFor, refundedFor } from './refund.service';
import { providerFor } from './providers/registry';
import type { AppDeps, Ctx } from '../../kernel/context';

/**
 * How a transaction's status changes when a provider reports on it or its items are given up,
 * and how its items learn of it. Every function here works on a transaction the caller locked,
 * inside the caller's database transaction; the items are told through the handlers their
 * module registered for the transaction's `itemType` (payment imports no item owner).
 */

function handlersOf(deps: AppDeps, tx: PaymentTransaction): PayableItems<Ctx> {
  const items = deps.payables.get(tx.itemType);
  // Only a module can start a payment for its item type, so a missing handler is a wiring error.
  if (!items) throw new Error(`no module settles items of type ${tx.itemType}`);
  return items;
}

/** Tells the items of a settled transaction their outcome (the caller holds the row lock). */
export async function settleItems(ctx: Ctx, tx: PaymentTransaction, outcome: SettlementOutcome, now: Date): Promise<void> {
  await handlersOf(ctx.deps, tx).settle(ctx, tx.companyId, tx.itemIds, outcome, now);
}

export type EndEvent = 'fail' | 'cancel' | 'expire';
const END_OUTCOME: Record<EndEvent, SettlementOutcome> = { fail: 'failed', cancel: 'cancelled', expire: 'expired' };

/**
 * Ends a locked pending transaction without a payment (failed, cancelled, expired): its status,
 * its event, and its items give back what they held.
 */
export async function endPayment(ctx: Ctx, tx: PaymentTransaction, event: EndEvent, now: Date): Promise<void> {
  tx.status = transitionPayment(tx.status, event);
  tx.updatedAt = now;
  // The provider's checkout may still take money: the sweeper closes it after this commits.
  // A caller that knows it is closed already (the provider reported the end) clears this.
  if (providerFor(tx.providerType).closesCheckout) tx.checkoutCloseAt = now;
  await recordPaymentEvent(ctx, tx, now);
  await settleItems(ctx, tx, END_OUTCOME[event], now);
}

async function abandonedItems(ctx: Ctx, tx: PaymentTransaction): Promise<Set<string>> {
  return new Set(await handlersOf(ctx.deps, tx).abandoned(ctx, tx.companyId, tx.itemIds));
}

/**
 * What became of a provider's report of a successful payment: `paid` (the transaction is paid,
 * the customer returns to the success redirect), `refunded` (it was no longer wanted: the money
 * went back at once, the customer returns to the failure redirect), `repeated` (the payment was
 * already recorded: nothing changed).
 */
export type PaidReport = 'paid' | 'refunded' | 'repeated';

/**
 * A provider reports that the locked transaction `tx` was paid. A pending transaction becomes
 * paid and its items are confirmed; what was paid for items given up meanwhile (a cancelled
 * booking of a batch) is refunded at once. A transaction that is no longer pending (cancelled,
 * failed, expired), or one whose every item was given up, is refunded in full through its
 * provider at once: nothing cancelled is ever left paid.
 */
export async function reportPaid(ctx: Ctx, tx: PaymentTransaction, now: Date): Promise<PaidReport> {
  if (tx.status === 'pending') {
    const abandoned = await abandonedItems(ctx, tx);
    if (!tx.itemIds.every((id) => abandoned.has(id))) {
      await pay(ctx, tx, abandoned, now);
      return 'paid';
    }
    // Should have been cancelled with its last item; it is now, before the money goes back.
    await endPayment(ctx, tx, 'cancel', now);
    await ctx.em.flush();
  }
  if (tx.status === 'cancelled' || tx.status === 'failed') {
    await refundLatePayment(ctx, tx, now);
    return 'refunded';
  }
  return 'repeated';
}

async function pay(ctx: Ctx, tx: PaymentTransaction, abandoned: Set<string>, now: Date): Promise<void> {
  tx.status = transitionPayment(tx.status, 'pay');
  tx.updatedAt = now;
  await recordPaymentEvent(ctx, tx, now);
  await settleItems(ctx, tx, 'paid', now);
  const giveBack = tx.itemIds.filter((id) => abandoned.has(id) && paidFor(tx, id) > 0);
  if (!giveBack.length) return;
  // Flushed so that the paid transaction is recorded (audit) before its refund changes it again.
  await ctx.em.flush();
  for (const itemId of giveBack)
    await issueRefund(
      ctx,
      tx,
      { itemId, amount: paidFor(tx, itemId), reason: 'the item was cancelled before its payment arrived', own: true },
      now,
    );
  if (tx.refundedAmount > 0) {
    tx.status = transitionPayment(tx.status, refundEvent(tx.refundedAmount, tx.amount));
    await recordPaymentEvent(ctx, tx, now);
  }
}

/**
 * Refunds the whole amount of a payment that arrived for a cancelled or failed transaction, item
 * by item. A report repeated after some of these refunds were refused refunds only what is
 * still owed for each item, never an item twice.
 */
async function refundLatePayment(ctx: Ctx, tx: PaymentTransaction, now: Date): Promise<void> {
  const reason = `paid after the payment was ${tx.status}`;
  const shares = tx.itemIds.map((itemId) => ({ itemId, amount: Math.min(paidFor(tx, itemId), tx.amount) }));
  // Item shares add up to the amount; should they not, the rest goes back with the first item.
  shares[0].amount += Math.max(0, tx.amount - shares.reduce((sum, s) => sum + s.amount, 0));
  for (const s of shares) {
    const owed = s.amount - (await refundedFor(ctx, tx, s.itemId));
    if (owed > 0) await issueRefund(ctx, tx, { itemId: s.itemId, amount: owed, reason, own: true }, now);
  }
  if (tx.refundedAmount >= tx.amount) {
    tx.status = transitionPayment(tx.status, 'refund_late');
    tx.updatedAt = now;
    await recordPaymentEvent(ctx, tx, now);
  } else {
    ctx.deps.log.error(
      { transactionId: tx.id, refunded: tx.refundedAmount, amount: tx.amount },
      'a payment that arrived after its transaction ended could not be refunded in full; see its refunds',
    );
  }
}

/**
 * The pending transactions covering any of `itemIds`, locked in id order. Call it before
 * locking the items (a checkout locks the transaction, then its items), and once the items are
 * given up, call the returned function: every locked transaction whose items are all given up
 * is cancelled. `skipLocked` (for sweepers, which hold their items already) leaves out a
 * transaction that is being settled at that moment; its settlement then refunds what is paid
 * for the given-up items.
 */
export async function lockPendingPayments(
  ctx: Ctx,
  companyId: string,
  itemIds: readonly string[],
  opts: { skipLocked?: boolean } = {},
): Promise<(now: Date) => Promise<void>> {
  const ids = [...new Set(itemIds.filter(isUuid).map((id) => id.toLowerCase()))];
  if (!ids.length) return async () => {};
  const rows = await ctx.em.execute<{ id: string }[]>(
    `select id from payment_transaction where company_id = ? and status = 'pending' and (${ids.map(() => 'item_ids @> ?::jsonb').join(' or ')})
      order by id for update${opts.skipLocked ? ' skip locked' : ''}`,
    [companyId, ...ids.map((id) => JSON.stringify([id]))],
  );
  if (!rows.length) return async () => {};
  const txs = await ctx.em.find(
    PaymentTransaction,
    { companyId, id: { $in: rows.map((r) => r.id) } },
    { refresh: true, orderBy: { id: 'asc' } },
  );
  return async (now) => {
    for (const tx of txs) {
      if (tx.status !== 'pending') continue;
      const abandoned = await abandonedItems(ctx, tx);
      if (tx.itemIds.every((id) => abandoned.has(id))) await endPayment(ctx, tx, 'cancel', now);
    }
  };
}
