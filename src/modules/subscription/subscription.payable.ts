import type { SettlementOutcome } from '../../kernel/payable';
import { isUuid } from '../../shared/ids';
import { periodAt } from './periods';
import { SubscriptionContract } from './subscription.entity';
import { allocatePeriod } from './ledger.service';
import { addDuration } from './subscription.checks';
import { companyZone, planOf, recurrenceOf } from './visits.store';
import { recordContractEvents } from './subscription.events';
import { canApply, fromStatusesSql, targetSql, transitionContract, type ContractEvent } from './subscription.status';
import type { Ctx } from '../../kernel/context';

/**
 * The subscription module's side of payments. A cart checkout or a purchase is one payment
 * transaction with `itemType` `subscription` whose items are the contracts; a renewal is one
 * with `itemType` `subscription_renewal` over the renewed contracts. Payment settles them here,
 * inside the transaction that settled the payment, with the contracts locked in id order.
 */

export const SUBSCRIPTION_ITEM = 'subscription';
export const RENEWAL_ITEM = 'subscription_renewal';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

async function lockContracts(ctx: Ctx, companyId: string, itemIds: readonly string[]): Promise<SubscriptionContract[]> {
  const ids = [...new Set(itemIds.filter(isUuid).map((id) => id.toLowerCase()))];
  if (!ids.length) return [];
  const rows = await ctx.em.execute<Record<string, unknown>[]>(
    'select * from subscription_contract where company_id = ? and id = any(?::uuid[]) order by id for update',
    [companyId, `{${ids.join(',')}}`],
  );
  return rows.map((r) => ctx.em.map(SubscriptionContract, r));
}

/**
 * Makes a paid (or free) `pending_payment` contract `active` from `now` (event `pay`; 409 for
 * a contract in another status): `expiresAt` is now plus its duration (no duration:
 * open-ended), the current period is the first one, and that period's `ALLOCATION` of
 * `bookingsCount` visits is appended. The contract must be locked.
 */
export async function activateContract(ctx: Ctx, c: SubscriptionContract, now: Date): Promise<void> {
  const status = transitionContract(c.status, 'pay');
  const zone = await companyZone(ctx, c.companyId);
  const expiresAt = c.duration ? addDuration(now, c.duration, zone) : null;
  Object.assign(c, { status, activeFrom: now, expiresAt, inCart: false, pendingExpiresAt: null, updatedAt: now });
  const period = periodAt(planOf(c, await recurrenceOf(ctx, c.companyId, c.subscriptionId)), zone, now.getTime());
  c.periodStart = period ? new Date(period.start) : now;
  c.periodEnd = period?.end != null ? new Date(period.end) : expiresAt;
  c.periodIndex = 0;
  await ctx.em.execute(
    `update subscription_contract set status = ?, active_from = ?::timestamptz, expires_at = ?::timestamptz, in_cart = false,
            pending_expires_at = null, period_start = ?::timestamptz, period_end = ?::timestamptz, period_index = 0, updated_at = ?::timestamptz
      where company_id = ? and id = ?`,
    [status, iso(now), iso(expiresAt), iso(c.periodStart), iso(c.periodEnd), iso(now), c.companyId, c.id],
    'run',
  );
  // the row is written: the entity's new state is its stored one, so no flush writes it again
  ctx.em.getUnitOfWork().merge(c);
  await allocatePeriod(ctx, c, now, 'first period');
  await recordContractEvents(ctx, c.companyId, [c.id], 'subscription.activated', now);
}

/** How an unpaid contract ends without its payment: the payment failed, or the client took it out of the cart. */
export type PendingEnd = Extract<ContractEvent, 'fail_payment' | 'remove'>;

/** Cancels the contracts among `ids` that `event` is allowed for (`pending_payment` ones): they stop holding capacity. */
export async function cancelPending(ctx: Ctx, companyId: string, ids: readonly string[], now: Date, event: PendingEnd): Promise<void> {
  if (!ids.length) return;
  await ctx.em.execute(
    `update subscription_contract c set status = ${targetSql(event, 'o.status')}, in_cart = false, cancelled_at = ?::timestamptz, updated_at = ?::timestamptz
       from (select id, status from subscription_contract where company_id = ? and id = any(?::uuid[]) and ${fromStatusesSql(event)} for update) o
      where c.id = o.id`,
    [iso(now), iso(now), companyId, `{${ids.join(',')}}`],
    'run',
  );
}

/** A checkout's or purchase's outcome: paid activates its contracts, anything else cancels them (capacity comes back). */
export async function settleSubscriptions(
  ctx: Ctx,
  companyId: string,
  itemIds: readonly string[],
  outcome: SettlementOutcome,
  now: Date,
): Promise<void> {
  const event = outcome === 'paid' ? 'pay' : 'fail_payment';
  const pending = (await lockContracts(ctx, companyId, itemIds)).filter((c) => canApply(c.status, event));
  if (event === 'fail_payment')
    return cancelPending(
      ctx,
      companyId,
      pending.map((c) => c.id),
      now,
      event,
    );
  for (const c of pending) await activateContract(ctx, c, now);
}

/**
 * Extends a renewed contract by one more duration from its current end (from now when that has
 * passed), once its renewal is paid (event `renew`: an expired contract runs again, a cancelled
 * one is 409); the next period's allocation and rollover follow at the period change
 * (subscription.sweeper.ts). The contract must be locked.
 */
export async function extendContract(ctx: Ctx, c: SubscriptionContract, now: Date): Promise<void> {
  const status = transitionContract(c.status, 'renew');
  const from = c.expiresAt && c.expiresAt > now ? c.expiresAt : now;
  const expiresAt = c.duration ? addDuration(from, c.duration, await companyZone(ctx, c.companyId)) : null;
  await ctx.em.execute(
    `update subscription_contract set status = ?, expires_at = ?::timestamptz, renewed_at = ?::timestamptz, renewal_transaction_id = null,
            renewal_payment_url = null, updated_at = ?::timestamptz where company_id = ? and id = ?`,
    [status, iso(expiresAt), iso(now), iso(now), c.companyId, c.id],
    'run',
  );
  await recordContractEvents(ctx, c.companyId, [c.id], 'subscription.renewed', now);
}

/**
 * A renewal's outcome: paid extends the contracts that wait for it (one that expired while its
 * renewal was being paid is active again from now; its periods catch up in the sweeper);
 * otherwise they stay as they were. A contract cancelled meanwhile is not revived.
 */
export async function settleRenewals(
  ctx: Ctx,
  companyId: string,
  itemIds: readonly string[],
  outcome: SettlementOutcome,
  now: Date,
): Promise<void> {
  const waiting = (await lockContracts(ctx, companyId, itemIds)).filter((c) => c.renewalTransactionId !== null);
  for (const c of waiting) {
    if (outcome === 'paid' && canApply(c.status, 'renew')) await extendContract(ctx, c, now);
    else {
      await ctx.em.execute(
        `update subscription_contract set renewal_transaction_id = null, renewal_payment_url = null, updated_at = ?::timestamptz
          where company_id = ? and id = ?`,
        [iso(now), companyId, c.id],
        'run',
      );
    }
  }
}
