import { companyForMerchant } from '../company/company.access';
import { conflict, notFound } from '../../shared/errors';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import { checkPriority } from '../../shared/rule-checks';
import { requireServices, getResourceInCompany } from '../catalog/catalog.lookup';
import { WorkingHoursRule, type StoredWorkingDay } from './scheduling.entity';
import { checkWorkingHours } from './working-hours.checks';
import { inTransaction } from '../../kernel/transaction';
import type { Ctx } from '../../kernel/context';

export interface WorkingHoursRuleJson {
  id: string;
  resourceID: string;
  serviceIDs: string[];
  startTime: string | null;
  endTime: string | null;
  priority: number;
  workingHours: StoredWorkingDay[];
  createdAt: string;
  updatedAt: string;
}

export function workingHoursJson(r: WorkingHoursRule): WorkingHoursRuleJson {
  return {
    id: r.id,
    resourceID: r.resourceId,
    serviceIDs: r.serviceIds,
    startTime: formatTimestamp(r.startTime),
    endTime: formatTimestamp(r.endTime),
    priority: r.priority,
    workingHours: r.workingHours,
    createdAt: formatTimestamp(r.createdAt)!,
    updatedAt: formatTimestamp(r.updatedAt)!,
  };
}

export interface WorkingHoursInput {
  startTime?: unknown;
  endTime?: unknown;
  priority?: unknown;
  serviceIDs?: unknown;
  workingHours?: unknown;
}

interface ParsedRule {
  startTime: Date | null;
  endTime: Date | null;
  priority: number;
  serviceIds: string[];
  workingHours: StoredWorkingDay[];
}

async function parseRule(ctx: Ctx, companyId: string, input: WorkingHoursInput): Promise<ParsedRule> {
  const c = new Check();
  const start = c.timestamp('startTime', input.startTime);
  const end = c.timestamp('endTime', input.endTime);
  if (start !== undefined && end !== undefined && end <= start) c.fail('endTime', 'must be after startTime');
  const priority = checkPriority(c, input.priority, false) ?? 0;
  const serviceIds = c.uuids('serviceIDs', input.serviceIDs) ?? [];
  const workingHours = checkWorkingHours(c, input.workingHours);
  c.done('invalid working hours');
  await requireServices(ctx, companyId, serviceIds);
  return {
    startTime: start === undefined ? null : new Date(start),
    endTime: end === undefined ? null : new Date(end),
    priority,
    serviceIds,
    workingHours: workingHours!,
  };
}

const lo = (d: Date | null) => (d ? d.getTime() : -Infinity);
const hi = (d: Date | null) => (d ? d.getTime() : Infinity);

/** Two rules compete for the same dates when their windows and service scopes intersect (empty scope = every service). */
function competes(a: ParsedRule, b: WorkingHoursRule): boolean {
  const windows = lo(a.startTime) < hi(b.endTime) && lo(b.startTime) < hi(a.endTime);
  const scopes = a.serviceIds.length === 0 || b.serviceIds.length === 0 || a.serviceIds.some((id) => b.serviceIds.includes(id));
  return windows && scopes;
}

/** Serialises rule writes of one resource for the rest of the transaction. */
async function lockResource(ctx: Ctx, companyId: string, resourceId: string): Promise<void> {
  await ctx.em.execute('select id from resource where company_id = ? and id = ? for update', [companyId, resourceId]);
}

/**
 * Refuses a rule that would tie with another for some date: same priority, intersecting
 * window and scope. Callers hold the resource lock, so two concurrent writes of the same
 * resource are serialised and cannot both pass the check.
 */
async function assertNoCompetitor(ctx: Ctx, companyId: string, resourceId: string, rule: ParsedRule, selfId: string | null): Promise<void> {
  const peers = await ctx.em.find(WorkingHoursRule, { companyId, resourceId, priority: rule.priority });
  const clash = peers.find((p) => p.id !== selfId && competes(rule, p));
  if (clash) {
    throw conflict('another working hours rule of this resource has the same priority for an overlapping period and services', [
      { path: 'priority', message: `overlaps rule ${clash.id}` },
    ]);
  }
}

