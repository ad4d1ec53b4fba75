import { conflict, DomainError } from '../../shared/errors';
import { formatTimestamp } from '../../shared/time';
import { Booking } from './booking.entity';
import {
  insertStatusChange,
  updateBookingRow,
  isTimeConflict,
  occupiedRange,
  occupy,
  occupyAny,
  releaseCapacity,
  releaseOccupancy,
  takeCapacity,
  ticketCounts,
  unavailable,
  usesCapacity,
} from './booking.store';
import { givenUp, holds, transition } from './booking.status';
import { lockPendingPayments } from '../payment/payment.api';
import type { Placement } from './booking.store';
import { followCodes } from './booking-codes.service';
import { bookingEventTypes, recordBookingEvents } from './booking.events';
import { inTransaction } from '../../kernel/transaction';
import type { Ctx } from '../../kernel/context';

/**
 * Applies changes to existing bookings in one transaction: the rows are locked and compared
 * with what the change was computed from (a concurrent change is a 409 and nothing happens),
 * released holds go first and new holds are taken after, so a series moved by an offset may
 * land on its own old time.
 */

export interface BookingChange {
  before: Booking;
  after: Booking;
  /** the time the booking holds from now on, when it is re-taken */
  retake?: Placement;
  /** metadata recorded on the status change row */
  statusMeta?: Record<string, unknown>;
}

/** A detached copy to compute changes on. */
export function copyOf(b: Booking): Booking {
  return Object.assign(new Booking(), b, {
    metaData: structuredClone(b.metaData ?? {}),
    tickets: { ...(b.tickets ?? {}) },
    relatedResourceIds: [...(b.relatedResourceIds ?? [])],
  });
}

interface Locked {
  id: string;
  status: string;
  resource_id: string;
  start_ms: number;
  end_ms: number | null;
  spots: number;
  meta_data_version: number;
  updated_ms: number;
}

const ms = (col: string) => `(extract(epoch from ${col}) * 1000)::float8 as ${col.replace('_time', '_ms').replace('_at', '_ms')}`;
// Rows written elsewhere may carry microseconds; JavaScript dates keep milliseconds.
const same = (a: number | null, b: Date | null): boolean => (a === null ? b === null : b !== null && Math.floor(a) === b.getTime());

async function lockUnchanged(ctx: Ctx, companyId: string, changes: BookingChange[]): Promise<void> {
  const befores = changes.map((c) => c.before);
  const metaChanged = new Set(changes.filter((c) => c.after.metaDataVersion !== c.before.metaDataVersion).map((c) => c.before.id));
  const rows = await ctx.em.execute<Locked[]>(
    `select id, status, resource_id, ${ms('start_time')}, ${ms('end_time')}, spots, meta_data_version, ${ms('updated_at')} from booking
      where company_id = ? and id = any(?::uuid[]) order by id for update`,
    [companyId, `{${befores.map((b) => b.id).join(',')}}`],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const b of befores) {
    const r = byId.get(b.id);
    const unchanged =
      r &&
      r.status === b.status &&
      r.resource_id === b.resourceId &&
      same(r.start_ms, b.startTime) &&
      same(r.end_ms, b.endTime) &&
      r.spots === b.spots &&
      r.meta_data_version === b.metaDataVersion &&
      same(r.updated_ms, b.updatedAt);
    if (unchanged) continue;
    if (r && r.meta_data_version !== b.metaDataVersion && metaChanged.has(b.id)) throw metaDataConflict(b.metaDataVersion);
    throw conflict('the booking was changed by another request; reload it and retry');
  }
}

async function release(ctx: Ctx, b: Booking): Promise<void> {
  if (usesCapacity(b.type)) {
    await releaseCapacity(
      ctx,
      { companyId: b.companyId, serviceId: b.serviceId, resourceId: b.resourceId, start: b.startTime.getTime() },
      b.spots,
      ticketCounts(b.tickets),
    );
  } else {
    await releaseOccupancy(ctx, b.companyId, b.id);
  }
}

