/**
 * Days services: one candidate stay per local date, from check-in on that date to check-out
 * `nights` dates later.
 */
import type { MatchContext } from '../../pricing/engine/types';
import { minuteOfDay, wallToInstant } from './calendar';
import type { Collector } from './collect';
import { DEFAULT_CHECK_IN_MINUTE, DEFAULT_CHECK_OUT_MINUTE } from './limits';
import type { Plan } from './plan';
import type { Probe, RelatedGate } from './resource';

export function scanStays(plan: Plan, self: Probe, gate: RelatedGate | null, out: Collector, ctx: MatchContext): void {
  const service = plan.snapshot.service;
  const days = plan.cal.days;
  const { lo, hi, nights, bufferBeforeMs, bufferAfterMs } = plan;
  const checkIn = service.checkInMinute ?? DEFAULT_CHECK_IN_MINUTE;
  const checkOut = service.checkOutMinute ?? DEFAULT_CHECK_OUT_MINUTE;
  const durationSec = nights * 86_400;
  for (let di = 0; di + nights < days.length; di++) {
    const day = days[di];
    const t = wallToInstant(day, checkIn);
    if (t < lo) continue;
    if (t >= hi) return;
    const end = wallToInstant(days[di + nights], checkOut);
    if (!(end > t)) continue;
    const bufLo = t - bufferBeforeMs;
    const bufHi = end + bufferAfterMs;
    // a stay needs every night's date open, but not the check-out date
    if (!self.stayFree(t, end, bufLo, bufHi, di, nights)) continue;
    if (gate !== null && !gate.admits(t, end, bufLo, bufHi, di, nights)) continue;
    ctx.instant = t;
    ctx.date = day.date;
    ctx.weekday = day.weekday;
    ctx.minuteOfDay = minuteOfDay(day, t);
    out.add(ctx, day, durationSec, end);
  }
}
