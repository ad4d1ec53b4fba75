/**
 * Slot services (group, ticket): candidates are the slot occurrences; capacity decides.
 */
import type { MatchContext } from '../../pricing/engine/types';
import { minuteOfDay } from './calendar';
import type { Collector } from './collect';
import { MAX_CANDIDATES_PER_RESOURCE } from './limits';
import type { Plan } from './plan';
import type { Probe, RelatedGate } from './resource';
import type { CapacityRuleInput, SlotOccurrence } from './types';

/** The service's capacity rules of its own type, best first (highest priority, then newest). */
export function sortCapacityRules(rules: readonly CapacityRuleInput[], type: string): CapacityRuleInput[] {
  return rules.filter((r) => r.type === type).sort((a, b) => b.priority - a.priority || b.createdAt - a.createdAt);
}

/** `occurrences` must be this resource's, sorted by start. */
export function scanSlots(
  plan: Plan,
  self: Probe,
  gate: RelatedGate | null,
  occurrences: readonly SlotOccurrence[],
  rules: readonly CapacityRuleInput[],
  out: Collector,
  ctx: MatchContext,
): void {
  const days = plan.cal.days;
  const isTicket = plan.snapshot.service.type === 'ticket';
  const { lo, hi, bufferBeforeMs, bufferAfterMs, spotsNeeded, ticketIDs, ticketCounts } = plan;
  let di = 0;
  let generated = 0;
  for (const occ of occurrences) {
    const t = occ.start;
    if (t < lo) continue;
    if (t >= hi || ++generated > MAX_CANDIDATES_PER_RESOURCE) return;
    const durMs = occ.durationSec * 1000;
    if (!(durMs > 0)) continue; // a zero-length slot holds nobody
    const end = t + durMs;
    const bufLo = t - bufferBeforeMs;
    const bufHi = end + bufferAfterMs;
    // closings remove an occurrence they touch; working hours never apply to slots; other services'
    // bookings on the resource (in `occupied`) exclude it like any booking would
    if (!self.slotFree(t, end, bufLo, bufHi)) continue;
    if (gate !== null && !gate.admits(t, end, bufLo, bufHi, 0, 0)) continue;
    while (di < days.length && days[di].end <= t) di++;
    if (di >= days.length) return;
    const day = days[di];
    ctx.instant = t;
    ctx.date = day.date;
    ctx.weekday = day.weekday;
    ctx.minuteOfDay = minuteOfDay(day, t);
    let rule: CapacityRuleInput | null = null;
    for (const r of rules) {
      if (r.matches === null || r.matches(ctx)) {
        rule = r;
        break;
      }
    }
    if (rule === null) continue; // without a capacity rule a slot is not bookable
    const booked = occ.bookedSpots || 0;
    if (rule.spots - booked < spotsNeeded) continue;
    if (isTicket) {
      let fits = true;
      for (let i = 0; i < ticketIDs.length && fits; i++) {
        const limit = rule.spotsPerTicket[ticketIDs[i]];
        if (limit !== undefined && (occ.bookedSpotsPerTicket[ticketIDs[i]] ?? 0) + ticketCounts[i] > limit) fits = false;
      }
      if (!fits) continue;
      out.addSlot(ctx, day, occ.durationSec, rule.spots, booked, occ.bookedSpotsPerTicket ?? {}, rule.spotsPerTicket ?? {});
    } else {
      out.addSlot(ctx, day, occ.durationSec, rule.spots, booked, null, null);
    }
  }
}
