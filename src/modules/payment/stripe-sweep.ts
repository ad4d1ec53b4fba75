import { AUDIT_BEGIN, auditScopeArg } from '../../kernel/audit';
import { type AppDeps, systemCtx } from '../../kernel/context';
import { companyStripe, type CheckoutSession } from './providers/stripe-client';
import { isPaid, retrieveSession } from './providers/stripe-provider';
import { endWithSession, expireSession, settlePaidSession } from './stripe.service';
import { lockTransaction } from './stripe-refunds';
import { inTransaction } from '../../kernel/transaction';

/**
 * The sweeper's part for Stripe, run with the payment expiry sweep:
 *
 * - a pending Stripe transaction past its expiry is not simply expired: its Checkout Session is
 *   read once first. Paid, it settles as paid (a lost webhook never fails a paid booking);
 *   still open (Stripe expires sessions a little late), it is expired at Stripe first; complete
 *   with an asynchronous payment on its way, it waits for that payment's event and is read
 *   again an hour later. Only an expired session expires the transaction;
 * - a transaction ended here (a cancelled booking) has its session expired at Stripe, so it can
 *   no longer be paid; should the customer have paid meanwhile, the payment is refunded at once.
 *
 * Rows are claimed with a lease (`for update skip locked`, then the lease written), so several
 * processes share the work and a row is handled by one of them at a time; Stripe is called
 * outside any database transaction. A failed call is logged and retried after the lease.
 */

export const LEASE_MS = 60_000;
/** How long a completed session whose asynchronous payment is on its way waits before it is read again. */
export const ASYNC_RECHECK_MS = 3600_000;
const BATCH = 100;

interface Claimed {
  id: string;
  company_id: string;
  reference_id: string | null;
}

async function claim(
  deps: AppDeps,
  column: 'provider_check_at' | 'checkout_close_at',
  where: string,
  params: unknown[],
  now: Date,
): Promise<Claimed[]> {
  const ctx = systemCtx(deps, 'payment');
  // one statement outside a transaction: it opens the sweeper's audit scope itself (kernel/audit.ts)
  return ctx.em.execute<Claimed[]>(
    `update payment_transaction set ${column} = ? from ${AUDIT_BEGIN} where id in (
       select id from payment_transaction where provider_type = 'stripe' and ${where}
       order by id limit ${BATCH} for update skip locked)
     returning id, company_id, reference_id`,
    [new Date(now.getTime() + LEASE_MS), auditScopeArg(), ...params],
  );
}

/** Reconciles the due pending Stripe transactions and closes the sessions of ended ones; returns how many transactions ended. */
export async function sweepStripe(deps: AppDeps, now: Date): Promise<number> {
  let ended = 0;
  const due = await claim(
    deps,
    'provider_check_at',
    `status = 'pending' and expires_at <= ? and (provider_check_at is null or provider_check_at <= ?)`,
    [now, now],
    now,
  );
  for (const row of due) {
    try {
      if (await reconcile(deps, row, now)) ended++;
    } catch (err) {
      deps.log.error({ err, transactionId: row.id }, 'a pending Stripe payment could not be reconciled; retried later');
    }
  }
  const open = await claim(deps, 'checkout_close_at', `status <> 'pending' and checkout_close_at <= ?`, [now], now);
  for (const row of open) {
    try {
      await close(deps, row, now);
    } catch (err) {
      deps.log.error({ err, transactionId: row.id }, 'the Stripe checkout session of an ended payment could not be expired; retried later');
    }
  }
  return ended;
}

/** Reads the session, expires it when it is still open, and settles the transaction by what it became. */
async function reconcile(deps: AppDeps, row: Claimed, now: Date): Promise<boolean> {
  const ctx = systemCtx(deps, 'payment');
  if (!row.reference_id) return endUnopened(deps, row.id, now);
  const stripe = await companyStripe(ctx, row.company_id);
  let session = await retrieveSession(stripe, row.reference_id);
  if (!isPaid(session) && session.status === 'open') session = await expireSession(stripe, row.reference_id);
  return inTransaction(ctx, async (trx) => {
    const tx = await lockTransaction(trx, row.id);
    if (!tx || tx.status !== 'pending') return false;
    if (isPaid(session)) {
      await settlePaidSession(trx, tx, session, now);
      return true;
    }
    if (session.status === 'expired') {
      await endWithSession(trx, tx, 'expire', now);
      return true;
    }
    tx.providerCheckAt = new Date(now.getTime() + ASYNC_RECHECK_MS);
    await trx.em.flush();
    return false;
  });
}

/** A Stripe transaction without a session cannot have been paid: it expires as any other. */
async function endUnopened(deps: AppDeps, id: string, now: Date): Promise<boolean> {
  return inTransaction(systemCtx(deps, 'payment'), async (trx) => {
    const tx = await lockTransaction(trx, id);
    if (!tx || tx.status !== 'pending') return false;
    await endWithSession(trx, tx, 'expire', now);
    return true;
  });
}

/** Expires the session of an ended transaction; a payment that slipped in before is refunded. */
async function close(deps: AppDeps, row: Claimed, now: Date): Promise<void> {
  const ctx = systemCtx(deps, 'payment');
  let session: CheckoutSession | null = null;
  if (row.reference_id) {
    const stripe = await companyStripe(ctx, row.company_id);
    session = await expireSession(stripe, row.reference_id);
  }
  await inTransaction(ctx, async (trx) => {
    const tx = await lockTransaction(trx, row.id);
    if (!tx) return;
    if (session && isPaid(session)) await settlePaidSession(trx, tx, session, now);
    tx.checkoutCloseAt = null;
    await trx.em.flush();
  });
}
