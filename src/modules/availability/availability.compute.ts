import { DomainError, invalid, notFound } from '../../shared/errors';
import { parseDuration, parseLocalTime, SECONDS_PER_DAY } from '../../shared/duration';
import type { Money } from '../../shared/money';
import { formatTimestamp } from '../../shared/time';
import { ByteWriter, durationOf, timestampText } from './answer-bytes';
import { computeAvailabilityColumns, MAX_ANSWER_TIMES, TooManyTimes } from './engine';
import type { AvailabilityColumns, AvailabilityRequest, AvailabilityResult, AvailableTime, TimeColumns } from './engine/types';
import { buildSnapshot, type LoadedSnapshot, type SnapshotOptions, type SnapshotRow } from './snapshot';
import { validateFlexibleDuration } from '../pricing/engine/pricer';
import { matchContextAt } from '../pricing/engine/context';
import { timesSelectionJson, type TimesSelection } from './times-selection';
import { OpenTimesWriter } from './open-times';

/**
 * The pure part of an availability answer: checks that need the loaded data, the engine call
 * and the answer's JSON. It imports no database code, so it also runs on a worker thread.
 */

export const MAX_RANGE_DAYS = 93;

export interface TimeEntryJson {
  startTime: string;
  duration: string;
  price: Money;
  spotsAvailable?: number;
  totalSpots?: number;
  bookedSpots?: number;
  bookedSpotsPerTicket?: Record<string, number>;
  totalSpotsPerTicket?: Record<string, number>;
  ticketPrices?: Record<string, Money>;
}

export interface ParsedQuery {
  from: number;
  to: number;
  resourceIds: string[] | null;
  durationSec: number | null;
  spots: number | null;
  tickets: Record<string, number> | null;
  includePast: boolean;
}

/** Checks what only the loaded data can tell: linked resources, tickets, flexible steps, stays. */
export function checkAgainstService(loaded: LoadedSnapshot, q: ParsedQuery): void {
  const type = loaded.snapshot.service.type;
  if (q.resourceIds) {
    const linked = new Set(loaded.linked.map((l) => l.id));
    const unknown = q.resourceIds.filter((id) => !linked.has(id));
    if (unknown.length) throw notFound(`resource ${unknown[0]} linked to this service`);
  }
  if (q.tickets) {
    if (type !== 'ticket')
      throw invalid('tickets apply to ticket services only', [{ path: 'tickets', message: 'only for ticket services' }]);
    const known = new Set(loaded.ticketIds);
    const bad = Object.keys(q.tickets).find((id) => !known.has(id));
    if (bad)
      throw invalid(`ticket ${bad} is not an enabled ticket of this service`, [{ path: `tickets.${bad}`, message: 'unknown ticket' }]);
  }
  if (type === 'flexible') {
    if (q.durationSec === null)
      throw invalid('duration is required for flexible services', [{ path: 'duration', message: 'is required for flexible services' }]);
    const first = loaded.snapshot.resources[0]?.id ?? loaded.linked[0]?.id ?? '';
    const step = loaded.snapshot.pricer.step(matchContextAt(loaded.snapshot.zone, q.from, first));
    const problem = validateFlexibleDuration(step, q.durationSec);
    if (problem) throw invalid(problem, [{ path: 'duration', message: problem }]);
  }
  if (
    type === 'days' &&
    q.durationSec !== null &&
    (q.durationSec % SECONDS_PER_DAY !== 0 || q.durationSec > MAX_RANGE_DAYS * SECONDS_PER_DAY)
  ) {
    throw invalid('duration of a days service must be whole days (P1D ... P93D)', [{ path: 'duration', message: 'must be whole days' }]);
  }
}

export function engineRequest(q: ParsedQuery): AvailabilityRequest {
  return { from: q.from, to: q.to, includePast: q.includePast, durationSec: q.durationSec, spots: q.spots, tickets: q.tickets };
}

export function entryJson(e: AvailableTime, withSpots: boolean): TimeEntryJson {
  const out: TimeEntryJson = { startTime: formatTimestamp(e.startTime)!, duration: durationOf(e.durationSec), price: e.price };
  if (withSpots) {
    out.spotsAvailable = e.spotsAvailable ?? 0;
    out.totalSpots = e.totalSpots ?? 0;
    out.bookedSpots = e.bookedSpots ?? 0;
    out.bookedSpotsPerTicket = e.bookedSpotsPerTicket ?? {};
    out.totalSpotsPerTicket = e.totalSpotsPerTicket ?? {};
    out.ticketPrices = e.ticketPrices ?? {};
  }
  return out;
}

/**
 * Answers that can hold more start times than this are expensive: they run under the
 * availability bulkhead.
 */
export const HEAVY_STARTS = 10_000;

/**
 * REST answers that can hold more start times than this (by `rowOpenResources`) are computed on
 * a worker thread. Below it, handing the work to a thread costs more than it saves: the month
 * of 20 resources open 9 hours a day (at most 21,600 starts, 7,207 in the benchmark's answer)
 * takes about 3 ms of CPU here and about 7 ms through a thread.
 */
