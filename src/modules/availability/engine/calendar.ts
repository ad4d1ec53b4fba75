/**
 * Local days of the company zone as plain numbers. The zone helpers are consulted once per day
 * (and a few more times on a day with an offset change); afterwards mapping an instant to its
 * wall-clock minute, or a wall-clock minute to its instant, is integer arithmetic.
 */
import { civilFromDays, daysFromCivil } from '../../../shared/civil-date';
import { epochToLocal, localDate, localToEpoch, parseLocalDate, weekdayBit } from '../../../shared/zone';

const MINUTE = 60_000;

export interface Day {
  readonly index: number;
  /** `YYYY-MM-DD` */
  readonly date: string;
  readonly year: number;
  readonly month: number;
  readonly day: number;
  /** ISO weekday, 1 = Monday */
  readonly weekday: number;
  /** the weekday's bit in the contract mask (Mon 64 ... Sun 1) */
  readonly weekdayBit: number;
  /** first instant of the local date */
  readonly start: number;
  /** first instant of the next local date */
  readonly end: number;
  /** local midnight counted as minutes since 1970-01-01 00:00 wall clock */
  readonly baseMinute: number;
  /** UTC offset in minutes before `shiftAt` and from `shiftAt` on */
  readonly offsetBefore: number;
  readonly offsetAfter: number;
  /** the instant the offset changes within the day; Infinity when it does not */
  readonly shiftAt: number;
}

export interface Calendar {
  readonly zone: string;
  readonly days: readonly Day[];
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** UTC offset in whole minutes at instant `t`. */
function offsetAt(zone: string, t: number): number {
  const p = epochToLocal(zone, t);
  return daysFromCivil(p.year, p.month, p.day) * 1440 + p.minuteOfDay - Math.floor(t / MINUTE);
}

/** Local midnight of day number `n`, guessed from the previous day's offset and verified once. */
function dayStart(zone: string, n: number, previousOffset: number | null): { start: number; offset: number } {
  if (previousOffset !== null) {
    const guess = (n * 1440 - previousOffset) * MINUTE;
    // Offsets change rarely: when the guess still carries the previous offset it is midnight.
    if (offsetAt(zone, guess) === previousOffset) return { start: guess, offset: previousOffset };
  }
  const c = civilFromDays(n);
  const start = localToEpoch(zone, c.year, c.month, c.day, 0);
  return { start, offset: offsetAt(zone, start) };
}

/** The first minute in `[lo, hi]` (minute numbers) whose offset is `after`. */
function findShift(zone: string, lo: number, hi: number, after: number): number {
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(zone, mid * MINUTE) === after) hi = mid;
    else lo = mid + 1;
  }
  return lo * MINUTE;
}

/** `count` consecutive local dates starting at `firstDate` (`YYYY-MM-DD`). */
export function buildCalendar(zone: string, firstDate: string, count: number): Calendar {
  const first = parseLocalDate(firstDate);
  const n0 = daysFromCivil(first.year, first.month, first.day);
  const starts: number[] = [];
  const offsets: number[] = [];
  let previous: number | null = null;
  for (let i = 0; i <= count; i++) {
    const s = dayStart(zone, n0 + i, previous);
    starts.push(s.start);
    offsets.push(s.offset);
    previous = s.offset;
  }
  const days: Day[] = [];
  for (let i = 0; i < count; i++) {
    const n = n0 + i;
    const c = civilFromDays(n);
    const start = starts[i];
    const end = starts[i + 1];
    const before = offsets[i];
    let after = before;
    let shiftAt = Infinity;
    if (offsets[i + 1] !== before) {
      after = offsetAt(zone, end - 1);
      if (after !== before) shiftAt = findShift(zone, Math.floor(start / MINUTE) + 1, Math.floor((end - 1) / MINUTE), after);
    }
    const weekday = ((((n + 3) % 7) + 7) % 7) + 1;
    days.push({
      index: i,
      date: `${pad(c.year, 4)}-${pad(c.month, 2)}-${pad(c.day, 2)}`,
      year: c.year,
      month: c.month,
      day: c.day,
      weekday,
      weekdayBit: weekdayBit(weekday),
      start,
      end,
      baseMinute: n * 1440,
      offsetBefore: before,
      offsetAfter: after,
      shiftAt,
    });
  }
  return { zone, days };
}