/** Creates a working hours rule of a resource (409 when it ties with an existing one). */
export async function createWorkingHours(
  ctx: Ctx,
  companyId: string,
  resourceId: string,
  input: WorkingHoursInput,
): Promise<WorkingHoursRuleJson> {
  const company = await companyForMerchant(ctx, companyId, 'rules.write');
  const resource = await getResourceInCompany(ctx, company.id, resourceId);
  const rule = await parseRule(ctx, company.id, input);
  const created = await inTransaction(ctx, async (tx) => {
    await lockResource(tx, company.id, resource.id);
    await assertNoCompetitor(tx, company.id, resource.id, rule, null);
    return tx.em.create(WorkingHoursRule, {
      companyId: company.id,
      resourceId: resource.id,
      ...rule,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
  });
  return workingHoursJson(created);
}

/** Working hours rules of a resource, in the order they are chosen (priority, then newest). */
export async function listWorkingHours(ctx: Ctx, companyId: string, resourceId: string): Promise<WorkingHoursRuleJson[]> {
  const company = await companyForMerchant(ctx, companyId, 'rules.read');
  const resource = await getResourceInCompany(ctx, company.id, resourceId);
  const rules = await ctx.em.find(
    WorkingHoursRule,
    { companyId: company.id, resourceId: resource.id },
    { orderBy: { priority: 'desc', createdAt: 'desc', id: 'asc' } },
  );
  return rules.map(workingHoursJson);
}

/** Replaces a working hours rule (PUT semantics: fields left out take their defaults). */
export async function updateWorkingHours(
  ctx: Ctx,
  companyId: string,
  resourceId: string,
  ruleId: string,
  input: WorkingHoursInput,
): Promise<WorkingHoursRuleJson> {
  const company = await companyForMerchant(ctx, companyId, 'rules.write');
  const resource = await getResourceInCompany(ctx, company.id, resourceId);
  const c = new Check();
  const id = c.uuid('ruleID', ruleId, true);
  c.done('invalid working hours rule id');
  const rule = await parseRule(ctx, company.id, input);
  const updated = await inTransaction(ctx, async (tx) => {
    await lockResource(tx, company.id, resource.id);
    const existing = await tx.em.findOne(WorkingHoursRule, { id: id!, companyId: company.id, resourceId: resource.id });
    if (!existing) throw notFound('working hours rule');
    await assertNoCompetitor(tx, company.id, resource.id, rule, existing.id);
    tx.em.assign(existing, { ...rule, updatedAt: ctx.now });
    return existing;
  });
  return workingHoursJson(updated);
}

/** Deletes the listed rules of a resource, or all of them when `ids` is absent. */
export async function deleteWorkingHours(
  ctx: Ctx,
  companyId: string,
  resourceId: string,
  input: { ids?: unknown } | null | undefined,
): Promise<void> {
  const company = await companyForMerchant(ctx, companyId, 'rules.write');
  const resource = await getResourceInCompany(ctx, company.id, resourceId);
  const c = new Check();
  const ids = c.uuids('ids', input?.ids);
  c.done('invalid working hours deletion');
  const where = { companyId: company.id, resourceId: resource.id };
  if (ids?.length === 0) return;
  await inTransaction(ctx, async (tx) => {
    const found = await tx.em.find(WorkingHoursRule, ids === undefined ? where : { ...where, id: { $in: ids } });
    // All or nothing: an id that is not a rule of this resource deletes nothing.
    if (ids !== undefined && found.length !== ids.length) throw notFound('working hours rule');
    // through the unit of work, so that the audit log records every deleted rule
    tx.em.remove(found);
  });
}
