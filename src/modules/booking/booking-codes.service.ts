import type { CodeHandler, CodeHandlers, CodeTarget, FoundCode } from '../../kernel/codes';
import type { Ctx } from '../../kernel/context';
import { invalid } from '../../shared/errors';
import type { BookingRow } from './booking.store';
import { codeEventOf, type BookingStatus } from './booking.status';

/**
 * Codes on client booking requests, through the handlers other modules register
 * (kernel/codes.ts): booking imports none of them. `code` holds one code, or up to three
 * separated by commas (at most one of each kind, e.g. a promo code and a gift card); they
 * apply in the contract's lookup order, so a discount lowers the price before a gift card
 * pays what is left.
 */

export const MAX_CODES = 3;

export interface BookingCode {
  handler: CodeHandler<Ctx>;
  found: FoundCode;
}

/** The codes of a request's `code` field: split at commas, trimmed, blanks and repeats (any case) dropped. */
export function splitCodes(raw: string | null | undefined): string[] {
  const out: string[] = [];
  for (const part of (raw ?? '').split(',')) {
    const code = part.trim();
    if (code && !out.some((c) => c.toLowerCase() === code.toLowerCase())) out.push(code);
  }
  return out;
}

const codeError = (message: string) => invalid(message, [{ path: 'code', message }]);

/** The first handler (in lookup order) that knows `code`, or null. */
export async function findCode(ctx: Ctx, companyId: string, code: string): Promise<BookingCode | null> {
  for (const handler of ctx.deps.codes) {
    const found = await handler.find(ctx, companyId, code);
    if (found) return { handler, found };
  }
  return null;
}

/** Every code of the request, in lookup order; an unknown code, too many or two of one kind are 400. */
export async function resolveCodes(ctx: Ctx, companyId: string, raw: string | null | undefined): Promise<BookingCode[]> {
  const codes = splitCodes(raw);
  if (codes.length > MAX_CODES) throw codeError(`at most ${MAX_CODES} codes per booking`);
  const out: BookingCode[] = [];
  for (const code of codes) {
    const hit = await findCode(ctx, companyId, code);
    if (!hit) throw codeError('unknown code');
    if (out.some((o) => o.handler === hit.handler)) throw codeError(`at most one ${hit.handler.namespace} code per booking`);
    out.push(hit);
  }
  const order = (c: BookingCode) => ctx.deps.codes.indexOf(c.handler);
  return out.sort((a, b) => order(a) - order(b));
}

/** What a booking costs once its codes apply: `price` (discounts lower it) and `due` (what is left to pay). */
export interface CodedPrice {
  price: number;
  due: number;
}

/** The target of a code on a booking row at `price`/`due`, in the company's `timeZone`. */
export function targetOf(row: BookingRow, clientId: string | null, at: CodedPrice, timeZone: string): CodeTarget {
  const tickets = Object.keys(row.tickets).length ? Object.fromEntries(Object.entries(row.tickets).map(([id, t]) => [id, t.spots])) : null;
  return {
    companyId: row.companyId,
    bookingId: row.id,
    clientId,
    serviceId: row.serviceId,
    resourceId: row.resourceId,
    start: row.start,
    end: row.end ?? row.start + (row.durationSec ?? 0) * 1000,
    spots: row.spots,
    tickets,
    timeZone,
    price: at.price,
    due: at.due,
    currency: row.currency,
  };
}

const after = (at: CodedPrice, effect: { discount: number; covered: number }): CodedPrice => {
  const price = Math.max(0, at.price - effect.discount);
  return { price, due: Math.max(0, Math.min(price, at.due - effect.discount) - effect.covered) };
};

/**
 * The friendly pre-check, outside the booking's transaction: throws the reason of the first
 * code that cannot apply. The transaction applies the codes again under their locks, and that
 * is what counts.
 */
export async function checkCodes(
  ctx: Ctx,
  codes: BookingCode[],
  row: BookingRow,
  clientId: string | null,
  timeZone: string,
): Promise<CodedPrice> {
  let at: CodedPrice = { price: row.price, due: row.price };
  for (const c of codes) {
    const checked = await c.handler.check(ctx, c.found, targetOf(row, clientId, at, timeZone), ctx.now);
    if (!checked.ok) throw checked.error;
    at = after(at, checked);
  }
  return at;
}

/**
 * Applies the codes inside the booking's transaction, before the booking row is written (so
 * every booking takes the codes' locks first, then its time). Starts from `basePrice` each
 * time, as the transaction may run again after a deadlock.
 */
export async function applyCodes(
  ctx: Ctx,
  codes: BookingCode[],
  row: BookingRow,
  basePrice: number,
  clientId: string | null,
  timeZone: string,
): Promise<CodedPrice> {
  let at: CodedPrice = { price: basePrice, due: basePrice };
  for (const c of codes) at = after(at, await c.handler.apply(ctx, c.found, targetOf(row, clientId, at, timeZone), ctx.now));
  return at;
}

export interface CodedStatusChange {
  id: string;
  code: string | null;
  from: BookingStatus | null;
  to: BookingStatus;
}

/**
 * Tells every code handler about status changes of bookings that carry codes, in the
 * transaction that changed them: confirmed bookings turn their reservations into uses,
 * bookings that stop holding their time give back what their codes took.
 */
export async function followCodes(
  codes: CodeHandlers<Ctx>,
  ctx: Ctx,
  companyId: string,
  changes: readonly CodedStatusChange[],
  now: Date,
): Promise<void> {
  const coded = changes.filter((c) => c.code);
  if (!coded.length) return;
  for (const event of ['confirmed', 'released'] as const) {
    const ids = coded.filter((c) => codeEventOf(c.from, c.to) === event).map((c) => c.id);
    if (!ids.length) continue;
    for (const handler of codes) await handler.bookingsChanged(ctx, companyId, ids, event, now);
  }
}
