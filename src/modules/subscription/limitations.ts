import { parseDuration, parseLocalTime } from '../../shared/duration';
import { epochToLocal, weekdayBit } from '../../shared/zone';
import type { Limitations, TimeWindow } from './subscription.entity';

/**
 * Whether a booking fits a subscription contract's terms, in the company's time zone. Pure:
 * the contract's copied terms and the booking's facts in, the first limitation that fails out.
 *
 * - The contract covers bookings that start in `[activeFrom, expiresAt)`.
 * - `serviceIDs` / `resourceIDs`: an empty list allows every service / resource.
 * - `daysOfWeek` is the contract's 7-bit mask (Mon 64 ... Sun 1) of the booking's local start
 *   day; 0 or absent allows every day.
 * - `times` windows are local wall times `HH:MM` (`endTime` may be `24:00`); the booking must lie
 *   wholly inside one window of its start day: `startTime <= start` and `end <= endTime`, so a
 *   booking ending exactly at `endTime` fits and one ending a minute later does not. A window
 *   whose end is not after its start runs past midnight into the next day. Wall times are
 *   compared, so a DST change inside a window moves neither edge.
 * - `maxDuration` (ISO 8601): the booking's length may equal it.
 * - `maxSpotsPerBooking`: the booking's spots may equal it.
 * - `maxTicketsPerBooking` {ticketID: n}: each listed ticket at most n; a ticket not listed is
 *   not limited.
 * The order of the checks is the order of `LIMITATION_ORDER`; the first failure is reported.
 */

/** The terms of a contract a booking is checked against. */
export interface ContractTerms {
  limitations: Limitations | null;
  serviceIds: readonly string[] | null;
  resourceIds: readonly string[] | null;
  /** epoch milliseconds; null = from the beginning */
  activeFrom: number | null;
  /** epoch milliseconds, exclusive; null = never expires */
  expiresAt: number | null;
}

/** What a booking is, as far as limitations care. */
export interface BookingFacts {
  /** epoch milliseconds */
  start: number;
  /** epoch milliseconds, exclusive */
  end: number;
  spots: number;
  /** ticket id -> count, for ticket bookings */
  tickets: Readonly<Record<string, number>> | null;
  serviceId: string;
  resourceId: string;
}

export const LIMITATION_ORDER = [
  'activeFrom',
  'expiresAt',
  'serviceIDs',
  'resourceIDs',
  'daysOfWeek',
  'times',
  'maxDuration',
  'maxSpotsPerBooking',
  'maxTicketsPerBooking',
] as const;

export type LimitationName = (typeof LIMITATION_ORDER)[number] | 'bookingsCount';

export interface LimitationFailure {
  name: LimitationName;
  message: string;
}

const MINUTES_PER_DAY = 1440;

/** Local minutes of `end` counted from the local midnight of `start`'s day (over 1440 on the next day). */
function localEndMinutes(zone: string, start: number, end: number): number {
  const s = epochToLocal(zone, start);
  const e = epochToLocal(zone, end);
  const dayDiff = Math.round((Date.UTC(e.year, e.month - 1, e.day) - Date.UTC(s.year, s.month - 1, s.day)) / 86_400_000);
  return dayDiff * MINUTES_PER_DAY + e.minuteOfDay;
}

/** Whether [start, end) lies inside one of the windows (local wall minutes, see the module comment). */
export function withinTimes(zone: string, windows: readonly TimeWindow[], start: number, end: number): boolean {
  const from = epochToLocal(zone, start).minuteOfDay;
  const to = localEndMinutes(zone, start, end);
  return windows.some((w) => {
    const ws = parseLocalTime(w.startTime);
    let we = parseLocalTime(w.endTime, true);
    if (ws === null || we === null) return false;
    if (we <= ws) we += MINUTES_PER_DAY;
    // The window opened on the booking's day, or (running past midnight) on the day before.
    return (from >= ws && to <= we) || (from >= ws - MINUTES_PER_DAY && to <= we - MINUTES_PER_DAY);
  });
}

/** Whether the booking's local start day is in the mask (0 or absent: any day). */
export function allowedDay(zone: string, mask: number | null | undefined, start: number): boolean {
  if (!mask) return true;
  return (mask & weekdayBit(epochToLocal(zone, start).weekday)) !== 0;
}

/** The first limitation of the contract the booking breaks, or null when the booking fits. */
export function failedLimitation(terms: ContractTerms, booking: BookingFacts, zone: string): LimitationFailure | null {
  const l = terms.limitations ?? {};
  if (terms.activeFrom !== null && booking.start < terms.activeFrom)
    return { name: 'activeFrom', message: 'the subscription contract is not active yet on the booking date' };
  if (terms.expiresAt !== null && booking.start >= terms.expiresAt)
    return { name: 'expiresAt', message: 'the subscription contract has expired by the booking date' };
  if (terms.serviceIds?.length && !terms.serviceIds.includes(booking.serviceId))
    return { name: 'serviceIDs', message: 'the subscription does not cover this service' };
  if (terms.resourceIds?.length && !terms.resourceIds.includes(booking.resourceId))
    return { name: 'resourceIDs', message: 'the subscription does not cover this resource' };
  if (!allowedDay(zone, l.daysOfWeek, booking.start))
    return { name: 'daysOfWeek', message: 'the subscription does not cover bookings on this day of the week' };
  if (l.times?.length && !withinTimes(zone, l.times, booking.start, booking.end))
    return { name: 'times', message: "the booking is outside the subscription's time windows" };
  if (l.maxDuration) {
    const max = parseDuration(l.maxDuration);
    if (max !== null && booking.end - booking.start > max * 1000)
      return { name: 'maxDuration', message: `the booking is longer than the subscription allows (${l.maxDuration})` };
  }
  if (l.maxSpotsPerBooking != null && booking.spots > l.maxSpotsPerBooking)
    return { name: 'maxSpotsPerBooking', message: `the subscription allows at most ${l.maxSpotsPerBooking} spots per booking` };
  if (l.maxTicketsPerBooking && booking.tickets) {
    for (const [ticketId, count] of Object.entries(booking.tickets)) {
      const max = l.maxTicketsPerBooking[ticketId];
      if (max != null && count > max)
        return { name: 'maxTicketsPerBooking', message: `the subscription allows at most ${max} of ticket ${ticketId} per booking` };
    }
  }
  return null;
}