/**
 * Calendars already built, by zone, first date and length: a calendar depends on nothing else
 * (the zone rules are fixed for the life of the process) and is never modified, so requests
 * for the same period share one. Bounded; the oldest is dropped first.
 */
const built = new Map<string, Calendar>();
const MAX_BUILT = 256;
/** Per zone, the calendars built last: they answer "which local date holds this instant" without the zone helpers. */
const recentByZone = new Map<string, Calendar[]>();
const RECENT_PER_ZONE = 8;

/** Builds, or returns the calendar already built for, `count` dates from `firstDate` in `zone`. */
export function cachedCalendar(zone: string, firstDate: string, count: number): Calendar {
  const key = `${zone}|${firstDate}|${count}`;
  let cal = built.get(key);
  if (cal === undefined) {
    cal = buildCalendar(zone, firstDate, count);
    if (built.size >= MAX_BUILT) built.delete(built.keys().next().value!);
    built.set(key, cal);
    const recent = recentByZone.get(zone) ?? [];
    recent.unshift(cal);
    if (recent.length > RECENT_PER_ZONE) recent.pop();
    recentByZone.set(zone, recent);
  }
  return cal;
}

/** Local day number (days since 1970-01-01) of instant `t` in `zone`. */
function localDayNumber(zone: string, t: number): number {
  for (const cal of recentByZone.get(zone) ?? []) {
    const i = dayIndexAt(cal, t);
    if (i >= 0) return cal.days[i].baseMinute / 1440;
  }
  const d = parseLocalDate(localDate(zone, t));
  return daysFromCivil(d.year, d.month, d.day);
}

/** The calendar covering the local dates of `[from, to)` plus `extraDays` after them. */
export function calendarFor(zone: string, from: number, to: number, extraDays: number, maxDays: number): Calendar {
  const first = localDayNumber(zone, from);
  const span = localDayNumber(zone, Math.max(from, to - 1)) - first + 1;
  const count = Math.min(maxDays, span + Math.max(0, extraDays));
  const c = civilFromDays(first);
  return cachedCalendar(zone, `${pad(c.year, 4)}-${pad(c.month, 2)}-${pad(c.day, 2)}`, count);
}

/** Wall-clock minutes since local midnight of an instant of `day`. */
export function minuteOfDay(day: Day, t: number): number {
  // floor division by hand: this runs per candidate. Math.floor is not inlined in sandboxed
  // contexts such as the test runner's vm (measured 6x slower there), and `%` on a double is a
  // call to fmod (a quarter of the engine's time). From 1970 to the year 6053 the quotient
  // truncates to an int32; it can only have rounded up onto the next whole minute.
  const q = t / MINUTE;
  let minute: number;
  if (q >= 0 && q < 2_147_483_648) {
    minute = q | 0;
    if (minute * MINUTE > t) minute--;
  } else {
    const r = t % MINUTE;
    minute = (t - r) / MINUTE - (r < 0 ? 1 : 0);
  }
  return minute + (t < day.shiftAt ? day.offsetBefore : day.offsetAfter) - day.baseMinute;
}

/**
 * The instant of wall-clock `minute` (0-1440) on `day`. An ambiguous time (fall-back) is the
 * earlier instant, as in the zone helpers. A time that does not exist (spring-forward gap) is
 * the first instant after the gap, so a range of hours loses exactly its missing wall times.
 */
export function wallToInstant(day: Day, minute: number): number {
  if (minute >= 1440) return day.end;
  const a = (day.baseMinute + minute - day.offsetBefore) * MINUTE;
  if (a < day.start) return day.start;
  if (a < day.shiftAt) return a;
  const b = (day.baseMinute + minute - day.offsetAfter) * MINUTE;
  if (b >= day.shiftAt && b < day.end) return b;
  return b >= day.end ? day.end : day.shiftAt;
}

/** Index of the day containing `t`, or -1 outside the calendar. */
export function dayIndexAt(cal: Calendar, t: number): number {
  const days = cal.days;
  let lo = 0;
  let hi = days.length - 1;
  if (hi < 0 || t < days[0].start || t >= days[hi].end) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (days[mid].start <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
