import { DateTime, IANAZone } from 'luxon';

/**
 * Time zone conversions at the edges of the system. Everything inside works on epoch
 * milliseconds; these helpers turn local wall times of an IANA zone into instants and back,
 * independent of the process `TZ`.
 */

const validity = new Map<string, boolean>();

/** True when `zone` is a real IANA zone name (e.g. `Europe/Riga`). */
export function isValidZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone.length === 0 || zone.length > 64) return false;
  let ok = validity.get(zone);
  if (ok === undefined) {
    // IANAZone accepts fixed offsets like "UTC+3" too; a company zone must be a named zone.
    ok = IANAZone.isValidZone(zone) && /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(zone);
    validity.set(zone, ok);
  }
  return ok;
}

export interface LocalParts {
  year: number;
  month: number; // 1-12
  day: number; // 1-31
  /** ISO weekday, 1 = Monday ... 7 = Sunday */
  weekday: number;
  /** minutes since local midnight, 0-1439 */
  minuteOfDay: number;
}

/**
 * The instant of a local wall time. `minuteOfDay` may be 1440 (the next day's midnight).
 * A wall time inside a spring-forward gap is moved forward by the gap (02:30 -> 03:30 in
 * Europe/Riga); an ambiguous one in a fall-back overlap resolves to the earlier instant.
 */
export function localToEpoch(zone: string, year: number, month: number, day: number, minuteOfDay: number): number {
  const base = DateTime.fromObject({ year, month, day }, { zone });
  if (!base.isValid) throw new RangeError(`invalid local date ${year}-${month}-${day} in ${zone}`);
  if (minuteOfDay === 0) return base.toMillis();
  const dayOffset = Math.floor(minuteOfDay / 1440);
  const rest = minuteOfDay - dayOffset * 1440;
  const target = base.plus({ days: dayOffset }).set({ hour: Math.floor(rest / 60), minute: rest % 60 });
  return target.toMillis();
}

/** Local calendar parts of an instant in `zone`. */
export function epochToLocal(zone: string, ms: number): LocalParts {
  const dt = DateTime.fromMillis(ms, { zone });
  return { year: dt.year, month: dt.month, day: dt.day, weekday: dt.weekday, minuteOfDay: dt.hour * 60 + dt.minute };
}

/** `YYYY-MM-DD` of an instant in `zone`. */
export function localDate(zone: string, ms: number): string {
  return DateTime.fromMillis(ms, { zone }).toFormat('yyyy-MM-dd');
}

/** Parses `YYYY-MM-DD` into parts; throws RangeError on a bad date. */
export function parseLocalDate(date: string): { year: number; month: number; day: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new RangeError(`invalid date ${date}`);
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const check = DateTime.fromObject({ year, month, day }, { zone: 'UTC' });
  if (!check.isValid) throw new RangeError(`invalid date ${date}`);
  return { year, month, day };
}

/** Adds whole calendar days to a `YYYY-MM-DD` date. */
export function addDays(date: string, days: number): string {
  const { year, month, day } = parseLocalDate(date);
  return DateTime.fromObject({ year, month, day }, { zone: 'UTC' }).plus({ days }).toFormat('yyyy-MM-dd');
}

/** The instant of local midnight starting `date` in `zone`. */
export function startOfLocalDay(zone: string, date: string): number {
  const { year, month, day } = parseLocalDate(date);
  return localToEpoch(zone, year, month, day, 0);
}

/** ISO weekday (1 = Monday) of a `YYYY-MM-DD` date. */
export function weekdayOf(date: string): number {
  const { year, month, day } = parseLocalDate(date);
  return DateTime.fromObject({ year, month, day }, { zone: 'UTC' }).weekday;
}

/**
 * Bit of a weekday in the contract's 7-bit `daysOfWeek` mask, Monday being the high bit:
 * Mon 64, Tue 32, Wed 16, Thu 8, Fri 4, Sat 2, Sun 1.
 */
export function weekdayBit(isoWeekday: number): number {
  return 1 << (7 - isoWeekday);
}
