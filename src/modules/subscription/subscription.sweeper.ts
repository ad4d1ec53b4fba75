import { recordContractEvents } from './subscription.events';
import { type AppDeps, type Ctx, systemCtx } from '../../kernel/context';
import { periodAt, rolloverVisits } from './periods';
import { SubscriptionContract } from './subscription.entity';
import { append, expireRemaining } from './ledger.service';
import { companyZone, entryOf, periodBalance, planOf, recurrenceOf } from './visits.store';
import { dueSql, RUNNING, statusInSql, targetSql, transitionContract } from './subscription.status';
import { lockPendingPayments } from '../payment/payment.api';
import { inTransaction } from '../../kernel/transaction';

/**
 * Time-driven changes of contracts, run every few seconds by every server process:
 * 1. cart expiry: `pending_payment` contracts past `pendingExpiresAt` (cart items and purchases
 *    not checked out in time) become `cancelled`, and their capacity is free again;
 * 2. period change: an active contract whose current period ended moves to the next one: the
 *    ended period's unused visits lapse (`EXPIRATION`), the new period gets its `ALLOCATION`
 *    (unless a booking ahead already made it) and `ROLLOVER` of the unused visits as the
 *    subscription's `rollOverSettings` allow;
 * 3. contract expiry: active contracts past `expiresAt` become `expired`, and what is left of
 *    their visits lapses (`EXPIRATION`).
 * The statuses each sweep takes and writes are the state machine's (subscription.status.ts):
 * events `lapse` and `expire`, at the deadlines `effectiveStatus` already reads them by.
 * Every batch claims its rows with `for update skip locked` inside its own transaction, so
 * several processes sweep at once without waiting on or repeating each other's work; time is
 * `deps.clock` (or the `now` a test passes).
 */

export const SUBSCRIPTION_SWEEP_BATCH = 100;
export const SUBSCRIPTION_SWEEP_INTERVAL_MS = 5000;

export interface SweepCounts {
  lapsed: number;
  advanced: number;
  expired: number;
}

const iso = (d: Date | number) => new Date(d).toISOString();

async function lapseCarts(ctx: Ctx, now: Date): Promise<number> {
  const rows = await ctx.em.execute<{ id: string; company_id: string }[]>(
    `update subscription_contract c set status = ${targetSql('lapse', 'o.status')}, in_cart = false, cancelled_at = ?::timestamptz, updated_at = ?::timestamptz
       from (select id, status, in_cart from subscription_contract where ${dueSql('lapse')}
              order by pending_expires_at limit ${SUBSCRIPTION_SWEEP_BATCH} for update skip locked) o
      where c.id = o.id
      returning c.id, c.company_id`,
    [iso(now), iso(now), iso(now)],
  );
  // A payment still pending for them goes too; one being settled right now is skipped, and its
  // settlement refunds what was paid for them.
  for (const companyId of new Set(rows.map((r) => r.company_id))) {
    const ids = rows.filter((r) => r.company_id === companyId).map((r) => r.id);
    const cancelPayments = await lockPendingPayments(ctx, companyId, ids, { skipLocked: true });
    await cancelPayments(now);
  }
  return rows.length;
}

/** Contracts matching `where` (its one `?` is now), claimed for this transaction. */
async function claim(ctx: Ctx, where: string, now: Date): Promise<SubscriptionContract[]> {
  const rows = await ctx.em.execute<Record<string, unknown>[]>(
    `select * from subscription_contract where ${where}
      order by id limit ${SUBSCRIPTION_SWEEP_BATCH} for update skip locked`,
    [iso(now)],
  );
  return rows.map((r) => ctx.em.map(SubscriptionContract, r));
}

