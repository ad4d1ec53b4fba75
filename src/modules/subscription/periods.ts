import { DateTime, Duration } from 'luxon';
import { RRule } from 'rrule';
import { parseDuration } from '../../shared/duration';
import type { RecurringInterval, RollOverSettings } from './subscription.entity';

/**
 * The periods of a subscription contract, in the company's time zone. Visits are granted per
 * period (`limitations.bookingsCount` each), and a booking uses a visit of the period its
 * start falls in.
 *
 * A contract runs over `[start, end)` (`activeFrom`, `expiresAt`; no end = open-ended). Its
 * period boundaries come from, in this order:
 * - `rRule` (iCalendar RRULE, evaluated by the `rrule` package on local wall times with the
 *   contract's start as DTSTART): every occurrence after the start begins a new period;
 * - `recurringInterval` x `recurringIntervalCount` (`day`, `week`, `month`, `year`): periods
 *   begin at the start's local wall time plus whole calendar units, each counted from the start
 *   (Jan 31 + 1 month = Feb 28, + 2 months = Mar 31), so a DST change moves no boundary's wall
 *   time;
 * - `duration` (ISO 8601): periods of that length, calendar units counted in the zone from the
 *   start (P1M from Jan 31: Feb 28, then Mar 31);
 * - otherwise one period, the whole contract.
 * The last period is cut at the contract's end.
 */

export interface PeriodPlan {
  /** epoch milliseconds: the contract's activeFrom */
  start: number;
  /** epoch milliseconds, exclusive; null = open-ended */
  end: number | null;
  rRule?: string | null;
  recurringInterval?: RecurringInterval | null;
  recurringIntervalCount?: number | null;
  duration?: string | null;
}

export interface Period {
  /** 0 for the contract's first period */
  index: number;
  start: number;
  /** exclusive; null for the open-ended last period of a contract without periods and end */
  end: number | null;
}

/** Guards against plans that would need unbounded work (a minutely rule over centuries). */
export const MAX_PERIOD_STEPS = 100_000;

const UNIT: Record<RecurringInterval, 'days' | 'weeks' | 'months' | 'years'> = {
  day: 'days',
  week: 'weeks',
  month: 'months',
  year: 'years',
};
const APPROX_MS: Record<RecurringInterval, number> = {
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 28 * 86_400_000,
  year: 365 * 86_400_000,
};

/** Floating wall time (local clock reading as if it were UTC) of an instant in `zone`, and back. */
const toWall = (zone: string, ms: number) => {
  const dt = DateTime.fromMillis(ms, { zone });
  return Date.UTC(dt.year, dt.month - 1, dt.day, dt.hour, dt.minute, dt.second);
};
const fromWall = (zone: string, wall: number) => {
  const d = new Date(wall);
  return DateTime.fromObject(
    {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
    },
    { zone },
  ).toMillis();
};

/** A boundary function: the start of period k (k >= 0), or null when there is none. */
type Boundary = (k: number) => number | null;

function boundaries(plan: PeriodPlan, zone: string): { at: Boundary; estimate: (ms: number) => number } | null {
  const count = Math.max(1, plan.recurringIntervalCount ?? 1);
  if (plan.rRule) {
    const rule = rruleOf(plan.rRule, toWall(zone, plan.start));
    // Occurrences strictly after the start begin periods 1, 2, ...
    const cache: number[] = [plan.start];
    return {
      at: (k) => {
        while (cache.length <= k) {
          if (cache.length > MAX_PERIOD_STEPS) return null;
          const next = rule.after(new Date(toWall(zone, cache[cache.length - 1])), false);
          if (!next) return null;
          cache.push(fromWall(zone, next.getTime()));
        }
        return cache[k];
      },
      estimate: () => 0,
    };
  }
  if (plan.recurringInterval) {
    const unit = UNIT[plan.recurringInterval];
    const base = DateTime.fromMillis(plan.start, { zone });
    return {
      at: (k) => base.plus({ [unit]: k * count }).toMillis(),
      estimate: (ms) => Math.max(0, Math.floor((ms - plan.start) / (APPROX_MS[plan.recurringInterval!] * count)) - 2),
    };
  }
  const seconds = plan.duration ? parseDuration(plan.duration) : null;
  if (seconds) {
    const step = Duration.fromISO(plan.duration!);
    const base = DateTime.fromMillis(plan.start, { zone });
    return {
      at: (k) => base.plus(step.mapUnits((x) => x * k)).toMillis(),
      estimate: (ms) => Math.max(0, Math.floor((ms - plan.start) / (seconds * 1000)) - 2),
    };
  }
  return null;
}

/** An RRULE text evaluated from `dtstartWall` (floating wall time). Throws on a malformed rule. */
export function rruleOf(text: string, dtstartWall: number): RRule {
  const options = RRule.parseString(text.replace(/^RRULE:/i, ''));
  return new RRule({ ...options, dtstart: new Date(dtstartWall), tzid: null });
}

const cut = (plan: PeriodPlan, end: number | null): number | null =>
  plan.end === null ? end : end === null ? plan.end : Math.min(end, plan.end);

/** The period `at` falls in, or null when `at` is outside the contract. */
export function periodAt(plan: PeriodPlan, zone: string, at: number): Period | null {
  if (at < plan.start || (plan.end !== null && at >= plan.end)) return null;
  const b = boundaries(plan, zone);
  if (!b) return { index: 0, start: plan.start, end: plan.end };
  let k = b.estimate(at);
  for (let steps = 0; steps < MAX_PERIOD_STEPS; steps++, k++) {
    const start = b.at(k);
    if (start === null) return null;
    const next = b.at(k + 1);
    if (start <= at && (next === null || at < next)) return { index: k, start, end: cut(plan, next) };
    if (start > at) return null;
  }
  return null;
}

/** The period after `period`, or null when the contract ends first. */
export function nextPeriod(plan: PeriodPlan, zone: string, period: Period): Period | null {
  if (period.end === null || (plan.end !== null && period.end >= plan.end)) return null;
  return periodAt(plan, zone, period.end);
}

/** Whether the plan's rRule can be evaluated (a malformed rule or one without occurrences is refused). */
export function isUsableRRule(text: string): boolean {
  try {
    const rule = rruleOf(text, Date.UTC(2026, 0, 1));
    return rule.after(new Date(Date.UTC(2026, 0, 1)), false) !== null;
  } catch {
    return false;
  }
}

/**
 * How many of a period's `unused` visits carry into the next period: `none` none, `all` all,
 * `capped` at most `settings.maxVisits` (0 when it is not set). Never negative.
 */
export function rolloverVisits(settings: RollOverSettings | null | undefined, unused: number): number {
  if (!settings || unused <= 0) return 0;
  switch (settings.rollOverType) {
    case 'all':
      return unused;
    case 'capped':
      return Math.max(0, Math.min(unused, settings.settings?.maxVisits ?? 0));
    default:
      return 0;
  }
}