async function take(ctx: Ctx, b: Booking, p: Placement): Promise<void> {
  if (usesCapacity(b.type)) {
    if (!p.capacity) throw unavailable('no capacity rule applies to this time');
    await takeCapacity(
      ctx,
      { companyId: b.companyId, serviceId: b.serviceId, resourceId: b.resourceId, start: b.startTime.getTime() },
      b.spots,
      p.ticketCounts,
      p.capacity,
    );
    return;
  }
  const range = occupiedRange(b.startTime.getTime(), b.endTime ? b.endTime.getTime() : null, b.bufferBeforeSec, b.bufferAfterSec);
  await occupy(ctx, b.companyId, b.id, [b.resourceId, ...p.related.all], range);
  b.relatedResourceIds = [...p.related.all];
  if (p.related.any.length) b.relatedResourceIds.push(await occupyAny(ctx, b.companyId, b.id, p.related.any, range));
}

const metaDataConflict = (version: number) =>
  new DomainError(
    'version_conflict',
    `metaData was changed by another request (version ${version} is no longer current); reload the booking and retry`,
  );

/** Writes the row over the metadata version the change was computed from (under the row lock, a guard). */
async function writeRow(ctx: Ctx, b: Booking, fromVersion: number, now: Date): Promise<void> {
  b.updatedAt = now;
  if ((await updateBookingRow(ctx, b, fromVersion)) !== 1) throw metaDataConflict(fromVersion);
}

/**
 * Commits every change or none; a time conflict names the booking's new start in `details`.
 * `alongside` runs last in the same transaction (the rows are still locked), and its failure
 * undoes the changes. A booking given up (cancelled, rejected) takes its pending payment with
 * it: the payment is locked before the bookings, as a checkout locks them, so a cancel and a
 * payment of the same booking run one after the other and exactly one of them wins.
 */
export async function applyChanges(ctx: Ctx, changes: BookingChange[], alongside?: (ctx: Ctx) => Promise<void>): Promise<void> {
  if (!changes.length) return;
  const companyId = changes[0].before.companyId;
  const givenUpIds = changes.filter((c) => c.before.status !== c.after.status && givenUp(c.after.status)).map((c) => c.after.id);
  await inTransaction(ctx, async (tx) => {
    const cancelPayments = await lockPendingPayments(tx, companyId, givenUpIds);
    await lockUnchanged(tx, companyId, changes);
    for (const c of changes) {
      if (c.before.status !== c.after.status) transition(c.before.status, c.after.status);
      if (holds(c.before.status) && (!holds(c.after.status) || c.retake)) await release(tx, c.before);
    }
    for (const c of changes) {
      if (!holds(c.after.status) || !c.retake) continue;
      try {
        await take(tx, c.after, c.retake);
      } catch (err) {
        if (!isTimeConflict(err) && !(err instanceof DomainError && err.code === 'time_unavailable')) throw err;
        const at = formatTimestamp(c.after.startTime)!;
        throw unavailable(err instanceof DomainError ? err.message : `${at} is not available`, [
          { path: 'startTime', message: `${at} is not available` },
        ]);
      }
    }
    for (const c of changes) {
      await writeRow(tx, c.after, c.before.metaDataVersion, ctx.now);
      if (c.before.status !== c.after.status)
        await insertStatusChange(tx, companyId, c.after.id, c.before.status, c.after.status, ctx.now, c.statusMeta ?? {});
    }
    const statusChanges = changes.filter((c) => c.before.status !== c.after.status);
    await followCodes(
      ctx.deps.codes,
      tx,
      companyId,
      statusChanges.map((c) => ({ id: c.after.id, code: c.before.code, from: c.before.status, to: c.after.status })),
      ctx.now,
    );
    await recordBookingEvents(
      tx,
      ctx.deps.jwtKey,
      companyId,
      changes.map((c) => ({ id: c.after.id, booking: c.after, types: bookingEventTypes(c.before, c.after) })),
      ctx.now,
    );
    await cancelPayments(ctx.now);
    if (alongside) await alongside(tx);
  });
}
