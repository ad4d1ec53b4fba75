import { RRule, Weekday, type Options } from 'rrule';
import { isValidZone } from '../../shared/zone';
import { FREQS, ruleOf, serialise, utcUntil, type Rule } from './recurrence-rule';
import { clampMs, DAY, isLeap, mod, wallOf, wallToInstant, weekdayOfDay, yearOfDay } from './recurrence-zone';
import { daysFromCivil } from '../../shared/civil-date';

/**
 * Recurring slots and bookings: validation of the `repeat` object, expansion of a series into
 * instants, and pure edits of a series for `single` / `upcoming` changes.
 *
 * A series is `start` (the instant of its first occurrence) plus an RRULE evaluated in the
 * LOCAL wall time of `timeZone`: a weekly 09:00 class stays at 09:00 across DST changes.
 * Wall times are carried as "floating" UTC-based milliseconds (a wall time of 09:00 is 09:00Z),
 * so rrule never sees a `tzid` and the result does not depend on the process `TZ`. Each wall
 * time maps back to an instant by the rules of `localToEpoch` (gap: moved forward by the gap;
 * overlap: the earlier instant).
 *
 * Semantics chosen where RFC 5545 or rrule leave room:
 * - `start` is always the first occurrence and counts towards COUNT, even when the rule would
 *   not generate it (RFC 5545 DTSTART rule; rrule itself would drop it).
 * - UNTIL in the rule is inclusive: `...Z` is an instant; a floating date-time is a wall time in
 *   `timeZone`; a date (`20261231`) includes that whole local day. The `until` field (an instant)
 *   is also inclusive; the series ends at whichever bound comes first.
 * - Every period (day, week, month, year) is expanded whole before occurrences earlier than
 *   `start` are dropped, so BYSETPOS picks the same positions in the first week as in later ones.
 * - Two wall times landing on one instant (a DST gap) give one occurrence.
 *
 * The rule grammar and its normalised text live in `recurrence.rule.ts`, the wall-time
 * arithmetic in `recurrence.zone.ts`; callers import everything from this module.
 */

export { MAX_RULE_COUNT, MAX_RULE_INTERVAL, parseRepeat, parseTimestamp, type FieldError, type RepeatSpec } from './recurrence-rule';

export interface SeriesSpec {
  rrule: string;
  timeZone: string;
  until?: number | null;
  /** Epoch ms of the first occurrence (the slot's or booking's startTime). */
  start: number;
  /** Occurrence instants removed from the series (`single` delete or move). */
  exdates?: readonly number[];
}

export type SeriesResult =
  { ok: true; occurrences: number[] } | { ok: false; reason: 'unbounded' | 'too_many' | 'too_far'; message: string };

export const MAX_BOOKING_OCCURRENCES = 366;
export const DEFAULT_OCCURRENCE_LIMIT = 5_000;

/** rrule stops iterating after this year; the proxy-year scheme below relies on it. */
const MAX_YEAR = 9999;

// ---------------------------------------------------------------------------------------------
// Proxy years

/**
 * rrule only stops iterating when it emits a date past the requested end or passes year 9999,
 * so a rule that stops matching (FREQ=DAILY;INTERVAL=7;BYDAY=MO from a Tuesday) would spin
 * through eight millennia of days. A run of real years is therefore evaluated in a proxy run
 * with the same calendar that ends in 9999, where rrule gives up at once. Between two skipped
 * century leap years the calendar follows from the first year's weekday and its place in the
 * 4-year cycle, and 9972..9999 holds every such combination. A run stops before a century
 * like 2100, which maps alone onto the last common year with the same first weekday.
 */
function chunkOf(year: number): { last: number; shift: number } {
  const jan1 = daysFromCivil(year, 1, 1);
  const centuryException = year % 100 === 0 && year % 400 !== 0;
  for (let proxy = MAX_YEAR; proxy > MAX_YEAR - 28; proxy--) {
    const pJan1 = daysFromCivil(proxy, 1, 1);
    const sameCycle = centuryException ? !isLeap(proxy) : mod(proxy - year, 4) === 0;
    if (!sameCycle || weekdayOfDay(pJan1) !== weekdayOfDay(jan1)) continue;
    let last = year;
    if (!centuryException) {
      let nextException = (Math.floor(year / 100) + 1) * 100;
      while (nextException % 400 === 0) nextException += 100;
      last = Math.min(year + MAX_YEAR - proxy, nextException - 1);
    }
    return { last, shift: (pJan1 - jan1) * DAY };
  }
  throw new RangeError(`no proxy year for ${year}`);
}

