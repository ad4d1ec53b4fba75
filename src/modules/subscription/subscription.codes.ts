import type { CodeCheck, CodeEffect, CodeHandler, CodeTarget, FoundCode } from '../../kernel/codes';
import { DomainError, invalid } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { formatTimestamp } from '../../shared/time';
import { failedLimitation } from './limitations';
import type { Period } from './periods';
import type { SubscriptionContract } from './subscription.entity';
import { append, lockContract } from './ledger.service';
import { contractByCode, contractPeriodAt, entryOf, periodBalance } from './visits.store';
import type { Ctx } from '../../kernel/context';

/**
 * Subscription contract codes on booking requests (`pluginNameSpace` `subscription`). A booking
 * with a contract code is covered in full (nothing is left to pay; its price stays what the
 * service costs) when:
 * - the contract is `active` and the booking starts in `[activeFrom, expiresAt)`;
 * - the contract is the booking's client's: a client token's client, or the client a guest's
 *   details resolve to (a contract issued to nobody in particular is anyone's who has the code);
 * - every limitation holds (limitations.ts), and
 * - a visit is left in the period the booking starts in (`bookingsCount` per period; without
 *   `bookingsCount` visits are not counted and the ledger is not written).
 * A contract that cannot pay (unpaid, cancelled, expired, another client's) or a booking that
 * breaks a limitation is `400 invalid_request` naming the limitation (`details[0].path`
 * `code`); no visit left is `409 insufficient_balance`. Nothing is booked in either case.
 *
 * In the booking's transaction the contract row is locked first (`select ... for update`),
 * then the period's balance is read and the usage with its `USAGE` entry (-1) is appended, so
 * parallel bookings never take more visits than are left. A period that has no allocation yet
 * (a booking ahead of the current period) gets its `ALLOCATION` then, under the same lock.
 * The usage is `reserved` while the booking is pending and `used` once it is confirmed; a
 * booking that fails, is cancelled or rejected cancels its usage and appends a `REVERSAL` (+1),
 * never deleting anything (and an `EXPIRATION` (-1) when that period is already over).
 */

export const SUBSCRIPTION_NAMESPACE = 'subscription';

const at = (message: string) => [{ path: 'code', message }];
const say = (m: string) => invalid(m, at(m));

const responseOf = (
  c: SubscriptionContract,
  period: Period | null,
  left: number | null,
  limitation: string | null,
  error: string | null,
) => ({
  subscriptionContractID: c.id,
  subscriptionID: c.subscriptionId,
  status: c.status,
  expiresAt: formatTimestamp(c.expiresAt),
  periodStart: period ? formatTimestamp(period.start) : null,
  periodEnd: period ? formatTimestamp(period.end) : null,
  visitsLeft: left,
  failedLimitation: limitation,
  errorMessage: error,
});

interface Verdict {
  error: DomainError | null;
  limitation: string | null;
  period: Period | null;
}

/** A contract issued to one client, checked for another (a guest's client is not known before the booking's transaction). */
const isAnotherClients = (c: SubscriptionContract, target: CodeTarget): boolean =>
  target.clientId !== null && c.clientId !== null && c.clientId !== target.clientId;

/** Why the contract cannot cover the booking (before counting visits), or null. */
async function refusal(ctx: Ctx, c: SubscriptionContract, target: CodeTarget, now: Date): Promise<Verdict> {
  const no = (error: DomainError, limitation: string | null = null): Verdict => ({ error, limitation, period: null });
  // First: nothing about another client's contract (not even its state) is told.
  if (isAnotherClients(c, target)) return no(say("the subscription contract is another client's"), 'clientID');
  if (c.status === 'pending_payment') return no(say('the subscription contract is not paid yet'), 'status');
  if (c.status === 'cancelled') return no(say('the subscription contract is cancelled'), 'status');
  if (c.status === 'expired' || (c.expiresAt && c.expiresAt.getTime() <= now.getTime()))
    return no(say('the subscription contract has expired'), 'status');
  const failed = failedLimitation(
    {
      limitations: c.limitations,
      serviceIds: c.serviceIds,
      resourceIds: c.resourceIds,
      activeFrom: c.activeFrom ? c.activeFrom.getTime() : null,
      expiresAt: c.expiresAt ? c.expiresAt.getTime() : null,
    },
    {
      start: target.start,
      end: target.end,
      spots: target.spots,
      tickets: target.tickets,
      serviceId: target.serviceId,
      resourceId: target.resourceId,
    },
    target.timeZone,
  );
  if (failed) return no(invalid(`${failed.message} (${failed.name})`, at(`${failed.message} (${failed.name})`)), failed.name);
  const period = await contractPeriodAt(ctx, c, target.timeZone, target.start);
  if (!period) return no(say('the booking is outside the subscription contract'), 'expiresAt');
  return { error: null, limitation: null, period };
}

const visitsPerPeriod = (c: SubscriptionContract): number | null => {
  const n = c.limitations?.bookingsCount;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null;
};

/** Visits left in the period: the ledger's sum, or the whole allocation when the period has none yet. */
async function visitsLeft(ctx: Ctx, c: SubscriptionContract, period: Period): Promise<{ left: number; allocated: boolean }> {
  const { balance, allocated } = await periodBalance(ctx, c.companyId, c.id, period.start);
  return { left: allocated ? balance : balance + (visitsPerPeriod(c) ?? 0), allocated };
}

const exhausted = (c: SubscriptionContract) => {
  const m = `no visits left in this period of the subscription contract (bookingsCount ${visitsPerPeriod(c)})`;
  return new DomainError('insufficient_balance', m, at(m));
};

