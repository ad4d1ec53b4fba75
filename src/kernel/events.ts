import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../shared/ids';

/**
 * The transactional outbox. A module that changes a record calls `recordEvent` with the
 * EntityManager of the change's own database transaction, so the event commits with the
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

/**
 * Common table expressions that record `events` of one company (to put in front of another
 * statement, `with <ctes>, ... `, or to run alone through `recordEvents`). The names start
 * with `wh_` so they do not clash with the host statement's own.
 */
export function eventCtes(companyId: string, events: readonly NewEvent[], at: Date): { sql: string; params: unknown[] } {
  const sql = `wh_in as (
      select * from jsonb_to_recordset(?::jsonb) as x(id uuid, type text, body jsonb)
    ), wh_ep as (
      select e.id as endpoint_id, i.id as event_id from wh_in i
        join webhook_endpoint e on e.company_id = ?::uuid and e.enabled and i.type = any(e.event_types)
    ), wh_ev as (
      insert into webhook_event (id, company_id, type, payload, occurred_at)
      select i.id, ?::uuid, i.type, i.body, ?::timestamptz from wh_in i where i.id in (select event_id from wh_ep)
      returning id
    ), wh_d as (
      insert into webhook_delivery (id, company_id, endpoint_id, event_id, next_attempt_at, created_at, updated_at)
      select gen_random_uuid(), ?::uuid, p.endpoint_id, p.event_id, ?::timestamptz, ?::timestamptz, ?::timestamptz
        from wh_ep p join wh_ev v on v.id = p.event_id
    )`;
  const ts = at.toISOString();
  return { sql, params: [eventRows(events, at), companyId, companyId, ts, companyId, ts, ts, ts] };
}

/**
 * The events as the JSON array of rows (`id`, `type`, `body`) that the statement above reads,
 * and the `booking_insert` database function too (its migration records them the same way).
 */
export function eventRows(events: readonly NewEvent[], at: Date): string {
  return JSON.stringify(
    events.map((e) => {
      const id = newId();
      return { id, type: e.type, body: eventBody(id, e.type, at, e.data) };
    }),
  );
}

/** Records events of one company in one statement, in the caller's transaction (see above). */
export async function recordEvents(em: EntityManager, companyId: string, events: readonly NewEvent[], at: Date): Promise<void> {
  if (!events.length) return;
  const q = eventCtes(companyId, events, at);
  await em.execute(`with ${q.sql} select 1`, q.params, 'run');
}

/** Records one event in the caller's transaction; see `recordEvents`. */
export function recordEvent(em: EntityManager, e: { companyId: string; type: EventType; payload: EventData; at: Date }): Promise<void> {
  return recordEvents(em, e.companyId, [{ type: e.type, data: e.payload }], e.at);
}

/**
 * The subset of `types` an enabled endpoint of the company listens to: for events whose data
 * costs reads to build (settled bookings), asked before building it.
 */
export async function listenedTypes(em: EntityManager, companyId: string, types: readonly EventType[]): Promise<Set<EventType>> {
  if (!types.length) return new Set();
  const rows = await em.execute<{ t: EventType }[]>(
    `select distinct t from webhook_endpoint e, unnest(e.event_types) t
      where e.company_id = ? and e.enabled and t = any(?::text[])`,
    [companyId, `{${[...new Set(types)].join(',')}}`],
  );
  return new Set(rows.map((r) => r.t));
}
