import { runHeavy, runHeavyIf, stopIfGone } from '../../kernel/bulkhead';
import type { Ctx } from '../../kernel/context';
import { companyForClientInterface, companyForMerchant } from '../company/company.access';
import type { Company } from '../company/company.entity';
import type { Service } from '../catalog/catalog.entity';
import { DomainError, invalid, notFound } from '../../shared/errors';
import { formatDuration, parseDuration, SECONDS_PER_DAY } from '../../shared/duration';
import { isUuid } from '../../shared/ids';
import { Check } from '../../shared/validate';
import {
  computeAvailability,
  computeAvailabilityColumnsPaced,
  computeAvailabilityPaced,
  computeAvailableDatesPaced,
  MAX_ANSWER_TIMES,
  TooManyTimes,
  type AvailabilityRequest,
} from './engine';
import { availabilityDocument, keptCatalogHint, keptCatalogRead, type AvailabilityDocument } from './kept-availability';
import { answerKey, keptAnswerOr } from './kept-answers';
import {
  buildSnapshot,
  loadSnapshot,
  preloadCovers,
  type LoadedSnapshot,
  type PreloadedSnapshot,
  type SnapshotOptions,
  type SnapshotRow,
} from './snapshot';
import {
  checkAgainstService,
  engineRequest,
  isHeavy,
  MAX_RANGE_DAYS,
  rowOpenResources,
  rowResources,
  rowStepSec,
  timesAnswerJson,
  timesEntries,
  isTooManyTimes,
  timesJson,
  tooManyTimes,
  worthAThread,
  type ParsedQuery,
  type TimesJob,
} from './availability.compute';
import { timesSelectionJson, type TimesSelection } from './times-selection';
import { availabilityThreads } from './threads';
import { matchContextAt } from '../pricing/engine/context';
import type { TicketQuote } from '../pricing/engine/types';
import type { Money } from '../../shared/money';

export { MAX_RANGE_DAYS };

export interface TimesInput {
  from?: unknown;
  to?: unknown;
  resourceIDs?: unknown;
  duration?: unknown;
  spots?: unknown;
  tickets?: unknown;
  includePastTimes?: unknown;
}

function parseQuery(input: TimesInput, allowPast: boolean): ParsedQuery {
  const c = new Check();
  const from = c.timestamp('from', input.from, true);
  const to = c.timestamp('to', input.to, true);
  const resourceIds = c.uuids('resourceIDs', input.resourceIDs);
  const duration = c.duration('duration', input.duration, { positive: true });
  const spots = c.int('spots', input.spots, { min: 1, max: 10_000 });
  const tickets = c.ticketCounts('tickets', input.tickets) ?? null;
  const includePast = allowPast ? (c.bool('includePastTimes', input.includePastTimes) ?? false) : false;
  if (from !== undefined && to !== undefined) {
    if (to <= from) c.fail('to', 'must be after from');
    else if (to - from > MAX_RANGE_DAYS * SECONDS_PER_DAY * 1000) c.fail('to', `must be at most ${MAX_RANGE_DAYS} days after from`);
  }
  c.done('invalid availability request');
  return {
    from: from!,
    to: to!,
    resourceIds: resourceIds && resourceIds.length ? resourceIds : null,
    durationSec: duration?.seconds ?? null,
    spots: spots ?? null,
    tickets,
    includePast,
  };
}

/** The request's document (kept or fresh), after checking the service id. */
async function readDocument(ctx: Ctx, company: Company, serviceId: unknown, q: ParsedQuery): Promise<AvailabilityDocument> {
  if (!isUuid(serviceId)) throw invalid('service id must be a UUID', [{ path: 'serviceID', message: 'must be a UUID' }]);
  return availabilityDocument(ctx, company, serviceId.toLowerCase(), snapshotOptionsOf(q));
}

async function load(ctx: Ctx, company: Company, serviceId: unknown, q: ParsedQuery, clientView: boolean): Promise<LoadedSnapshot> {
  return loadedOf(ctx, company, (await readDocument(ctx, company, serviceId, q)).row, q, clientView);
}

