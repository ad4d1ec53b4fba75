import { DomainError, invalid, translateDbError } from '../../shared/errors';
import { Check } from '../../shared/validate';
import { takesPayments } from '../payment/payment.api';
import { idempotencyOf, type Idempotency } from './idempotency';
import type { ClientBookingJson } from './booking.json';
import { startBookingPayment } from './booking.payable';
import {
  applyBookingCodes,
  caller,
  checkRequest,
  paymentFor,
  payerOf,
  prepareClientBooking,
  writeClientBooking,
  type Caller,
  type ParsedRequest,
  type PreparedBooking,
} from './client-booking.service';
import { commitCreation, replayOr } from './booking-placement.service';
import type { Ctx } from '../../kernel/context';

/** Several client bookings with one payment: all are written in one transaction or none is. */

export const MAX_BATCH = 50;

export interface RequestBookingsInput {
  bookings?: unknown;
  client?: unknown;
}

export interface BookingBatchJson {
  bookings: ClientBookingJson[];
  currency: string | null;
  paymentURL: string | null;
  totalAmount: number;
  transactionID: string | null;
}

const at = (i: number) => `bookings[${i}]`;

/**
 * The failure of one booking as the batch's failure, naming the booking: a time conflict
 * (found by the check or by the database constraint) is reported at `bookings[i]`, field
 * problems at `bookings[i].<field>`. Anything that is not the client's doing passes unchanged.
 */
function failedAt(i: number, err: unknown): unknown {
  const e = err instanceof DomainError ? err : translateDbError(err);
  if (!e) return err;
  const details =
    e.code !== 'time_unavailable' && e.details?.length
      ? e.details.map((d) => ({ path: `${at(i)}.${d.path}`, message: d.message }))
      : [{ path: at(i), message: e.message }];
  const named = new DomainError(e.code, `${at(i)}: ${e.message}`, details);
  named.retryAfterSec = e.retryAfterSec; // a 503's Retry-After
  return named;
}

async function each<T>(n: number, run: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i++) {
    try {
      out.push(await run(i));
    } catch (err) {
      throw failedAt(i, err);
    }
  }
  return out;
}

const emailOf = (guest: unknown): string | null => {
  const email = (guest as { email?: unknown } | null | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : null;
};

/**
 * Client interface: requests up to 50 bookings of one company paid with one payment. Each
 * booking follows the rules of a single request; any booking that cannot be made fails the
 * whole batch (nothing is written), and bookings of the batch that overlap each other
 * conflict like any others. A guest's `client` object goes at the top level (or on the first
 * booking). A priced batch of a company that takes payments gets one transaction covering
 * every booking in request order, and every booking waits for it as `pending`.
 */
export async function requestBookings(
  ctx: Ctx,
  input: RequestBookingsInput,
  opts: { idempotencyKey?: unknown } = {},
): Promise<BookingBatchJson> {
  const c = new Check();
  if (typeof input !== 'object' || input === null || Array.isArray(input)) c.fail('body', 'must be an object');
  const list = (input as RequestBookingsInput | null)?.bookings;
  if (list === undefined || list === null) c.fail('bookings', 'is required');
  else if (!Array.isArray(list)) c.fail('bookings', 'must be an array of booking requests');
  else if (!list.length) c.fail('bookings', 'must hold at least one booking request');
  else if (list.length > MAX_BATCH) c.fail('bookings', `must hold at most ${MAX_BATCH} booking requests`);
  c.done('invalid booking batch');

  const raw = list as unknown[];
  const reqs = raw.map((item, i) => {
    const one = new Check();
    const req = checkRequest(one, item, '');
    for (const d of one.details) c.fail(d.path ? `${at(i)}.${d.path}` : at(i), d.message);
    return req;
  });
  const companyId = reqs.find((r) => r.companyId)?.companyId;
  reqs.forEach((r, i) => {
    if (r.companyId && r.companyId !== companyId) c.fail(`${at(i)}.companyID`, 'every booking of a batch must be for the same company');
  });
  c.done('invalid booking batch');

  const guest = input.client ?? (raw[0] as { client?: unknown }).client;
  const who = await caller(ctx, companyId!, guest);
  if (who.guest) {
    raw.forEach((item, i) => {
      const other = (item as { client?: unknown }).client;
      if (other !== undefined && other !== null && emailOf(other) !== emailOf(guest))
        c.fail(`${at(i)}.client`, "must be the batch's guest (one payer per batch)");
    });
    c.done('invalid booking batch');
  }
  const idem = idempotencyOf(opts.idempotencyKey, 'booking.batch', who.id, input);
  return replayOr(ctx, who.company.id, idem, () => bookAll(ctx, who, reqs, idem));
}

/** Every priced booking must be in one currency; free ones carry no money. */
function currencyOf(bookings: PreparedBooking[]): string | null {
  const priced = bookings.filter((b) => b.row.price > 0);
  const currency = (priced[0] ?? bookings[0]).row.currency;
  const other = bookings.findIndex((b) => b.row.price > 0 && b.row.currency !== currency);
  if (other >= 0) {
    throw invalid('every priced booking of a batch must be in one currency', [
      { path: at(other), message: `is priced in ${bookings[other].row.currency}, not ${currency}` },
    ]);
  }
  return currency;
}

const taxKey = (b: PreparedBooking): string =>
  JSON.stringify([b.service.settings?.tax?.inclusive ?? false, b.service.settings?.tax?.rate ?? 0]);

async function bookAll(ctx: Ctx, who: Caller, reqs: ParsedRequest[], idem: Idempotency | undefined): Promise<BookingBatchJson> {
  const prepared = await each(reqs.length, (i) => prepareClientBooking(ctx, who, reqs[i]));
  const currency = currencyOf(prepared);
  return commitCreation(ctx, who.company.id, idem, false, async (tx) => {
    const client = await payerOf(tx, who);
    // Every code is taken before any booking is written: one lock order for all bookings.
    await each(prepared.length, (i) => applyBookingCodes(tx, prepared[i], client));
    const totalAmount = prepared.reduce((sum, b) => sum + b.due, 0);
    let payment = null;
    if (totalAmount > 0) {
      // One transaction carries one tax rate. Asked only when it matters: the check costs a query.
      const priced = prepared.filter((b) => b.due > 0);
      const mixed = prepared.findIndex((b) => b.due > 0 && taxKey(b) !== taxKey(priced[0]));
      if (mixed >= 0 && (await takesPayments(tx, who.company.id))) {
        throw invalid('every priced booking of a batch paid at once must have the same tax settings', [
          { path: at(mixed), message: 'its service has other tax settings than the first priced booking' },
        ]);
      }
      payment = await startBookingPayment(tx, paymentFor(who.company.id, prepared, client));
    }
    const bookings = await each(prepared.length, (i) => writeClientBooking(tx, prepared[i], client, payment));
    return { bookings, currency, paymentURL: payment?.paymentURL ?? null, totalAmount, transactionID: payment?.transactionId ?? null };
  });
}
