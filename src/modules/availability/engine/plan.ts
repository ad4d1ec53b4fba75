/**
 * The request resolved against the service once: bounds, lengths and requested spots that every
 * resource pass reads.
 */
import type { ServiceType } from '../../../shared/service-type';
import { calendarFor, type Calendar } from './calendar';
import { MAX_CALENDAR_DAYS } from './limits';
import type { Mode } from './resource';
import type { AvailabilityRequest, AvailabilitySnapshot } from './types';

const DAY_SEC = 86_400;

export interface Plan {
  readonly snapshot: AvailabilitySnapshot;
  readonly mode: Mode;
  readonly cal: Calendar;
  /** candidates start in [lo, hi): the request range, cut by `now` and the booking horizon */
  readonly lo: number;
  readonly hi: number;
  readonly bufferBeforeMs: number;
  readonly bufferAfterMs: number;
  /** the requested length (flexible, sharable), or null */
  readonly requestedSec: number | null;
  /** days services: nights of the stay */
  readonly nights: number;
  /** spots one booking takes: group `spots`, ticket the sum of tickets (at least 1) */
  readonly spotsNeeded: number;
  readonly spotsQuoted: number;
  /** ticket services: requested ticket ids and counts, parallel arrays */
  readonly ticketIDs: readonly string[];
  readonly ticketCounts: readonly number[];
  readonly tickets: Readonly<Record<string, number>>;
}

export function modeOf(type: ServiceType): Mode {
  if (type === 'group' || type === 'ticket') return 'slots';
  if (type === 'days') return 'stays';
  return 'grid';
}

/** `n` when it is a positive, finite number, else null. */
export function positive(n: number | null | undefined): number | null {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : null;
}

/** Null when nothing can be available (empty range after `now` and the horizon). */
export function makePlan(snapshot: AvailabilitySnapshot, request: AvailabilityRequest): Plan | null {
  const service = snapshot.service;
  const mode = modeOf(service.type);
  const lo = request.includePast ? request.from : Math.max(request.from, snapshot.now);
  const period = positive(service.availabilityPeriodSec);
  // the horizon holds for admins too: includePast only lifts the lower bound
  const hi = Math.min(request.to, period === null ? Infinity : snapshot.now + period * 1000);
  if (!(hi > lo) || !Number.isFinite(lo)) return null;

  const requestedSec = positive(request.durationSec);
  const nights = mode === 'stays' ? Math.max(1, Math.floor((requestedSec ?? DAY_SEC) / DAY_SEC)) : 0;

  const tickets: Record<string, number> = {};
  const ticketIDs: string[] = [];
  const ticketCounts: number[] = [];
  let ticketSum = 0;
  for (const [id, count] of Object.entries(request.tickets ?? {})) {
    if (!(count > 0)) continue;
    tickets[id] = count;
    ticketIDs.push(id);
    ticketCounts.push(count);
    ticketSum += count;
  }
  let spotsQuoted = 1;
  if (service.type === 'group') spotsQuoted = Math.max(1, Math.floor(positive(request.spots) ?? 1));
  if (service.type === 'ticket') spotsQuoted = ticketSum;

  let extraDays = 1;
  if (mode === 'stays') extraDays = nights + 1;
  if (mode === 'grid') {
    const longest = Math.max(requestedSec ?? 0, service.durationSec || 0, service.timeIntervalSec || 0);
    extraDays = Math.ceil(longest / DAY_SEC) + 1;
  }
  const cal = calendarFor(snapshot.zone, lo, hi, extraDays, MAX_CALENDAR_DAYS);

  return {
    snapshot,
    mode,
    cal,
    lo,
    hi,
    bufferBeforeMs: Math.max(0, service.bufferBeforeSec || 0) * 1000,
    bufferAfterMs: Math.max(0, service.bufferAfterSec || 0) * 1000,
    requestedSec,
    nights,
    // listing ticket times without tickets asks for a slot with at least one spot left
    spotsNeeded: Math.max(1, spotsQuoted),
    spotsQuoted,
    ticketIDs,
    ticketCounts,
    tickets,
  };
}
