import { AUDIT_BEGIN, auditScopeArg } from '../../kernel/audit';
import { conflict, DomainError, translateDbError, type ErrorDetail } from '../../shared/errors';
import { newId } from '../../shared/ids';
import type { ServiceType } from '../../shared/service-type';
import { Booking, BookingStatusChange, type BookedTicket } from './booking.entity';
import type { BookingStatus } from './booking.status';
import { bookingJson, type BookingJson } from './booking.json';
import { eventRows, recordEvents, type NewEvent } from '../../kernel/events';
import { queryWithParams } from '../../db/params';
import type { Ctx } from '../../kernel/context';

/**
 * What a booking holds while it is pending or confirmed, written with SQL inside the booking's
 * transaction. The database is the guarantee: the exclusion constraint on booking_occupancy
 * refuses overlapping time (23P01 -> 409 time_unavailable, translated centrally), and
 * group/ticket capacity is checked under a row lock on the slot occurrence's slot_usage row.
 */

/** Services whose bookings take spots at a slot instead of occupying the resource's time. */
export const usesCapacity = (type: ServiceType): boolean => type === 'group' || type === 'ticket';

export const unavailable = (message = 'the requested time is not available', details?: ErrorDetail[]) =>
  new DomainError('time_unavailable', message, details);

export const isTimeConflict = (err: unknown): boolean => translateDbError(err)?.code === 'time_unavailable';

const iso = (ms: number): string => new Date(ms).toISOString();
const uuidArray = (ids: readonly string[]): string => `{${ids.join(',')}}`;

/**
 * The rows to occupy as two parallel arrays, in resource id order: concurrent bookings that
 * need several of the same resources then wait on each other in one order and cannot deadlock.
 * The first resource is the booked one, the rest related.
 */
