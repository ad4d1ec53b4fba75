import { parseLocalTime } from './duration';
import { formatInstant, parseDateBound, type DateBound } from './date-bound';

/** A rule's limitation, with both accepted time-range shapes already normalised to `{start, end}` (HH:MM). */
export interface LimitationInput {
  /** Date ranges, inclusive, as `YYYY-MM-DD` (local) or RFC 3339 instants. */
  dates?: { start: string; end: string }[] | null;
  /** Contract 7-bit mask, Monday = 64 ... Sunday = 1; null/undefined/0 = any day. */
  daysOfWeek?: number | null;
  resourceIDs?: string[] | null;
  /** Local time-of-day ranges `HH:MM`; `end` may be `24:00`. */
  times?: { start: string; end: string }[] | null;
}

/** One validation problem, addressed by the JSON path of the offending field. */
export interface LimitationIssue {
  path: string;
  message: string;
}

/** Either a normalised limitation or the problems found; both absent means "no limitation". */
export interface NormalisedLimitation {
  value?: LimitationInput;
  errors?: LimitationIssue[];
}

/** Guards storage and the matcher against absurd inputs; far above any real schedule. */
const MAX_ENTRIES = 1000;

const DATE_FORMAT = 'must be a date (YYYY-MM-DD) or an RFC 3339 timestamp with an offset';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Validates a limitation from an API request and normalises it to the stored shape.
 *
 * Time ranges are accepted as `{start, end}` (price rules, discounts) or `{startTime, endTime}`
 * (capacity rules) and always come out as `{start, end}`; error paths name the key the client
 * actually sent. The optional `id` that capacity requests may carry is checked to be a string
 * and dropped: a limitation has no identity of its own. Timestamps come out in UTC with `Z`,
 * as every timestamp in responses. Unknown keys are ignored, as elsewhere in the API; null
 * parts are treated as absent and left out of the value.
 */
export function normaliseLimitation(raw: unknown, path = 'limitation'): NormalisedLimitation {
  if (raw === null || raw === undefined) return {};
  const errors: LimitationIssue[] = [];
  const fail = (p: string, message: string): void => {
    errors.push({ path: p, message });
  };
  if (!isRecord(raw)) {
    fail(path, 'must be an object');
    return { errors };
  }
  const value: LimitationInput = {};

  if (raw.id !== undefined && raw.id !== null && typeof raw.id !== 'string') fail(`${path}.id`, 'must be a string');

  const days = raw.daysOfWeek;
  if (days !== undefined && days !== null) {
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 0 || days > 127) {
      fail(`${path}.daysOfWeek`, 'must be an integer from 0 to 127 (Mon 64 ... Sun 1)');
    } else {
      value.daysOfWeek = days;
    }
  }

  const ids = listOf(raw.resourceIDs, `${path}.resourceIDs`, fail);
  if (ids) {
    const out: string[] = [];
    ids.forEach((id, i) => {
      if (typeof id !== 'string' || id.length === 0) fail(`${path}.resourceIDs[${i}]`, 'must be a non-empty string');
      else out.push(id);
    });
    value.resourceIDs = out;
  }

  const times = listOf(raw.times, `${path}.times`, fail);
  if (times) {
    const out: { start: string; end: string }[] = [];
    times.forEach((item, i) => {
      const range = timeRange(item, `${path}.times[${i}]`, fail);
      if (range) out.push(range);
    });
    value.times = out;
  }

  const dates = listOf(raw.dates, `${path}.dates`, fail);
  if (dates) {
    const out: { start: string; end: string }[] = [];
    dates.forEach((item, i) => {
      const range = dateRange(item, `${path}.dates[${i}]`, fail);
      if (range) out.push(range);
    });
    value.dates = out;
  }

  return errors.length > 0 ? { errors } : { value };
}

type Fail = (path: string, message: string) => void;

function listOf(v: unknown, path: string, fail: Fail): unknown[] | null {
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v)) {
    fail(path, 'must be an array');
    return null;
  }
  if (v.length > MAX_ENTRIES) {
    fail(path, `must have at most ${MAX_ENTRIES} entries`);
    return null;
  }
  return v;
}

/** Picks `key` or its alternative spelling, remembering which one the client used for error paths. */
function pick(item: Record<string, unknown>, key: string, alt: string, path: string, fail: Fail): { key: string; value: unknown } | null {
  const a = item[key];
  const b = item[alt];
  if (a !== undefined && a !== null && b !== undefined && b !== null && a !== b) {
    fail(`${path}.${key}`, `conflicts with ${alt}; send only one of them`);
    return null;
  }
  if (a !== undefined && a !== null) return { key, value: a };
  if (b !== undefined && b !== null) return { key: alt, value: b };
  fail(`${path}.${key}`, 'is required');
  return null;
}

function timeRange(item: unknown, path: string, fail: Fail): { start: string; end: string } | null {
  if (!isRecord(item)) {
    fail(path, 'must be an object {start, end}');
    return null;
  }
  const s = pick(item, 'start', 'startTime', path, fail);
  const e = pick(item, 'end', 'endTime', path, fail);
  const start = s ? parseLocalTime(s.value) : null;
  const end = e ? parseLocalTime(e.value, true) : null;
  if (s && start === null) fail(`${path}.${s.key}`, 'must be a time HH:MM from 00:00 to 23:59');
  if (e && end === null) fail(`${path}.${e.key}`, 'must be a time HH:MM from 00:01 to 24:00');
  if (start === null || end === null || !s || !e) return null;
  if (end <= start) {
    fail(`${path}.${e.key}`, `must be after ${s.key}`);
    return null;
  }
  return { start: s.value as string, end: e.value as string };
}

function bound(v: unknown, path: string, fail: Fail): DateBound | null {
  if (v === undefined || v === null) {
    fail(path, 'is required');
    return null;
  }
  const b = parseDateBound(v);
  // Offset-less or second-less stamps are not RFC 3339; the contract refuses them.
  if (b === null || b.kind === 'local' || (b.kind === 'instant' && !b.rfc3339)) {
    fail(path, DATE_FORMAT);
    return null;
  }
  return b;
}

function dateRange(item: unknown, path: string, fail: Fail): { start: string; end: string } | null {
  if (!isRecord(item)) {
    fail(path, 'must be an object {start, end}');
    return null;
  }
  const lo = bound(item.start, `${path}.start`, fail);
  const hi = bound(item.end, `${path}.end`, fail);
  if (!lo || !hi) return null;
  if (endsBeforeStart(lo, hi)) {
    fail(`${path}.end`, 'must not be before start');
    return null;
  }
  return { start: render(lo), end: render(hi) };
}

/**
 * Two instants compare exactly and two dates by calendar. A mixed pair has no zone-free order,
 * so it is compared by the calendar date the timestamp was written with: that catches the
 * mistakes people make without refusing a range that is valid in the company's zone.
 */
function endsBeforeStart(lo: DateBound, hi: DateBound): boolean {
  if (lo.kind === 'instant' && hi.kind === 'instant') return hi.ms < lo.ms;
  return calendarDate(hi) < calendarDate(lo);
}

function calendarDate(b: DateBound): string {
  return b.kind === 'instant' ? b.writtenDate : b.date;
}

function render(b: DateBound): string {
  return b.kind === 'instant' ? formatInstant(b.ms) : b.date;
}
