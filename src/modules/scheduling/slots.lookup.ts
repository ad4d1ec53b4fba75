import type { Ctx } from '../../kernel/context';
import { Slot } from './scheduling.entity';
import { DEFAULT_OCCURRENCE_LIMIT } from './recurrence';
import { occurrenceStarts } from './slot-expand';
import { seriesOf } from './slot.input';
import { slotRangeWhere } from './slot-schedule.service';

export interface SlotOccurrenceRow {
  slotId: string;
  resourceID: string;
  /** epoch ms */
  start: number;
  durationSec: number;
}

/**
 * Occurrences of a service's slots on `resourceIds` overlapping `[from, to)`, sorted by start
 * then resource, for the availability service: ONE query, then pure expansion. A slot without
 * a resource yields an occurrence on every id of `resourceIds`, which the caller passes as the
 * resources linked to the service. Two slots starting at the same time on one resource give one
 * occurrence (the resource's own slot wins). Access to the company must have been checked already.
 */
export async function loadSlotOccurrences(
  ctx: Ctx,
  companyId: string,
  serviceId: string,
  resourceIds: readonly string[],
  from: number,
  to: number,
): Promise<SlotOccurrenceRow[]> {
  if (resourceIds.length === 0 || !(from < to)) return [];
  const wanted = new Set(resourceIds);
  const slots = await ctx.em.find(Slot, {
    ...slotRangeWhere(companyId, [serviceId], from, to),
    $and: [{ $or: [{ resourceId: null }, { resourceId: { $in: [...wanted] } }] }],
  });
  // Slots of one resource first: where a shared slot starts at the same time, the resource's own wins.
  slots.sort((a, b) => Number(a.resourceId === null) - Number(b.resourceId === null) || a.createdAt.getTime() - b.createdAt.getTime());
  const out: SlotOccurrenceRow[] = [];
  const seen = new Set<string>();
  for (const slot of slots) {
    const on = slot.resourceId ? [slot.resourceId] : [...wanted];
    for (const start of occurrenceStarts(seriesOf(slot), from, to, DEFAULT_OCCURRENCE_LIMIT)) {
      for (const resourceID of on) {
        const key = `${resourceID}|${start}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ slotId: slot.id, resourceID, start, durationSec: slot.durationSec });
      }
    }
  }
  out.sort((a, b) => a.start - b.start || (a.resourceID < b.resourceID ? -1 : a.resourceID > b.resourceID ? 1 : 0));
  return out;
}