/** The engine's snapshot of a document, with the checks only the document can make. */
function loadedOf(ctx: Ctx, company: Company, row: SnapshotRow, q: ParsedQuery, clientView: boolean): LoadedSnapshot {
  const loaded = row.service ? buildSnapshot(ctx.now.getTime(), company.timeZone, row, snapshotOptionsOf(q)) : null;
  if (!loaded || (clientView && loaded.disabled)) throw notFound('service');
  checkAgainstService(loaded, q);
  // A disabled service offers nothing; the admin view answers with empty lists.
  if (loaded.disabled) loaded.snapshot.resources = [];
  return loaded;
}

/**
 * Start times a request may still answer with: one allowance per request context, so the
 * availability fields of one GraphQL operation share it as a REST answer does.
 */
const allowances = new WeakMap<Ctx, { left: number }>();
function allowanceOf(ctx: Ctx): { left: number } {
  let a = allowances.get(ctx);
  if (!a) allowances.set(ctx, (a = { left: MAX_ANSWER_TIMES }));
  return a;
}

async function times(ctx: Ctx, company: Company, serviceId: unknown, input: TimesInput, clientView: boolean) {
  return computeTimes(ctx, company, serviceId, input, clientView, async (loaded, request) =>
    timesEntries(loaded, await computeAvailabilityPaced(loaded.snapshot, request), company.timeZone),
  );
}

/**
 * The times answer computed on the event loop (paced) from a loaded snapshot, within the
 * request's allowance of start times, under the bulkhead when it is expensive and not yet in it.
 */
function answerHere<T>(
  ctx: Ctx,
  loaded: LoadedSnapshot,
  q: ParsedQuery,
  inSlot: boolean,
  answer: (loaded: LoadedSnapshot, request: AvailabilityRequest) => Promise<T>,
): Promise<T> {
  return runHeavyIf(ctx, !inSlot && loadedIsHeavy(loaded, q), 'availability', async () => {
    try {
      return await answer(loaded, { ...engineRequest(q), allowance: allowanceOf(ctx) });
    } catch (err) {
      if (!(err instanceof TooManyTimes)) throw err;
      throw tooManyTimes();
    }
  });
}

async function computeTimes<T>(
  ctx: Ctx,
  company: Company,
  serviceId: unknown,
  input: TimesInput,
  clientView: boolean,
  answer: (loaded: LoadedSnapshot, request: AvailabilityRequest) => Promise<T>,
): Promise<T> {
  const q = parseQuery(input, !clientView);
  return admitted(ctx, company, serviceId, q, async (inSlot) =>
    answerHere(ctx, await load(ctx, company, serviceId, q, clientView), q, inSlot, answer),
  );
}

const loadedIsHeavy = (loaded: LoadedSnapshot, q: ParsedQuery) =>
  isHeavy(loaded.snapshot.resources.length, loaded.snapshot.service.timeIntervalSec ?? loaded.snapshot.service.durationSec, q);

const snapshotOptionsOf = (q: ParsedQuery) => ({ from: q.from, to: q.to, resourceIds: q.resourceIds, reachSec: q.durationSec ?? 0 });

/**
 * Admission before any work: when the catalog the process keeps for the request's window says
 * the answer is expensive, `work` runs under the availability bulkhead from the start, so that
 * a request beyond the bulkhead's queue is refused (503, `Retry-After`) before it reads or
 * computes anything. When nothing is kept yet but another request is reading the catalog, this
 * one waits for that read and is weighed by it (so that requests arriving together at a process
 * that keeps nothing read it once). Otherwise (nothing kept, or a cheap answer) `work` runs at
 * once and puts the expensive part under the bulkhead itself once it knows (`inSlot` false).
 */
