/**
 * Fixture builders for the engine's unit tests: small, explicit snapshots with defaults that
 * each test overrides where it matters.
 */
import type { MatchContext, Pricer, PricingStep, Quote, QuoteRequest } from '../../pricing/engine/types';
import type {
  AvailabilityRequest,
  AvailabilityResult,
  AvailabilitySnapshot,
  HoursRange,
  ResourceInput,
  ServiceInput,
  WorkingHoursRuleInput,
} from './types';

export const MIN = 60;
export const HOUR = 3600;
export const DAY = 86_400;

/** Instant of an RFC 3339 string. */
export const at = (iso: string): number => Date.parse(iso);

/** `2026-03-02T07:00:00Z` form of an instant. */
export const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/** `HH:MM` to minutes since midnight. */
export const hm = (text: string): number => Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));

/** `"09:00-12:00,13:00-17:00"` to hours ranges (`24:00` allowed). */
export function hours(spec: string): HoursRange[] {
  return spec.split(',').map((r) => {
    const [s, e] = r.split('-');
    return { start: hm(s), end: hm(e) };
  });
}

export function rule(over: Partial<WorkingHoursRuleInput> & { hours?: string; mask?: number } = {}): WorkingHoursRuleInput {
  const { hours: spec, mask, ...rest } = over;
  return {
    id: 'wh',
    priority: 0,
    createdAt: 0,
    windowStart: null,
    windowEnd: null,
    serviceIDs: [],
    days: [{ daysOfWeek: mask ?? 127, hours: hours(spec ?? '09:00-17:00') }],
    ...rest,
  };
}

export function resource(id: string, over: Partial<ResourceInput> = {}): ResourceInput {
  return { id, workingHours: [rule()], closingPeriods: [], occupied: [], related: null, ...over };
}

export function service(over: Partial<ServiceInput> = {}): ServiceInput {
  return {
    id: 'svc',
    type: 'fixed',
    durationSec: HOUR,
    timeIntervalSec: null,
    bufferBeforeSec: 0,
    bufferAfterSec: 0,
    availabilityPeriodSec: null,
    checkInMinute: null,
    checkOutMinute: null,
    currency: 'EUR',
    ...over,
  };
}

/**
 * A pricer charging `perHour` for each started hour of the booked length (times spots), with an
 * optional pricing step; ticket quotes carry one unit price per known ticket.
 */
export function testPricer(
  opts: {
    perHour?: number;
    step?: PricingStep | null | ((ctx: MatchContext) => PricingStep | null);
    ticketPrices?: Record<string, number>;
  } = {},
): Pricer {
  const perHour = opts.perHour ?? 1000;
  return {
    quote(req: QuoteRequest): Quote {
      const amount = Math.ceil(req.durationSec / HOUR) * perHour * Math.max(1, req.spots);
      const q: Quote = { amount, comparedAmount: amount, currency: 'EUR' };
      if (opts.ticketPrices) {
        q.ticketPrices = {};
        for (const [id, price] of Object.entries(opts.ticketPrices))
          q.ticketPrices[id] = { amount: price, comparedAmount: price, currency: 'EUR' };
      }
      return q;
    },
    step(ctx: MatchContext): PricingStep | null {
      const s = opts.step ?? null;
      return typeof s === 'function' ? s(ctx) : s;
    },
  };
}

export function snapshot(over: Partial<AvailabilitySnapshot> = {}): AvailabilitySnapshot {
  return {
    zone: 'Europe/Riga',
    now: at('2026-01-01T00:00:00Z'),
    service: service(),
    resources: [resource('r1')],
    relatedResources: [],
    slots: [],
    capacityRules: [],
    pricer: testPricer(),
    ...over,
  };
}

export function request(from: string, to: string, over: Partial<AvailabilityRequest> = {}): AvailabilityRequest {
  return { from: at(from), to: at(to), includePast: false, durationSec: null, spots: null, tickets: null, ...over };
}

/** Start instants of one resource's entries, as ISO strings. */
export function starts(result: AvailabilityResult, resourceID = 'r1'): string[] {
  return result.times[resourceID].map((e) => iso(e.startTime));
}

/** `["07:00", "08:00"]` on `date` (UTC) to ISO strings, for long expected lists. */
export function utc(date: string, ...times: string[]): string[] {
  return times.map((t) => `${date}T${t}:00Z`);
}

/** Every `stepMin` minutes from `first` while before `last` (inclusive), UTC times on `date`. */
export function utcEvery(date: string, first: string, last: string, stepMin: number): string[] {
  const out: string[] = [];
  for (let m = hm(first); m <= hm(last); m += stepMin)
    out.push(`${date}T${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00Z`);
  return out;
}

/** Deterministic pseudo-random numbers (mulberry32), for the seeded property tests. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  return { next, int, pick };
}