// ---------------------------------------------------------------------------------------------
// Expansion

interface Plan {
  rule: Rule;
  zone: string;
  start: number;
  /** Wall time of `start`, whole seconds; `subMs` restores the milliseconds. */
  startWall: number;
  subMs: number;
  interval: number;
  /** A day number that falls on the week-start weekday. */
  wkstRef: number;
  idx0: number;
  options: Partial<Options>;
}

function plan(spec: SeriesSpec): Plan {
  if (!isValidZone(spec.timeZone)) throw new RangeError(`invalid time zone '${String(spec.timeZone)}'`);
  if (!Number.isFinite(spec.start)) throw new RangeError('series start must be a finite instant');
  const rule = ruleOf(spec.rrule);
  const start = clampMs(spec.start);
  const wall = wallOf(spec.timeZone, start);
  const startWall = wall - mod(wall, 1000);
  const p: Plan = {
    rule,
    zone: spec.timeZone,
    start,
    startWall,
    subMs: mod(start, 1000),
    interval: rule.interval ?? 1,
    wkstRef: mod((rule.wkst ?? 0) - 3, 7),
    idx0: 0,
    options: baseOptions(rule, startWall),
  };
  p.idx0 = periodIndexOfDay(p, Math.floor(startWall / DAY));
  return p;
}

/**
 * rrule derives missing BYxxx values from dtstart; chunks start at period boundaries, so the
 * values the series start implies are spelled out.
 */
function baseOptions(rule: Rule, startWall: number): Partial<Options> {
  const s = new Date(startWall);
  const options: Partial<Options> = {
    freq: FREQS[rule.freq],
    interval: rule.interval ?? 1,
    wkst: rule.wkst ?? 0,
    bymonth: rule.bymonth,
    bymonthday: rule.bymonthday,
    byweekday: rule.byday ? rule.byday.map((d) => new Weekday(d.day, d.n || undefined)) : null,
    byhour: rule.byhour ?? [s.getUTCHours()],
    byminute: rule.byminute ?? [s.getUTCMinutes()],
    bysecond: [s.getUTCSeconds()],
    bysetpos: rule.bysetpos,
  };
  if (!rule.bymonthday && !rule.byday) {
    if (rule.freq === 'YEARLY') {
      options.bymonth = rule.bymonth ?? [s.getUTCMonth() + 1];
      options.bymonthday = [s.getUTCDate()];
    } else if (rule.freq === 'MONTHLY') {
      options.bymonthday = [s.getUTCDate()];
    } else if (rule.freq === 'WEEKLY') {
      options.byweekday = [weekdayOfDay(Math.floor(startWall / DAY))];
    }
  }
  return options;
}

function periodIndexOfDay(p: Plan, day: number): number {
  switch (p.rule.freq) {
    case 'DAILY':
      return day;
    case 'WEEKLY':
      return Math.floor((day - p.wkstRef) / 7);
    case 'MONTHLY': {
      const d = new Date(day * DAY);
      return d.getUTCFullYear() * 12 + d.getUTCMonth();
    }
    case 'YEARLY':
      return yearOfDay(day);
  }
}

function periodStartDay(p: Plan, idx: number): number {
  switch (p.rule.freq) {
    case 'DAILY':
      return idx;
    case 'WEEKLY':
      return idx * 7 + p.wkstRef;
    case 'MONTHLY':
      return daysFromCivil(Math.floor(idx / 12), mod(idx, 12) + 1, 1);
    case 'YEARLY':
      return daysFromCivil(idx, 1, 1);
  }
}

/** The first period of the series (one every `interval`) with index >= idx. */
function firstInPhase(p: Plan, idx: number): number {
  return idx <= p.idx0 ? p.idx0 : p.idx0 + Math.ceil((idx - p.idx0) / p.interval) * p.interval;
}

type Stop = 'done' | 'upper' | 'stopped';

/**
 * Visits the wall times of the series in order, starting with `start`, until COUNT or a
 * floating UNTIL ends the series ('done'), a wall time passes `upperWall` ('upper') or `visit`
 * returns false ('stopped'). Without COUNT, periods before `lowerWall` are skipped outright.
 */
