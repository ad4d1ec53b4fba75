import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError, translateDbError, type ErrorDetail } from '../../shared/errors';
import { newId } from '../../shared/ids';
import type { ServiceType } from '../pricing/engine/types';
import type { BookedTicket } from './booking.entity';
import type { BookingStatus } from './booking.status';

/**
 * What a booking holds while it is pending or confirmed, written with SQL inside the booking's
 * transaction. The database is the guarantee: the exclusion constraint on booking_occupancy
 * refuses overlapping time (23P01 -> 409 time_unavailable, translated centrally), and
 * group/ticket capacity is checked under a row lock on the slot occurrence's slot_usage row.
 */

/** Services whose bookings take spots at a slot instead of occupying the resource's time. */
export const usesCapacity = (type: ServiceType): boolean => type === 'group' || type === 'ticket';

export const unavailable = (message = 'the requested time is not available', details?: ErrorDetail[]) => new DomainError('time_unavailable', message, details);

export const isTimeConflict = (err: unknown): boolean => translateDbError(err)?.code === 'time_unavailable';

const iso = (ms: number): string => new Date(ms).toISOString();
const uuidArray = (ids: readonly string[]): string => `{${ids.join(',')}}`;

/**
 * The rows to occupy as two parallel arrays, in resource id order: concurrent bookings that
 * need several of the same resources then wait on each other in one order and cannot deadlock.
 * The first resource is the booked one, the rest related.
 */
