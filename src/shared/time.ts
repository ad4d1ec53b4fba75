/** RFC 3339 timestamps on the wire; epoch milliseconds inside. */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Instants the API takes: years 0001 to 9998 (contract section 3). The margin below year 10000
 * keeps every window, duration and buffer added to an accepted instant within what the
 * formatter and PostgreSQL read back as an ordinary four-digit year.
 */
export const MIN_TIMESTAMP_MS = Date.parse('0001-01-01T00:00:00Z');
export const MAX_TIMESTAMP_MS = Date.parse('9999-01-01T00:00:00Z');
export const TIMESTAMP_RANGE_MESSAGE = 'must be between the years 0001 and 9998';

/** True for epoch milliseconds within years 0001 to 9998 (UTC). */
export const isTimestampInRange = (ms: number): boolean => ms >= MIN_TIMESTAMP_MS && ms < MAX_TIMESTAMP_MS;

/** True for a string shaped like an RFC 3339 timestamp whose year is outside 0001 to 9998. */
export function isOutOfRangeTimestamp(v: unknown): boolean {
  if (typeof v !== 'string' || v.length > 40 || !RFC3339.test(v)) return false;
  const ms = Date.parse(v.replace(' ', 'T'));
  const year = +v.slice(0, 4);
  return year < 1 || year > 9998 || (Number.isFinite(ms) && !isTimestampInRange(ms));
}

/** Epoch ms of an RFC 3339 timestamp that carries an offset and lies in years 0001 to 9998, or null. */
export function parseTimestamp(v: unknown): number | null {
  if (typeof v !== 'string' || v.length > 40) return null;
  const m = RFC3339.exec(v);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m;
  if (+y < 1 || +y > 9998) return null;
  if (+mo < 1 || +mo > 12 || +d < 1 || +d > 31 || +h > 23 || +mi > 59 || +s > 59) return null;
  const ms = Date.parse(v.replace(' ', 'T'));
  if (!Number.isFinite(ms) || !isTimestampInRange(ms)) return null;
  // Date.parse rolls 2026-02-31 over to March; reject dates that do not exist.
  const dayCheck = new Date(Date.UTC(+y, +mo - 1, +d));
  if (dayCheck.getUTCDate() !== +d) return null;
  return ms;
}

const DAY_MS = 86_400_000;
const MAX_FAST = 253_402_300_800_000; // 10000-01-01: beyond it toISOString uses an expanded year
const dayPrefix = new Map<number, string>();
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * `2026-03-29T07:00:00Z` (milliseconds only when present). Availability answers format
 * thousands of instants, so the date part is cached per day and the time part is arithmetic.
 */
export function formatTimestamp(v: Date | number | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  const ms = typeof v === 'number' ? v : v.getTime();
  if (!Number.isFinite(ms)) return null;
  if (ms < 0 || ms >= MAX_FAST || !Number.isInteger(ms)) return new Date(ms).toISOString().replace('.000Z', 'Z');
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefix.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    if (dayPrefix.size > 20_000) dayPrefix.clear();
    dayPrefix.set(day, prefix);
  }
  const rest = ms - day * DAY_MS;
  const h = Math.floor(rest / 3_600_000);
  const m = Math.floor((rest % 3_600_000) / 60_000);
  const sec = Math.floor((rest % 60_000) / 1000);
  const milli = rest % 1000;
  return `${prefix}${pad2(h)}:${pad2(m)}:${pad2(sec)}${milli ? `.${String(milli).padStart(3, '0')}` : ''}Z`;
}

const localFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A moment as people read it where it happens: `Tue, 1 Dec 2026, 09:00 (Europe/Riga)`, on the
 * 24-hour clock, for descriptions and pages shown to customers.
 */
export function formatLocalTime(ms: number, timeZone: string): string {
  let f = localFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    if (localFormats.size < 1000) localFormats.set(timeZone, f);
  }
  return `${f.format(ms)} (${timeZone})`;
}
