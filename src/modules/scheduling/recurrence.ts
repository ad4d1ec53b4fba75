import { IANAZone } from 'luxon';
import { Frequency, RRule, Weekday, type Options } from 'rrule';
import { isValidZone, localToEpoch } from '../../shared/zone';

/**
 * Recurring slots and bookings: validation of the `repeat` object, expansion of a series into
 * instants, and pure edits of a series for `single` / `upcoming` changes.
 *
 * A series is `start` (the instant of its first occurrence) plus an RRULE evaluated in the
 * LOCAL wall time of `timeZone`: a weekly 09:00 class stays at 09:00 across DST changes.
 * Wall times are carried as "floating" UTC-based milliseconds (a wall time of 09:00 is 09:00Z),
 * so rrule never sees a `tzid` and the result does not depend on the process `TZ`.
 * `localToEpoch` maps each wall time back to an instant (gap: moved forward; overlap: earlier).
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
 * - Supported parts: FREQ (DAILY, WEEKLY, MONTHLY, YEARLY), INTERVAL, COUNT, UNTIL, BYMONTH,
 *   BYMONTHDAY, BYDAY, BYHOUR, BYMINUTE, BYSETPOS, WKST. Sub-daily frequencies are ambiguous
 *   in wall time across DST changes (DAILY with BYHOUR/BYMINUTE expresses them); BYSECOND,
 *   BYWEEKNO, BYYEARDAY and BYEASTER have no use for bookings and are rejected.
 */

export interface RepeatSpec {
  /** Normalised RRULE without the `RRULE:` prefix. */
  rrule: string;
  timeZone: string;
  /** Inclusive end of the series (epoch ms), or null. */
  until: number | null;
}

export interface SeriesSpec {
  rrule: string;
  timeZone: string;
  until?: number | null;
  /** Epoch ms of the first occurrence (the slot's or booking's startTime). */
  start: number;
  /** Occurrence instants removed from the series (`single` delete or move). */
  exdates?: readonly number[];
}

export interface FieldError {
  path: string;
  message: string;
}

export type SeriesResult =
  | { ok: true; occurrences: number[] }
  | { ok: false; reason: 'unbounded' | 'too_many' | 'too_far'; message: string };

export const MAX_BOOKING_OCCURRENCES = 366;
export const MAX_RULE_COUNT = 10_000;
export const MAX_RULE_INTERVAL = 1_000;
export const DEFAULT_OCCURRENCE_LIMIT = 5_000;
const MAX_RULE_LENGTH = 500;

const DAY = 86_400_000;
/** rrule stops iterating after this year; the proxy-year scheme below relies on it. */
const MAX_YEAR = 9999;
const MS_RANGE = 8.64e15 - 2 * DAY;

type Freq = 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
const FREQS: Record<Freq, Frequency> = {
  YEARLY: Frequency.YEARLY,
  MONTHLY: Frequency.MONTHLY,
  WEEKLY: Frequency.WEEKLY,
  DAILY: Frequency.DAILY,
};
/** rrule numbers weekdays from Monday = 0. */
const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

interface Until {
  text: string;
  /** An instant (`...Z`), inclusive. */
  ms: number | null;
  /** The last wall time included (floating forms). */
  lastWall: number | null;
}

interface Rule {
  freq: Freq;
  interval: number | null;
  count: number | null;
  until: Until | null;
  bymonth: number[] | null;
  bymonthday: number[] | null;
  byday: { day: number; n: number }[] | null;
  byhour: number[] | null;
  byminute: number[] | null;
  bysetpos: number[] | null;
  wkst: number | null;
}

// ---------------------------------------------------------------------------------------------
// Parsing