function generate(p: Plan, lowerWall: number | null, upperWall: number, visit: (wall: number) => boolean): Stop {
  const { rule } = p;
  const lastWall = rule.until?.lastWall ?? Infinity;
  let remaining = rule.count ?? Infinity;
  if (p.startWall > lastWall) return 'done';
  if (p.startWall > upperWall) return 'upper';
  if (!visit(p.startWall)) return 'stopped';
  if (--remaining === 0) return 'done';
  let idx = p.idx0;
  if (lowerWall !== null && rule.count === null) idx = firstInPhase(p, periodIndexOfDay(p, Math.floor(lowerWall / DAY)));
  for (;;) {
    const firstDay = periodStartDay(p, idx);
    if (firstDay * DAY > upperWall) return 'upper';
    if (firstDay * DAY > lastWall) return 'done';
    const year = yearOfDay(firstDay);
    if (year > MAX_YEAR) return 'done';
    const chunk = chunkOf(year);
    const chunkEnd = daysFromCivil(chunk.last, 12, 31);
    let stop = null as Stop | null;
    new RRule({ ...p.options, dtstart: new Date(firstDay * DAY + chunk.shift) }, true).all((date) => {
      const wall = date.getTime() - chunk.shift;
      // A week may run into the next year; anything from a later period belongs to the next chunk.
      if (periodStartDay(p, periodIndexOfDay(p, Math.floor(wall / DAY))) > chunkEnd) return false;
      if (wall <= p.startWall) return true;
      if (wall > lastWall) stop = 'done';
      else if (wall > upperWall) stop = 'upper';
      else if (!visit(wall)) stop = 'stopped';
      else if (--remaining === 0) stop = 'done';
      return stop === null;
    });
    if (stop) return stop;
    const next = periodIndexOfDay(p, chunkEnd + 1);
    idx = firstInPhase(p, periodStartDay(p, next) <= chunkEnd ? next + 1 : next);
  }
}

function instantOf(p: Plan, wall: number): number {
  return wall === p.startWall ? p.start : wallToInstant(p.zone, wall) + p.subMs;
}

function instantBound(spec: SeriesSpec, rule: Rule): number {
  return Math.min(spec.until ?? Infinity, rule.until?.ms ?? Infinity);
}

/**
 * Epoch ms of every occurrence starting in [window.from, window.to), ascending, at most
 * `limit` of them. The cost follows the window, not the distance from the series start
 * (except for COUNT rules, which are counted from the start).
 */
export function expandOccurrences(spec: SeriesSpec, window: { from: number; to: number }, limit = DEFAULT_OCCURRENCE_LIMIT): number[] {
  const p = plan(spec);
  const from = clampMs(window.from);
  const to = clampMs(window.to);
  if (!(from < to) || limit <= 0) return [];
  const until = instantBound(spec, p.rule);
  // A wall time and its instant differ by less than a day, hence the margins.
  const lowerWall = wallOf(p.zone, from) - DAY;
  const upperWall = Math.min(wallOf(p.zone, to), until === Infinity ? Infinity : wallOf(p.zone, clampMs(until))) + DAY;
  const excluded = new Set(spec.exdates ?? []);
  const found = new Set<number>();
  let lastDay = Infinity;
  generate(p, lowerWall, upperWall, (wall) => {
    if (wall < lowerWall) return true;
    const day = Math.floor(wall / DAY);
    if (day > lastDay) return false;
    const t = instantOf(p, wall);
    if (t >= from && t < to && t <= until && !excluded.has(t)) {
      found.add(t);
      // Finish the local day: a wall time moved out of a DST gap may sort after a later one.
      if (found.size >= limit) lastDay = day;
    }
    return true;
  });
  return sorted(found).slice(0, limit);
}

/**
 * Every occurrence of a bounded series (recurring bookings), or why there is no such list:
 * the series has no end ('unbounded'), more than `maxCount` occurrences ('too_many'), or runs
 * past `horizonYears` after its start ('too_far', which also bounds the work for rules that
 * rarely or never match).
 */
