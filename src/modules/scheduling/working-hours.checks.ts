import { formatLocalTime, parseLocalTime } from '../../shared/duration';
import type { Check } from '../../shared/validate';
import type { StoredWorkingDay } from './scheduling.entity';

/** Guards storage against absurd inputs; far above any real week. */
const MAX_ENTRIES = 100;
const MAX_RANGES = 200;

type Range = [number, number];

function mergeRanges(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Range[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    // Touching ranges (09:00-12:00, 12:00-17:00) are one opening, as the engine sees them.
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/**
 * Normalises weekly hours to one canonical form: per weekday the ranges are sorted and
 * overlapping or touching ones merged, then weekdays with identical hours share one entry
 * (Monday first). Days without hours are left out: a rule that governs a date but has no
 * hours on its weekday keeps the resource closed that day, listed or not.
 */
export function normaliseWeek(days: { daysOfWeek: number; hours: Range[] }[]): StoredWorkingDay[] {
  const perWeekday: Range[][] = [[], [], [], [], [], [], []];
  for (const d of days) {
    for (let wd = 0; wd < 7; wd++) if (d.daysOfWeek & (1 << (6 - wd))) perWeekday[wd].push(...d.hours);
  }
  const groups = new Map<string, { mask: number; hours: Range[] }>();
  perWeekday.forEach((ranges, wd) => {
    if (ranges.length === 0) return;
    const merged = mergeRanges(ranges);
    const key = merged.map((r) => r.join('-')).join(',');
    const g = groups.get(key);
    if (g) g.mask |= 1 << (6 - wd);
    else groups.set(key, { mask: 1 << (6 - wd), hours: merged });
  });
  return [...groups.values()].map((g) => ({
    daysOfWeek: g.mask,
    hours: g.hours.map(([s, e]) => ({ start: formatLocalTime(s), end: formatLocalTime(e) })),
  }));
}

/**
 * Validates `workingHours` of a request: `daysOfWeek` 1-127, `start` 00:00-23:59, `end` up to
 * 24:00 and after `start`. Returns the normalised week, or undefined after recording problems.
 */
export function checkWorkingHours(c: Check, raw: unknown, path = 'workingHours'): StoredWorkingDay[] | undefined {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) return (c.fail(path, 'must be an array'), undefined);
  if (raw.length > MAX_ENTRIES) return (c.fail(path, `must have at most ${MAX_ENTRIES} entries`), undefined);
  const before = c.details.length;
  const days: { daysOfWeek: number; hours: Range[] }[] = [];
  raw.forEach((item, i) => {
    const p = `${path}[${i}]`;
    const obj = c.object(p, item, true);
    if (!obj) return;
    const mask = c.int(`${p}.daysOfWeek`, obj.daysOfWeek, { required: true });
    if (mask !== undefined && (mask < 1 || mask > 127)) c.fail(`${p}.daysOfWeek`, 'must be an integer from 1 to 127 (Mon 64 ... Sun 1)');
    const hours: Range[] = [];
    if (obj.hours !== undefined && obj.hours !== null && !Array.isArray(obj.hours)) c.fail(`${p}.hours`, 'must be an array');
    else if (Array.isArray(obj.hours) && obj.hours.length > MAX_RANGES) c.fail(`${p}.hours`, `must have at most ${MAX_RANGES} entries`);
    else {
      ((obj.hours as unknown[] | undefined) ?? []).forEach((h, k) => {
        const hp = `${p}.hours[${k}]`;
        const range = c.object(hp, h, true);
        if (!range) return;
        const start = parseLocalTime(range.start);
        const end = parseLocalTime(range.end, true);
        if (start === null) c.fail(`${hp}.start`, 'must be a time HH:MM from 00:00 to 23:59');
        if (end === null) c.fail(`${hp}.end`, 'must be a time HH:MM from 00:01 to 24:00');
        if (start === null || end === null) return;
        if (end <= start) return c.fail(`${hp}.end`, 'must be after start');
        hours.push([start, end]);
      });
    }
    if (mask !== undefined) days.push({ daysOfWeek: mask, hours });
  });
  if (c.details.length > before) return undefined;
  return normaliseWeek(days);
}