function occupiedRows(resources: readonly string[], firstIsBooked = true): [string, string] {
  const rows = resources
    .map((id, i) => [id, i === 0 && firstIsBooked ? 'booking' : 'related_resource'] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return [uuidArray(rows.map((r) => r[0])), `{${rows.map((r) => r[1]).join(',')}}`];
}

/** The buffered interval a booking occupies; `end` null (a running sharable booking) is unbounded. */
export function occupiedRange(start: number, end: number | null, bufferBeforeSec: number, bufferAfterSec: number): [string, string | null] {
  return [iso(start - bufferBeforeSec * 1000), end === null ? null : iso(end + bufferAfterSec * 1000)];
}

/** Every column of a new booking row. */
export interface BookingRow {
  id: string;
  companyId: string;
  serviceId: string;
  resourceId: string;
  clientId: string | null;
  type: ServiceType;
  status: BookingStatus;
  start: number;
  end: number | null;
  durationSec: number | null;
  spots: number;
  tickets: Record<string, BookedTicket>;
  price: number;
  currency: string | null;
  bookingPolicy: 'instant' | 'manual';
  relatedResourceIds: string[];
  rrule: string | null;
  recurringId: string | null;
  clientInitiated: boolean;
  paymentUrl: string | null;
  paymentTransactionId: string | null;
  pluginData: Record<string, unknown>;
  code: string | null;
  customPurchaseDescription: string | null;
  bufferBeforeSec: number;
  bufferAfterSec: number;
  metaData: Record<string, unknown>;
  createdAt: Date;
  /** Not a column: a booking made with `notify: false`, whose `booking.created` event is `quiet` (kernel/events.ts). */
  quiet?: boolean;
}

/**
 * The booking table's columns, once: the insert of a new booking and the update of a changed
 * one are both built from this list, so a column cannot be written by one and forgotten by the
 * other. `update` marks what a change may rewrite (the rest is fixed at creation).
 */
const COLUMNS: { column: string; prop: keyof Booking; cast?: 'jsonb' | 'timestamptz'; update?: true }[] = [
  { column: 'id', prop: 'id' },
  { column: 'company_id', prop: 'companyId' },
  { column: 'service_id', prop: 'serviceId' },
  { column: 'resource_id', prop: 'resourceId', update: true },
  { column: 'client_id', prop: 'clientId' },
  { column: 'type', prop: 'type' },
  { column: 'status', prop: 'status', update: true },
  { column: 'start_time', prop: 'startTime', cast: 'timestamptz', update: true },
  { column: 'end_time', prop: 'endTime', cast: 'timestamptz', update: true },
  { column: 'duration_sec', prop: 'durationSec', update: true },
  { column: 'spots', prop: 'spots', update: true },
  { column: 'tickets', prop: 'tickets', cast: 'jsonb', update: true },
  { column: 'price', prop: 'price', update: true },
  { column: 'currency', prop: 'currency', update: true },
  { column: 'booking_policy', prop: 'bookingPolicy' },
  { column: 'related_resource_ids', prop: 'relatedResourceIds', cast: 'jsonb', update: true },
  { column: 'rrule', prop: 'rrule' },
  { column: 'recurring_id', prop: 'recurringId' },
  { column: 'client_initiated', prop: 'clientInitiated' },
  { column: 'payment_url', prop: 'paymentUrl' },
  { column: 'payment_transaction_id', prop: 'paymentTransactionId' },
  { column: 'plugin_data', prop: 'pluginData', cast: 'jsonb' },
  { column: 'code', prop: 'code' },
  { column: 'custom_purchase_description', prop: 'customPurchaseDescription' },
  { column: 'refund_percent', prop: 'refundPercent', update: true },
  { column: 'buffer_before_sec', prop: 'bufferBeforeSec', update: true },
  { column: 'buffer_after_sec', prop: 'bufferAfterSec', update: true },
  { column: 'meta_data', prop: 'metaData', cast: 'jsonb', update: true },
  { column: 'meta_data_version', prop: 'metaDataVersion', update: true },
  { column: 'created_at', prop: 'createdAt', cast: 'timestamptz' },
  { column: 'updated_at', prop: 'updatedAt', cast: 'timestamptz', update: true },
];

const JSON_DEFAULTS: Partial<Record<keyof Booking, unknown>> = { tickets: {}, relatedResourceIds: [], pluginData: {}, metaData: {} };

/** A column's value as JSON holds it: timestamps as ISO text, JSON columns as their value (or its default). */
function columnValue(b: Booking, c: (typeof COLUMNS)[number]): unknown {
  const v = b[c.prop];
  if (c.cast === 'timestamptz') return v ? (v as Date).toISOString() : null;
  return v ?? JSON_DEFAULTS[c.prop] ?? null;
}

/** A column's value as a statement parameter (JSON columns as their text). */
function encode(b: Booking, c: (typeof COLUMNS)[number]): unknown {
  const v = columnValue(b, c);
  return c.cast === 'jsonb' ? JSON.stringify(v) : v;
}

const placeholder = (c: (typeof COLUMNS)[number]): string => (c.cast ? `?::${c.cast}` : '?');
const UPDATED = COLUMNS.filter((c) => c.update);
const UPDATE_SQL = `update booking set ${UPDATED.map((c) => `${c.column} = ${placeholder(c)}`).join(', ')} where company_id = ? and id = ?`;

/**
 * Rewrites every changeable column of `b`; with `fromVersion`, only while the row still has
 * that metadata version. Returns the number of rows written (0 when the version moved on).
 */
export async function updateBookingRow(ctx: Ctx, b: Booking, fromVersion?: number): Promise<number> {
  const params = [...UPDATED.map((c) => encode(b, c)), b.companyId, b.id];
  const sql = fromVersion === undefined ? UPDATE_SQL : `${UPDATE_SQL} and meta_data_version = ?`;
  const res = await ctx.em.execute<{ affectedRows: number }>(sql, fromVersion === undefined ? params : [...params, fromVersion], 'run');
  return res.affectedRows;
}

/** The booking as one JSON object keyed by column, as the `booking_insert` database function reads it. */
function rowJson(b: Booking): string {
  const row: Record<string, unknown> = {};
  for (const c of COLUMNS) row[c.column] = columnValue(b, c);
  return JSON.stringify(row);
}

/** The columns in the order of the booking store (what `booking_insert`'s migration must list). */
export const BOOKING_COLUMNS: readonly string[] = COLUMNS.map((c) => c.column);

const INSERT_ARGS = '?::uuid, ?::jsonb, ?::uuid, ?::timestamptz, ?::timestamptz, ?::uuid[], ?::text[], ?::text, ?::timestamptz';
// the audit scope is opened in the same statement (kernel/audit.ts): the call often runs outside a transaction
const INSERT_CALL = `select booking_insert(${INSERT_ARGS}) from ${AUDIT_BEGIN}`;
/** The same insert when the company's catalog is still at the version given first (Migration20261127000100CatalogVersion). */
const INSERT_AT_VERSION_CALL = `select booking_insert_at_version(?::bigint, ${INSERT_ARGS}) from ${AUDIT_BEGIN}`;

/**
 * The call that inserts the booking, its first status change, the occupancy of `occupied`
 * resources (the first is the booked one, the rest related), its `events` (through
 * `webhook_enqueue`, the outbox's enqueue `kernel/events.ts` calls too: recorded when an enabled
 * endpoint listens), through the `booking_insert` database function
 * (src/db/functions/booking_insert.sql), with the audit scope its rows are recorded under
 * (`audit_begin`). A single statement is atomic on its own, so the common booking costs one
 * round trip even outside a transaction. With `atVersion`, nothing is written
 * unless the catalog is still at that version (SQLSTATE BKV01 otherwise).
 */
export function insertBookingCall(
  b: Booking,
  occupied: string[],
  statusChangeId: string,
  events?: readonly NewEvent[],
  atVersion?: string,
): { sql: string; params: unknown[] } {
  let range: [string, string | null] | [null, null] = [null, null];
  let ids: string | null = null;
  let sources: string | null = null;
  if (occupied.length) {
    range = occupiedRange(b.startTime.getTime(), b.endTime ? b.endTime.getTime() : null, b.bufferBeforeSec, b.bufferAfterSec);
    [ids, sources] = occupiedRows(occupied);
  }
  const at = b.createdAt.toISOString();
  const params = [
    b.companyId,
    rowJson(b),
    statusChangeId,
    range[0],
    range[1],
    ids,
    sources,
    events?.length ? eventRows(events, b.createdAt) : null,
    at,
    auditScopeArg(),
  ];
  return atVersion === undefined ? { sql: INSERT_CALL, params } : { sql: INSERT_AT_VERSION_CALL, params: [atVersion, ...params] };
}

/** Appends a status change row. */
export async function insertStatusChange(
  ctx: Ctx,
  companyId: string,
  bookingId: string,
  from: BookingStatus | null,
  to: BookingStatus,
  at: Date,
  metaData: Record<string, unknown> = {},
): Promise<string> {
  const id = newId();
  await ctx.em.execute(
    'insert into booking_status_change (id, company_id, booking_id, old_status, new_status, meta_data, created_at) values (?, ?, ?, ?, ?, ?::jsonb, ?::timestamptz)',
    [id, companyId, bookingId, from, to, JSON.stringify(metaData), at.toISOString()],
    'run',
  );
  return id;
}

/** Occupancy rows in one statement; `resources[0]` is the booked resource unless `related` (then all are related ones). */
export async function occupy(
  ctx: Ctx,
  companyId: string,
  bookingId: string,
  resources: readonly string[],
  range: [string, string | null],
  related = false,
): Promise<void> {
  if (!resources.length) return;
  const [ids, sources] = occupiedRows(resources, !related);
  await ctx.em.execute(
    `insert into booking_occupancy (company_id, booking_id, resource_id, source, during)
     select ?, ?, r.id, r.source, tstzrange(?::timestamptz, ?::timestamptz, '[)')
     from unnest(?::uuid[], ?::text[]) as r(id, source)`,
    [companyId, bookingId, range[0], range[1], ids, sources],
    'run',
  );
}

/**
 * Occupies ONE of `candidates` (tried in order, each in a savepoint; the first that inserts
 * wins) and returns it, or throws 409 when every one is busy. Must run inside a transaction.
 */
export async function occupyAny(
  ctx: Ctx,
  companyId: string,
  bookingId: string,
  candidates: readonly string[],
  range: [string, string | null],
): Promise<string> {
  for (const id of candidates) {
    await ctx.em.execute('savepoint booking_any', [], 'run');
    try {
      await occupy(ctx, companyId, bookingId, [id], range, true);
      await ctx.em.execute('release savepoint booking_any', [], 'run');
      return id;
    } catch (err) {
      if (!isTimeConflict(err)) throw err;
      await ctx.em.execute('rollback to savepoint booking_any', [], 'run');
    }
  }
  throw unavailable('none of the related resources is free at the requested time');
}

/** Removes every occupancy row of a booking (it no longer holds its time, or is re-taken). */
export async function releaseOccupancy(ctx: Ctx, companyId: string, bookingId: string): Promise<void> {
  await ctx.em.execute('delete from booking_occupancy where company_id = ? and booking_id = ?', [companyId, bookingId], 'run');
}

export interface SlotKey {
  companyId: string;
  serviceId: string;
  resourceId: string;
  start: number;
}

export interface Capacity {
  totalSpots: number;
  spotsPerTicket: Record<string, number>;
}

const slotWhere = 'company_id = ? and service_id = ? and resource_id = ? and start_time = ?::timestamptz';
const slotParams = (k: SlotKey) => [k.companyId, k.serviceId, k.resourceId, iso(k.start)];

async function lockSlot(ctx: Ctx, k: SlotKey): Promise<{ spots: number; perTicket: Record<string, number> }> {
  await ctx.em.execute(
    `insert into slot_usage (company_id, service_id, resource_id, start_time) values (?, ?, ?, ?::timestamptz) on conflict do nothing`,
    slotParams(k),
    'run',
  );
  const rows = await ctx.em.execute<{ booked_spots: number; booked_per_ticket: Record<string, number> | string }[]>(
    `select booked_spots, booked_per_ticket from slot_usage where ${slotWhere} for update`,
    slotParams(k),
  );
  const raw = rows[0]?.booked_per_ticket ?? {};
  return { spots: rows[0]?.booked_spots ?? 0, perTicket: typeof raw === 'string' ? JSON.parse(raw) : raw };
}

async function writeSlot(ctx: Ctx, k: SlotKey, spots: number, perTicket: Record<string, number>): Promise<void> {
  await ctx.em.execute(
    `update slot_usage set booked_spots = ?, booked_per_ticket = ?::jsonb where ${slotWhere}`,
    [spots, JSON.stringify(perTicket), ...slotParams(k)],
    'run',
  );
}

/**
 * Takes `spots` (and per-ticket counts) at a slot occurrence under a row lock: concurrent
 * bookings of the same occurrence queue on the lock and each sees the count the previous one
 * left, so capacity can never be exceeded. Must run inside a transaction.
 */
export async function takeCapacity(
  ctx: Ctx,
  k: SlotKey,
  spots: number,
  tickets: Record<string, number>,
  capacity: Capacity,
): Promise<void> {
  const current = await lockSlot(ctx, k);
  if (current.spots + spots > capacity.totalSpots) {
    throw unavailable(`only ${Math.max(0, capacity.totalSpots - current.spots)} of ${capacity.totalSpots} spots are left at this time`);
  }
  const perTicket = { ...current.perTicket };
  for (const [ticketId, n] of Object.entries(tickets)) {
    if (n <= 0) continue;
    const limit = capacity.spotsPerTicket[ticketId];
    const booked = perTicket[ticketId] ?? 0;
    if (limit !== undefined && booked + n > limit)
      throw unavailable(`only ${Math.max(0, limit - booked)} spots of ticket ${ticketId} are left at this time`);
    perTicket[ticketId] = booked + n;
  }
  await writeSlot(ctx, k, current.spots + spots, perTicket);
}

/** Gives spots back at a slot occurrence (never below zero). Must run inside a transaction. */
export async function releaseCapacity(ctx: Ctx, k: SlotKey, spots: number, tickets: Record<string, number>): Promise<void> {
  const current = await lockSlot(ctx, k);
  const perTicket = { ...current.perTicket };
  for (const [ticketId, n] of Object.entries(tickets)) {
    const left = (perTicket[ticketId] ?? 0) - n;
    if (left > 0) perTicket[ticketId] = left;
    else delete perTicket[ticketId];
  }
  await writeSlot(ctx, k, Math.max(0, current.spots - spots), perTicket);
}

/** Per-ticket spot counts of a ticket booking's snapshot. */
export const ticketCounts = (tickets: Record<string, BookedTicket> | null | undefined): Record<string, number> =>
  Object.fromEntries(Object.entries(tickets ?? {}).map(([id, t]) => [id, t.spots]));

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
 * Inserts a new booking with everything it holds and returns its first status change and its
 * admin JSON (without embedded records; the `booking.created` event carries the same object).
 * `ctx` must be in a transaction unless `needsTransaction` is false, in which case the single
 * statement is atomic by itself. `atVersion`: the catalog version the booking was checked at
 * (booking-kept-catalog.ts), for a booking without capacity or related resources to choose.
 */
export async function writeBooking(
  ctx: Ctx,
  row: BookingRow,
  p: Placement,
  jwtKey: Uint8Array,
  atVersion?: string,
): Promise<{ change: BookingStatusChange; json: BookingJson }> {
  const capacity = usesCapacity(row.type);
  const occupied = capacity ? [] : [row.resourceId, ...p.related.all];
  row.relatedResourceIds = capacity ? [] : [...p.related.all];
  const change = firstChange(row);
  const b = bookingOf(row);
  // The event carries the booking as written: when a related resource is still to be chosen,
  // it is recorded once the choice is stored (that path always runs in a transaction).
  const later = !capacity && p.related.any.length > 0;
  let json = later ? null : bookingJson(b, jwtKey, [change]);
  if (atVersion !== undefined && (capacity || later))
    throw new Error('a booking checked at a catalog version has no capacity or related resource to choose');
  const created = (data: BookingJson): NewEvent[] => [{ type: 'booking.created', data, ...(row.quiet ? { quiet: true } : {}) }];
  const q = insertBookingCall(b, occupied, change.id, json ? created(json) : undefined, atVersion);
  await queryWithParams(ctx.em, q.sql, q.params);
  if (later) {
    const chosen = await occupyAny(
      ctx,
      row.companyId,
      row.id,
      p.related.any,
      occupiedRange(row.start, row.end, row.bufferBeforeSec, row.bufferAfterSec),
    );
    row.relatedResourceIds.push(chosen);
    await ctx.em.execute(
      'update booking set related_resource_ids = ?::jsonb where company_id = ? and id = ?',
      [JSON.stringify(row.relatedResourceIds), row.companyId, row.id],
      'run',
    );
    json = bookingJson(bookingOf(row), jwtKey, [change]);
    await recordEvents(ctx, { companyId: row.companyId, events: created(json), at: row.createdAt });
  }
  if (capacity) {
    if (!p.capacity) throw conflict('no capacity rule applies to this time');
    await takeCapacity(
      ctx,
      { companyId: row.companyId, serviceId: row.serviceId, resourceId: row.resourceId, start: row.start },
      row.spots,
      p.ticketCounts,
      p.capacity,
    );
  }
  return { change, json: json! };
}

/**
 * An entity object holding `fields` as its own plain properties. Assigning them to an entity
 * instance would run the ORM's change-tracking setters once per property; these objects are
 * never managed by an EntityManager, so they need none.
 */
function detached<T extends object>(entity: new () => T, fields: Record<string, unknown>): T {
  return Object.setPrototypeOf(fields, entity.prototype) as T;
}

/** The entity a freshly written row corresponds to (not managed by any EntityManager). */
export function bookingOf(row: BookingRow): Booking {
  return detached(Booking, {
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
    refundPercent: null,
    metaDataVersion: 1,
    createdAt: row.createdAt,
    updatedAt: row.createdAt,
  });
}

/** The first status change of a new booking (null -> its initial status). */
function firstChange(row: BookingRow): BookingStatusChange {
  return detached(BookingStatusChange, {
    id: newId(),
    companyId: row.companyId,
    bookingId: row.id,
    oldStatus: null,
    newStatus: row.status,
    metaData: {},
    createdAt: row.createdAt,
  });
}
