import type { Ctx } from '../../app/context';
import { companyForMerchant } from '../../app/access';
import { invalid, notFound } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import { findBookableTime } from '../availability/availability.service';
import { Resource, Service } from '../catalog/catalog.entity';
import { resourceJson, serviceJson } from '../catalog/catalog.json';
import type { Client } from '../client/client.entity';
import { getClientInCompany } from '../client/client.lookup';
import { clientJson } from '../client/client.service';
import type { Company } from '../company/company.entity';
import { countOccurrences, type RepeatSpec } from '../scheduling/recurrence';
import { isTimeConflict, unavailable, type BookingRow } from './booking.hold';
import { idempotencyOf } from './booking.idempotency';
import { amountsFor, checkOptionalClientId, checkPlacement, checkRepeatField, type Amounts, type PlacementInput } from './booking.input';
import { bookingJson, type BookingJson } from './booking.json';
import { bookingOf, commitCreation, needsTransaction, placementOf, writeBooking, type Placement } from './booking.write';

export interface CreateBookingInput {
  clientID?: unknown;
  duration?: unknown;
  ignoreSchedule?: unknown;
  metaData?: unknown;
  repeat?: unknown;
  resourceID?: unknown;
  serviceID?: unknown;
  spots?: unknown;
  startTime?: unknown;
  tickets?: unknown;
}

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
export async function placeAt(ctx: Ctx, company: Company, service: Service, resourceId: string | null, start: number, p: PlacementInput, amounts: Amounts, opts: { ignoreSchedule: boolean; includePast: boolean; excludeBookingIds?: string[] }): Promise<Placement> {
  const bt = await findBookableTime(ctx, company, service, {
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
  return placementOf(bt, amounts, service.type === 'sharable' && p.durationSec === undefined);
}

interface Parsed {
  p: PlacementInput;
  clientId: string | null;
  ignoreSchedule: boolean;
  repeat: RepeatSpec | undefined;
}

function parse(input: CreateBookingInput): Parsed {
  const c = new Check();
  if (typeof input !== 'object' || input === null) c.fail('body', 'must be an object');
  const p = checkPlacement(c, input ?? {}, true);
  const clientId = checkOptionalClientId(c, input?.clientID);
  const ignoreSchedule = c.bool('ignoreSchedule', input?.ignoreSchedule) ?? false;
  const repeat = checkRepeatField(c, input?.repeat);
  c.done('invalid booking');
  return { p, clientId, ignoreSchedule, repeat };
}

/** Admin: creates a booking (or a recurring series with `repeat`) and returns the admin Booking (the first of a series). */
export async function createBooking(ctx: Ctx, companyId: string, input: CreateBookingInput, opts: { idempotencyKey?: unknown } = {}): Promise<BookingJson> {
  const company = await companyForMerchant(ctx, companyId, 'bookings.write');
  const { p, clientId, ignoreSchedule, repeat } = parse(input);
  const idem = idempotencyOf(opts.idempotencyKey, 'booking.create', company.merchantId, input);
  const [[service, resource], client] = await Promise.all([
    serviceAndResource(ctx, company.id, p.serviceId!, p.resourceId!),
    clientId ? getClientInCompany(ctx, company.id, clientId) : Promise.resolve(null),
  ]);
  const amounts = amountsFor(service, p);
  if (repeat) return createSeries(ctx, company, service, resource, client, p, amounts, repeat, ignoreSchedule, idem);

  const placement = await placeAt(ctx, company, service, resource.id, p.start!, p, amounts, { ignoreSchedule, includePast: true });
  const row = newRow(company, service, placement, ctx.now, { clientId: client?.id ?? null, metaData: p.metaData ?? {} });
  return commitCreation(ctx, company.id, idem, !needsTransaction(row.type, placement), async (em) => {
    const change = await writeBooking(em, row, placement);
    return bookingJson(bookingOf(row), ctx.deps.jwtKey, [change], embed(service, resource, client));
  });
}

const DATES = ['created_at', 'updated_at', 'disabled_at'];

function mapped<T extends object>(ctx: Ctx, entity: new () => T, json: Record<string, unknown>): T {
  for (const k of DATES) if (typeof json[k] === 'string') json[k] = new Date(json[k] as string);
  return ctx.em.map(entity, json as never);
}

/**
 * The service and resource of a new booking in one statement: the booking hot path would
 * otherwise spend two ORM lookups here. Scoped by company like the catalog lookups (404
 * when either is not in the company); the ids are already checked UUIDs.
 */
export async function serviceAndResource(ctx: Ctx, companyId: string, serviceId: string, resourceId: string): Promise<[Service, Resource]> {
  const rows = await ctx.em.getConnection().execute<{ s: Record<string, unknown> | null; r: Record<string, unknown> | null }[]>(
    `select (select row_to_json(s) from service s where s.company_id = ? and s.id = ?) as s,
            (select row_to_json(r) from resource r where r.company_id = ? and r.id = ?) as r`,
    [companyId, serviceId, companyId, resourceId],
  );
  if (!rows[0]?.s) throw notFound('service');
  if (!rows[0].r) throw notFound('resource');
  return [mapped(ctx, Service, rows[0].s), mapped(ctx, Resource, rows[0].r)];
}

export const embed = (service: Service, resource: Resource, client: Client | null) => ({
  service: serviceJson(service),
  resource: resourceJson(resource),
  client: client ? clientJson(client) : null,
});

const notAvailable = (start: number, message?: string) =>
  unavailable(message ?? `the occurrence at ${formatTimestamp(start)} is not available`, [{ path: 'repeat', message: `${formatTimestamp(start)} is not available` }]);

/**
 * A recurring series: every occurrence is checked first (for a friendly answer naming the
 * first unavailable one), then all are written in one transaction, where the database has the
 * last word: the first conflicting insert rolls the whole series back.
 */
async function createSeries(ctx: Ctx, company: Company, service: Service, resource: Resource, client: Client | null, p: PlacementInput, amounts: Amounts, repeat: RepeatSpec, ignoreSchedule: boolean, idem: ReturnType<typeof idempotencyOf>): Promise<BookingJson> {
  const series = countOccurrences({ rrule: repeat.rrule, timeZone: repeat.timeZone, until: repeat.until, start: p.start! });
  if (!series.ok) throw invalid(series.message, [{ path: 'repeat', message: series.message }]);
  const placements: Placement[] = [];
  for (const start of series.occurrences) {
    try {
      placements.push(await placeAt(ctx, company, service, resource.id, start, p, amounts, { ignoreSchedule, includePast: true }));
    } catch (err) {
      if (err instanceof Error && (err as { code?: string }).code === 'time_unavailable') throw notAvailable(start);
      throw err;
    }
  }
  const recurringId = newId();
  const rows = placements.map((pl) => newRow(company, service, pl, ctx.now, { clientId: client?.id ?? null, metaData: p.metaData ?? {}, rrule: repeat.rrule, recurringId }));
  return commitCreation(ctx, company.id, idem, false, async (em) => {
    let first: BookingJson | null = null;
    for (let i = 0; i < rows.length; i++) {
      try {
        const change = await writeBooking(em, rows[i], placements[i]);
        first ??= bookingJson(bookingOf(rows[i]), ctx.deps.jwtKey, [change], embed(service, resource, client));
      } catch (err) {
        if (isTimeConflict(err) || (err as { code?: string }).code === 'time_unavailable') throw notAvailable(rows[i].start);
        throw err;
      }
    }
    return first!;
  });
}
