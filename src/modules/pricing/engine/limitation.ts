import { parseLocalTime } from '../../../shared/duration';
import { localToEpoch, weekdayBit } from '../../../shared/zone';
import { parseDateBound } from '../../../shared/date-bound';
import type { MatchContext } from './types';
import type { LimitationInput } from '../../../shared/limitation';

export type { LimitationIssue, NormalisedLimitation } from '../../../shared/limitation';

/** A compiled limitation: true when the rule applies at `ctx`. */
export type Matcher = (ctx: MatchContext) => boolean;

/** Matcher of a rule without limitation; exported so callers can recognise unrestricted rules. */
export const MATCH_ANY: Matcher = () => true;

const FULL_WEEK = 127;
const FULL_DAY = 1440;

/**
 * Compiles a limitation once into a matcher that runs per candidate start. The matcher does
 * integer and short string comparisons only: it is called tens of thousands of times per
 * availability request, so nothing here may allocate or touch luxon/Date per call.
 *
 * Semantics (a rule applies when every present part matches):
 * - `daysOfWeek`: the contract mask (Mon 64 ... Sun 1); 0, null and 127 put no restriction.
 * - `resourceIDs`: the candidate's resource is listed; null or empty puts no restriction.
 * - `times`: the start's local minute is in some `[start, end)`; `end` may be `24:00`, so a
 *   range never reaches into the next day. Null or empty puts no restriction.
 * - `dates`: some range contains the start, both bounds inclusive. A `YYYY-MM-DD` bound is a
 *   whole local day and is compared with `ctx.date` (the start's local date); an RFC 3339
 *   bound is an exact instant and is compared with `ctx.instant`. Each bound is judged on its
 *   own, so a range may mix the two kinds. Null or empty puts no restriction.
 *
 * `zone` (the company's IANA zone) is only needed for offset-less timestamps, which the API
 * rejects but older stored rules may hold: they are read as wall times in that zone.
 *
 * Malformed parts throw a RangeError: they should have been refused at input, and matching
 * a rule wrongly (e.g. charging a weekend price on weekdays) is worse than failing loudly.
 */
export function compileLimitation(lim: LimitationInput | null | undefined, zone: string): Matcher {
  if (!lim) return MATCH_ANY;
  // Cheapest and usually most selective checks go first so most candidates fail fast.
  const checks = [daysCheck(lim.daysOfWeek), resourceCheck(lim.resourceIDs), timesCheck(lim.times), datesCheck(lim.dates, zone)].filter(
    (c): c is Matcher => c !== null,
  );
  if (checks.length === 0) return MATCH_ANY;
  if (checks.length === 1) return checks[0];
  if (checks.length === 2) {
    const [a, b] = checks;
    return (ctx) => a(ctx) && b(ctx);
  }
  return (ctx) => {
    for (let i = 0; i < checks.length; i++) if (!checks[i](ctx)) return false;
    return true;
  };
}

function daysCheck(mask: number | null | undefined): Matcher | null {
  if (mask === null || mask === undefined || mask === 0) return null;
  if (!Number.isInteger(mask) || mask < 0 || mask > FULL_WEEK) throw new RangeError(`invalid daysOfWeek ${mask}`);
  if (mask === FULL_WEEK) return null;
  // Indexed by ISO weekday (1..7); index 0 and out-of-range weekdays read as "no match".
  const allowed = new Uint8Array(8);
  for (let wd = 1; wd <= 7; wd++) allowed[wd] = mask & weekdayBit(wd) ? 1 : 0;
  return (ctx) => allowed[ctx.weekday] === 1;
}

function resourceCheck(ids: string[] | null | undefined): Matcher | null {
  if (!ids || ids.length === 0) return null;
  for (const id of ids) if (typeof id !== 'string') throw new RangeError('resourceIDs must be strings');
  if (ids.length === 1) {
    const only = ids[0];
    return (ctx) => ctx.resourceID === only;
  }
  const set = new Set(ids);
  return (ctx) => set.has(ctx.resourceID);
}

interface StoredTimeRange {
  start?: unknown;
  end?: unknown;
  startTime?: unknown;
  endTime?: unknown;
}

function timesCheck(ranges: LimitationInput['times']): Matcher | null {
  if (!ranges || ranges.length === 0) return null;
  const starts = new Int32Array(ranges.length);
  const ends = new Int32Array(ranges.length);
  for (let i = 0; i < ranges.length; i++) {
    // Capacity rules arrive as {startTime, endTime}; tolerate that shape if it was stored unnormalised.
    const r = ranges[i] as StoredTimeRange;
    const start = parseLocalTime(r.start ?? r.startTime);
    const end = parseLocalTime(r.end ?? r.endTime, true);
    if (start === null || end === null || end <= start) throw new RangeError(`invalid time range ${JSON.stringify(r)}`);
    if (start === 0 && end === FULL_DAY) return null;
    starts[i] = start;
    ends[i] = end;
  }
  if (ranges.length === 1) {
    const s = starts[0];
    const e = ends[0];
    return (ctx) => ctx.minuteOfDay >= s && ctx.minuteOfDay < e;
  }
  const n = ranges.length;
  return (ctx) => {
    const m = ctx.minuteOfDay;
    for (let i = 0; i < n; i++) if (m >= starts[i] && m < ends[i]) return true;
    return false;
  };
}

/** A bound reduced to what the matcher compares: a local date string, or an instant (date null). */
interface CompiledBound {
  date: string | null;
  ms: number;
}

function compileBound(text: unknown, zone: string): CompiledBound {
  const b = parseDateBound(text);
  if (b === null) throw new RangeError(`invalid date bound ${JSON.stringify(text)}`);
  if (b.kind === 'date') return { date: b.date, ms: 0 };
  if (b.kind === 'instant') return { date: null, ms: b.ms };
  return { date: null, ms: localToEpoch(zone, b.year, b.month, b.day, b.minuteOfDay) + b.ms };
}

function datesCheck(ranges: LimitationInput['dates'], zone: string): Matcher | null {
  if (!ranges || ranges.length === 0) return null;
  const los: CompiledBound[] = [];
  const his: CompiledBound[] = [];
  let allDates = true;
  for (const r of ranges) {
    const lo = compileBound(r?.start, zone);
    const hi = compileBound(r?.end, zone);
    if (lo.date !== null && hi.date !== null && hi.date < lo.date)
      throw new RangeError(`date range ends before it starts: ${JSON.stringify(r)}`);
    if (lo.date === null && hi.date === null && hi.ms < lo.ms)
      throw new RangeError(`date range ends before it starts: ${JSON.stringify(r)}`);
    allDates = allDates && lo.date !== null && hi.date !== null;
    los.push(lo);
    his.push(hi);
  }
  const n = los.length;
  if (allDates) {
    // `YYYY-MM-DD` strings order lexicographically like the dates they name.
    const loDates = los.map((b) => b.date as string);
    const hiDates = his.map((b) => b.date as string);
    return (ctx) => {
      const d = ctx.date;
      for (let i = 0; i < n; i++) if (d >= loDates[i] && d <= hiDates[i]) return true;
      return false;
    };
  }
  return (ctx) => {
    for (let i = 0; i < n; i++) {
      const lo = los[i];
      const hi = his[i];
      const afterLo = lo.date !== null ? ctx.date >= lo.date : ctx.instant >= lo.ms;
      if (afterLo && (hi.date !== null ? ctx.date <= hi.date : ctx.instant <= hi.ms)) return true;
    }
    return false;
  };
}
