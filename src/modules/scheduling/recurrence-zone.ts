import { IANAZone } from 'luxon';
import { localToEpoch } from '../../shared/zone';
import { daysFromCivil } from '../../shared/civil-date';

/**
 * Floating wall-time arithmetic for recurrences. A wall time is carried as UTC-based milliseconds
 * (09:00 local is 09:00Z), so the calendar helpers below never depend on the process `TZ`; only
 * `wallOf` and `wallToInstant` consult the rules of a zone.
 */

export const DAY = 86_400_000;
/** Instants are clamped to years 1..9999, all that rrule can represent. */
const MS_MIN = -62_135_596_800_000;
const MS_MAX = 253_402_300_800_000;

export function mod(a: number, b: number): number {
  return ((a % b) + b) % b;
}

export function wallMs(y: number, mo: number, d: number, h: number, mi: number, s: number): number | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const day = daysFromCivil(y, mo, d);
  if (new Date(day * DAY).getUTCDate() !== d) return null;
  return day * DAY + ((h * 60 + mi) * 60 + s) * 1000;
}

export function weekdayOfDay(day: number): number {
  return mod(day + 3, 7); // 1970-01-01 was a Thursday
}

export function yearOfDay(day: number): number {
  return new Date(day * DAY).getUTCFullYear();
}

export function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function wallOf(zone: string, ms: number): number {
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
export function wallToInstant(zone: string, wall: number): number {
  const day = Math.floor(wall / DAY);
  const offset = offsetAtDay(zone, day - 1);
  if (offset === offsetAtDay(zone, day + 2)) return wall - offset;
  const d = new Date(wall);
  const minute = d.getUTCHours() * 60 + d.getUTCMinutes();
  return localToEpoch(zone, d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), minute) + mod(wall, 60_000);
}

export function clampMs(ms: number): number {
  if (Number.isNaN(ms)) throw new RangeError('instant must be a number');
  return Math.max(MS_MIN, Math.min(MS_MAX, ms));
}
