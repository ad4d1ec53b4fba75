import { Frequency, RRule } from 'rrule';
import { parseTimestamp } from '../../shared/time';
import { isValidZone } from '../../shared/zone';
import { DAY, wallMs } from './recurrence-zone';

/**
 * The `repeat` object and its RRULE text: validation, parsing, and the normalised text that is
 * stored (parts in a fixed order, upper case, repeated list values dropped, UNTIL in the form
 * given). How a series is evaluated is described in `recurrence.ts`.
 *
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

export interface FieldError {
  path: string;
  message: string;
}

export const MAX_RULE_COUNT = 10_000;
export const MAX_RULE_INTERVAL = 1_000;
const MAX_RULE_LENGTH = 500;

export type Freq = 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
export const FREQS: Record<Freq, Frequency> = {
  YEARLY: Frequency.YEARLY,
  MONTHLY: Frequency.MONTHLY,
  WEEKLY: Frequency.WEEKLY,
  DAILY: Frequency.DAILY,
};
/** rrule numbers weekdays from Monday = 0. */
const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export interface Until {
  text: string;
  /** An instant (`...Z`), inclusive. */
  ms: number | null;
  /** The last wall time included (floating forms). */
  lastWall: number | null;
}

export interface Rule {
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

// RFC 3339 with an explicit offset, as everywhere in the API.
export { parseTimestamp };

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
    freq: null,
    interval: null,
    count: null,
    until: null,
    bymonth: null,
    bymonthday: null,
    byday: null,
    byhour: null,
    byminute: null,
    bysetpos: null,
    wkst: null,
  };
  for (const segment of text.split(';')) {
    if (segment.trim() === '') continue;
    const eq = segment.indexOf('=');
    if (eq < 0) {
      errors.push(`invalid rule part '${segment.trim()}' (expected NAME=VALUE)`);
      continue;
    }
    const key = segment.slice(0, eq).trim().toUpperCase();
    const value = segment
      .slice(eq + 1)
      .trim()
      .toUpperCase();
    if (seen.has(key)) {
      errors.push(`${key} is given more than once`);
      continue;
    }
    seen.add(key);
    const fail = (what: string) => errors.push(`${key} ${what}`);
    switch (key) {
      case 'FREQ':
        if (value in FREQS) rule.freq = value as Freq;
        else if (['HOURLY', 'MINUTELY', 'SECONDLY'].includes(value))
          errors.push(`FREQ=${value} is not supported: use FREQ=DAILY with BYHOUR and BYMINUTE`);
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
        if ((rule.byday = parseByDay(value)) === null)
          fail('must list weekdays (MO, TU, WE, TH, FR, SA, SU), optionally with a position such as 1MO or -1FR');
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

export function serialise(rule: Rule): string {
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
export function ruleOf(text: string): Rule {
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

function formatUtc(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** An UNTIL at instant `ms`; RFC 5545 wants it written in UTC. */
export function utcUntil(ms: number): Until {
  return { text: formatUtc(ms), ms, lastWall: null };
}