export const THREAD_STARTS = 25_000;

/** An upper bound of an answer's start times: the resources asked times the window over the grid step. */
function startsBound(resources: number, stepSec: number | null, q: ParsedQuery): number {
  const step = Math.max(300, stepSec ?? 900) * 1000;
  return (resources * (q.to - q.from)) / step;
}

/**
 * Whether an answer is expensive, from an upper bound of its start times (working hours,
 * bookings and closings only remove candidates).
 */
export function isHeavy(resources: number, stepSec: number | null, q: ParsedQuery): boolean {
  return startsBound(resources, stepSec, q) > HEAVY_STARTS;
}

/** Whether a REST answer is worth a worker thread; `openResources` from `rowOpenResources`. */
export function worthAThread(openResources: number, stepSec: number | null, q: ParsedQuery): boolean {
  return startsBound(openResources, stepSec, q) > THREAD_STARTS;
}

/** The resources an answer from the snapshot document can hold. */
export function rowResources(row: SnapshotRow, q: ParsedQuery): number {
  const wanted = q.resourceIds ? new Set(q.resourceIds) : null;
  return row.links.filter((l) => !l.disabled && (!wanted || wanted.has(l.resourceId))).length;
}

/**
 * The resources an answer from the snapshot document can hold, each weighed by the largest share
 * of a day any of its working-hours rules opens it (1 for a resource without rules: no bound is
 * known). An upper bound: which rule applies on which day is the engine's work.
 */
export function rowOpenResources(row: SnapshotRow, q: ParsedQuery): number {
  const wanted = q.resourceIds ? new Set(q.resourceIds) : null;
  const openMinutes = new Map<string, number>();
  for (const h of row.hours) {
    for (const d of h.days ?? []) {
      let minutes = 0;
      for (const x of d.hours ?? []) {
        const start = parseLocalTime(x.start) ?? 0;
        const end = parseLocalTime(x.end, true) ?? 1440;
        minutes += end > start ? end - start : 1440 - start + end;
      }
      openMinutes.set(h.resourceId, Math.max(openMinutes.get(h.resourceId) ?? 0, minutes));
    }
  }
  let weight = 0;
  for (const l of row.links) {
    if (l.disabled || (wanted && !wanted.has(l.resourceId))) continue;
    const minutes = openMinutes.get(l.resourceId);
    weight += minutes === undefined ? 1 : Math.min(1, minutes / 1440);
  }
  return weight;
}

/** The grid step of the service in the snapshot document, seconds (null: unknown). */
export function rowStepSec(row: SnapshotRow): number | null {
  const settings = row.service?.settings ?? {};
  return parseDuration(settings.timeInterval ?? null) ?? parseDuration(settings.duration ?? null);
}

const TOO_MANY_TIMES = `the answer would hold more than ${MAX_ANSWER_TIMES} start times; narrow the window (from, to) or the resources (resourceIDs)`;

/** The 400 of an answer that would hold more start times than allowed. */
export function tooManyTimes() {
  return invalid(TOO_MANY_TIMES, [{ path: 'to', message: `more than ${MAX_ANSWER_TIMES} start times` }]);
}

/** Whether `err` is `tooManyTimes()` (also as it comes back from a worker thread). */
export const isTooManyTimes = (err: unknown): boolean =>
  err instanceof DomainError && err.code === 'invalid_request' && err.message === TOO_MANY_TIMES;

/** The times answer of a computed snapshot: entries per resource, in answer order. */
export function timesEntries(loaded: LoadedSnapshot, result: AvailabilityResult, timeZone: string) {
  const withSpots = loaded.snapshot.service.type === 'group' || loaded.snapshot.service.type === 'ticket';
  const out: Record<string, TimeEntryJson[]> = {};
  for (const r of loaded.snapshot.resources) out[r.id] = (result.times[r.id] ?? []).map((e) => entryJson(e, withSpots));
  return { timeZone, times: out };
}

/** JSON text of a finite number as `JSON.stringify` writes it (`null` for NaN and infinities). */
const num = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');

/**
 * One resource's entries with spot counts (group and ticket services) as the JSON array
 * `timesEntries` + `JSON.stringify` would write, from columns: keys in the same order; the text
 * of the duration and price encoded once per run of entries that share them.
 */
