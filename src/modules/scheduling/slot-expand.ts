import { DateTime } from 'luxon';
import { localToEpoch } from '../../shared/zone';
import { expandOccurrences, type SeriesSpec } from './recurrence';

/**
 * Pure expansion of stored slots into occurrences. Works on epoch milliseconds; the series'
 * own time zone drives the wall clock, never the process `TZ`.
 */

/** A slot as the expansion needs it (from an entity or a raw row). */
export interface SlotSeries {
  id: string;
  resourceId: string | null;
  start: number;
  durationSec: number;
  rrule: string | null;
  timeZone: string | null;
  until: number | null;
  exdates: readonly number[];
}

/** The longest slot we accept; also the margin a range query looks back by. */
export const MAX_SLOT_DURATION_SEC = 31 * 86_400;

export function seriesSpec(s: SlotSeries): SeriesSpec {
  return { rrule: s.rrule!, timeZone: s.timeZone!, until: s.until, start: s.start, exdates: s.exdates };
}

/**
 * Starts of the occurrences of `slot` overlapping `[from, to)` (an occurrence runs for its
 * duration), ascending, at most `limit`. An unbounded rule is only iterated over the window.
 */
export function occurrenceStarts(slot: SlotSeries, from: number, to: number, limit: number): number[] {
  const durMs = slot.durationSec * 1000;
  if (!slot.rrule) return slot.start < to && slot.start + durMs > from && limit > 0 ? [slot.start] : [];
  return expandOccurrences(seriesSpec(slot), { from: from - durMs + 1, to }, limit);
}

/** Wall-clock milliseconds (local time written as if it were UTC) of an instant in `zone`. */
function wallOf(zone: string, ms: number): number {
  return ms + DateTime.fromMillis(ms, { zone }).offset * 60_000;
}

function instantOfWall(zone: string, wall: number): number {
  const d = new Date(wall);
  const rest = wall - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes());
  return localToEpoch(zone, d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours() * 60 + d.getUTCMinutes()) + rest;
}

/**
 * Moves excluded occurrences along with a series whose start moves from `from` to `to`: each
 * keeps its distance in local wall time (moving a 09:00 class to 10:00 moves an excluded
 * 09:00 date to 10:00 that day, whatever the DST offset of that date).
 */
export function shiftExdates(zone: string, exdates: readonly number[], from: number, to: number): number[] {
  if (from === to) return [...exdates];
  const delta = wallOf(zone, to) - wallOf(zone, from);
  return exdates.map((t) => instantOfWall(zone, wallOf(zone, t) + delta));
}
