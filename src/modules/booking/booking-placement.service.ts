import { conflict, isRetryableDbError, notFound, toDomainError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { findBookableTime, type BookableTime } from '../availability/availability.service';
import { snapshotParams, type PreloadedSnapshot, type SnapshotOptions, type SnapshotRow } from '../availability/snapshot';
import { queryWithParams } from '../../db/params';
import { Resource, Service } from '../catalog/catalog.entity';
import { resourceJson, serviceJson } from '../catalog/catalog.json';
import type { Client } from '../client/client.entity';
import { clientJson } from '../client/client.service';
import type { Company } from '../company/company.entity';
import { unavailable, type BookingRow, usesCapacity, type Placement } from './booking.store';
import type { Amounts, PlacementInput } from './booking.checks';
import { claimKey, KeyTaken, storedResponse, storeResponse, type Idempotency } from './idempotency';
import { inTransaction } from '../../kernel/transaction';
import type { Ctx } from '../../kernel/context';

/** Where a new or moved booking goes: its records, the checked time and the row it becomes. */

/** The row of a new booking at `p`; the status follows the service's bookingPolicy. */
export function newRow(company: Company, service: Service, p: Placement, now: Date, extra: Partial<BookingRow> = {}): BookingRow {
  const policy = service.settings?.bookingPolicy === 'manual' ? 'manual' : 'instant';
  return {
    id: newId(),
    companyId: company.id,
    serviceId: service.id,
    resourceId: p.resourceId,
    clientId: null,
    type: service.type,
    status: policy === 'instant' ? 'confirmed' : 'pending',
    start: p.start,
    end: p.end,
    durationSec: p.durationSec,
    spots: p.spots,
    tickets: p.tickets,
    price: p.price,
    currency: p.currency,
    bookingPolicy: policy,
    relatedResourceIds: [],
    rrule: null,
    recurringId: null,
    clientInitiated: false,
    paymentUrl: null,
    paymentTransactionId: null,
    pluginData: {},
    code: null,
    customPurchaseDescription: null,
    bufferBeforeSec: p.bufferBeforeSec,
    bufferAfterSec: p.bufferAfterSec,
    metaData: {},
    createdAt: now,
    ...extra,
  };
}

/** The placement for a booking at `start`, or 409 when the time is not available. */
export async function placeAt(
  ctx: Ctx,
  company: Company,
  service: Service,
  resourceId: string | null,
  start: number,
  p: PlacementInput,
  amounts: Amounts,
  opts: { ignoreSchedule: boolean; includePast: boolean; excludeBookingIds?: string[]; preloaded?: PreloadedSnapshot | null },
): Promise<Placement> {
  const bt = await findBookableTime(ctx, company, service, {
    preloaded: opts.preloaded,
    resourceId,
    start,
    durationSec: p.durationSec,
    spots: service.type === 'group' ? amounts.spots : undefined,
    tickets: amounts.tickets,
    ignoreSchedule: opts.ignoreSchedule,
    includePast: opts.includePast,
    excludeBookingIds: opts.excludeBookingIds,
  });
  if (!bt) throw unavailable();
  const placement = placementOf(bt, amounts, service.type === 'sharable' && p.durationSec === undefined);
  // A stay ends at check-out time (findBookableTime computes it); its duration is the booked whole days.
  if (service.type === 'days') placement.durationSec = bt.durationSec;
  return placement;
}

const columnsOf = new Map<Function, [string, string, boolean][]>();

/**
 * A detached entity from a `row_to_json` object: columns renamed to properties with the
 * entity's own metadata, timestamps parsed. Cheaper than hydrating through the identity map,
 * and the booking never changes these records.
 */
export function mapped<T extends object>(ctx: Ctx, entity: new () => T, json: Record<string, unknown>): T {
  let columns = columnsOf.get(entity);
  if (!columns) {
    const meta = ctx.em.getMetadata().get(entity.name);
    columns = Object.values(meta.properties)
      .filter((p) => p.fieldNames?.length === 1)
      .map((p) => [p.fieldNames[0], p.name, p.type === 'timestamptz' || p.runtimeType === 'Date']);
    columnsOf.set(entity, columns);
  }
  // plain own properties first, the prototype last: assigning through the entity's prototype would run the ORM's tracking setters
  const out: Record<string, unknown> = {};
  for (const [column, prop, isDate] of columns) {
    const v = json[column];
    out[prop] = isDate && typeof v === 'string' ? new Date(v) : v;
  }
  return Object.setPrototypeOf(out, entity.prototype) as T;
}

/** `booking_documents` (Migration20261126000100BookingWriteFunctions): service, resource and, when asked, the availability document. */
const DOCUMENTS =
  'select s, r, snap from booking_documents(?::uuid, ?::uuid, ?::uuid, ?::boolean, ?::timestamptz, ?::timestamptz, ?::timestamptz, ?::timestamptz, ?::uuid[], ?::uuid[])';
/** The window parameters when no document is loaded (read by nothing). */
const NO_WINDOW: readonly unknown[] = [null, null, null, null, null, null];

/**
 * The service and resource of a new booking in one statement: the booking hot path would
 * otherwise spend two ORM lookups here. Scoped by company like the catalog lookups (404
 * when either is not in the company); the ids are already checked UUIDs. With `preload`, the
 * same statement also loads the availability snapshot document for those options (the
 * schedule check then needs no round trip of its own).
 */
export async function serviceAndResource(
  ctx: Ctx,
  companyId: string,
  serviceId: string,
  resourceId: string,
  preload?: { company: Company; opts: SnapshotOptions },
): Promise<[Service, Resource, PreloadedSnapshot | null]> {
  // the document's window and resources (availability_snapshot's parameters after company and service)
  const window = preload ? snapshotParams(preload.company, serviceId, preload.opts).slice(2) : NO_WINDOW;
  const rows = await queryWithParams<{ s: Record<string, unknown> | null; r: Record<string, unknown> | null; snap: SnapshotRow | null }>(
    ctx.em,
    DOCUMENTS,
    [companyId, serviceId, resourceId, !!preload, ...window],
  );
  if (!rows[0]?.s) throw notFound('service');
  if (!rows[0].r) throw notFound('resource');
  const preloaded = preload && rows[0].snap ? { row: rows[0].snap, opts: preload.opts } : null;
  return [mapped(ctx, Service, rows[0].s), mapped(ctx, Resource, rows[0].r), preloaded];
}

export const embed = (service: Service, resource: Resource, client: Client | null) => ({
  service: serviceJson(service),
  resource: resourceJson(resource),
  client: client ? clientJson(client) : null,
});

/** Writing new bookings: the placement a checked time gives, the rows, and the transaction around them. */

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
    related: {
      all: [...new Set(bt.related.all)].filter((id) => id !== bt.resourceId),
      any: [...new Set(bt.related.any)].filter((id) => id !== bt.resourceId && !bt.related.all.includes(id)),
    },
    capacity: bt.capacity ?? null,
    spots: amounts.spots,
    ticketCounts: amounts.tickets ?? {},
  };
}