export function countOccurrences(spec: SeriesSpec, maxCount = MAX_BOOKING_OCCURRENCES, horizonYears = 100): SeriesResult {
  const p = plan(spec);
  if (p.rule.count === null && p.rule.until === null && (spec.until ?? null) === null) {
    return { ok: false, reason: 'unbounded', message: 'a recurring series needs COUNT or UNTIL in the rule, or repeat.until' };
  }
  const until = instantBound(spec, p.rule);
  const seriesUpper = until === Infinity ? Infinity : wallOf(p.zone, clampMs(until)) + DAY;
  const horizonUpper = p.startWall + Math.round(horizonYears * 365.2425) * DAY;
  const excluded = new Set(spec.exdates ?? []);
  const found = new Set<number>();
  const stop = generate(p, null, Math.min(seriesUpper, horizonUpper), (wall) => {
    const t = instantOf(p, wall);
    if (t <= until && !excluded.has(t)) found.add(t);
    return found.size <= maxCount;
  });
  if (found.size > maxCount) {
    return { ok: false, reason: 'too_many', message: `the series has more than ${maxCount} occurrences` };
  }
  if (stop === 'upper' && horizonUpper < seriesUpper) {
    return { ok: false, reason: 'too_far', message: `the series must end within ${horizonYears} years of its start` };
  }
  return { ok: true, occurrences: sorted(found) };
}

function sorted(values: Iterable<number>): number[] {
  return Array.from(values).sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------
// Series edits (pure; the service layer composes them)

/** True when `at` is an occurrence of the series (exdates respected). */
export function isOccurrence(spec: SeriesSpec, at: number): boolean {
  return expandOccurrences(spec, { from: at, to: at + 1 }, 1).length === 1;
}

/** Rule instances (exdates ignored, as COUNT counts them) starting before `at`. */
function instancesBefore(p: Plan, at: number): number {
  let n = 0;
  const sure = wallOf(p.zone, at) - DAY;
  generate(p, null, wallOf(p.zone, at) + DAY, (wall) => {
    if (wall < sure || instantOf(p, wall) < at) n++;
    return true;
  });
  return n;
}

/**
 * The series ending just before `at` (for `upcoming` deletes and updates), or null when no
 * occurrence (exdates respected) precedes `at`, so the whole series goes. The end is written into the rule text, where clients reading the
 * slot's rrule see it: UNTIL (UTC, the last whole second before `at`), or a smaller COUNT when
 * the rule counts, since RFC 5545 forbids both. The `until` field is left as it is.
 */
export function truncateBefore(spec: SeriesSpec, at: number): SeriesSpec | null {
  const p = plan(spec);
  if (at <= p.start || expandOccurrences(spec, { from: p.start, to: at }, 1).length === 0) return null;
  const rule = { ...p.rule };
  if (rule.count !== null) {
    rule.count = Math.min(rule.count, instancesBefore(p, at));
  } else {
    const cutoff = Math.floor((at - 1) / 1000) * 1000;
    const current = rule.until ? (rule.until.ms ?? wallToInstant(p.zone, rule.until.lastWall!)) : Infinity;
    if (current > cutoff) rule.until = utcUntil(cutoff);
  }
  return { ...spec, rrule: serialise(rule), exdates: (spec.exdates ?? []).filter((t) => t < at) };
}

/**
 * Splits the series at occurrence `at`: `before` ends just before it (see truncateBefore) and
 * `after` is the same recurrence starting at `at`, with COUNT reduced by the occurrences
 * already past. Null when `at` is not an occurrence. When `at` was moved out of a DST gap its
 * wall time differs from the rule's, so the original time of day is pinned in `after`.
 */
export function splitSeries(spec: SeriesSpec, at: number): { before: SeriesSpec | null; after: SeriesSpec } | null {
  if (!isOccurrence(spec, at)) return null;
  const p = plan(spec);
  if (at === p.start) return { before: null, after: { ...spec } };
  const rule = { ...p.rule };
  if (rule.count !== null) rule.count -= instancesBefore(p, at);
  const s = new Date(p.startWall);
  const a = new Date(wallOf(p.zone, at));
  if (!rule.byhour && a.getUTCHours() !== s.getUTCHours()) rule.byhour = [s.getUTCHours()];
  if (!rule.byminute && a.getUTCMinutes() !== s.getUTCMinutes()) rule.byminute = [s.getUTCMinutes()];
  return {
    before: truncateBefore(spec, at),
    after: { ...spec, rrule: serialise(rule), start: at, exdates: (spec.exdates ?? []).filter((t) => t > at) },
  };
}

/**
 * The series without occurrence `at` (a `single` delete, or the series side of a `single`
 * update, whose new time becomes a standalone slot). Null when `at` is not an occurrence.
 */
export function excludeOccurrence(spec: SeriesSpec, at: number): SeriesSpec | null {
  if (!isOccurrence(spec, at)) return null;
  return { ...spec, exdates: sorted(new Set([...(spec.exdates ?? []), at])) };
}
