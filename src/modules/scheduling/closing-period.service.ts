import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import { checkPriority } from '../../shared/rule-checks';
import { requireResources, requireServices, getResourceInCompany } from '../catalog/catalog.lookup';
import { ClosingPeriod } from './scheduling.entity';
import { Resource } from '../catalog/catalog.entity';

export interface ClosingPeriodJson {
  id: string;
  resourceID: string;
  serviceIDs: string[];
  startTime: string;
  endTime: string;
  priority: number;
  createdAt: string;
  updatedAt: string;
}

export function closingPeriodJson(p: ClosingPeriod): ClosingPeriodJson {
  return {
    id: p.id,
    resourceID: p.resourceId,
    serviceIDs: p.serviceIds,
    startTime: formatTimestamp(p.startTime)!,
    endTime: formatTimestamp(p.endTime)!,
    priority: p.priority,
    createdAt: formatTimestamp(p.createdAt)!,
    updatedAt: formatTimestamp(p.updatedAt)!,
  };
}

export interface ClosingPeriodInput {
  startTime?: unknown;
  endTime?: unknown;
  priority?: unknown;
  serviceIDs?: unknown;
}

/** Closes a resource for `[startTime, endTime)`, for every service or the listed ones. */
export async function createClosingPeriod(
  ctx: Ctx,
  companyId: string,
  resourceId: string,
  input: ClosingPeriodInput,
): Promise<ClosingPeriodJson> {
  const company = await companyForMerchant(ctx, companyId, 'rules.write');
  const resource = await getResourceInCompany(ctx, company.id, resourceId);
  const c = new Check();
  const start = c.timestamp('startTime', input.startTime, true);
  const end = c.timestamp('endTime', input.endTime, true);
  if (start !== undefined && end !== undefined && end <= start) c.fail('endTime', 'must be after startTime');
  const priority = checkPriority(c, input.priority, false) ?? 0;
  const serviceIds = c.uuids('serviceIDs', input.serviceIDs) ?? [];
  c.done('invalid closing period');
  await requireServices(ctx, company.id, serviceIds);
  const period = ctx.em.create(ClosingPeriod, {
    companyId: company.id,
    resourceId: resource.id,
    serviceIds,
    startTime: new Date(start!),
    endTime: new Date(end!),
    priority,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  return closingPeriodJson(period);
}

/** Closing periods of one resource, by start. */
export async function listClosingPeriods(ctx: Ctx, companyId: string, resourceId: string): Promise<ClosingPeriodJson[]> {
  const company = await companyForMerchant(ctx, companyId, 'rules.read');
  const resource = await getResourceInCompany(ctx, company.id, resourceId);
  const periods = await ctx.em.find(
    ClosingPeriod,
    { companyId: company.id, resourceId: resource.id },
    { orderBy: { startTime: 'asc', id: 'asc' } },
  );
  return periods.map(closingPeriodJson);
}

export interface ClosingPeriodSearch {
  from?: unknown;
  to?: unknown;
  resourceIDs?: unknown;
}

/**
 * Closing periods overlapping `[from, to)`, grouped by resource. Every requested resource has
 * a list (possibly empty); without `resourceIDs`, every resource of the company is searched.
 */
export async function searchClosingPeriods(
  ctx: Ctx,
  companyId: string,
  input: ClosingPeriodSearch,
): Promise<{ closingPeriods: Record<string, ClosingPeriodJson[]> }> {
  const company = await companyForMerchant(ctx, companyId, 'rules.read');
  const c = new Check();
  const from = c.timestamp('from', input.from, true);
  const to = c.timestamp('to', input.to, true);
  if (from !== undefined && to !== undefined && to <= from) c.fail('to', 'must be after from');
  const ids = c.uuids('resourceIDs', input.resourceIDs);
  c.done('invalid closing period search');
  let resourceIds: string[];
  if (ids && ids.length > 0) {
    await requireResources(ctx, company.id, ids);
    resourceIds = ids;
  } else {
    resourceIds = (await ctx.em.find(Resource, { companyId: company.id }, { fields: ['id'], orderBy: { name: 'asc', id: 'asc' } })).map(
      (r) => r.id,
    );
  }
  const out: Record<string, ClosingPeriodJson[]> = Object.fromEntries(resourceIds.map((id) => [id, []]));
  if (resourceIds.length === 0) return { closingPeriods: out };
  const periods = await ctx.em.find(
    ClosingPeriod,
    { companyId: company.id, resourceId: { $in: resourceIds }, startTime: { $lt: new Date(to!) }, endTime: { $gt: new Date(from!) } },
    { orderBy: { startTime: 'asc', id: 'asc' } },
  );
  for (const p of periods) out[p.resourceId].push(closingPeriodJson(p));
  return { closingPeriods: out };
}
