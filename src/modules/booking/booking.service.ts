import { companyForMerchant } from '../company/company.access';
import { invalid, conflict, DomainError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import type { Resource, Service } from '../catalog/catalog.entity';
import type { Client } from '../client/client.entity';
import { getClientInCompany } from '../client/client.lookup';
import type { Company } from '../company/company.entity';
import { countOccurrences, type RepeatSpec } from '../scheduling/recurrence';
import { UPDATE_STRATEGIES } from '../scheduling/slot.service';
import { isTimeConflict, unavailable, ticketCounts, usesCapacity } from './booking.store';
import { idempotencyOf, type Idempotency } from './idempotency';
import {
  amountsFor,
  checkOptionalClientId,
  checkPlacement,
  checkRepeatField,
  type Amounts,
  type PlacementInput,
  MAX_SPOTS,
} from './booking.checks';
import { embed, newRow, placeAt, serviceAndResource, commitCreation, needsTransaction, replayOr } from './booking-placement.service';
import type { BookingJson } from './booking.json';
import { writeBooking, type Placement } from './booking.store';
import { updateRecordMetaData } from '../../shared/metadata';
import { commitChecked, keptCheck, placeKept } from './booking-kept-catalog';
import { loadSnapshot } from '../availability/snapshot';
import { bookingSnapshotOptions } from '../availability/availability.service';
import { getResourceInCompany, getServiceInCompany } from '../catalog/catalog.lookup';
import { matchContextAt } from '../pricing/engine/context';
import { Booking } from './booking.entity';
import { applyChanges, copyOf, type BookingChange } from './booking-changes.service';
import { refundBookingTo } from './booking.payable';
import { adminJsonOf, findBooking } from './booking-query.service';
import { BOOKING_STATUSES, holds, type BookingStatus } from './booking.status';
import type { Ctx } from '../../kernel/context';

export interface CreateBookingInput {
  clientID?: unknown;
  duration?: unknown;
  ignoreSchedule?: unknown;
  metaData?: unknown;
  notify?: unknown;
  repeat?: unknown;
  resourceID?: unknown;
  serviceID?: unknown;
  spots?: unknown;
  startTime?: unknown;
  tickets?: unknown;
}

interface Parsed {
  p: PlacementInput;
  clientId: string | null;
  ignoreSchedule: boolean;
  /** false: the client gets no e-mail about this booking, ever (kernel/events.ts, `quiet`) */
  notify: boolean;
  repeat: RepeatSpec | undefined;
}

function parse(input: CreateBookingInput): Parsed {
  const c = new Check();
  if (typeof input !== 'object' || input === null) c.fail('body', 'must be an object');
  const p = checkPlacement(c, input ?? {}, true);
  const clientId = checkOptionalClientId(c, input?.clientID);
  const ignoreSchedule = c.bool('ignoreSchedule', input?.ignoreSchedule) ?? false;
  const notify = c.bool('notify', input?.notify) ?? true;
  const repeat = checkRepeatField(c, input?.repeat);
  c.done('invalid booking');
  return { p, clientId, ignoreSchedule, notify, repeat };
}

/** Admin: creates a booking (or a recurring series with `repeat`) and returns the admin Booking (the first of a series). */
export async function createBooking(
  ctx: Ctx,
  companyId: string,
  input: CreateBookingInput,
  opts: { idempotencyKey?: unknown } = {},
): Promise<BookingJson> {
  const company = await companyForMerchant(ctx, companyId, 'bookings.write');
  const parsed = parse(input);
  const idem = idempotencyOf(opts.idempotencyKey, 'booking.create', company.merchantId, input);
  return replayOr(ctx, company.id, idem, () => create(ctx, company, parsed, idem));
}

async function create(
  ctx: Ctx,
  company: Company,
  { p, clientId, ignoreSchedule, notify, repeat }: Parsed,
  idem: Idempotency | undefined,
): Promise<BookingJson> {
  const quiet = !notify;
  // looked up once, for the check against the kept catalog and for the full check alike
  const clientLookup = clientId ? getClientInCompany(ctx, company.id, clientId) : Promise.resolve(null);
  if (!repeat && !ignoreSchedule) {
    const done = await createAtVersion(ctx, company, p, clientLookup, idem, quiet);
    if (done) return done;
  }
  // a single booking on its schedule: the availability document comes with the service and resource
  const preload = repeat || ignoreSchedule ? undefined : { company, opts: bookingSnapshotOptions(p.start!, p.resourceId!, p.durationSec) };
  const [[service, resource, preloaded], client] = await Promise.all([
    serviceAndResource(ctx, company.id, p.serviceId!, p.resourceId!, preload),
    clientLookup,
  ]);
  const amounts = amountsFor(service, p);
  if (repeat) return createSeries(ctx, company, service, resource, client, p, amounts, repeat, { ignoreSchedule, quiet }, idem);

  const placement = await placeAt(ctx, company, service, resource.id, p.start!, p, amounts, {
    ignoreSchedule,
    includePast: true,
    preloaded,
  });
  const row = newRow(company, service, placement, ctx.now, { clientId: client?.id ?? null, metaData: p.metaData ?? {}, quiet });
  return commitCreation(ctx, company.id, idem, !needsTransaction(row.type, placement), async (tx) => {
    const { json } = await writeBooking(tx, row, placement, ctx.deps.jwtKey);
    // the event's object with the records embedded (the same keys, in the same order, as bookingJson writes them)
    return { ...json, ...embed(service, resource, client) };
  });
}

/**
 * A single booking checked against the catalog kept in the process, the occupancy left to the
 * exclusion constraint (booking-kept-catalog.ts); null when the booking is not one of those, or the
 * catalog changed between the check and the insert (the full check runs then).
 */
async function createAtVersion(
  ctx: Ctx,
  company: Company,
  p: PlacementInput,
  clientLookup: Promise<Client | null>,
  idem: Idempotency | undefined,
  quiet: boolean,
): Promise<BookingJson | null> {
  const [checked, client] = await Promise.all([
    keptCheck(ctx, company.id, p.serviceId!, p.resourceId!, p.start!, p.durationSec),
    clientLookup,
  ]);
  const placement = await placeKept(checked, (c) =>
    placeAt(ctx, company, c.service, c.resource.id, p.start!, p, amountsFor(c.service, p), {
      ignoreSchedule: false,
      includePast: true,
      preloaded: c.preloaded,
    }),
  );
  if (!checked || !placement) return null;
  const { service, resource, version } = checked;
  const row = newRow(company, service, placement, ctx.now, { clientId: client?.id ?? null, metaData: p.metaData ?? {}, quiet });
  return commitChecked(
    { companyId: company.id, serviceId: service.id, resourceId: resource.id, start: p.start! },
    () =>
      commitCreation(ctx, company.id, idem, !needsTransaction(row.type, placement), async (tx) => {
        const { json } = await writeBooking(tx, row, placement, ctx.deps.jwtKey, version);
        return { ...json, ...embed(service, resource, client) };
      }),
    async () => null,
  );
}

const notAvailable = (start: number, message?: string) =>
  unavailable(message ?? `the occurrence at ${formatTimestamp(start)} is not available`, [
    { path: 'repeat', message: `${formatTimestamp(start)} is not available` },
  ]);

/**
 * A recurring series: every occurrence is checked first (for a friendly answer naming the
 * first unavailable one), then all are written in one transaction, where the database has the
 * last word: the first conflicting insert rolls the whole series back.
 */
async function createSeries(
  ctx: Ctx,
  company: Company,
  service: Service,
  resource: Resource,
  client: Client | null,
  p: PlacementInput,
  amounts: Amounts,
  repeat: RepeatSpec,
  { ignoreSchedule, quiet }: { ignoreSchedule: boolean; quiet: boolean },
  idem: Idempotency | undefined,
): Promise<BookingJson> {
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
  const rows = placements.map((pl) =>
    newRow(company, service, pl, ctx.now, {
      clientId: client?.id ?? null,
      metaData: p.metaData ?? {},
      rrule: repeat.rrule,
      recurringId,
      quiet,
    }),
  );
  return commitCreation(ctx, company.id, idem, false, async (tx) => {
    let first: BookingJson | null = null;
    for (let i = 0; i < rows.length; i++) {
      try {
        const { json } = await writeBooking(tx, rows[i], placements[i], ctx.deps.jwtKey);
        first ??= { ...json, ...embed(service, resource, client) };
      } catch (err) {
        if (isTimeConflict(err) || (err as { code?: string }).code === 'time_unavailable') throw notAvailable(rows[i].start);
        throw err;
      }
    }
    return first!;
  });
}

export interface UpdateBookingInput {
  duration?: unknown;
  metaDataUpdate?: unknown;
  price?: unknown;
  refundPercent?: unknown;
  resourceID?: unknown;
  spots?: unknown;
  startTime?: unknown;
  status?: unknown;
}

export interface MoveBookingInput {
  resourceID?: unknown;
  startTime?: unknown;
  ignoreSchedule?: unknown;
  recalculatePrice?: unknown;
  recurringUpdateStrategy?: unknown;
}

const MAX_PRICE = 2_147_483_647;
const lengthed = new Set(['flexible', 'days', 'sharable']);

/** Where `b` would hold time at `resourceId`/`start`, checked like a new booking of the same length and spots. */
async function replace(
  ctx: Ctx,
  company: Company,
  service: Service,
  b: Booking,
  resourceId: string,
  start: number,
  opts: { durationSec?: number; spots?: number; ignoreSchedule: boolean; exclude: string[] },
): Promise<Placement> {
  const tickets = ticketCounts(b.tickets);
  const spots = opts.spots ?? b.spots;
  const durationSec = opts.durationSec ?? (lengthed.has(b.type) && b.durationSec !== null ? b.durationSec : undefined);
  const sameSlot = usesCapacity(b.type) && resourceId === b.resourceId && start === b.startTime.getTime();
  if (sameSlot) {
    // The slot already counts this booking's spots: only growth needs room, shrinking always fits.
    const grow = spots - b.spots;
    const current: Placement = {
      resourceId,
      start,
      end: b.endTime?.getTime() ?? null,
      durationSec: b.durationSec,
      bufferBeforeSec: b.bufferBeforeSec,
      bufferAfterSec: b.bufferAfterSec,
      price: b.price,
      currency: b.currency ?? 'EUR',
      tickets: b.tickets,
      related: { all: [], any: [] },
      capacity: { totalSpots: MAX_SPOTS * 2, spotsPerTicket: {} },
      spots,
      ticketCounts: tickets,
    };
    if (grow <= 0) return current;
    const checked = await placeAt(
      ctx,
      company,
      service,
      resourceId,
      start,
      { durationSec },
      { spots: grow, tickets: undefined },
      { ignoreSchedule: opts.ignoreSchedule, includePast: true, excludeBookingIds: opts.exclude },
    );
    return { ...current, capacity: checked.capacity, spots };
  }
  const amounts: Amounts = { spots, tickets: b.type === 'ticket' ? tickets : undefined };
  return placeAt(ctx, company, service, resourceId, start, { durationSec }, amounts, {
    ignoreSchedule: opts.ignoreSchedule,
    includePast: true,
    excludeBookingIds: opts.exclude,
  });
}

/** Puts `b` at placement `p`; the price is kept unless `repriced`. */
function place(b: Booking, p: Placement, repriced: boolean): void {
  Object.assign(b, {
    resourceId: p.resourceId,
    startTime: new Date(p.start),
    endTime: p.end === null ? null : new Date(p.end),
    durationSec: p.durationSec,
    bufferBeforeSec: p.bufferBeforeSec,
    bufferAfterSec: p.bufferAfterSec,
    spots: p.spots,
  });
  if (repriced) Object.assign(b, { price: p.price, currency: p.currency, tickets: p.tickets });
}

/**
 * Closes a running sharable booking at `end` and prices the elapsed time with the service's
 * price rules (whole started steps). No schedule check: the rental already happened, and the
 * shorter occupancy lies inside the open-ended one it replaces.
 */
async function closeSharable(ctx: Ctx, company: Company, b: Booking, end: number): Promise<{ placement: Placement; price: number }> {
  const start = b.startTime.getTime();
  const durationSec = Math.ceil(Math.max(0, end - start) / 1000);
  const loaded = await loadSnapshot(ctx, company, b.serviceId, { from: start, to: start + 1, resourceIds: [b.resourceId] });
  const quote = loaded
    ? loaded.snapshot.pricer.quote(
        { serviceType: 'sharable', durationSec, spots: 1, tickets: {} },
        matchContextAt(company.timeZone, start, b.resourceId),
      )
    : null;
  const placement: Placement = {
    resourceId: b.resourceId,
    start,
    end: start + durationSec * 1000,
    durationSec,
    bufferBeforeSec: b.bufferBeforeSec,
    bufferAfterSec: b.bufferAfterSec,
    price: quote?.amount ?? 0,
    currency: quote?.currency ?? b.currency ?? 'EUR',
    tickets: {},
    related: { all: [...(b.relatedResourceIds ?? [])], any: [] },
    capacity: null,
    spots: 1,
    ticketCounts: {},
  };
  return { placement, price: placement.price };
}

/**
 * Admin: partial update. Time, resource, duration and spots are re-taken; status goes through
 * the transition rules; `refundPercent` above 0 refunds a paid booking up to that share.
 */
export async function updateBooking(ctx: Ctx, companyId: string, id: unknown, input: UpdateBookingInput): Promise<BookingJson> {
  const company = await companyForMerchant(ctx, companyId, 'bookings.write');
  const c = new Check();
  const body = input ?? {};
  const duration = c.duration('duration', body.duration, { positive: true });
  const price = c.int('price', body.price, { min: 0, max: MAX_PRICE });
  const refundPercent = c.int('refundPercent', body.refundPercent, { min: 0, max: 100 });
  const resourceId = c.uuid('resourceID', body.resourceID);
  const spots = c.int('spots', body.spots, { min: 1, max: MAX_SPOTS });
  const start = c.timestamp('startTime', body.startTime);
  const status = c.oneOf<BookingStatus>('status', body.status, BOOKING_STATUSES);
  c.done('invalid booking update');
  const before = await findBooking(ctx, company.id, id);
  const after = copyOf(before);
  updateRecordMetaData(after, body.metaDataUpdate);
  if (refundPercent !== undefined) after.refundPercent = refundPercent;
  if (status !== undefined) after.status = status;

  const targetResource = resourceId ?? before.resourceId;
  const targetStart = start ?? before.startTime.getTime();
  const moved = targetResource !== before.resourceId || targetStart !== before.startTime.getTime();
  const resized = (duration !== undefined && duration.seconds !== before.durationSec) || (spots !== undefined && spots !== before.spots);
  if (spots !== undefined && spots !== before.spots && before.type !== 'group') {
    throw invalid('spots can change on group bookings only', [
      {
        path: 'spots',
        message: before.type === 'ticket' ? "a ticket booking's spots follow its tickets" : `must be 1 for a ${before.type} service`,
      },
    ]);
  }
  if (resourceId && moved) await getResourceInCompany(ctx, company.id, resourceId);

  const change: BookingChange = { before, after };
  const running = before.type === 'sharable' && before.endTime === null;
  if (running && (status === 'finished' || duration !== undefined)) {
    after.resourceId = targetResource;
    after.startTime = new Date(targetStart);
    const end = duration ? targetStart + duration.seconds * 1000 : Math.max(ctx.now.getTime(), targetStart);
    const closed = await closeSharable(ctx, company, after, end);
    place(after, closed.placement, true);
    if (holds(after.status)) change.retake = closed.placement;
  } else if ((moved || resized) && holds(after.status)) {
    const service = await getServiceInCompany(ctx, company.id, before.serviceId);
    const placement = await replace(ctx, company, service, before, targetResource, targetStart, {
      durationSec: duration?.seconds,
      spots,
      ignoreSchedule: false,
      exclude: [before.id],
    });
    place(after, placement, false);
    change.retake = placement;
  } else if (moved || resized) {
    // A booking that holds nothing (or stops holding now) only has its record corrected.
    const len = duration?.seconds ?? before.durationSec;
    Object.assign(after, {
      resourceId: targetResource,
      startTime: new Date(targetStart),
      durationSec: len,
      endTime: len === null ? before.endTime : new Date(targetStart + len * 1000),
      spots: spots ?? before.spots,
    });
  }
  if (price !== undefined) after.price = price;
  await applyChanges(ctx, [change], refundPercent ? (tx) => refundBookingTo(tx, company.id, before.id, refundPercent) : undefined);
  return adminJsonOf(ctx, after);
}

/** Admin: moves a booking (or, with `upcoming`, it and every later booking of its series by the same offset; all or nothing). */
export async function moveBooking(ctx: Ctx, companyId: string, id: unknown, input: MoveBookingInput): Promise<BookingJson> {
  const company = await companyForMerchant(ctx, companyId, 'bookings.write');
  const c = new Check();
  const body = input ?? {};
  const resourceId = c.uuid('resourceID', body.resourceID, true);
  const start = c.timestamp('startTime', body.startTime, true);
  const ignoreSchedule = c.bool('ignoreSchedule', body.ignoreSchedule) ?? false;
  const recalculatePrice = c.bool('recalculatePrice', body.recalculatePrice) ?? false;
  const strategy = c.oneOf('recurringUpdateStrategy', body.recurringUpdateStrategy, UPDATE_STRATEGIES) ?? 'single';
  c.done('invalid move');
  const before = await findBooking(ctx, company.id, id);
  if (!holds(before.status)) throw conflict(`a ${before.status} booking cannot be moved`);
  await getResourceInCompany(ctx, company.id, resourceId);
  const service = await getServiceInCompany(ctx, company.id, before.serviceId);
  let targets = [before];
  if (strategy === 'upcoming' && before.recurringId) {
    targets = await ctx.em.find(
      Booking,
      {
        companyId: company.id,
        recurringId: before.recurringId,
        startTime: { $gte: before.startTime },
        status: { $in: ['pending', 'confirmed'] },
      },
      { orderBy: { startTime: 'asc', id: 'asc' }, disableIdentityMap: true },
    );
  }
  const offset = start! - before.startTime.getTime();
  const exclude = targets.map((t) => t.id);
  const changes: BookingChange[] = [];
  for (const t of targets) {
    const at = t.startTime.getTime() + offset;
    let placement: Placement;
    try {
      placement = await replace(ctx, company, service, t, resourceId!, at, { ignoreSchedule, exclude });
    } catch (err) {
      if (err instanceof DomainError && err.code === 'time_unavailable')
        throw unavailable(`${formatTimestamp(at)} is not available`, [
          { path: 'startTime', message: `${formatTimestamp(at)} is not available` },
        ]);
      throw err;
    }
    const after = copyOf(t);
    place(after, placement, recalculatePrice);
    changes.push({ before: t, after, retake: placement });
  }
  await applyChanges(ctx, changes);
  return adminJsonOf(ctx, changes[0].after);
}
