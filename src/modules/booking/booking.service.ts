import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../../kernel/access';
import { invalid } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import type { Resource, Service } from '../catalog/catalog.entity';
import type { Client } from '../client/client.entity';
import { getClientInCompany } from '../client/client.lookup';
import type { Company } from '../company/company.entity';
import { countOccurrences, type RepeatSpec } from '../scheduling/recurrence';
import { isTimeConflict, unavailable } from './booking.store';
import { idempotencyOf, type Idempotency } from './idempotency';
import { amountsFor, checkOptionalClientId, checkPlacement, checkRepeatField, type Amounts, type PlacementInput } from './booking.checks';
import { embed, newRow, placeAt, serviceAndResource } from './booking-placement.service';
import { bookingJson, type BookingJson } from './booking.json';
import { bookingOf, commitCreation, needsTransaction, replayOr, writeBooking, type Placement } from './booking.write';

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
  const parsed = parse(input);
  const idem = idempotencyOf(opts.idempotencyKey, 'booking.create', company.merchantId, input);
  return replayOr(ctx, company.id, idem, () => create(ctx, company, parsed, idem));
}

async function create(ctx: Ctx, company: Company, { p, clientId, ignoreSchedule, repeat }: Parsed, idem: Idempotency | undefined): Promise<BookingJson> {
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

const notAvailable = (start: number, message?: string) =>
  unavailable(message ?? `the occurrence at ${formatTimestamp(start)} is not available`, [{ path: 'repeat', message: `${formatTimestamp(start)} is not available` }]);

/**
 * A recurring series: every occurrence is checked first (for a friendly answer naming the
 * first unavailable one), then all are written in one transaction, where the database has the
 * last word: the first conflicting insert rolls the whole series back.
 */
async function createSeries(ctx: Ctx, company: Company, service: Service, resource: Resource, client: Client | null, p: PlacementInput, amounts: Amounts, repeat: RepeatSpec, ignoreSchedule: boolean, idem: Idempotency | undefined): Promise<BookingJson> {
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