/** Validates a `repeat` object; error paths are prefixed with `path`. */
export function parseRepeat(raw: unknown, path = 'repeat'): { value?: RepeatSpec; errors?: FieldError[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { errors: [{ path, message: 'must be an object with rrule, timeZone and an optional until' }] };
  }
  const input = raw as Record<string, unknown>;
  const errors: FieldError[] = [];
  let rrule = '';
  if (typeof input.rrule !== 'string') {
    errors.push({ path: `${path}.rrule`, message: 'is required and must be an iCalendar RRULE string' });
  } else {
    const parsed = parseRule(input.rrule);
    if (Array.isArray(parsed)) {
      for (const message of parsed) errors.push({ path: `${path}.rrule`, message });
    } else {
      rrule = serialise(parsed);
      const rejected = checkWithRRule(rrule);
      if (rejected) errors.push({ path: `${path}.rrule`, message: rejected });
    }
  }
  if (!isValidZone(input.timeZone)) {
    errors.push({ path: `${path}.timeZone`, message: 'is required and must be an IANA time zone name (e.g. Europe/Riga)' });
  }
  let until: number | null = null;
  if (input.until !== undefined && input.until !== null) {
    until = parseTimestamp(input.until);
    if (until === null) {
      errors.push({ path: `${path}.until`, message: 'must be an RFC 3339 timestamp with an offset (e.g. 2026-12-31T23:59:59Z)' });
    }
  }
  if (errors.length) return { errors };
  return { value: { rrule, timeZone: input.timeZone as string, until } };
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Epoch ms of an RFC 3339 timestamp with an explicit offset, or null. */
export function parseTimestamp(text: unknown): number | null {
  const m = typeof text === 'string' ? RFC3339.exec(text) : null;
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const wall = wallMs(y, mo, d, h, mi, s);
  if (wall === null) return null;
  const fraction = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  let offset = 0;
  if (m[8]) {
    const oh = Number(m[9]);
    const om = Number(m[10]);
    if (oh > 23 || om > 59) return null;
    offset = (m[8] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  return wall + fraction - offset;
}

function parseRule(input: string): Rule | string[] {
  let text = input.trim();
  if (/(^|[;:\s])(DTSTART|TZID)\b/i.test(text)) {
    return ['must not contain DTSTART or TZID: the series starts at startTime and is evaluated in repeat.timeZone'];
  }
  if (text.length === 0) return ['must not be empty'];
  if (text.length > MAX_RULE_LENGTH) return [`must be at most ${MAX_RULE_LENGTH} characters`];
  if (/[\r\n]/.test(text)) return ['must be a single RRULE line'];
  if (/^RRULE:/i.test(text)) text = text.slice(6);
  const errors: string[] = [];
  const seen = new Set<string>();
  const rule: Omit<Rule, 'freq'> & { freq: Freq | null } = {
    freq: null, interval: null, count: null, until: null, bymonth: null, bymonthday: null,
    byday: null, byhour: null, byminute: null, bysetpos: null, wkst: null,
  };
  for (const segment of text.split(';')) {
    if (segment.trim() === '') continue;
    const eq = segment.indexOf('=');
    if (eq < 0) {
      errors.push(`invalid rule part '${segment.trim()}' (expected NAME=VALUE)`);
      continue;
    }
    const key = segment.slice(0, eq).trim().toUpperCase();
    const value = segment.slice(eq + 1).trim().toUpperCase();
    if (seen.has(key)) {
      errors.push(`${key} is given more than once`);
      continue;
    }
    seen.add(key);
    const fail = (what: string) => errors.push(`${key} ${what}`);
    switch (key) {
      case 'FREQ':
        if (value in FREQS) rule.freq = value as Freq;
        else if (['HOURLY', 'MINUTELY', 'SECONDLY'].includes(value)) errors.push(`FREQ=${value} is not supported: use FREQ=DAILY with BYHOUR and BYMINUTE`);
        else fail('must be one of DAILY, WEEKLY, MONTHLY, YEARLY');
        break;
      case 'INTERVAL':
        if ((rule.interval = intIn(value, 1, MAX_RULE_INTERVAL)) === null) fail(`must be an integer from 1 to ${MAX_RULE_INTERVAL}`);
        break;
      case 'COUNT':
        if ((rule.count = intIn(value, 1, MAX_RULE_COUNT)) === null) fail(`must be an integer from 1 to ${MAX_RULE_COUNT}`);
        break;
      case 'UNTIL':
        if ((rule.until = parseUntil(value)) === null) fail('must be a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, optionally with Z)');
        break;
      case 'BYMONTH':
        if ((rule.bymonth = intList(value, 1, 12, false)) === null) fail('must list months from 1 to 12');
        break;
      case 'BYMONTHDAY':
        if ((rule.bymonthday = intList(value, 1, 31, true)) === null) fail('must list days from 1 to 31 or -31 to -1');
        break;
      case 'BYHOUR':
        if ((rule.byhour = intList(value, 0, 23, false)) === null) fail('must list hours from 0 to 23');
        break;
      case 'BYMINUTE':
        if ((rule.byminute = intList(value, 0, 59, false)) === null) fail('must list minutes from 0 to 59');
        break;
      case 'BYSETPOS':
        if ((rule.bysetpos = intList(value, 1, 366, true)) === null) fail('must list positions from 1 to 366 or -366 to -1');
        break;
      case 'BYDAY':
        if ((rule.byday = parseByDay(value)) === null) fail('must list weekdays (MO, TU, WE, TH, FR, SA, SU), optionally with a position such as 1MO or -1FR');
        break;
      case 'WKST':
        if ((rule.wkst = DAYS.indexOf(value)) < 0) fail('must be one of MO, TU, WE, TH, FR, SA, SU');
        break;
      case 'BYSECOND':
      case 'BYWEEKNO':
      case 'BYYEARDAY':
      case 'BYEASTER':
        fail('is not supported');
        break;
      default:
        errors.push(`unknown rule part '${key}'`);
    }
  }
  if (!seen.has('FREQ')) errors.push('FREQ is required');
  if (errors.length) return errors;
  const freq = rule.freq as Freq;
  if (rule.count !== null && rule.until !== null) errors.push('COUNT and UNTIL must not both be given');
  const positions = (rule.byday ?? []).map((d) => Math.abs(d.n)).filter((n) => n > 0);
  if (positions.length && freq !== 'MONTHLY' && freq !== 'YEARLY') {
    errors.push('BYDAY with a position (e.g. 1MO) needs FREQ=MONTHLY or FREQ=YEARLY');
  } else if (freq === 'MONTHLY' && positions.some((n) => n > 5)) {
    errors.push('BYDAY positions must be from -5 to 5 with FREQ=MONTHLY');
  } else if (positions.some((n) => n > 53)) {
    errors.push('BYDAY positions must be from -53 to 53');
  }
  if (rule.bymonthday && freq === 'WEEKLY') errors.push('BYMONTHDAY must not be used with FREQ=WEEKLY');
  if (rule.bysetpos && !(rule.bymonth || rule.bymonthday || rule.byday || rule.byhour || rule.byminute)) {
    errors.push('BYSETPOS needs another BY... part to select from');
  }
  // A rule that can never match is cheap to catch here and would otherwise be stored silently.
  if (rule.bymonth && rule.bymonthday && !rule.bymonth.some((m) => rule.bymonthday!.some((d) => Math.abs(d) <= MONTH_DAYS[m - 1]))) {
    errors.push('BYMONTH and BYMONTHDAY never coincide');
  }
  return errors.length ? errors : { ...rule, freq };
}

function intIn(value: string, min: number, max: number): number | null {
  if (!/^\+?\d{1,6}$/.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
}

function intList(value: string, min: number, max: number, signed: boolean): number[] | null {
  const out: number[] = [];
  for (const item of value.split(',')) {
    if (!(signed ? /^[+-]?\d{1,4}$/ : /^\+?\d{1,4}$/).test(item)) return null;
    const n = Number(item);
    if (Math.abs(n) < min || Math.abs(n) > max || (signed && n === 0)) return null;
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

function parseByDay(value: string): { day: number; n: number }[] | null {
  const out: { day: number; n: number }[] = [];
  for (const item of value.split(',')) {
    const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item);
    if (!m || (m[1] !== undefined && Number(m[1]) === 0)) return null;
    const entry = { day: DAYS.indexOf(m[2]), n: m[1] === undefined ? 0 : Number(m[1]) };
    if (!out.some((d) => d.day === entry.day && d.n === entry.n)) out.push(entry);
  }
  return out;
}

function parseUntil(value: string): Until | null {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (m[4] === undefined) {
    const dayStart = wallMs(y, mo, d, 0, 0, 0);
    return dayStart === null ? null : { text: value, ms: null, lastWall: dayStart + DAY - 1000 };
  }
  const wall = wallMs(y, mo, d, Number(m[4]), Number(m[5]), Number(m[6]));
  if (wall === null) return null;
  return m[7] ? { text: value, ms: wall, lastWall: null } : { text: value, ms: null, lastWall: wall };
}

function serialise(rule: Rule): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval !== null) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.count !== null) parts.push(`COUNT=${rule.count}`);
  if (rule.until) parts.push(`UNTIL=${rule.until.text}`);
  if (rule.bymonth) parts.push(`BYMONTH=${rule.bymonth.join(',')}`);
  if (rule.bymonthday) parts.push(`BYMONTHDAY=${rule.bymonthday.join(',')}`);
  if (rule.byday) parts.push(`BYDAY=${rule.byday.map((d) => `${d.n || ''}${DAYS[d.day]}`).join(',')}`);
  if (rule.byhour) parts.push(`BYHOUR=${rule.byhour.join(',')}`);
  if (rule.byminute) parts.push(`BYMINUTE=${rule.byminute.join(',')}`);
  if (rule.bysetpos) parts.push(`BYSETPOS=${rule.bysetpos.join(',')}`);
  if (rule.wkst !== null) parts.push(`WKST=${DAYS[rule.wkst]}`);
  return parts.join(';');
}

/** Our grammar is stricter than rrule's; this guards against the two disagreeing. */
function checkWithRRule(normalised: string): string | null {
  try {
    const options = RRule.parseString(normalised);
    if (options.freq === undefined) return 'is not a valid RRULE';
    new RRule({ ...options, dtstart: new Date(Date.UTC(2026, 0, 1)) }, true);
    return null;
  } catch (error) {
    return `is not a valid RRULE: ${(error as Error).message}`;
  }
}

const ruleCache = new Map<string, Rule>();

/** Stored rules are re-read on every expansion; parse each text once. Rules are never mutated. */
function ruleOf(text: string): Rule {
  let rule = ruleCache.get(text);
  if (!rule) {
    const parsed = parseRule(text);
    if (Array.isArray(parsed)) throw new RangeError(`invalid rrule '${text}': ${parsed.join('; ')}`);
    if (ruleCache.size >= 1000) ruleCache.clear();
    ruleCache.set(text, parsed);
    rule = parsed;
  }
  return rule;
}

// ---------------------------------------------------------------------------------------------
// Floating wall-time arithmetic

function mod(a: number, b: number): number {
  return ((a % b) + b) % b;
}

/** Day number (days since 1970-01-01) of a calendar date; setUTCFullYear keeps years < 100 literal. */
function utcDay(year: number, month: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return Math.round(d.getTime() / DAY);
}

function wallMs(y: number, mo: number, d: number, h: number, mi: number, s: number): number | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const day = utcDay(y, mo, d);
  if (new Date(day * DAY).getUTCDate() !== d) return null;
  return day * DAY + ((h * 60 + mi) * 60 + s) * 1000;
}

function weekdayOfDay(day: number): number {
  return mod(day + 3, 7); // 1970-01-01 was a Thursday
}

function yearOfDay(day: number): number {
  return new Date(day * DAY).getUTCFullYear();
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function formatUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

function wallOf(zone: string, ms: number): number {
  return ms + IANAZone.create(zone).offset(ms) * 60_000;
}

const dayOffsets = new Map<string, Map<number, number>>();

/** Offset (ms) of `zone` at 00:00Z of a day number; memoised because it rarely changes. */
function offsetAtDay(zone: string, day: number): number {
  let days = dayOffsets.get(zone);
  if (!days) {
    if (dayOffsets.size >= 200) dayOffsets.clear();
    dayOffsets.set(zone, (days = new Map()));
  }
  let offset = days.get(day);
  if (offset === undefined) {
    if (days.size >= 100_000) days.clear();
    offset = IANAZone.create(zone).offset(day * DAY) * 60_000;
    days.set(day, offset);
  }
  return offset;
}

/**
 * The instant of a wall time. The instant lies within 14 hours of the wall time, so when the
 * offset is the same a day before and two days after, that offset is the answer; near a
 * transition the shared helper decides, which keeps its gap and overlap rules.
 */
function wallToInstant(zone: string, wall: number): number {
  const day = Math.floor(wall / DAY);
  const offset = offsetAtDay(zone, day - 1);
  if (offset === offsetAtDay(zone, day + 2)) return wall - offset;
  const d = new Date(wall);
  const minute = d.getUTCHours() * 60 + d.getUTCMinutes();
  return localToEpoch(zone, d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), minute) + mod(wall, 60_000);
}

function clampMs(ms: number): number {
  if (Number.isNaN(ms)) throw new RangeError('instant must be a number');
  return Math.max(-MS_RANGE, Math.min(MS_RANGE, ms));
}

/**
 * rrule only stops iterating when it emits a date past the requested end or passes year 9999,
 * so a rule that stops matching (FREQ=DAILY;INTERVAL=7;BYDAY=MO from a Tuesday) would spin
 * through eight millennia of days. Runs of up to 28 real years are therefore evaluated in a
 * proxy run with the same calendar that ends at most 27 years before 9999. Within a run with
 * no skipped century leap year, the calendar follows from the first year's weekday and its
 * place in the 4-year cycle, and 9901..9999 holds every such combination in its last 28 years.
 * A century year like 2100 is a run of its own.
 */
function chunkOf(year: number): { last: number; shift: number } {
  const jan1 = utcDay(year, 1, 1);
  const centuryException = year % 100 === 0 && year % 400 !== 0;
  let last = year;
  if (!centuryException) {
    let nextException = (Math.floor(year / 100) + 1) * 100;
    while (nextException % 400 === 0) nextException += 100;
    last = Math.min(year + 27, nextException - 1);
  }
  for (let proxy = MAX_YEAR - (last - year); ; proxy--) {
    const pJan1 = utcDay(proxy, 1, 1);
    const sameCycle = centuryException ? !isLeap(proxy) : mod(proxy - year, 4) === 0;
    if (sameCycle && weekdayOfDay(pJan1) === weekdayOfDay(jan1)) return { last, shift: (pJan1 - jan1) * DAY };
  }
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
    rule, zone: spec.timeZone, start, startWall, subMs: mod(start, 1000), interval: rule.interval ?? 1,
    wkstRef: mod((rule.wkst ?? 0) - 3, 7), idx0: 0, options: baseOptions(rule, startWall),
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
      return utcDay(Math.floor(idx / 12), mod(idx, 12) + 1, 1);
    case 'YEARLY':
      return utcDay(idx, 1, 1);
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
    const chunkEnd = utcDay(chunk.last, 12, 31);
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
 * occurrence precedes `at`. The end is written into the rule text, where clients reading the
 * slot's rrule see it: UNTIL (UTC, the last whole second before `at`), or a smaller COUNT when
 * the rule counts, since RFC 5545 forbids both. The `until` field is left as it is.
 */
export function truncateBefore(spec: SeriesSpec, at: number): SeriesSpec | null {
  const p = plan(spec);
  if (at <= p.start) return null;
  const rule = { ...p.rule };
  if (rule.count !== null) {
    rule.count = Math.min(rule.count, instancesBefore(p, at));
  } else {
    const cutoff = Math.floor((at - 1) / 1000) * 1000;
    const current = rule.until ? (rule.until.ms ?? wallToInstant(p.zone, rule.until.lastWall!)) : Infinity;
    if (current > cutoff) rule.until = { text: formatUtc(cutoff), ms: cutoff, lastWall: null };
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
