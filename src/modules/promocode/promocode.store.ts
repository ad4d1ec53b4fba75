import { newId } from '../../shared/ids';
import { totalLimitOf } from './discount';
import { PromoCode } from './promocode.entity';
import { countsAsUsage, PROMO_USAGE_STATUSES, usageStatusesBefore, type PromoUsageStatus } from './promo-usage.status';
import type { Ctx } from '../../kernel/context';

/**
 * The SQL that changes usages and counts, run inside a booking's transaction. A code's count
 * changes only while its row is locked (`for update`), so concurrent bookings with one code
 * queue on that lock and each sees the count the previous one left.
 */

const LIVE = PROMO_USAGE_STATUSES.filter(countsAsUsage);
const list = (values: readonly string[]) => `{${values.join(',')}}`;

/** The company's code matching `code` in any case (the unique index on lower(code)), or null. */
export async function findPromoByCode(ctx: Ctx, companyId: string, code: string): Promise<PromoCode | null> {
  const rows = await ctx.em.execute<Record<string, unknown>[]>('select * from promo_code where company_id = ? and lower(code) = lower(?)', [
    companyId,
    code,
  ]);
  return rows.length ? ctx.em.map(PromoCode, rows[0]) : null;
}

/** The code's row, locked until the transaction ends; null when it is not in the company. */
export async function lockPromo(ctx: Ctx, companyId: string, id: string): Promise<PromoCode | null> {
  const rows = await ctx.em.execute<Record<string, unknown>[]>('select * from promo_code where company_id = ? and id = ? for update', [
    companyId,
    id,
  ]);
  return rows.length ? ctx.em.map(PromoCode, rows[0]) : null;
}

/** True when the client holds a reserved or used usage of the code. */
export async function clientHasUsage(ctx: Ctx, companyId: string, promoCodeId: string, clientId: string): Promise<boolean> {
  const rows = await ctx.em.execute(
    'select 1 from promo_usage where company_id = ? and promo_code_id = ? and client_id = ? and status = any(?::text[]) limit 1',
    [companyId, promoCodeId, clientId, list(LIVE)],
  );
  return rows.length > 0;
}

export interface NewUsage {
  companyId: string;
  promo: PromoCode;
  clientId: string | null;
  reservationId: string;
  discountAmount: number;
  currency: string | null;
  now: Date;
}

/**
 * Counts one more usage and records it as `reserved`. The update repeats the limit as its
 * condition (and a CHECK constraint repeats it again), so even a caller that skipped the
 * lock could not exceed it; returns false when the limit is reached.
 */
export async function takeUsage(ctx: Ctx, u: NewUsage): Promise<boolean> {
  const limit = totalLimitOf(u.promo);
  const counted = await ctx.em.execute<{ id: string }[]>(
    `update promo_code set current_usage_count = current_usage_count + 1
      where company_id = ? and id = ? and (?::integer is null or current_usage_count < ?::integer)
      returning id`,
    [u.companyId, u.promo.id, limit, limit],
  );
  if (counted.length !== 1) return false;
  const usageId = newId();
  await ctx.em.execute(
    `insert into promo_usage (id, company_id, promo_code_id, client_id, reservation_id, usage_type, discount_amount, currency, status, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, 'reserved', ?::timestamptz, ?::timestamptz)`,
    [
      usageId,
      u.companyId,
      u.promo.id,
      u.clientId,
      u.reservationId,
      u.promo.usageType,
      u.discountAmount,
      u.currency,
      u.now.toISOString(),
      u.now.toISOString(),
    ],
    'run',
  );
  return true;
}

/**
 * Moves the usages of `bookingIds` to `to` (those allowed to move there); a usage that stops
 * counting gives its use back to its code, in the same statement.
 */
export async function moveUsages(
  ctx: Ctx,
  companyId: string,
  bookingIds: readonly string[],
  to: PromoUsageStatus,
  now: Date,
): Promise<void> {
  const from = usageStatusesBefore(to);
  const ids = list(bookingIds);
  const moved = `
       update promo_usage set status = ?, updated_at = ?::timestamptz
        where company_id = ? and reservation_id = any(?::uuid[]) and status = any(?::text[])
        returning id, promo_code_id`;
  if (countsAsUsage(to)) {
    await ctx.em.execute(moved, [to, now.toISOString(), companyId, ids, list(from)], 'run');
    return;
  }
  // Every usage that stops counting gives one use back. Codes are locked in id order, so two
  // releases touching the same codes cannot deadlock.
  await ctx.em.execute(
    `with moved as (${moved}
     ), per_code as (
       select promo_code_id, count(*) as n from moved group by promo_code_id
     ), locked as (
       select p.id, per_code.n from promo_code p join per_code on per_code.promo_code_id = p.id
        where p.company_id = ? order by p.id for update of p
     ), counted as (
       update promo_code p set current_usage_count = p.current_usage_count - locked.n from locked where p.id = locked.id
       returning p.id
     )
     select count(*) from counted`,
    [to, now.toISOString(), companyId, ids, list(from.filter(countsAsUsage)), companyId],
    'run',
  );
}
