import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { invalid } from '../../shared/errors';
import { Check } from '../../shared/validate';
import { linkedResourceIds, requireResources, requireServices } from '../catalog/catalog.lookup';
import { Slot } from './scheduling.entity';
import { MAX_SLOT_DURATION_SEC, occurrenceStarts } from './slot-expand';
import { seriesOf, slotJson, type SlotJson } from './slot.input';

/** The schedule spans at most this many days, as available times do. */
export const MAX_SCHEDULE_DAYS = 93;
/** An answer larger than this is refused (narrow the range) instead of being built. */
export const MAX_SCHEDULE_OCCURRENCES = 10_000;

const DAY_MS = 86_400_000;

/**
 * The query conditions for slots of `serviceIds` that may have an occurrence overlapping
 * `[from, to)`: started before `to`, and either repeating or started recently enough to still
 * run at `from`. The expansion decides exactly.
 */
export function slotRangeWhere(companyId: string, serviceIds: string[], from: number, to: number) {
  return {
    companyId,
    serviceId: serviceIds.length === 1 ? serviceIds[0] : { $in: serviceIds },
    startTime: { $lt: new Date(to) },
    $or: [
      { rrule: { $ne: null }, $or: [{ until: null }, { until: { $gt: new Date(from - MAX_SLOT_DURATION_SEC * 1000) } }] },
      { startTime: { $gt: new Date(from - MAX_SLOT_DURATION_SEC * 1000) } },
    ],
  };
}

export interface ScheduleQuery {
  serviceIDs?: unknown;
  resourceIDs?: unknown;
  from?: unknown;
  to?: unknown;
}

/**
 * Occurrences of the slots of the given services on the given resources (every linked
 * resource when none are given) overlapping `[from, to)`, as Slot entries whose `startTime`
 * is the occurrence's and whose `resourceID` is the resource it runs on. Sorted by start.
 */
export async function slotSchedule(ctx: Ctx, companyId: string, q: ScheduleQuery): Promise<SlotJson[]> {
  const company = await companyForMerchant(ctx, companyId, 'slots.read');
  const c = new Check();
  const serviceIds = c.uuids('service_ids', q.serviceIDs, true);
  if (serviceIds && serviceIds.length === 0) c.fail('service_ids', 'must name at least one service');
  const resourceIds = c.uuids('resource_ids', q.resourceIDs);
  const from = c.timestamp('from', q.from, true);
  const to = c.timestamp('to', q.to, true);
  if (from !== undefined && to !== undefined) {
    if (to <= from) c.fail('to', 'must be after from');
    else if (to - from > MAX_SCHEDULE_DAYS * DAY_MS) c.fail('to', `must be at most ${MAX_SCHEDULE_DAYS} days after from`);
  }
  c.done('invalid schedule request');
  await requireServices(ctx, company.id, serviceIds!);
  const only = resourceIds && resourceIds.length ? new Set(resourceIds) : null;
  if (only) await requireResources(ctx, company.id, [...only]);
  const links = await linkedResourceIds(ctx, company.id, serviceIds!);
  const slots = await ctx.em.find(Slot, slotRangeWhere(company.id, serviceIds!, from!, to!));

  const out: { json: SlotJson; start: number; resourceId: string; serviceId: string }[] = [];
  for (const slot of slots) {
    const on = (slot.resourceId ? [slot.resourceId] : (links.get(slot.serviceId) ?? [])).filter((r) => !only || only.has(r));
    if (on.length === 0) continue;
    const starts = occurrenceStarts(seriesOf(slot), from!, to!, MAX_SCHEDULE_OCCURRENCES + 1);
    if (out.length + starts.length * on.length > MAX_SCHEDULE_OCCURRENCES) {
      throw invalid(`the schedule has more than ${MAX_SCHEDULE_OCCURRENCES} occurrences; ask for a shorter range`, [
        { path: 'to', message: 'range too large for these slots' },
      ]);
    }
    for (const start of starts)
      for (const resourceId of on) out.push({ json: slotJson(slot, { start, resourceId }), start, resourceId, serviceId: slot.serviceId });
  }
  out.sort((a, b) => a.start - b.start || cmp(a.resourceId, b.resourceId) || cmp(a.serviceId, b.serviceId) || cmp(a.json.id, b.json.id));
  return out.map((o) => o.json);
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
