/**
 * Working hours: which rule governs each local date, and the open instants it yields.
 */
import { wallToInstant, type Calendar } from './calendar';
import { appendInterval, type IntervalSet } from './intervals';
import type { WorkingHoursRuleInput } from './types';

interface CompiledRule {
  readonly priority: number;
  readonly createdAt: number;
  readonly windowStart: number;
  readonly windowEnd: number;
  /** index 1-7 (ISO weekday): merged minute ranges as flat [start, end, start, end, ...] */
  readonly byWeekday: readonly (readonly number[])[];
}

/** Open hours of one resource over a calendar. */
export interface OpenHours {
  /** per-day open ranges in time order: the grid restarts at each of their starts */
  readonly anchors: IntervalSet;
  /** calendar day index of each anchor */
  readonly anchorDay: readonly number[];
  /** all open time, ranges of consecutive days joined (a booking may run past midnight) */
  readonly open: IntervalSet;
  /** 1 when the day's chosen rule has hours on that weekday (days services) */
  readonly openDays: Uint8Array;
}

function mergeMinutes(ranges: { start: number; end: number }[]): number[] {
  const clipped = ranges
    .map((r) => ({ start: Math.max(0, r.start), end: Math.min(1440, r.end) }))
    .filter((r) => r.end > r.start)
    .sort((a, b) => a.start - b.start);
  const flat: number[] = [];
  for (const r of clipped) {
    const n = flat.length;
    // touching ranges (09:00-12:00, 12:00-17:00) form one range so the grid does not restart at noon
    if (n > 0 && r.start <= flat[n - 1]) flat[n - 1] = Math.max(flat[n - 1], r.end);
    else flat.push(r.start, r.end);
  }
  return flat;
}

/** Rules that apply to `serviceID`, best first (highest priority, then newest). */
export function compileRules(rules: readonly WorkingHoursRuleInput[], serviceID: string): CompiledRule[] {
  const out: CompiledRule[] = [];
  for (const rule of rules) {
    if (rule.serviceIDs.length > 0 && !rule.serviceIDs.includes(serviceID)) continue;
    const byWeekday: number[][] = [[]];
    for (let wd = 1; wd <= 7; wd++) {
      const bit = 1 << (7 - wd);
      const ranges: { start: number; end: number }[] = [];
      for (const d of rule.days) if ((d.daysOfWeek & bit) !== 0) ranges.push(...d.hours);
      byWeekday.push(mergeMinutes(ranges));
    }
    out.push({
      priority: rule.priority,
      createdAt: rule.createdAt,
      windowStart: rule.windowStart ?? -Infinity,
      windowEnd: rule.windowEnd ?? Infinity,
      byWeekday,
    });
  }
  return out.sort((a, b) => b.priority - a.priority || b.createdAt - a.createdAt);
}

/** Open hours of a resource on every calendar day. */
export function openHours(cal: Calendar, rules: readonly CompiledRule[]): OpenHours {
  const days = cal.days;
  const anchors: IntervalSet = { starts: [], ends: [] };
  const anchorDay: number[] = [];
  const open: IntervalSet = { starts: [], ends: [] };
  const openDays = new Uint8Array(days.length);
  for (let i = 0; i < days.length; i++) {
    const day = days[i];
    let rule: CompiledRule | null = null;
    // A rule governs a whole date when its window touches any part of it; its hours are then clipped to the window.
    for (const r of rules) {
      if (r.windowStart < day.end && r.windowEnd > day.start) {
        rule = r;
        break;
      }
    }
    if (rule === null) continue;
    const minutes = rule.byWeekday[day.weekday];
    if (minutes.length > 0) openDays[i] = 1;
    for (let k = 0; k < minutes.length; k += 2) {
      const s = Math.max(wallToInstant(day, minutes[k]), rule.windowStart);
      const e = Math.min(wallToInstant(day, minutes[k + 1]), rule.windowEnd);
      if (!(e > s)) continue;
      const n = anchors.ends.length;
      // Ranges of one day can touch once a DST gap swallowed the time between them.
      if (n > 0 && anchorDay[n - 1] === i && s <= anchors.ends[n - 1]) {
        anchors.ends[n - 1] = Math.max(anchors.ends[n - 1], e);
      } else {
        anchors.starts.push(s);
        anchors.ends.push(e);
        anchorDay.push(i);
      }
      appendInterval(open, s, e);
    }
  }
  return { anchors, anchorDay, open, openDays };
}