async function admitted<T>(
  ctx: Ctx,
  company: Company,
  serviceId: unknown,
  q: ParsedQuery,
  work: (inSlot: boolean) => Promise<T>,
): Promise<T> {
  if (!isUuid(serviceId)) return work(false);
  const sid = serviceId.toLowerCase();
  const opts = snapshotOptionsOf(q);
  let kept = keptCatalogHint(company.id, sid, opts);
  // nothing kept, but another request is reading it: weigh this one by what that one reads
  const reading = kept ? null : keptCatalogRead(company.id, sid, opts);
  if (reading) {
    await reading;
    kept = keptCatalogHint(company.id, sid, opts);
  }
  if (!kept || !isHeavy(rowResources(kept, q), rowStepSec(kept), q)) return work(false);
  return runHeavy(ctx, 'availability', () => work(true));
}

/**
 * The times answer as JSON bytes (REST, or a GraphQL selection). An expensive answer runs under
 * the availability bulkhead; a large one is computed on a worker thread (when
 * AVAILABILITY_THREADS is not 0): the event loop only reads the document and sends the bytes the
 * thread made. A smaller one, or any without threads, is computed here. A REST answer asked again
 * while nothing it reads changed is sent as kept (kept-answers.ts).
 */
async function timesBody(
  ctx: Ctx,
  company: Company,
  serviceId: unknown,
  input: TimesInput,
  clientView: boolean,
  selection: TimesSelection | null = null,
): Promise<Buffer> {
  const pool = availabilityThreads(ctx.deps);
  const q = parseQuery(input, !clientView);
  const bytes = await admitted(ctx, company, serviceId, q, async (inSlot) => {
    const { row, versions } = await readDocument(ctx, company, serviceId, q);
    const where = { companyId: company.id, zone: company.timeZone, serviceId: String(serviceId).toLowerCase(), clientView };
    const key = versions !== null && !selection ? answerKey(where, q, versions) : null;
    return keptAnswerOr(key, row, q, ctx.now.getTime(), async () => {
      if (!pool)
        return answerHere(ctx, loadedOf(ctx, company, row, q, clientView), q, inSlot, async (loaded, request) => {
          const columns = await computeAvailabilityColumnsPaced(loaded.snapshot, request);
          return selection
            ? timesSelectionJson(loaded, columns, company.timeZone, selection)
            : timesAnswerJson(loaded, columns, company.timeZone);
        });
      if (!row.service) throw notFound('service');
      const opts = snapshotOptionsOf(q);
      const job: TimesJob = {
        row,
        opts,
        q,
        clientView,
        now: ctx.now.getTime(),
        zone: company.timeZone,
        ...(selection ? { selection } : {}),
      };
      const step = rowStepSec(row);
      const onThread = worthAThread(rowOpenResources(row, q), step, q);
      const compute = async () => (onThread ? pool.run(job) : timesJson(job));
      return !inSlot && isHeavy(rowResources(row, q), step, q)
        ? runHeavy(ctx, 'availability', () => {
            stopIfGone(ctx);
            return compute();
          })
        : compute();
    });
  });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

async function dates(ctx: Ctx, company: Company, serviceId: unknown, input: TimesInput, clientView: boolean) {
  const q = parseQuery(input, !clientView);
  const [loaded, result] = await admitted(ctx, company, serviceId, q, async (inSlot) => {
    const loaded = await load(ctx, company, serviceId, q, clientView);
    const found = await runHeavyIf(ctx, !inSlot && loadedIsHeavy(loaded, q), 'availability', () =>
      computeAvailableDatesPaced(loaded.snapshot, engineRequest(q)),
    );
    return [loaded, found] as const;
  });
  const out: Record<string, string[]> = {};
  for (const r of loaded.snapshot.resources) out[r.id] = result[r.id] ?? [];
  return { timeZone: company.timeZone, dates: out };
}

/** Admin: available times of a service (`includePastTimes` honoured). */
export async function adminTimes(ctx: Ctx, companyId: string, serviceId: unknown, input: TimesInput) {
  return times(ctx, await companyForMerchant(ctx, companyId, 'services.read'), serviceId, input, false);
}

/** Admin: available times as JSON bytes (REST), large answers computed on a worker thread. */
export async function adminTimesBody(ctx: Ctx, companyId: string, serviceId: unknown, input: TimesInput) {
  return timesBody(ctx, await companyForMerchant(ctx, companyId, 'services.read'), serviceId, input, false);
}

/** Admin: dates with at least one available time. */
export async function adminDates(ctx: Ctx, companyId: string, serviceId: unknown, input: TimesInput) {
  return dates(ctx, await companyForMerchant(ctx, companyId, 'services.read'), serviceId, input, false);
}

/** Client interface: available times, never in the past. */
export async function clientTimes(ctx: Ctx, companyId: string, serviceId: unknown, input: TimesInput) {
  return times(ctx, await companyForClientInterface(ctx, companyId, 'client.read'), serviceId, input, true);
}

/** Client interface: available times as JSON bytes (REST), large answers computed on a worker thread. */
export async function clientTimesBody(ctx: Ctx, companyId: string, serviceId: unknown, input: TimesInput) {
  return timesBody(ctx, await companyForClientInterface(ctx, companyId, 'client.read'), serviceId, input, true);
}

/**
 * The times answer written for a GraphQL selection (availability.direct.ts), with the checks,
 * permissions, bulkhead and worker threads of the REST answer. An answer refused for its size
 * spends the request's allowance, as computing it in the resolver would have.
 */
async function selectedTimes(
  ctx: Ctx,
  company: () => Promise<Company>,
  serviceId: unknown,
  input: TimesInput,
  clientView: boolean,
  selection: TimesSelection,
) {
  try {
    return await timesBody(ctx, await company(), serviceId, input, clientView, selection);
  } catch (err) {
    if (isTooManyTimes(err)) allowanceOf(ctx).left = -1;
    throw err;
  }
}

/** Admin: available times as the JSON of a GraphQL selection of `AvailableTimes`. */
export async function adminTimesSelected(ctx: Ctx, companyId: string, serviceId: unknown, input: TimesInput, selection: TimesSelection) {
  return selectedTimes(ctx, () => companyForMerchant(ctx, companyId, 'services.read'), serviceId, input, false, selection);
}

/** Client interface: available times as the JSON of a GraphQL selection of `AvailableTimes`. */
export async function clientTimesSelected(ctx: Ctx, companyId: string, serviceId: unknown, input: TimesInput, selection: TimesSelection) {
  return selectedTimes(ctx, () => companyForClientInterface(ctx, companyId, 'client.read'), serviceId, input, true, selection);
}

/** Client interface: available dates, never in the past. */
export async function clientDates(ctx: Ctx, companyId: string, serviceId: unknown, input: TimesInput) {
  return dates(ctx, await companyForClientInterface(ctx, companyId, 'client.read'), serviceId, input, true);
}

export interface BookableQuery {
  resourceId?: string | null;
  start: number;
  durationSec?: number;
  spots?: number;
  tickets?: Record<string, number>;
  ignoreSchedule?: boolean;
  excludeBookingIds?: string[];
  includePast?: boolean;
  /** the document, when already loaded with `bookingSnapshotOptions` (used only when it covers this check) */
  preloaded?: PreloadedSnapshot | null;
}

/**
 * What to load ahead for a booking at `start` before its service is known: the options the
 * check will ask for, with a reach of at least a day (a longer booking loads again).
 */
export function bookingSnapshotOptions(start: number, resourceId: string | null, durationSec: number | undefined): SnapshotOptions {
  return {
    from: start,
    to: start + 1,
    resourceIds: resourceId ? [resourceId] : null,
    reachSec: Math.max(durationSec ?? 0, SECONDS_PER_DAY),
  };
}

export interface BookableTime {
  resourceId: string;
  start: number;
  /** null: a sharable booking that runs until it is finished */
  end: number | null;
  durationSec: number;
  bufferBeforeSec: number;
  bufferAfterSec: number;
  price: Money;
  tickets?: Record<string, TicketQuote>;
  related: { all: string[]; any: string[] };
  capacity?: { totalSpots: number; spotsPerTicket: Record<string, number> };
}

/**
 * The time exactly as the availability endpoints report it, or null when it is not available.
 * Without `resourceId` the first available linked resource by name is chosen. With
 * `ignoreSchedule` working hours, closings, slot schedules and the horizon are skipped; overlap
 * and capacity still count (and the database enforces them anyway).
 */
export async function findBookableTime(ctx: Ctx, company: Company, service: Service, q: BookableQuery): Promise<BookableTime | null> {
  const type = service.type;
  const settingsDuration = parseDuration(service.settings?.duration ?? null);
  let durationSec = q.durationSec ?? null;
  if (type === 'fixed') {
    if (durationSec !== null && durationSec !== settingsDuration)
      throw invalid('duration must match the service duration', [
        { path: 'duration', message: `must be ${formatDuration(settingsDuration ?? 0)}` },
      ]);
    durationSec = settingsDuration;
  }
  if (type === 'days' && durationSec === null) durationSec = SECONDS_PER_DAY;
  const isSlot = type === 'group' || type === 'ticket';
  const slotDuration = durationSec ?? settingsDuration ?? 3600;
  const parsed: ParsedQuery = {
    from: q.start,
    to: q.start + 1,
    resourceIds: q.resourceId ? [q.resourceId] : null,
    durationSec: type === 'sharable' ? (durationSec ?? null) : durationSec,
    spots: isSlot && type === 'group' ? (q.spots ?? 1) : null,
    tickets: type === 'ticket' ? (q.tickets ?? {}) : null,
    includePast: !!q.includePast || !!q.ignoreSchedule,
  };
  const opts: SnapshotOptions = {
    from: parsed.from,
    to: parsed.to,
    resourceIds: parsed.resourceIds,
    excludeBookingIds: q.excludeBookingIds,
    ignoreSchedule: q.ignoreSchedule,
    adHocSlot: q.ignoreSchedule && isSlot ? { start: q.start, durationSec: slotDuration } : null,
    reachSec: durationSec ?? 0,
  };
  const pre = q.preloaded && preloadCovers(q.preloaded.opts, opts) ? q.preloaded.row : null;
  const loaded = pre
    ? pre.service
      ? buildSnapshot(ctx.now.getTime(), company.timeZone, pre, opts)
      : null
    : await loadSnapshot(ctx, company, service.id, opts);
  if (!loaded) throw notFound('service');
  checkAgainstService(loaded, parsed);
  if (loaded.disabled) throw new DomainError('forbidden', 'the service is disabled');
  const result = computeAvailability(loaded.snapshot, engineRequest(parsed));
  for (const r of loaded.snapshot.resources) {
    const entry = (result.times[r.id] ?? []).find((e) => e.startTime === q.start);
    if (!entry) continue;
    const running = type === 'sharable' && q.durationSec === undefined;
    const end: number | null = running ? null : entry.endTime;
    const booked: BookableTime = {
      resourceId: r.id,
      start: entry.startTime,
      end,
      durationSec: entry.durationSec,
      bufferBeforeSec: loaded.snapshot.service.bufferBeforeSec,
      bufferAfterSec: loaded.snapshot.service.bufferAfterSec,
      price: entry.price,
      // The engine's view of the link: disabled related resources are already left out.
      related: { all: [...(r.related?.all ?? [])], any: [...(r.related?.any ?? [])] },
    };
    if (isSlot) {
      booked.capacity = { totalSpots: entry.totalSpots ?? 0, spotsPerTicket: entry.totalSpotsPerTicket ?? {} };
      if (type === 'ticket') {
        const tickets = parsed.tickets ?? {};
        const spots = Object.values(tickets).reduce((a, b) => a + b, 0);
        const quote = loaded.snapshot.pricer.quote(
          { serviceType: type, durationSec: entry.durationSec, spots, tickets },
          matchContextAt(loaded.snapshot.zone, entry.startTime, r.id),
        );
        booked.tickets = quote.tickets ?? {};
        booked.price = { amount: quote.amount, comparedAmount: quote.comparedAmount, currency: quote.currency };
      }
    }
    return booked;
  }
  return null;
}
