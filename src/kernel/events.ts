import type { Ctx } from './context';
import { newId } from '../shared/ids';

/**
 * The transactional outbox. A module that changes a record calls `recordEvent` with the
 * context of the change's own database transaction (`inTransaction`), so the event commits with the
 * change or not at all. The row goes to `webhook_event` (with one `webhook_delivery` per
 * listening endpoint) only when an enabled endpoint of the company listens to the event's
 * type, decided in the same statement: a company without endpoints pays one indexed read
 * inside a statement it sends anyway, or one small statement.
 *
 * The tables belong to the webhook module's migration; this contract is what the modules that
 * cause events see (booking, payment, gift cards), so none of them imports the webhook module.
 */

/** Every event type, in documentation order. A new one is one line here. */
export const EVENT_TYPES = [
  'booking.created',
  'booking.confirmed',
  'booking.cancelled',
  'booking.rejected',
  'booking.failed',
  'booking.moved',
  'booking.finished',
  'booking.no_show',
  'payment.paid',
  'payment.failed',
  'payment.refunded',
  'giftcard.purchased',
  'giftcard.paid',
  'subscription.purchased',
  'subscription.activated',
  'subscription.renewed',
  'subscription.expired',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const isEventType = (v: unknown): v is EventType => typeof v === 'string' && (EVENT_TYPES as readonly string[]).includes(v);

/** The record's JSON as the REST API answers it (`data` of the delivered body). */
export type EventData = object;

export interface NewEvent {
  type: EventType;
  data: EventData;
  /** a booking created with `notify: false`: its client gets no e-mail (now or later); webhooks are unaffected */
  quiet?: boolean;
}

/** The body delivered to endpoints: the record under `data`, with the event's own id, type and time. */
export interface EventBody {
  id: string;
  type: EventType;
  occurredAt: string;
  data: EventData;
}

export function eventBody(id: string, type: EventType, at: Date, data: EventData): EventBody {
  return { id, type, occurredAt: at.toISOString(), data };
}

/** Events of one company to record, caused by a change at `at`. */
export interface EventBatch {
  companyId: string;
  events: readonly NewEvent[];
  at: Date;
}

/**
 * The events as the JSON array of rows (`id`, `type`, `body`) that the `webhook_enqueue`
 * database function reads, given to it by `recordEvents` and by `booking_insert`.
 */
export function eventRows(events: readonly NewEvent[], at: Date): string {
  return JSON.stringify(
    events.map((e) => {
      const id = newId();
      return { id, type: e.type, body: eventBody(id, e.type, at, e.data), ...(e.quiet ? { quiet: true } : {}) };
    }),
  );
}

/**
 * The enqueue is one database function, `webhook_enqueue` (src/db/functions/webhook_enqueue.sql),
 * which `booking_insert` calls too, so that a new booking's event rides in its insert statement.
 * Both call it with named arguments. The e-mail outbox reads the same rows in the same
 * statement (`notification_enqueue`, src/db/functions/notification_enqueue.sql).
 */
const ENQUEUE_SQL =
  'select webhook_enqueue(p_company => ?::uuid, p_events => ?::text, p_at => ?::timestamptz), ' +
  'notification_enqueue(p_company => ?::uuid, p_events => ?::text, p_at => ?::timestamptz)';

/** Records events of one company in one statement, in the caller's transaction (see above). */
export async function recordEvents(ctx: Ctx, { companyId, events, at }: EventBatch): Promise<void> {
  if (!events.length) return;
  const args = [companyId, eventRows(events, at), at.toISOString()];
  await ctx.em.execute(ENQUEUE_SQL, [...args, ...args], 'run');
}

/**
 * Event types the e-mail notifications read (src/db/functions/notification_enqueue.sql): wanted
 * whenever the company's notifications are on (the default), webhook endpoints or not.
 */
export const NOTIFIED_EVENT_TYPES: readonly EventType[] = [
  'booking.created',
  'booking.confirmed',
  'booking.cancelled',
  'booking.rejected',
  'booking.failed',
  'booking.moved',
  'payment.paid',
  'giftcard.paid',
  'subscription.activated',
];

/** Records one event in the caller's transaction; see `recordEvents`. */
export function recordEvent(ctx: Ctx, e: { companyId: string; type: EventType; payload: EventData; at: Date }): Promise<void> {
  return recordEvents(ctx, { companyId: e.companyId, events: [{ type: e.type, data: e.payload }], at: e.at });
}

/** Who reads events of some types: webhook endpoints, the e-mail notifications, or both. */
export interface EventListeners {
  /** the types an enabled endpoint of the company listens to: they carry the record's whole JSON */
  webhooks: Set<EventType>;
  /** the types the company's e-mail notifications read (NOTIFIED_EVENT_TYPES, none when switched off) */
  notifications: Set<EventType>;
}

/**
 * Which of `types` an enabled endpoint of the company listens to, and which its e-mail
 * notifications read, in one indexed read: for events whose data costs reads to build
 * (settled bookings), asked before building it.
 */
export async function eventListeners(ctx: Ctx, companyId: string, types: readonly EventType[]): Promise<EventListeners> {
  const out: EventListeners = { webhooks: new Set(), notifications: new Set() };
  if (!types.length) return out;
  const asked = `{${[...new Set(types)].join(',')}}`;
  const rows = await ctx.em.execute<{ t: EventType; webhook: boolean }[]>(
    `select distinct t, true as webhook from webhook_endpoint e, unnest(e.event_types) t
      where e.company_id = ? and e.enabled and t = any(?::text[])
     union all
     select t, false from unnest(?::text[]) t
      where t = any(?::text[]) and not exists (select 1 from notification_settings s where s.company_id = ? and not s.enabled)`,
    [companyId, asked, asked, `{${NOTIFIED_EVENT_TYPES.join(',')}}`, companyId],
  );
  for (const r of rows) (r.webhook ? out.webhooks : out.notifications).add(r.t);
  return out;
}

/** The subset of `types` an endpoint listens to or the e-mail notifications read (see `eventListeners`). */
export async function listenedTypes(ctx: Ctx, companyId: string, types: readonly EventType[]): Promise<Set<EventType>> {
  const { webhooks, notifications } = await eventListeners(ctx, companyId, types);
  return new Set([...webhooks, ...notifications]);
}
