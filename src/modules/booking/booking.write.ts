import type { EntityManager } from '@mikro-orm/postgresql';
import type { Ctx } from '../../kernel/context';
import { conflict, toDomainError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import type { BookableTime } from '../availability/availability.service';
import { BookedTicket, Booking, BookingStatusChange } from './booking.entity';
import { claimKey, KeyTaken, storedResponse, storeResponse, type Idempotency } from './idempotency';
import { insertBookingSql, occupiedRange, occupyAny, takeCapacity, usesCapacity, type BookingRow, type Capacity } from './booking.store';
import type { Amounts } from './booking.checks';

/** Writing new bookings: the placement a checked time gives, the rows, and the transaction around them. */

/** Where and how a booking holds time, as the availability check reported it. */
export interface Placement {
  resourceId: string;
  start: number;
  end: number | null;
  durationSec: number | null;
  bufferBeforeSec: number;
  bufferAfterSec: number;
  price: number;
  currency: string;
  tickets: Record<string, BookedTicket>;
  related: { all: string[]; any: string[] };
  capacity: Capacity | null;
  spots: number;
  ticketCounts: Record<string, number>;
}

/**
 * The placement of a bookable time. A sharable booking without a duration runs until it is
 * finished: no end, and no price until its length is known.
 */
export function placementOf(bt: BookableTime, amounts: Amounts, running: boolean): Placement {
  return {
    resourceId: bt.resourceId,
    start: bt.start,
    end: running ? null : bt.end,
    durationSec: running || bt.end === null ? null : Math.round((bt.end - bt.start) / 1000),
    bufferBeforeSec: bt.bufferBeforeSec,
    bufferAfterSec: bt.bufferAfterSec,
    price: running ? 0 : bt.price.amount,
    currency: bt.price.currency,
    tickets: bt.tickets ?? {},
    related: { all: [...new Set(bt.related.all)].filter((id) => id !== bt.resourceId), any: [...new Set(bt.related.any)].filter((id) => id !== bt.resourceId && !bt.related.all.includes(id)) },
    capacity: bt.capacity ?? null,
    spots: amounts.spots,
    ticketCounts: amounts.tickets ?? {},
  };
}

/** True when writing the booking takes more than the one insert statement. */
export const needsTransaction = (type: BookingRow['type'], p: Placement): boolean => usesCapacity(type) || p.related.any.length > 0;

/**
 * Inserts a new booking with everything it holds. `em` must be in a transaction unless
 * `needsTransaction` is false, in which case the single statement is atomic by itself.
 */
export async function writeBooking(em: EntityManager, row: BookingRow, p: Placement): Promise<BookingStatusChange> {
  const capacity = usesCapacity(row.type);
  const occupied = capacity ? [] : [row.resourceId, ...p.related.all];
  row.relatedResourceIds = capacity ? [] : [...p.related.all];
  const change = firstChange(row);
  const q = insertBookingSql(row, occupied, change.id);
  await em.execute(q.sql, q.params, 'run');
  if (!capacity && p.related.any.length) {
    const chosen = await occupyAny(em, row.companyId, row.id, p.related.any, occupiedRange(row.start, row.end, row.bufferBeforeSec, row.bufferAfterSec));
    row.relatedResourceIds.push(chosen);
    await em.execute('update booking set related_resource_ids = ?::jsonb where company_id = ? and id = ?', [JSON.stringify(row.relatedResourceIds), row.companyId, row.id], 'run');
  }
  if (capacity) {
    if (!p.capacity) throw conflict('no capacity rule applies to this time');
    await takeCapacity(em, { companyId: row.companyId, serviceId: row.serviceId, resourceId: row.resourceId, start: row.start }, row.spots, p.ticketCounts, p.capacity);
  }
  return change;
}

/** The entity a freshly written row corresponds to (not managed by any EntityManager). */
export function bookingOf(row: BookingRow): Booking {
  const b = new Booking();
  Object.assign(b, {
    id: row.id,
    companyId: row.companyId,
    serviceId: row.serviceId,
    resourceId: row.resourceId,
    clientId: row.clientId,
    type: row.type,
    status: row.status,
    startTime: new Date(row.start),
    endTime: row.end === null ? null : new Date(row.end),
    durationSec: row.durationSec,
    spots: row.spots,
    tickets: row.tickets,
    price: row.price,
    currency: row.currency,
    bookingPolicy: row.bookingPolicy,
    relatedResourceIds: row.relatedResourceIds,
    rrule: row.rrule,
    recurringId: row.recurringId,
    clientInitiated: row.clientInitiated,
    paymentUrl: row.paymentUrl,
    paymentTransactionId: row.paymentTransactionId,
    pluginData: row.pluginData,
    code: row.code,
    customPurchaseDescription: row.customPurchaseDescription,
    bufferBeforeSec: row.bufferBeforeSec,
    bufferAfterSec: row.bufferAfterSec,
    metaData: row.metaData,
    metaDataVersion: 1,
    createdAt: row.createdAt,
    updatedAt: row.createdAt,
  });
  return b;
}

/** The first status change of a new booking (null -> its initial status). */
function firstChange(row: BookingRow): BookingStatusChange {
  const s = new BookingStatusChange();
  Object.assign(s, { id: newId(), companyId: row.companyId, bookingId: row.id, oldStatus: null, newStatus: row.status, metaData: {}, createdAt: row.createdAt });
  return s;
}

/**
 * Answers a repeated request with its stored response before any work is done (the time it
 * booked is no longer free, so checking it again would say 409). A request whose time was
 * just taken by the first request with the same key, still in flight when this one looked,
 * is answered with that request's response too.
 */
export async function replayOr<T>(ctx: Ctx, companyId: string, idem: Idempotency | undefined, run: () => Promise<T>): Promise<T> {
  if (!idem) return run();
  const stored = await storedResponse(ctx.em, companyId, idem, ctx.now);
  if (stored) return stored.body as T;
  try {
    return await run();
  } catch (err) {
    if (toDomainError(err).code !== 'time_unavailable') throw err;
    const late = await storedResponse(ctx.em, companyId, idem, ctx.now);
    if (late) return late.body as T;
    throw err;
  }
}

/**
 * Runs the writes of a booking-creating request and returns its response. With an
 * idempotency key the key is claimed and the response stored in the same transaction, and a
 * repeated request gets the stored response. Without one, `single` work (one statement) skips
 * the explicit transaction.
 */
export async function commitCreation<T>(ctx: Ctx, companyId: string, idem: Idempotency | undefined, single: boolean, work: (em: EntityManager) => Promise<T>): Promise<T> {
  if (!idem && single) return work(ctx.em);
  try {
    return await ctx.em.transactional(async (em) => {
      if (idem) await claimKey(em, companyId, idem, ctx.now);
      const body = await work(em as EntityManager);
      if (idem) await storeResponse(em, companyId, idem, { status: 200, body });
      return body;
    });
  } catch (err) {
    if (!(err instanceof KeyTaken)) throw err;
    const stored = await storedResponse(ctx.em, companyId, idem!, ctx.now);
    if (stored) return stored.body as T;
    throw conflict('a request with this Idempotency-Key is in progress; retry it');
  }
}
