/**
 * Entry points of the availability engine: one pass per resource over a prepared snapshot.
 */
import type { MatchContext, QuoteRequest } from '../../pricing/engine/types';
import { Collector, ColumnStore, type CollectorMode } from './collect';
import { scanGrid } from './grid';
import { makePlan, type Plan } from './plan';
import { prepareResource, Probe, RelatedGate, type PreparedResource } from './resource';
import { scanSlots, sortCapacityRules } from './slots';
import { scanStays } from './stays';
import type {
  AvailabilityColumns,
  AvailabilityRequest,
  AvailabilityResult,
  AvailabilitySnapshot,
  AvailableDates,
  AvailableTime,
  ResourceSchedule,
  SlotOccurrence,
} from './types';

const NO_TICKETS: Readonly<Record<string, number>> = Object.freeze({});

/**
 * The engine's work, one resource at a time: the generator yields after each resource so that
 * a caller can give the event loop back between them; it returns the collectors.
 */
function* steps(snapshot: AvailabilitySnapshot, request: AvailabilityRequest, mode: CollectorMode): Generator<void, Collector[]> {
  const plan = makePlan(snapshot, request);
  const service = snapshot.service;
  const collectors: Collector[] = [];
  const quote: QuoteRequest = {
    serviceType: service.type,
    durationSec: 0,
    spots: plan ? plan.spotsQuoted : 1,
    tickets: plan && service.type === 'ticket' ? plan.tickets : NO_TICKETS,
  };
  const store = mode === 'columns' ? new ColumnStore(snapshot.resources.length) : null;
  const newCollector = () => new Collector(mode, snapshot.pricer, service.currency, quote, request.allowance, store);
  if (plan === null) {
    for (let i = 0; i < snapshot.resources.length; i++) collectors.push(newCollector());
    return collectors;
  }

  const schedules = new Map<string, ResourceSchedule>();
  for (const r of snapshot.relatedResources) schedules.set(r.id, r);
  for (const r of snapshot.resources) schedules.set(r.id, r);
  const prepared = new Map<string, PreparedResource | null>();
  // related resources are prepared once per request however many resources share them
  const lookup = (id: string): PreparedResource | null => {
    let p = prepared.get(id);
    if (p === undefined) {
      const s = schedules.get(id);
      p = s === undefined ? null : prepareResource(plan.cal, s, service.id, plan.mode !== 'slots');
      prepared.set(id, p);
    }
    return p;
  };

  const slotsByResource = plan.mode === 'slots' ? groupSlots(snapshot.slots) : null;
  const rules = plan.mode === 'slots' ? sortCapacityRules(snapshot.capacityRules, service.type) : [];
  // one context for the whole request: matchers and pricers read it during the call only, so no candidate allocates one
  const ctx: MatchContext = { resourceID: '', instant: 0, date: '', weekday: 1, minuteOfDay: 0 };

  for (const res of snapshot.resources) {
    const out = newCollector();
    collectors.push(out);
    const gate = RelatedGate.create(res.id, res.related, lookup, plan.mode);
    if (gate === 'never') continue;
    const self = new Probe(lookup(res.id)!);
    ctx.resourceID = res.id;
    scan(plan, self, gate, out, ctx, slotsByResource?.get(res.id) ?? [], rules);
    yield;
  }
  return collectors;
}

function run(snapshot: AvailabilitySnapshot, request: AvailabilityRequest, mode: CollectorMode): Collector[] {
  const it = steps(snapshot, request, mode);
  for (;;) {
    const next = it.next();
    if (next.done) return next.value;
  }
}