/** True when writing the booking takes more than the one insert statement. */
export const needsTransaction = (type: BookingRow['type'], p: Placement): boolean => usesCapacity(type) || p.related.any.length > 0;

/**
 * Answers a repeated request with its stored response before any work is done (the time it
 * booked is no longer free, so checking it again would say 409). A request whose time was
 * just taken by the first request with the same key, still in flight when this one looked,
 * is answered with that request's response too.
 */
export async function replayOr<T>(ctx: Ctx, companyId: string, idem: Idempotency | undefined, run: () => Promise<T>): Promise<T> {
  if (!idem) return run();
  const stored = await storedResponse(ctx, companyId, idem, ctx.now);
  if (stored) return stored.body as T;
  try {
    return await run();
  } catch (err) {
    if (toDomainError(err).code !== 'time_unavailable') throw err;
    const late = await storedResponse(ctx, companyId, idem, ctx.now);
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
export async function commitCreation<T>(
  ctx: Ctx,
  companyId: string,
  idem: Idempotency | undefined,
  single: boolean,
  work: (ctx: Ctx) => Promise<T>,
): Promise<T> {
  // Concurrent inserts checked by one exclusion constraint wait for each other and can deadlock;
  // PostgreSQL then aborts one of them. The creation (one statement or one transaction, nothing
  // kept) runs again, and a time taken meanwhile answers 409 time_unavailable as usual.
  for (let attempt = 1; ; attempt++) {
    try {
      return await commitOnce(ctx, companyId, idem, single, work);
    } catch (err) {
      if (attempt >= CREATION_ATTEMPTS || !isRetryableDbError(err)) throw err;
    }
  }
}

const CREATION_ATTEMPTS = 3;

async function commitOnce<T>(
  ctx: Ctx,
  companyId: string,
  idem: Idempotency | undefined,
  single: boolean,
  work: (ctx: Ctx) => Promise<T>,
): Promise<T> {
  if (!idem && single) return work(ctx);
  try {
    return await inTransaction(ctx, async (tx) => {
      if (idem) await claimKey(tx, companyId, idem, ctx.now);
      const body = await work(tx);
      if (idem) await storeResponse(tx, companyId, idem, { status: 200, body });
      return body;
    });
  } catch (err) {
    if (!(err instanceof KeyTaken)) throw err;
    const stored = await storedResponse(ctx, companyId, idem!, ctx.now);
    if (stored) return stored.body as T;
    throw conflict('a request with this Idempotency-Key is in progress; retry it');
  }
}
