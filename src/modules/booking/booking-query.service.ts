import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { invalid, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { parsePage } from '../../shared/pagination';
import {
  connectionAnswer,
  isOffsetPage,
  listTag,
  windowOf,
  type ConnectionArgs,
  type ConnectionJson,
  type SortKey,
} from '../../kernel/connection';
import { connectionFrom, sqlSource } from '../../kernel/keyset';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import { Resource, Service, Ticket } from '../catalog/catalog.entity';
import { resourceJson, serviceJson, ticketJson, type ResourceJson, type ServiceJson, type TicketJson } from '../catalog/catalog.json';
import { loadClients } from '../client/client.lookup';
import { clientJson, type ClientJson } from '../client/client.service';
import { isOccurrence } from '../scheduling/recurrence';
import { Slot } from '../scheduling/scheduling.entity';
import { slotJson, type SlotJson } from '../scheduling/slot.input';
import { Booking, BookingStatusChange } from './booking.entity';
import { usesCapacity } from './booking.store';
import { bookingJson, type BlockedTimeJson, type BookingJson } from './booking.json';

export const BOOKINGS_MAX_LIMIT = 100;

/** A booking of the company (a detached copy: changes go through SQL in a transaction). 400 malformed id, 404 elsewhere. */
export async function findBooking(ctx: Ctx, companyId: string, id: unknown): Promise<Booking> {
  if (!isUuid(id)) throw invalid('booking id must be a UUID', [{ path: 'bookingID', message: 'must be a UUID' }]);
  const b = await ctx.em.findOne(Booking, { id: id.toLowerCase(), companyId }, { disableIdentityMap: true });
  if (!b) throw notFound('booking');
  return b;
}

/** Status changes of the bookings, oldest first, in one statement. */
export async function changesOf(ctx: Ctx, companyId: string, ids: string[]): Promise<Map<string, BookingStatusChange[]>> {
  const out = new Map<string, BookingStatusChange[]>();
  if (!ids.length) return out;
  const rows = await ctx.em.find(
    BookingStatusChange,
    { companyId, bookingId: { $in: ids } },
    { orderBy: { seq: 'asc' }, disableIdentityMap: true },
  );
  for (const r of rows) {
    const list = out.get(r.bookingId);
    if (list) list.push(r);
    else out.set(r.bookingId, [r]);
  }
  return out;
}

/** The admin Booking of a stored booking, with its client, service and resource embedded. */
export async function adminJsonOf(ctx: Ctx, b: Booking): Promise<BookingJson> {
  const [changes, service, resource, clients] = await Promise.all([
    changesOf(ctx, b.companyId, [b.id]),
    ctx.em.findOne(Service, { id: b.serviceId }),
    ctx.em.findOne(Resource, { id: b.resourceId }),
    b.clientId ? loadClients(ctx, b.companyId, [b.clientId]) : Promise.resolve(new Map()),
  ]);
  const client = b.clientId ? clients.get(b.clientId) : null;
  return bookingJson(b, ctx.deps.jwtKey, changes.get(b.id) ?? [], {
    service: service ? serviceJson(service) : null,
    resource: resource ? resourceJson(resource) : null,
    client: client ? clientJson(client) : null,
  });
}

/** Admin: one booking. */
export async function getBooking(ctx: Ctx, companyId: string, id: unknown): Promise<BookingJson> {
  const company = await companyForMerchant(ctx, companyId, 'bookings.read');
  return adminJsonOf(ctx, await findBooking(ctx, company.id, id));
}

export interface BookingFilter {
  clientID?: unknown;
  from?: unknown;
  to?: unknown;
  includeFailures?: unknown;
  resourceIDs?: unknown;
  serviceIDs?: unknown;
  limit?: unknown;
  offset?: unknown;
}

export interface BookingPageJson {
  blockedTimes: BlockedTimeJson[];
  bookings: BookingJson[];
  clients: ClientJson[];
  resources: ResourceJson[];
  services: ServiceJson[];
  slots: SlotJson[];
  tickets: TicketJson[];
  limit: number;
  offset: number;
  total: number;
}

/** A comma-separated query value (REST) or a list (GraphQL). */
function idList(c: Check, path: string, raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const list = Array.isArray(raw)
    ? raw
    : typeof raw === 'string'
      ? raw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : raw;
  return c.uuids(path, list);
}

function flag(c: Check, path: string, raw: unknown): boolean {
  if (raw === undefined || raw === null || raw === '') return false;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  c.fail(path, 'must be true or false');
  return false;
}

const arr = (ids: readonly string[]): string => `{${ids.join(',')}}`;

function where(companyId: string, f: BookingFilter): { sql: string; params: unknown[] } {
  const c = new Check();
  const clientId = f.clientID === '' ? undefined : c.uuid('clientID', f.clientID);
  const from = c.timestamp('from', f.from);
  const to = c.timestamp('to', f.to);
  const includeFailures = flag(c, 'includeFailures', f.includeFailures);
  const resourceIds = idList(c, 'resourceIDs', f.resourceIDs);
  const serviceIds = idList(c, 'serviceIDs', f.serviceIDs);
  if (from !== undefined && to !== undefined && to <= from) c.fail('to', 'must be after from');
  c.done('invalid booking filter');
  const parts = ['company_id = ?'];
  const params: unknown[] = [companyId];
  const add = (sql: string, ...values: unknown[]) => {
    parts.push(sql);
    params.push(...values);
  };
  if (clientId) add('client_id = ?', clientId);
  if (from !== undefined) add('(end_time is null or end_time > ?::timestamptz)', new Date(from).toISOString());
  if (to !== undefined) add('start_time < ?::timestamptz', new Date(to).toISOString());
  if (!includeFailures) add(`status not in ('rejected', 'failed')`);
  if (resourceIds?.length)
    add('(resource_id = any(?::uuid[]) or jsonb_exists_any(related_resource_ids, ?::text[]))', arr(resourceIds), arr(resourceIds));
  if (serviceIds?.length) add('service_id = any(?::uuid[])', arr(serviceIds));
  return { sql: parts.join(' and '), params };
}

/** One page of bookings as stored rows, with the number of matches; what both APIs list. */
export interface BookingRowsPage {
  companyId: string;
  rows: Booking[];
  limit: number;
  offset: number;
  total: number;
}

/**
 * Admin: a page of the company's bookings ordered by startTime then id, and the number of
 * matches, in one statement (a second one only for a page past the end, to count).
 */
export async function pageBookings(ctx: Ctx, companyId: string, f: BookingFilter): Promise<BookingRowsPage> {
  const company = await companyForMerchant(ctx, companyId, 'bookings.read');
  const page = parsePage({ limit: f.limit, offset: f.offset }, BOOKINGS_MAX_LIMIT);
  const w = where(company.id, f);
  const conn = ctx.em.getConnection();
  const rows = await conn.execute<Record<string, unknown>[]>(
    `select *, count(*) over () as total_matching from booking where ${w.sql} order by start_time, id limit ? offset ?`,
    [...w.params, page.limit, page.offset],
  );
  let total = Number(rows[0]?.total_matching ?? 0);
  if (!rows.length && page.offset > 0) {
    const counted = await conn.execute<{ n: string }[]>(`select count(*) as n from booking where ${w.sql}`, w.params);
    total = Number(counted[0]?.n ?? 0);
  }
  const bookings = rows.map(({ total_matching: _, ...r }) => ctx.em.map(Booking, r));
  return { companyId: company.id, rows: bookings, limit: page.limit, offset: page.offset, total };
}

/** A booking of a listed page: its status changes are loaded only when asked for (Booking.statusChanges). */
export type ListedBooking = Omit<BookingJson, 'statusChanges'> & { statusChanges?: BookingJson['statusChanges'] };

/** The order of the bookings lists as cursor keys: startTime, then id. */
export const BOOKING_KEYS: SortKey<{ startTime: string; id: string }>[] = [
  { column: 'start_time', time: true, of: (b) => b.startTime },
  { column: 'id', of: (b) => b.id },
];

/** A page of the bookings connection, with the stored rows its side lists are read from. */
export type BookingConnection = ConnectionJson<ListedBooking> & { companyId: string; rows: Booking[] };

/**
 * Admin (GraphQL): a page of the company's bookings by cursor (kernel/connection.ts), read by
 * keyset on (start_time, id); totalCount is one statement more, run only when selected. The
 * deprecated limit/offset arguments read the offset page as before (page and total in one
 * statement).
 */
export async function bookingsConnection(ctx: Ctx, companyId: string, f: BookingFilter, args: ConnectionArgs): Promise<BookingConnection> {
  const spec = { tag: listTag('bookings', companyId, filterOf(f)), keys: BOOKING_KEYS, max: BOOKINGS_MAX_LIMIT };
  const stored = new Map<ListedBooking, Booking>();
  const listed = (b: Booking): ListedBooking => {
    const json = { ...bookingJson(b, ctx.deps.jwtKey, []), statusChanges: undefined };
    stored.set(json, b);
    return json;
  };
  if (isOffsetPage(args)) {
    windowOf(args, spec); // refuses offsets mixed with cursors
    const page = await pageBookings(ctx, companyId, { ...f, limit: args.limit, offset: args.offset });
    const conn = connectionAnswer(spec, 'bookings', page.rows.map(listed), {
      next: page.offset + page.rows.length < page.total,
      previous: page.offset > 0,
      total: page.total,
      limit: page.limit,
      offset: page.offset,
    });
    return { ...conn, companyId: page.companyId, rows: page.rows };
  }
  const company = await companyForMerchant(ctx, companyId, 'bookings.read');
  const w = where(company.id, f);
  const source = sqlSource<ListedBooking>(ctx.em.getConnection(), {
    from: 'booking',
    where: w.sql,
    params: w.params,
    keys: BOOKING_KEYS,
    map: (rows) => rows.map((r) => listed(ctx.em.map(Booking, r))),
  });
  const conn = await connectionFrom(source, args, spec, 'bookings');
  return { ...conn, companyId: company.id, rows: conn.nodes.map((n) => stored.get(n)!) };
}

/** The filter arguments a cursor is bound to (the list's other arguments). */
const filterOf = (f: BookingFilter) => ({ ...f, limit: undefined, offset: undefined });

/**
 * Admin (REST): a page of bookings ordered by startTime then id, with each referenced client,
 * service, resource, ticket and slot listed once and the related-resource blocked times. The
 * side lists are a fixed set of statements (one per list), run in parallel.
 */
export async function listBookings(ctx: Ctx, companyId: string, f: BookingFilter): Promise<BookingPageJson> {
  const page = await pageBookings(ctx, companyId, f);
  const bookings = page.rows;
  const side = await sideLists(ctx, page.companyId, bookings);
  const clients = new Map(side.clients.map((c) => [c.id, c]));
  const services = new Map(side.services.map((s) => [s.id, s]));
  const resources = new Map(side.resources.map((r) => [r.id, r]));
  const { changes, ...lists } = side;
  return {
    ...lists,
    bookings: bookings.map((b) =>
      bookingJson(b, ctx.deps.jwtKey, changes.get(b.id) ?? [], {
        client: b.clientId ? (clients.get(b.clientId) ?? null) : null,
        service: services.get(b.serviceId) ?? null,
        resource: resources.get(b.resourceId) ?? null,
      }),
    ),
    limit: page.limit,
    offset: page.offset,
    total: page.total,
  };
}

const uniq = (xs: (string | null)[]) => [...new Set(xs.filter((x): x is string => !!x))];
const detached = { disableIdentityMap: true } as const;

/**
 * The side lists of a page of bookings, one function (and one statement) each, so that GraphQL
 * runs only those a query asks for.
 */
export const bookingSideLists = {
  async clients(ctx: Ctx, companyId: string, bookings: Booking[]): Promise<ClientJson[]> {
    const clients = await loadClients(ctx, companyId, uniq(bookings.map((b) => b.clientId)));
    return [...clients.values()].sort((a, b) => a.email.localeCompare(b.email) || a.id.localeCompare(b.id)).map(clientJson);
  },
  async services(ctx: Ctx, companyId: string, bookings: Booking[]): Promise<ServiceJson[]> {
    const ids = uniq(bookings.map((b) => b.serviceId));
    const rows = ids.length
      ? await ctx.em.find(Service, { companyId, id: { $in: ids } }, { ...detached, orderBy: { name: 'asc', id: 'asc' } })
      : [];
    return rows.map(serviceJson);
  },
  async resources(ctx: Ctx, companyId: string, bookings: Booking[]): Promise<ResourceJson[]> {
    const ids = uniq(bookings.flatMap((b) => [b.resourceId, ...(b.relatedResourceIds ?? [])]));
    const rows = ids.length
      ? await ctx.em.find(Resource, { companyId, id: { $in: ids } }, { ...detached, orderBy: { name: 'asc', id: 'asc' } })
      : [];
    return rows.map(resourceJson);
  },
  async tickets(ctx: Ctx, companyId: string, bookings: Booking[]): Promise<TicketJson[]> {
    const ids = uniq(bookings.flatMap((b) => Object.keys(b.tickets ?? {})));
    const rows = ids.length
      ? await ctx.em.find(Ticket, { companyId, id: { $in: ids } }, { ...detached, orderBy: { name: 'asc', id: 'asc' } })
      : [];
    return rows.map(ticketJson);
  },
  async slots(ctx: Ctx, companyId: string, bookings: Booking[]): Promise<SlotJson[]> {
    const slotted = bookings.filter((b) => usesCapacity(b.type));
    if (!slotted.length) return [];
    const slots = await ctx.em.find(
      Slot,
      {
        companyId,
        serviceId: { $in: uniq(slotted.map((b) => b.serviceId)) },
        $or: [{ resourceId: null }, { resourceId: { $in: uniq(slotted.map((b) => b.resourceId)) } }],
      },
      { ...detached, orderBy: { startTime: 'asc', id: 'asc' } },
    );
    return slots.filter((s) => slotted.some((b) => slotHolds(s, b))).map((s) => slotJson(s));
  },
  async blockedTimes(ctx: Ctx, companyId: string, bookings: Booking[]): Promise<BlockedTimeJson[]> {
    const ids = bookings.map((b) => b.id);
    if (!ids.length) return [];
    const rows = await ctx.em
      .getConnection()
      .execute<{ id: string; booking_id: string; resource_id: string; s: number | null; e: number | null }[]>(
        `select id, booking_id, resource_id, (extract(epoch from lower(during)) * 1000)::float8 as s, (extract(epoch from upper(during)) * 1000)::float8 as e from booking_occupancy
          where company_id = ? and booking_id = any(?::uuid[]) and source = 'related_resource' order by lower(during), resource_id`,
        [companyId, arr(ids)],
      );
    return rows.map((o) => ({
      id: o.id,
      bookingID: o.booking_id,
      resourceID: o.resource_id,
      startTime: formatTimestamp(o.s),
      endTime: formatTimestamp(o.e),
      source: 'related_resource' as const,
    }));
  },
};

async function sideLists(ctx: Ctx, companyId: string, bookings: Booking[]) {
  const [changes, clients, services, resources, tickets, slots, blockedTimes] = await Promise.all([
    changesOf(
      ctx,
      companyId,
      bookings.map((b) => b.id),
    ),
    bookingSideLists.clients(ctx, companyId, bookings),
    bookingSideLists.services(ctx, companyId, bookings),
    bookingSideLists.resources(ctx, companyId, bookings),
    bookingSideLists.tickets(ctx, companyId, bookings),
    bookingSideLists.slots(ctx, companyId, bookings),
    bookingSideLists.blockedTimes(ctx, companyId, bookings),
  ]);
  return { changes, clients, services, resources, tickets, slots, blockedTimes };
}

/** True when booking `b` sits at an occurrence of slot `s`. */
function slotHolds(s: Slot, b: Booking): boolean {
  if (s.serviceId !== b.serviceId || (s.resourceId !== null && s.resourceId !== b.resourceId)) return false;
  const at = b.startTime.getTime();
  if (!s.rrule || !s.timeZone) return s.startTime.getTime() === at;
  return isOccurrence(
    {
      rrule: s.rrule,
      timeZone: s.timeZone,
      until: s.until ? s.until.getTime() : null,
      start: s.startTime.getTime(),
      exdates: s.exdates ?? [],
    },
    at,
  );
}