/** How a paced computation shares the event loop. */
export interface Pacing {
  /** work at most this long before giving the event loop back (default 20 ms) */
  sliceMs?: number;
  /** stop (rejecting with the signal's reason) once aborted, e.g. when the client went away */
  signal?: AbortSignal;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

async function runPaced(
  snapshot: AvailabilitySnapshot,
  request: AvailabilityRequest,
  mode: CollectorMode,
  pacing: Pacing,
): Promise<Collector[]> {
  const sliceMs = pacing.sliceMs ?? 20;
  const it = steps(snapshot, request, mode);
  let sliceStart = performance.now();
  for (;;) {
    pacing.signal?.throwIfAborted();
    const next = it.next();
    if (next.done) return next.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
  }
}

function scan(
  plan: Plan,
  self: Probe,
  gate: RelatedGate | null,
  out: Collector,
  ctx: MatchContext,
  slots: readonly SlotOccurrence[],
  rules: ReturnType<typeof sortCapacityRules>,
): void {
  if (plan.mode === 'grid') scanGrid(plan, self, gate, out, ctx);
  else if (plan.mode === 'stays') scanStays(plan, self, gate, out, ctx);
  else scanSlots(plan, self, gate, slots, rules, out, ctx);
}

function groupSlots(slots: readonly SlotOccurrence[]): Map<string, SlotOccurrence[]> {
  const map = new Map<string, SlotOccurrence[]>();
  for (const s of slots) {
    let list = map.get(s.resourceID);
    if (list === undefined) map.set(s.resourceID, (list = []));
    list.push(s);
  }
  for (const list of map.values()) list.sort((a, b) => a.start - b.start);
  return map;
}

function timesOf(snapshot: AvailabilitySnapshot, collectors: Collector[]): AvailabilityResult {
  const times: Record<string, AvailableTime[]> = {};
  snapshot.resources.forEach((r, i) => (times[r.id] = collectors[i].entries));
  return { times };
}

function datesOf(snapshot: AvailabilitySnapshot, collectors: Collector[]): AvailableDates {
  const dates: AvailableDates = {};
  snapshot.resources.forEach((r, i) => (dates[r.id] = collectors[i].dates));
  return dates;
}

/** Available times per resource (in `snapshot.resources` order), each list sorted by start. */
export function computeAvailability(snapshot: AvailabilitySnapshot, request: AvailabilityRequest): AvailabilityResult {
  return timesOf(snapshot, run(snapshot, request, 'entries'));
}

/**
 * `computeAvailability` in columns: the same entries without one object per entry (what the
 * JSON writer of the times answer reads).
 */
export function computeAvailabilityColumns(snapshot: AvailabilitySnapshot, request: AvailabilityRequest): AvailabilityColumns {
  return columnsOf(snapshot, run(snapshot, request, 'columns'));
}

function columnsOf(snapshot: AvailabilitySnapshot, collectors: Collector[]): AvailabilityColumns {
  const out: AvailabilityColumns = {};
  snapshot.resources.forEach((r, i) => (out[r.id] = collectors[i].columns));
  return out;
}

/** `computeAvailabilityColumns`, giving the event loop back between resources every `sliceMs`. */
export async function computeAvailabilityColumnsPaced(
  snapshot: AvailabilitySnapshot,
  request: AvailabilityRequest,
  pacing: Pacing = {},
): Promise<AvailabilityColumns> {
  return columnsOf(snapshot, await runPaced(snapshot, request, 'columns', pacing));
}

/** `computeAvailability`, giving the event loop back between resources every `sliceMs`. */
export async function computeAvailabilityPaced(
  snapshot: AvailabilitySnapshot,
  request: AvailabilityRequest,
  pacing: Pacing = {},
): Promise<AvailabilityResult> {
  return timesOf(snapshot, await runPaced(snapshot, request, 'entries', pacing));
}

/** `computeAvailableDates`, giving the event loop back between resources every `sliceMs`. */
export async function computeAvailableDatesPaced(
  snapshot: AvailabilitySnapshot,
  request: AvailabilityRequest,
  pacing: Pacing = {},
): Promise<AvailableDates> {
  return datesOf(snapshot, await runPaced(snapshot, request, 'dates', pacing));
}

/**
 * Local dates (company zone) with at least one available time per resource; for days services
 * the dates on which an available stay starts. Skips pricing.
 */
export function computeAvailableDates(snapshot: AvailabilitySnapshot, request: AvailabilityRequest): AvailableDates {
  return datesOf(snapshot, run(snapshot, request, 'dates'));
}