/** Moves one locked contract through every period that ended by `now`. */
async function advance(ctx: Ctx, c: SubscriptionContract, now: Date): Promise<void> {
  const zone = await companyZone(ctx, c.companyId);
  const sub = await recurrenceOf(ctx, c.companyId, c.subscriptionId);
  const plan = planOf(c, sub);
  const perPeriod = c.limitations?.bookingsCount;
  let start = c.periodStart!;
  let end = c.periodEnd!;
  let index = c.periodIndex;
  while (end <= now && (!c.expiresAt || end < c.expiresAt)) {
    const next = periodAt(plan, zone, end.getTime());
    if (!next) break;
    const old = await periodBalance(ctx, c.companyId, c.id, start);
    const unused = Math.max(0, old.balance);
    if (unused > 0) await append(ctx, entryOf(c, -unused, 'EXPIRATION', start, now, { reason: 'period ended' }));
    const nextStart = new Date(next.start);
    if (typeof perPeriod === 'number' && perPeriod > 0 && !(await periodBalance(ctx, c.companyId, c.id, nextStart)).allocated)
      await append(
        ctx,
        entryOf(c, perPeriod, 'ALLOCATION', nextStart, now, {
          reason: 'period allocation',
          expiresAt: next.end === null ? null : new Date(next.end),
        }),
      );
    const rolled = rolloverVisits(sub?.rollOverSettings, unused);
    if (rolled > 0) await append(ctx, entryOf(c, rolled, 'ROLLOVER', nextStart, now, { reason: 'unused visits of the previous period' }));
    start = nextStart;
    end = next.end === null ? (c.expiresAt ?? new Date(8.64e15)) : new Date(next.end);
    index += 1;
  }
  await ctx.em.execute(
    `update subscription_contract set period_start = ?::timestamptz, period_end = ?::timestamptz, period_index = ?, updated_at = ?::timestamptz
      where company_id = ? and id = ?`,
    [iso(start), end.getTime() >= 8.64e15 ? null : iso(end), index, iso(now), c.companyId, c.id],
    'run',
  );
}

async function expire(ctx: Ctx, c: SubscriptionContract, now: Date): Promise<void> {
  const status = transitionContract(c.status, 'expire');
  await expireRemaining(ctx, c, now, 'contract expired');
  await ctx.em.execute(
    `update subscription_contract set status = ?, updated_at = ?::timestamptz where company_id = ? and id = ?`,
    [status, iso(now), c.companyId, c.id],
    'run',
  );
  await recordContractEvents(ctx, c.companyId, [c.id], 'subscription.expired', now);
}

/** Runs the three sweeps once at `now` (default: the clock), batch after batch, and returns what changed. */
export async function sweepSubscriptions(source: AppDeps | Ctx, now?: Date): Promise<SweepCounts> {
  const deps: AppDeps = 'deps' in source ? source.deps : source;
  const at = now ?? new Date(deps.clock.now());
  const counts: SweepCounts = { lapsed: 0, advanced: 0, expired: 0 };
  const batch = (work: (ctx: Ctx) => Promise<number>) => inTransaction(systemCtx(deps, 'subscription'), work);
  for (let n = SUBSCRIPTION_SWEEP_BATCH; n === SUBSCRIPTION_SWEEP_BATCH; counts.lapsed += n) n = await batch((ctx) => lapseCarts(ctx, at));
  for (let n = SUBSCRIPTION_SWEEP_BATCH; n === SUBSCRIPTION_SWEEP_BATCH; counts.advanced += n)
    n = await batch(async (ctx) => {
      const due = await claim(
        ctx,
        `${statusInSql(RUNNING)} and period_end <= ?::timestamptz and (expires_at is null or period_end < expires_at)`,
        at,
      );
      for (const c of due) await advance(ctx, c, at);
      return due.length;
    });
  for (let n = SUBSCRIPTION_SWEEP_BATCH; n === SUBSCRIPTION_SWEEP_BATCH; counts.expired += n)
    n = await batch(async (ctx) => {
      const due = await claim(ctx, dueSql('expire'), at);
      for (const c of due) await expire(ctx, c, at);
      return due.length;
    });
  return counts;
}

/** Starts the periodic sweep; the returned function stops it and waits for a running sweep. */
export function startSubscriptionSweeper(deps: AppDeps, intervalMs = SUBSCRIPTION_SWEEP_INTERVAL_MS): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = sweepSubscriptions(deps)
      .then((c) => {
        if (c.lapsed + c.advanced + c.expired > 0) deps.log.info(c, 'subscription contracts swept');
      })
      .catch((err) => deps.log.error({ err }, 'subscription sweep failed'))
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
