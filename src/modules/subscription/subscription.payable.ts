import type { EntityManager } from '@mikro-orm/postgresql';
import type { SettlementOutcome } from '../../kernel/payable';
import { isUuid } from '../../shared/ids';
import { periodAt } from './periods';
import { SubscriptionContract } from './subscription.entity';
import { allocatePeriod } from './ledger.service';
import { addDuration } from './subscription.checks';
import { companyZone, planOf, recurrenceOf } from './visits.store';
import { recordContractEvents } from './subscription.events';
import { auditAll, contractChange } from './subscription.audit';

/**
 * The subscription module's side of payments. A cart checkout or a purchase is one payment
 * transaction with `itemType` `subscription` whose items are the contracts; a renewal is one
 * with `itemType` `subscription_renewal` over the renewed contracts. Payment settles them here,
 * inside the transaction that settled the payment, with the contracts locked in id order.
 */

export const SUBSCRIPTION_ITEM = 'subscription';
export const RENEWAL_ITEM = 'subscription_renewal';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

async function lockContracts(em: EntityManager, companyId: string, itemIds: readonly string[]): Promise<SubscriptionContract[]> {
  const ids = [...new Set(itemIds.filter(isUuid).map((id) => id.toLowerCase()))];
  if (!ids.length) return [];
  const rows = await em.execute<Record<string, unknown>[]>(
    'select * from subscription_contract where company_id = ? and id = any(?::uuid[]) order by id for update',
    [companyId, `{${ids.join(',')}}`],
  );
  return rows.map((r) => em.map(SubscriptionContract, r));
}

const activationFields = (c: SubscriptionContract) => ({
  status: c.status,
  activeFrom: c.activeFrom,
  expiresAt: c.expiresAt,
  inCart: c.inCart,
  pendingExpiresAt: c.pendingExpiresAt,
  periodStart: c.periodStart,
  periodEnd: c.periodEnd,
  periodIndex: c.periodIndex,
});

/**
 * Makes a paid (or free) `pending_payment` contract `active` from `now`: `expiresAt` is now
 * plus its duration (no duration: open-ended), the current period is the first one, and that
 * period's `ALLOCATION` of `bookingsCount` visits is appended. The contract must be locked.
 */
export async function activateContract(em: EntityManager, c: SubscriptionContract, now: Date): Promise<void> {
  const zone = await companyZone(em, c.companyId);
  const expiresAt = c.duration ? addDuration(now, c.duration, zone) : null;
  const before = activationFields(c);
  Object.assign(c, { status: 'active', activeFrom: now, expiresAt, inCart: false, pendingExpiresAt: null, updatedAt: now });
  const period = periodAt(planOf(c, await recurrenceOf(em, c.companyId, c.subscriptionId)), zone, now.getTime());
  c.periodStart = period ? new Date(period.start) : now;
  c.periodEnd = period?.end != null ? new Date(period.end) : expiresAt;
  c.periodIndex = 0;
  await em.execute(
    `update subscription_contract set status = 'active', active_from = ?::timestamptz, expires_at = ?::timestamptz, in_cart = false,
            pending_expires_at = null, period_start = ?::timestamptz, period_end = ?::timestamptz, period_index = 0, updated_at = ?::timestamptz
      where company_id = ? and id = ?`,
    [iso(now), iso(expiresAt), iso(c.periodStart), iso(c.periodEnd), iso(now), c.companyId, c.id],
    'run',
  );
  await auditAll(em, [contractChange(c.companyId, c.id, before, activationFields(c))]);
  // the row is written: the entity's new state is its stored one, so no flush writes (and records) it again
  em.getUnitOfWork().merge(c);
  await allocatePeriod(em, c, now, 'first period');
  await recordContractEvents(em, c.companyId, [c.id], 'subscription.activated', now);
}

