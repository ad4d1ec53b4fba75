/**
 * Bounds of a limitation's date range. A bound is either a company-local calendar date
 * (`YYYY-MM-DD`) or an instant (RFC 3339 with an offset). Parsing is done with integer
 * arithmetic and `Date.UTC` only, so the result never depends on the process time zone.
 */

export type DateBound =
  /** a whole local day of the company */
  | { kind: 'date'; date: string }
  /**
   * an exact instant; `writtenDate` is the calendar date as written (in the bound's own
   * offset), used only to sanity-check ranges that mix the two kinds
   */
  | { kind: 'instant'; ms: number; writtenDate: string; rfc3339: boolean }
  /** a wall time without offset; only tolerated from storage, resolved in the company zone */
  | { kind: 'local'; date: string; year: number; month: number; day: number; minuteOfDay: number; ms: number };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const STAMP = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})?$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function validDate(year: number, month: number, day: number): boolean {
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Epoch ms of a UTC wall time; `Date.UTC` alone maps years 0-99 to 1900-1999. */
function utcMs(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number): number {
  const t = Date.UTC(2000, month - 1, day, hour, minute, second, ms);
  const d = new Date(t);
  d.setUTCFullYear(year);
  return d.getTime();
}

/** Parses one bound; null when it is neither a valid date nor a valid timestamp. */
export function parseDateBound(text: unknown): DateBound | null {
  if (typeof text !== 'string' || text.length > 40) return null;
  const d = DATE.exec(text);
  if (d) {
    return validDate(Number(d[1]), Number(d[2]), Number(d[3])) ? { kind: 'date', date: text } : null;
  }
  const m = STAMP.exec(text);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  // Sub-millisecond digits cannot be represented in epoch ms; they are truncated.
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(1, 4).padEnd(3, '0'));
  if (!validDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  const date = text.slice(0, 10);
  const offset = m[8];
  if (offset === undefined) {
    const minuteOfDay = hour * 60 + minute;
    return { kind: 'local', date, year, month, day, minuteOfDay, ms: second * 1000 + millis };
  }
  let offsetMin = 0;
  if (offset !== 'Z' && offset !== 'z') {
    const oh = Number(offset.slice(1, 3));
    const om = Number(offset.slice(4, 6));
    if (oh > 23 || om > 59) return null;
    offsetMin = (oh * 60 + om) * (offset[0] === '-' ? -1 : 1);
  }
  const ms = utcMs(year, month, day, hour, minute, second, millis) - offsetMin * 60_000;
  return { kind: 'instant', ms, writtenDate: date, rfc3339: m[6] !== undefined };
}

/** RFC 3339 in UTC with `Z`, as responses render timestamps (milliseconds only when present). */
export function formatInstant(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}
