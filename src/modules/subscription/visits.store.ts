import { periodAt, type Period, type PeriodPlan } from './periods';
import { normaliseContractCode } from './contract.service';
import type { LedgerEntry } from './ledger.service';
import { SubscriptionContract, type Subscription, type VisitTransactionType } from './subscription.entity';
import type { Ctx } from '../../kernel/context';

/**
 * What the commerce side reads around the visit ledger: contracts by code, a contract's
 * periods, balances per period. Entries are appended through the ledger service only.
 */

const iso = (d: Date | number) => new Date(d).toISOString();

/** The company's contract with this code (typed codes ignore case, spaces and hyphens), or null. */
export async function contractByCode(ctx: Ctx, companyId: string, code: string): Promise<SubscriptionContract | null> {
  const normal = normaliseContractCode(code);
  if (!normal) return null;
  const rows = await ctx.em.execute<Record<string, unknown>[]>('select * from subscription_contract where company_id = ? and code = ?', [
    companyId,
    normal,
  ]);
  return rows.length ? ctx.em.map(SubscriptionContract, rows[0]) : null;
}

/** The company's IANA time zone. */
export async function companyZone(ctx: Ctx, companyId: string): Promise<string> {
  const rows = await ctx.em.execute<{ time_zone: string }[]>('select time_zone from company where id = ?', [companyId]);
  return rows[0]?.time_zone ?? 'UTC';
}

/** How the contract's periods run: its own term, the subscription's recurrence (periods.ts). */
export function planOf(
  contract: SubscriptionContract,
  subscription: Pick<Subscription, 'rRule' | 'recurringInterval' | 'recurringIntervalCount'> | null,
): PeriodPlan {
  return {
    start: (contract.activeFrom ?? contract.createdAt).getTime(),
    end: contract.expiresAt ? contract.expiresAt.getTime() : null,
    rRule: subscription?.rRule ?? null,
    recurringInterval: subscription?.recurringInterval ?? null,
    recurringIntervalCount: subscription?.recurringIntervalCount ?? null,
    duration: contract.duration,
  };
}

/** The recurrence fields of a contract's subscription (null when it is gone). */
export async function recurrenceOf(
  ctx: Ctx,
  companyId: string,
  subscriptionId: string,
): Promise<Pick<Subscription, 'rRule' | 'recurringInterval' | 'recurringIntervalCount' | 'rollOverSettings' | 'title'> | null> {
  const rows = await ctx.em.execute<
    {
      rrule: string | null;
      recurring_interval: Subscription['recurringInterval'];
      recurring_interval_count: number | null;
      roll_over_settings: Subscription['rollOverSettings'];
      title: string;
    }[]
  >(
    'select rrule, recurring_interval, recurring_interval_count, roll_over_settings, title from subscription where company_id = ? and id = ?',
    [companyId, subscriptionId],
  );
  if (!rows.length) return null;
  const r = rows[0];
  return {
    rRule: r.rrule,
    recurringInterval: r.recurring_interval,
    recurringIntervalCount: r.recurring_interval_count,
    rollOverSettings: r.roll_over_settings ?? { rollOverType: 'none', settings: {} },
    title: r.title,
  };
}

/** The period of the contract `at` falls in (null outside the contract). */
export async function contractPeriodAt(ctx: Ctx, contract: SubscriptionContract, zone: string, at: number): Promise<Period | null> {
  return periodAt(planOf(contract, await recurrenceOf(ctx, contract.companyId, contract.subscriptionId)), zone, at);
}

/** Sum of the entries of one period of a contract, and whether the period got its allocation. */
export async function periodBalance(
  ctx: Ctx,
  companyId: string,
  contractId: string,
  periodStart: Date | number,
): Promise<{ balance: number; allocated: boolean }> {
  const rows = await ctx.em.execute<{ balance: string | number; allocated: boolean }[]>(
    `select coalesce(sum(amount), 0) as balance, coalesce(bool_or(transaction_type = 'ALLOCATION'), false) as allocated
       from subscription_visit where company_id = ? and contract_id = ? and period_start = ?::timestamptz`,
    [companyId, contractId, iso(periodStart)],
  );
  return { balance: Number(rows[0].balance), allocated: rows[0].allocated };
}

/** A ledger entry of `c` at `now` in the period starting `periodStart`. */
export function entryOf(
  c: SubscriptionContract,
  amount: number,
  transactionType: VisitTransactionType,
  periodStart: Date | number | null,
  now: Date,
  extra: Partial<Pick<LedgerEntry, 'usageId' | 'reason' | 'expiresAt'>> = {},
): LedgerEntry {
  return {
    companyId: c.companyId,
    contractId: c.id,
    subscriptionId: c.subscriptionId,
    clientId: c.clientId,
    amount,
    transactionType,
    periodStart: periodStart === null ? null : new Date(periodStart),
    at: now,
    ...extra,
  };
}