function writeSlotEntries(w: ByteWriter, c: TimeColumns, timestamp: (ms: number) => string): void {
  if (c.length === 0) return w.text('[]');
  w.text('[');
  let lastPrice = -1;
  let lastDuration = -1;
  let tail = '';
  for (let i = 0; i < c.length; i++) {
    const price = c.priceIndex[i];
    if (price !== lastPrice || c.durations[i] !== lastDuration) {
      lastPrice = price;
      lastDuration = c.durations[i];
      tail = `","duration":${JSON.stringify(durationOf(lastDuration))},"price":${JSON.stringify(c.priceTable[price])}`;
    }
    const sl = c.slots;
    const total = sl ? sl.totalSpots[i] : 0;
    const booked = sl ? sl.bookedSpots[i] : 0;
    w.text(
      (i === 0 ? '{"startTime":"' : ',{"startTime":"') +
        timestamp(c.starts[i]) +
        tail +
        `,"spotsAvailable":${num(sl ? total - booked : 0)},"totalSpots":${num(total)},"bookedSpots":${num(booked)}` +
        `,"bookedSpotsPerTicket":${JSON.stringify(sl?.bookedSpotsPerTicket[i] ?? {})}` +
        `,"totalSpotsPerTicket":${JSON.stringify(sl?.totalSpotsPerTicket[i] ?? {})}` +
        `,"ticketPrices":${JSON.stringify(sl?.ticketPrices[i] ?? {})}}`,
    );
  }
  w.text(']');
}

/** Bytes per entry of a times answer with spot counts (a price of two amounts and a currency), a first guess of its size. */
const SLOT_ENTRY_BYTES = 232;

/**
 * The times answer's JSON bytes from the engine's columns: the same text as
 * `JSON.stringify(timesEntries(...))`, written straight from the columns into one buffer
 * without an object per entry.
 */
export function timesAnswerJson(loaded: LoadedSnapshot, columns: AvailabilityColumns, timeZone: string): Buffer {
  const type = loaded.snapshot.service.type;
  if (type !== 'group' && type !== 'ticket') return openTimesAnswerJson(loaded, columns, timeZone);
  let entries = 0;
  for (const r of loaded.snapshot.resources) entries += columns[r.id]?.length ?? 0;
  const w = new ByteWriter(256 + loaded.snapshot.resources.length * 48 + entries * SLOT_ENTRY_BYTES);
  const timestamp = timestampText();
  w.text(`{"timeZone":${JSON.stringify(timeZone)},"times":{`);
  const seen = new Set<string>();
  for (const r of loaded.snapshot.resources) {
    // a repeated id is one key, written where it first appears with the last list (as an object would have it)
    if (seen.has(r.id)) continue;
    w.text(`${seen.size ? ',' : ''}${JSON.stringify(r.id)}:`);
    seen.add(r.id);
    const c = columns[r.id];
    if (c) writeSlotEntries(w, c, timestamp);
    else w.text('[]');
  }
  w.text('}}');
  return w.done();
}

/** `timesAnswerJson` of a service without spots: measured, then written into a buffer of its exact size. */
function openTimesAnswerJson(loaded: LoadedSnapshot, columns: AvailabilityColumns, timeZone: string): Buffer {
  const times = new OpenTimesWriter();
  const head = `{"timeZone":${JSON.stringify(timeZone)},"times":{`;
  let size = Buffer.byteLength(head) + 2;
  const keys: string[] = [];
  const lists: (TimeColumns | undefined)[] = [];
  const seen = new Set<string>();
  for (const r of loaded.snapshot.resources) {
    // a repeated id is one key, written where it first appears with the last list (as an object would have it)
    if (seen.has(r.id)) continue;
    const key = `${seen.size ? ',' : ''}${JSON.stringify(r.id)}:`;
    seen.add(r.id);
    const c = columns[r.id];
    keys.push(key);
    lists.push(c);
    size += Buffer.byteLength(key) + (c ? times.measure(c) : 2);
  }
  const w = new ByteWriter(size);
  w.text(head);
  for (let i = 0; i < keys.length; i++) {
    w.text(keys[i]);
    const c = lists[i];
    if (c) times.write(w, c);
    else w.text('[]', true);
  }
  w.text('}}', true);
  return w.done();
}

/** What a worker thread needs to answer a times request: the snapshot document and the query. */
export interface TimesJob {
  row: SnapshotRow;
  opts: SnapshotOptions;
  q: ParsedQuery;
  clientView: boolean;
  now: number;
  zone: string;
  /** the GraphQL selection to write the answer for (times-selection.ts); absent: the REST answer */
  selection?: TimesSelection;
}

/**
 * The times answer as JSON bytes (REST, or the job's GraphQL selection), from the snapshot
 * document: the checks of the service's `load`, the engine (within the answer-size allowance)
 * and the JSON, all on the calling thread.
 */
export function timesJson(job: TimesJob): Uint8Array {
  const loaded = buildSnapshot(job.now, job.zone, job.row, job.opts);
  if (job.clientView && loaded.disabled) throw notFound('service');
  checkAgainstService(loaded, job.q);
  if (loaded.disabled) loaded.snapshot.resources = [];
  let columns: AvailabilityColumns;
  try {
    columns = computeAvailabilityColumns(loaded.snapshot, { ...engineRequest(job.q), allowance: { left: MAX_ANSWER_TIMES } });
  } catch (err) {
    if (err instanceof TooManyTimes) throw tooManyTimes();
    throw err;
  }
  return job.selection ? timesSelectionJson(loaded, columns, job.zone, job.selection) : timesAnswerJson(loaded, columns, job.zone);
}
