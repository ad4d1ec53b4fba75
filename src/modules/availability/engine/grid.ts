/**
 * Grid services (fixed, flexible, sharable): candidate starts stepped from the start of each
 * day's open range, tested against open time, closings, occupancy and related resources.
 */
import type { MatchContext, PricingStep } from '../../pricing/engine/types';
import { minuteOfDay } from './calendar';
import type { Collector } from './collect';
import { MAX_CANDIDATES_PER_RESOURCE, MIN_STEP_MS } from './limits';
import type { Plan } from './plan';
import type { Probe, RelatedGate } from './resource';

function stepMs(sec: number | null | undefined): number {
  return typeof sec === 'number' && sec > 0 ? Math.max(sec * 1000, MIN_STEP_MS) : 0;
}

/**
 * Offer only a length a booking may take: whole steps of the price rule in force, within its
 * bounds; no step, no bookable length (the contract's rule, checked again when booking).
 */
function lengthFits(sec: number, ps: PricingStep | null): boolean {
  if (ps === null || !(ps.durationSec > 0) || sec % ps.durationSec !== 0) return false;
  return (ps.minDurationSec === null || sec >= ps.minDurationSec) && (ps.maxDurationSec === null || sec <= ps.maxDurationSec);
}

export function scanGrid(plan: Plan, self: Probe, gate: RelatedGate | null, out: Collector, ctx: MatchContext): void {
  const hours = self.resource.hours;
  if (hours === null) return;
  const service = plan.snapshot.service;
  const pricer = plan.snapshot.pricer;
  const type = service.type;
  const days = plan.cal.days;
  const { lo, hi, bufferBeforeMs, bufferAfterMs } = plan;
  const starts = hours.anchors.starts;
  const ends = hours.anchors.ends;
  const anchorDay = hours.anchorDay;

  const serviceMs = service.durationSec > 0 ? service.durationSec * 1000 : 0;
  const intervalMs = stepMs(service.timeIntervalSec);
  const requestedMs = plan.requestedSec === null ? 0 : plan.requestedSec * 1000;
  const flexibleMs = requestedMs || serviceMs;
  if (type === 'fixed' && serviceMs === 0) return; // nothing to book in zero time
  if (type === 'flexible' && flexibleMs === 0) return;
  // a constant step lets the first candidate at or after `lo` be computed instead of walked to
  let constantStep = intervalMs;
  if (type === 'fixed' && constantStep === 0) constantStep = Math.max(serviceMs, MIN_STEP_MS);

  let generated = 0;
  for (let k = 0; k < starts.length; k++) {
    const rangeEnd = ends[k];
    if (rangeEnd <= lo) continue;
    if (starts[k] >= hi) return;
    const day = days[anchorDay[k]];
    ctx.date = day.date;
    ctx.weekday = day.weekday;
    // the grid hangs on the working-hours range itself: closings and bookings cut candidates, never shift them
    let t = starts[k];
    if (constantStep > 0 && t < lo) t += Math.ceil((lo - t) / constantStep) * constantStep;
    while (t < rangeEnd) {
      if (t >= hi || ++generated > MAX_CANDIDATES_PER_RESOURCE) return;
      ctx.instant = t;
      let len: number;
      let step: number;
      let valid = t >= lo;
      // the minute is for the pricer: for a fixed service the collector sets it when it asks for a quote
      if (type !== 'fixed') ctx.minuteOfDay = minuteOfDay(day, t);
      if (type === 'flexible') {
        len = flexibleMs;
        const ps = intervalMs > 0 && !valid ? null : pricer.step(ctx);
        const unitMs = ps !== null && ps.durationSec > 0 ? ps.durationSec * 1000 : 0;
        step = intervalMs || Math.max(unitMs || serviceMs || len, MIN_STEP_MS);
        if (valid) valid = lengthFits(len / 1000, ps);
      } else if (type === 'sharable') {
        // an open-ended rental needs the resource free for at least one billable step
        const ps = intervalMs > 0 && !valid ? null : pricer.step(ctx);
        const unitMs = (ps !== null && ps.durationSec > 0 ? ps.durationSec * 1000 : 0) || intervalMs || serviceMs;
        len = requestedMs || unitMs;
        step = intervalMs || Math.max(unitMs, MIN_STEP_MS);
      } else {
        len = serviceMs;
        step = constantStep;
      }
      if (valid && len > 0) {
        const end = t + len;
        // `occupied` already carries the other bookings' buffers; only this booking's are added
        const bufLo = t - bufferBeforeMs;
        const bufHi = end + bufferAfterMs;
        if (self.gridFree(t, end, bufLo, bufHi) && (gate === null || gate.admits(t, end, bufLo, bufHi, 0, 0))) {
          out.add(ctx, day, len / 1000);
        }
      }
      t += step;
    }
  }
}
