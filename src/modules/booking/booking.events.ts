import { eventListeners, recordEvents, type EventType } from '../../kernel/events';
import { formatTimestamp } from '../../shared/time';
import { Booking, BookingStatusChange } from './booking.entity';
import { bookingJson } from './booking.json';
import { holds, type BookingStatus } from './booking.status';
import type { Ctx } from '../../kernel/context';

/**
 * The events of bookings in the outbox (kernel/events.ts): what a change is called, and its
 * recording in the change's transaction with the booking's admin JSON as `data` (the records
 * it refers to are not embedded: `client`, `service` and `resource` are null, their ids are set).
 */

const STATUS_EVENT: Record<BookingStatus, EventType | null> = {
  pending: null,
  confirmed: 'booking.confirmed',
  cancelled: 'booking.cancelled',
  rejected: 'booking.rejected',
  failed: 'booking.failed',
  finished: 'booking.finished',
  no_show: 'booking.no_show',
};

/** The event of a status change (none for a booking that stays in its status or becomes pending). */
export function statusEventTypes(from: BookingStatus, to: BookingStatus): EventType[] {
  const type = from !== to ? STATUS_EVENT[to] : null;
  return type ? [type] : [];
}

/** The parts of a booking whose change is an event. */
export interface BookingState {
  status: BookingStatus;
  resourceId: string;
  startTime: Date;
  endTime: Date | null;
}

const sameTime = (a: Date | null, b: Date | null): boolean => (a === null ? b === null : b !== null && a.getTime() === b.getTime());

/**
 * The events of a change from `before` (null: the booking was just written) to `after`: a new
 * booking is `booking.created` whatever its status; a status change is the event of the new
 * status; a booking that still holds its time and changed its start, end or resource is
 * `booking.moved` (beside its status event, when both changed).
 */
export function bookingEventTypes(before: BookingState | null, after: BookingState): EventType[] {
  if (!before) return ['booking.created'];
  const out = statusEventTypes(before.status, after.status);
  const moved =
    before.resourceId !== after.resourceId || !sameTime(before.startTime, after.startTime) || !sameTime(before.endTime, after.endTime);
  if (moved && holds(after.status)) out.push('booking.moved');
  return out;
}

/** One booking's events; `booking` is its state after the change when the caller holds it (else it is read). */
export interface BookingEvents {
  id: string;
  types: EventType[];
  booking?: Booking;
}

/**
 * What the e-mail outbox reads of a booking event (src/db/functions/notification_enqueue.sql):
 * the event of a type no webhook endpoint listens to carries only this, so it costs no read of
 * status changes and no access token.
 */
const noticeData = (b: Booking) => ({
  id: b.id,
  clientID: b.clientId,
  status: b.status,
  bookingPolicy: b.bookingPolicy,
  startTime: formatTimestamp(b.startTime),
});

/**
 * Records the events of changed bookings in the caller's transaction. Asks first which types
 * an endpoint listens to or the e-mail notifications read (one indexed read), reads the
 * bookings the caller does not hold only for those, and their status changes only for the
 * types an endpoint receives.
 */
export async function recordBookingEvents(
  ctx: Ctx,
  jwtKey: Uint8Array,
  companyId: string,
  items: readonly BookingEvents[],
  at: Date,
): Promise<void> {
  const { webhooks, notifications } = await eventListeners(
    ctx,
    companyId,
    items.flatMap((i) => i.types),
  );
  if (!webhooks.size && !notifications.size) return;
  const wanted = items
    .map((i) => ({ ...i, types: i.types.filter((t) => webhooks.has(t) || notifications.has(t)) }))
    .filter((i) => i.types.length);
  if (!wanted.length) return;
  const missing = wanted.filter((i) => !i.booking).map((i) => i.id);
  const read = missing.length ? await ctx.em.find(Booking, { companyId, id: { $in: missing } }, { disableIdentityMap: true }) : [];
  const byId = new Map(read.map((b) => [b.id, b]));
  const whole = wanted.filter((i) => i.types.some((t) => webhooks.has(t))).map((i) => i.id);
  const changes = whole.length
    ? await ctx.em.find(
        BookingStatusChange,
        { companyId, bookingId: { $in: whole } },
        { orderBy: { seq: 'asc' }, disableIdentityMap: true },
      )
    : [];
  const events = wanted.flatMap((i) => {
    const b = i.booking ?? byId.get(i.id);
    if (!b) return [];
    const json = i.types.some((t) => webhooks.has(t))
      ? bookingJson(
          b,
          jwtKey,
          changes.filter((c) => c.bookingId === b.id),
        )
      : null;
    return i.types.map((type) => ({ type, data: webhooks.has(type) ? json! : noticeData(b) }));
  });
  await recordEvents(ctx, { companyId, events, at });
}
