import type { Ctx } from '../../kernel/context';
import { parseLocalTime } from '../../shared/duration';
import type { CapacityRuleInput, ClosingPeriodInput, WorkingHoursRuleInput } from '../availability/engine/types';
import { compileLimitation, MATCH_ANY } from '../pricing/engine/limitation';
import type { LimitationInput } from '../../shared/limitation';
import { CapacityRule, ClosingPeriod, WorkingHoursRule } from './scheduling.entity';

/**
 * Single-query loaders for the availability service, returning the engine's shapes (epoch ms,
 * minutes since local midnight, seconds). They scope by company only: the caller has already
 * checked the actor against the company.
 */

/** resourceId -> every working hours rule of the resource (the engine filters by service). One query. */
export async function loadWorkingHours(ctx: Ctx, companyId: string, resourceIds: readonly string[]): Promise<Map<string, WorkingHoursRuleInput[]>> {
  const out = new Map<string, WorkingHoursRuleInput[]>(resourceIds.map((id) => [id, []]));
  if (resourceIds.length === 0) return out;
  const rules = await ctx.em.find(WorkingHoursRule, { companyId, resourceId: { $in: [...resourceIds] } }, { orderBy: { priority: 'desc', createdAt: 'desc', id: 'asc' } });
  for (const r of rules) {
    out.get(r.resourceId)?.push({
      id: r.id,
      priority: r.priority,
      createdAt: r.createdAt.getTime(),
      windowStart: r.startTime ? r.startTime.getTime() : null,
      windowEnd: r.endTime ? r.endTime.getTime() : null,
      serviceIDs: r.serviceIds,
      days: r.workingHours.map((d) => ({
        daysOfWeek: d.daysOfWeek,
        hours: d.hours.map((h) => ({ start: parseLocalTime(h.start)!, end: parseLocalTime(h.end, true)! })),
      })),
    });
  }
  return out;
}

/** resourceId -> closing periods overlapping `[from, to)`, by start. One query. */
export async function loadClosingPeriods(
  ctx: Ctx,
  companyId: string,
  resourceIds: readonly string[],
  from: number,
  to: number,
): Promise<Map<string, ClosingPeriodInput[]>> {
  const out = new Map<string, ClosingPeriodInput[]>(resourceIds.map((id) => [id, []]));
  if (resourceIds.length === 0 || !(from < to)) return out;
  const periods = await ctx.em.find(
    ClosingPeriod,
    { companyId, resourceId: { $in: [...resourceIds] }, startTime: { $lt: new Date(to) }, endTime: { $gt: new Date(from) } },
    { orderBy: { startTime: 'asc', id: 'asc' } },
  );
  for (const p of periods) out.get(p.resourceId)?.push({ start: p.startTime.getTime(), end: p.endTime.getTime(), serviceIDs: p.serviceIds });
  return out;
}

/** A capacity rule as stored, with its limitation still to be compiled in the company's zone. */
export interface CapacityRuleRow extends Omit<CapacityRuleInput, 'matches'> {
  limitation: LimitationInput | null;
}

/** Capacity rules of a service, best first (priority, then newest). One query. */
export async function loadCapacityRules(ctx: Ctx, companyId: string, serviceId: string): Promise<CapacityRuleRow[]> {
  const rules = await ctx.em.find(CapacityRule, { companyId, serviceId }, { orderBy: { priority: 'desc', createdAt: 'desc', id: 'asc' } });
  return rules.map((r) => ({
    id: r.id,
    type: r.type,
    priority: r.priority,
    createdAt: r.createdAt.getTime(),
    spots: r.spots,
    spotsPerTicket: r.spotsPerTicket,
    limitation: r.limitation,
  }));
}

/** The engine's capacity rules: each limitation compiled once for the company's zone (null = matches everything). */
export function compileCapacityRules(rows: readonly CapacityRuleRow[], zone: string): CapacityRuleInput[] {
  return rows.map(({ limitation, ...rule }) => {
    const m = compileLimitation(limitation, zone);
    return { ...rule, matches: m === MATCH_ANY ? null : m };
  });
}
