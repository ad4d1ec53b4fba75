import { LockMode } from '@mikro-orm/core';
import { type AppDeps, type Ctx, systemCtx } from '../../kernel/context';
import { PaymentTransaction } from './payment.entity';
import { endPayment } from './settlement';
import { sweepStripe } from './stripe-sweep';
import { inTransaction } from '../../kernel/transaction';

export const SWEEP_BATCH = 100;
export const SWEEP_INTERVAL_MS = 5000;

/**
 * Expires one batch in one database transaction. `skip locked` lets several server processes
 * sweep at once without waiting on or double-settling each other's rows (a row being completed
 * at the checkout is skipped too; the checkout sees its expiry itself).
 */
async function sweepBatch(ctx: Ctx, now: Date, limit: number, id?: string): Promise<number> {
  return inTransaction(ctx, async (trx) => {
    const due = await trx.em.find(
      PaymentTransaction,
      { status: 'pending', expiresAt: { $lte: now }, providerType: { $ne: 'stripe' }, ...(id ? { id } : {}) },
      { orderBy: { expiresAt: 'asc', id: 'asc' }, limit, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE, refresh: true },
    );
    for (const tx of due) await endPayment(trx, tx, 'expire', now);
    return due.length;
  });
}

/**
 * Marks every pending transaction whose `expiresAt` is at or before `now` as failed and fails
 * its bookings (outcome `expired`), in batches of 100. Returns how many were expired. When a
 * batch fails, its rows are retried one by one so that one bad row cannot hold the rest back.
 * Stripe transactions are reconciled with their Checkout Session first (stripe-sweep.ts).
 */
export async function sweepExpiredPayments(source: AppDeps | Ctx, now?: Date): Promise<number> {
  const deps: AppDeps = 'deps' in source ? source.deps : source;
  const at = now ?? new Date(deps.clock.now());
  let total = 0;
  try {
    total += await sweepStripe(deps, at);
  } catch (err) {
    deps.log.error({ err }, 'the Stripe part of the payment sweep failed');
  }
  for (;;) {
    const ctx = systemCtx(deps, 'payment');
    let n: number;
    try {
      n = await sweepBatch(ctx, at, SWEEP_BATCH);
    } catch (err) {
      deps.log.error({ err }, 'payment expiry batch failed; retrying its rows one by one');
      return total + (await sweepOneByOne(deps, at));
    }
    total += n;
    if (n < SWEEP_BATCH) return total;
  }
}

async function sweepOneByOne(deps: AppDeps, now: Date): Promise<number> {
  const due = await systemCtx(deps, 'payment').em.find(
    PaymentTransaction,
    { status: 'pending', expiresAt: { $lte: now }, providerType: { $ne: 'stripe' } },
    { orderBy: { expiresAt: 'asc', id: 'asc' }, limit: SWEEP_BATCH, fields: ['id'] },
  );
  let done = 0;
  for (const { id } of due) {
    try {
      done += await sweepBatch(systemCtx(deps, 'payment'), now, 1, id);
    } catch (err) {
      // The row stays pending (its transaction rolled back) and is tried again next sweep.
      deps.log.error({ err, transactionId: id }, 'a payment could not be expired');
    }
  }
  return done;
}

/** Starts the periodic sweep; the returned function stops it and waits for a running sweep. */
export function startPaymentSweeper(deps: AppDeps, intervalMs = SWEEP_INTERVAL_MS): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = sweepExpiredPayments(deps)
      .then((n) => {
        if (n > 0) deps.log.info({ expired: n }, 'expired pending payments');
      })
      .catch((err) => deps.log.error({ err }, 'payment expiry sweep failed'))
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