export const subscriptionHandler: CodeHandler<Ctx> = {
  namespace: SUBSCRIPTION_NAMESPACE,

  async find(ctx, companyId, code): Promise<FoundCode | null> {
    const c = await contractByCode(ctx, companyId, code);
    return c ? { namespace: SUBSCRIPTION_NAMESPACE, ref: c.id, code: c.code } : null;
  },

  async check(ctx, found, target, now): Promise<CodeCheck> {
    const c = await contractByCode(ctx, target.companyId, found.code);
    if (!c) return { ok: false, error: say('unknown code'), response: {} };
    if (isAnotherClients(c, target))
      return { ok: false, error: say("the subscription contract is another client's"), response: {}, unknown: true };
    const v = await refusal(ctx, c, target, now);
    if (v.error) return { ok: false, error: v.error, response: responseOf(c, null, null, v.limitation, v.error.message) };
    if (visitsPerPeriod(c) === null)
      return { ok: true, discount: 0, covered: target.due, response: responseOf(c, v.period, null, null, null) };
    const { left } = await visitsLeft(ctx, c, v.period!);
    if (left < 1) {
      const error = exhausted(c);
      return { ok: false, error, response: responseOf(c, v.period, left, 'bookingsCount', error.message) };
    }
    return { ok: true, discount: 0, covered: target.due, response: responseOf(c, v.period, left - 1, null, null) };
  },

  async apply(ctx, found, target, now): Promise<CodeEffect> {
    // The contract's row lock queues every booking using it: each reads the balance the previous one left.
    const c = await lockContract(ctx, target.companyId, found.ref);
    if (!c) throw say('unknown code');
    const v = await refusal(ctx, c, target, now);
    if (v.error) throw v.error;
    const period = v.period!;
    const perPeriod = visitsPerPeriod(c);
    let left: number | null = null;
    if (perPeriod !== null) {
      const balance = await visitsLeft(ctx, c, period);
      if (balance.left < 1) throw exhausted(c);
      if (!balance.allocated && perPeriod > 0)
        await append(
          ctx,
          entryOf(c, perPeriod, 'ALLOCATION', period.start, now, {
            reason: 'period allocation',
            expiresAt: period.end === null ? null : new Date(period.end),
          }),
        );
      left = balance.left - 1;
    }
    const usageId = newId();
    await ctx.em.execute(
      `insert into subscription_usage (id, company_id, contract_id, subscription_id, client_id, booking_id, source, status, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, 'booking', 'reserved', ?::timestamptz, ?::timestamptz)`,
      [usageId, c.companyId, c.id, c.subscriptionId, target.clientId ?? c.clientId, target.bookingId, now.toISOString(), now.toISOString()],
      'run',
    );
    if (perPeriod !== null) await append(ctx, entryOf(c, -1, 'USAGE', period.start, now, { usageId, reason: 'booking' }));
    return { discount: 0, covered: target.due, response: responseOf(c, period, left, null, null) };
  },

  async bookingsChanged(ctx, companyId, bookingIds, event, now): Promise<void> {
    if (!bookingIds.length) return;
    const ids = `{${bookingIds.join(',')}}`;
    if (event === 'confirmed') {
      await ctx.em.execute(
        `update subscription_usage set status = 'used', updated_at = ?::timestamptz
          where company_id = ? and booking_id = any(?::uuid[]) and status = 'reserved'`,
        [now.toISOString(), companyId, ids],
        'run',
      );
      return;
    }
    await releaseUsages(ctx, companyId, ids, now);
  },
};

/**
 * Cancels the live usages of released bookings and gives their visits back with a `REVERSAL`
 * entry in the period the visit was taken from; when that period is already over, its unused
 * visit lapses at once (`EXPIRATION`), as the period's end would have done. Contracts are
 * locked in id order first, so two releases cannot deadlock.
 */
async function releaseUsages(ctx: Ctx, companyId: string, bookingIdsArray: string, now: Date): Promise<void> {
  const usages = await ctx.em.execute<{ id: string; contract_id: string }[]>(
    `select id, contract_id from subscription_usage where company_id = ? and booking_id = any(?::uuid[]) and status <> 'cancelled'`,
    [companyId, bookingIdsArray],
  );
  if (!usages.length) return;
  const contractIds = [...new Set(usages.map((u) => u.contract_id))].sort();
  const contracts = new Map<string, SubscriptionContract>();
  for (const id of contractIds) {
    const c = await lockContract(ctx, companyId, id);
    if (c) contracts.set(id, c);
  }
  const cancelled = await ctx.em.execute<{ id: string; contract_id: string }[]>(
    `update subscription_usage set status = 'cancelled', updated_at = ?::timestamptz
      where company_id = ? and id = any(?::uuid[]) and status <> 'cancelled' returning id, contract_id`,
    [now.toISOString(), companyId, `{${usages.map((u) => u.id).join(',')}}`],
  );
  for (const u of cancelled) {
    const c = contracts.get(u.contract_id);
    if (!c) continue;
    const taken = await ctx.em.execute<{ period_start: Date | null }[]>(
      `select period_start from subscription_visit where company_id = ? and usage_id = ? and transaction_type = 'USAGE' limit 1`,
      [companyId, u.id],
    );
    if (!taken.length) continue; // visits were not counted for this contract
    const periodStart = taken[0].period_start;
    await append(ctx, entryOf(c, 1, 'REVERSAL', periodStart, now, { usageId: u.id, reason: 'booking released' }));
    const closed = c.status !== 'active' || (c.periodStart && periodStart && new Date(periodStart) < c.periodStart);
    if (closed)
      await append(ctx, entryOf(c, -1, 'EXPIRATION', periodStart, now, { usageId: u.id, reason: 'released after its period ended' }));
  }
}