function occupiedRows(resources: readonly string[], firstIsBooked = true): [string, string] {
  const rows = resources.map((id, i) => [id, i === 0 && firstIsBooked ? 'booking' : 'related_resource'] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
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
}

/**
 * One statement that inserts the booking, its first status change and the occupancy of
 * `occupied` resources (the first is the booked one, the rest related). A single statement is
 * atomic on its own, so the common booking costs one round trip even outside a transaction.
 */
export function insertBookingSql(row: BookingRow, occupied: string[], statusChangeId: string): { sql: string; params: unknown[] } {
  const at = row.createdAt.toISOString();
  const params: unknown[] = [
    row.id, row.companyId, row.serviceId, row.resourceId, row.clientId, row.type, row.status, iso(row.start), row.end === null ? null : iso(row.end), row.durationSec,
    row.spots, JSON.stringify(row.tickets), row.price, row.currency, row.bookingPolicy, JSON.stringify(row.relatedResourceIds), row.rrule, row.recurringId, row.clientInitiated,
    row.paymentUrl, row.paymentTransactionId, JSON.stringify(row.pluginData), row.code, row.customPurchaseDescription, row.bufferBeforeSec, row.bufferAfterSec,
    JSON.stringify(row.metaData), at, at,
    statusChangeId, row.status, at,
  ];
  let occupancy = '';
  if (occupied.length) {
    const [lower, upper] = occupiedRange(row.start, row.end, row.bufferBeforeSec, row.bufferAfterSec);
    occupancy = `, o as (
      insert into booking_occupancy (company_id, booking_id, resource_id, source, during)
      select b.company_id, b.id, r.id, r.source, tstzrange(?::timestamptz, ?::timestamptz, '[)')
      from b, unnest(?::uuid[], ?::text[]) as r(id, source)
    )`;
    params.push(lower, upper, ...occupiedRows(occupied));
  }
  const sql = `with b as (
      insert into booking (id, company_id, service_id, resource_id, client_id, type, status, start_time, end_time, duration_sec,
        spots, tickets, price, currency, booking_policy, related_resource_ids, rrule, recurring_id, client_initiated,
        payment_url, payment_transaction_id, plugin_data, code, custom_purchase_description, buffer_before_sec, buffer_after_sec,
        meta_data, created_at, updated_at)
      values (?, ?, ?, ?, ?, ?, ?, ?::timestamptz, ?::timestamptz, ?, ?, ?::jsonb, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?::jsonb, ?::timestamptz, ?::timestamptz)
      returning id, company_id
    ), s as (
      insert into booking_status_change (id, company_id, booking_id, old_status, new_status, created_at)
      select ?, company_id, id, null, ?, ?::timestamptz from b
    )${occupancy}
    select id from b`;
  return { sql, params };
}

/** Appends a status change row. */
export async function insertStatusChange(em: EntityManager, companyId: string, bookingId: string, from: BookingStatus | null, to: BookingStatus, at: Date, metaData: Record<string, unknown> = {}): Promise<string> {
  const id = newId();
  await em.execute(
    'insert into booking_status_change (id, company_id, booking_id, old_status, new_status, meta_data, created_at) values (?, ?, ?, ?, ?, ?::jsonb, ?::timestamptz)',
    [id, companyId, bookingId, from, to, JSON.stringify(metaData), at.toISOString()],
    'run',
  );
  return id;
}

/** Occupancy rows in one statement; `resources[0]` is the booked resource unless `related` (then all are related ones). */
export async function occupy(em: EntityManager, companyId: string, bookingId: string, resources: readonly string[], range: [string, string | null], related = false): Promise<void> {
  if (!resources.length) return;
  const [ids, sources] = occupiedRows(resources, !related);
  await em.execute(
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
export async function occupyAny(em: EntityManager, companyId: string, bookingId: string, candidates: readonly string[], range: [string, string | null]): Promise<string> {
  for (const id of candidates) {
    await em.execute('savepoint booking_any', [], 'run');
    try {
      await occupy(em, companyId, bookingId, [id], range, true);
      await em.execute('release savepoint booking_any', [], 'run');
      return id;
    } catch (err) {
      if (!isTimeConflict(err)) throw err;
      await em.execute('rollback to savepoint booking_any', [], 'run');
    }
  }
  throw unavailable('none of the related resources is free at the requested time');
}

/** Removes every occupancy row of a booking (it no longer holds its time, or is re-taken). */
export async function releaseOccupancy(em: EntityManager, companyId: string, bookingId: string): Promise<void> {
  await em.execute('delete from booking_occupancy where company_id = ? and booking_id = ?', [companyId, bookingId], 'run');
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

async function lockSlot(em: EntityManager, k: SlotKey): Promise<{ spots: number; perTicket: Record<string, number> }> {
  await em.execute(`insert into slot_usage (company_id, service_id, resource_id, start_time) values (?, ?, ?, ?::timestamptz) on conflict do nothing`, slotParams(k), 'run');
  const rows = await em.execute<{ booked_spots: number; booked_per_ticket: Record<string, number> | string }[]>(
    `select booked_spots, booked_per_ticket from slot_usage where ${slotWhere} for update`, slotParams(k));
  const raw = rows[0]?.booked_per_ticket ?? {};
  return { spots: rows[0]?.booked_spots ?? 0, perTicket: typeof raw === 'string' ? JSON.parse(raw) : raw };
}

async function writeSlot(em: EntityManager, k: SlotKey, spots: number, perTicket: Record<string, number>): Promise<void> {
  await em.execute(`update slot_usage set booked_spots = ?, booked_per_ticket = ?::jsonb where ${slotWhere}`, [spots, JSON.stringify(perTicket), ...slotParams(k)], 'run');
}

/**
 * Takes `spots` (and per-ticket counts) at a slot occurrence under a row lock: concurrent
 * bookings of the same occurrence queue on the lock and each sees the count the previous one
 * left, so capacity can never be exceeded. Must run inside a transaction.
 */
export async function takeCapacity(em: EntityManager, k: SlotKey, spots: number, tickets: Record<string, number>, capacity: Capacity): Promise<void> {
  const current = await lockSlot(em, k);
  if (current.spots + spots > capacity.totalSpots) {
    throw unavailable(`only ${Math.max(0, capacity.totalSpots - current.spots)} of ${capacity.totalSpots} spots are left at this time`);
  }
  const perTicket = { ...current.perTicket };
  for (const [ticketId, n] of Object.entries(tickets)) {
    if (n <= 0) continue;
    const limit = capacity.spotsPerTicket[ticketId];
    const booked = perTicket[ticketId] ?? 0;
    if (limit !== undefined && booked + n > limit) throw unavailable(`only ${Math.max(0, limit - booked)} spots of ticket ${ticketId} are left at this time`);
    perTicket[ticketId] = booked + n;
  }
  await writeSlot(em, k, current.spots + spots, perTicket);
}

/** Gives spots back at a slot occurrence (never below zero). Must run inside a transaction. */
export async function releaseCapacity(em: EntityManager, k: SlotKey, spots: number, tickets: Record<string, number>): Promise<void> {
  const current = await lockSlot(em, k);
  const perTicket = { ...current.perTicket };
  for (const [ticketId, n] of Object.entries(tickets)) {
    const left = (perTicket[ticketId] ?? 0) - n;
    if (left > 0) perTicket[ticketId] = left;
    else delete perTicket[ticketId];
  }
  await writeSlot(em, k, Math.max(0, current.spots - spots), perTicket);
}

/** Per-ticket spot counts of a ticket booking's snapshot. */
export const ticketCounts = (tickets: Record<string, BookedTicket> | null | undefined): Record<string, number> =>
  Object.fromEntries(Object.entries(tickets ?? {}).map(([id, t]) => [id, t.spots]));