/** Cancels locked `pending_payment` contracts: they stop holding capacity. */
export async function cancelPending(em: EntityManager, companyId: string, ids: readonly string[], now: Date): Promise<void> {
  if (!ids.length) return;
  const rows = await em.execute<{ id: string; in_cart: boolean }[]>(
    `update subscription_contract c set status = 'cancelled', in_cart = false, cancelled_at = ?::timestamptz, updated_at = ?::timestamptz
       from (select id, in_cart from subscription_contract where company_id = ? and id = any(?::uuid[]) and status = 'pending_payment' for update) o
      where c.id = o.id
      returning c.id, o.in_cart`,
    [iso(now), iso(now), companyId, `{${ids.join(',')}}`],
  );
  await auditAll(
    em,
    rows.map((r) => cancelledChange(companyId, r.id, r.in_cart, now)),
  );
}

/** The entry of a `pending_payment` contract cancelled with SQL. */
export const cancelledChange = (companyId: string, id: string, inCart: boolean, now: Date) =>
  contractChange(
    companyId,
    id,
    { status: 'pending_payment', inCart, cancelledAt: null },
    { status: 'cancelled', inCart: false, cancelledAt: now },
  );

/** A checkout's or purchase's outcome: paid activates its contracts, anything else cancels them (capacity comes back). */
export async function settleSubscriptions(
  em: EntityManager,
  companyId: string,
  itemIds: readonly string[],
  outcome: SettlementOutcome,
  now: Date,
): Promise<void> {
  const pending = (await lockContracts(em, companyId, itemIds)).filter((c) => c.status === 'pending_payment');
  if (outcome !== 'paid')
    return cancelPending(
      em,
      companyId,
      pending.map((c) => c.id),
      now,
    );
  for (const c of pending) await activateContract(em, c, now);
}

const renewalFields = (c: SubscriptionContract) => ({
  status: c.status,
  expiresAt: c.expiresAt,
  renewedAt: c.renewedAt,
  renewalTransactionId: c.renewalTransactionId,
  renewalPaymentUrl: c.renewalPaymentUrl,
});

/**
 * Extends a renewed contract by one more duration from its current end (from now when that has
 * passed), once its renewal is paid; the next period's allocation and rollover follow at the
 * period change (subscription.sweeper.ts). The contract must be locked.
 */
export async function extendContract(em: EntityManager, c: SubscriptionContract, now: Date): Promise<void> {
  const from = c.expiresAt && c.expiresAt > now ? c.expiresAt : now;
  const expiresAt = c.duration ? addDuration(from, c.duration, await companyZone(em, c.companyId)) : null;
  await em.execute(
    `update subscription_contract set status = 'active', expires_at = ?::timestamptz, renewed_at = ?::timestamptz, renewal_transaction_id = null,
            renewal_payment_url = null, updated_at = ?::timestamptz where company_id = ? and id = ?`,
    [iso(expiresAt), iso(now), iso(now), c.companyId, c.id],
    'run',
  );
  const renewed = { status: 'active', expiresAt, renewedAt: now, renewalTransactionId: null, renewalPaymentUrl: null };
  await auditAll(em, [contractChange(c.companyId, c.id, renewalFields(c), renewed)]);
  await recordContractEvents(em, c.companyId, [c.id], 'subscription.renewed', now);
}

/**
 * A renewal's outcome: paid extends the contracts that wait for it (one that expired while its
 * renewal was being paid is active again from now; its periods catch up in the sweeper);
 * otherwise they stay as they were. A contract cancelled meanwhile is not revived.
 */
export async function settleRenewals(
  em: EntityManager,
  companyId: string,
  itemIds: readonly string[],
  outcome: SettlementOutcome,
  now: Date,
): Promise<void> {
  const waiting = (await lockContracts(em, companyId, itemIds)).filter((c) => c.renewalTransactionId !== null);
  for (const c of waiting) {
    if (outcome === 'paid' && c.status !== 'cancelled') await extendContract(em, c, now);
    else {
      await em.execute(
        `update subscription_contract set renewal_transaction_id = null, renewal_payment_url = null, updated_at = ?::timestamptz
          where company_id = ? and id = ?`,
        [iso(now), companyId, c.id],
        'run',
      );
      await auditAll(em, [
        contractChange(companyId, c.id, renewalFields(c), { ...renewalFields(c), renewalTransactionId: null, renewalPaymentUrl: null }),
      ]);
    }
  }
}
