import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { invalid } from '../../shared/errors';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import { resourceJson, ticketJson, type ResourceJson, type TicketJson } from '../catalog/catalog.json';
import type { LimitationInput } from '../../shared/limitation';
import { checkLimitation, checkPriority, limitationResourceIds, typeFilter } from '../../shared/rule-checks';
import { checkTicketIds, linkedResources, requireResources, getServiceInCompany, ticketsById } from '../catalog/catalog.lookup';
import { CapacityRule } from './scheduling.entity';

export const CAPACITY_TYPES = ['group', 'ticket'] as const;
export type CapacityType = (typeof CAPACITY_TYPES)[number];

export interface CapacityRuleJson {
  id: string;
  serviceID: string;
  type: CapacityType;
  priority: number;
  spots: number;
  spotsPerTicket: Record<string, number>;
  limitation: LimitationInput | null;
  createdAt: string;
  updatedAt: string;
}

export function capacityRuleJson(r: CapacityRule): CapacityRuleJson {
  return {
    id: r.id,
    serviceID: r.serviceId,
    type: r.type,
    priority: r.priority,
    spots: r.spots,
    spotsPerTicket: r.spotsPerTicket,
    limitation: r.limitation,
    createdAt: formatTimestamp(r.createdAt)!,
    updatedAt: formatTimestamp(r.updatedAt)!,
  };
}

export interface CapacityRuleInputBody {
  type?: unknown;
  priority?: unknown;
  spots?: unknown;
  spotsPerTicket?: unknown;
  limitation?: unknown;
}

/**
 * Creates a capacity rule of a group or ticket service: the maximum spots of an occurrence,
 * and for ticket services the maximum per ticket. `type` defaults to the service's type.
 */
export async function createCapacityRule(
  ctx: Ctx,
  companyId: string,
  serviceId: string,
  input: CapacityRuleInputBody,
): Promise<CapacityRuleJson> {
  const company = await companyForMerchant(ctx, companyId, 'rules.write');
  const service = await getServiceInCompany(ctx, company.id, serviceId);
  if (service.type !== 'group' && service.type !== 'ticket') {
    throw invalid('capacity rules apply to group and ticket services', [{ path: 'serviceID', message: `is a ${service.type} service` }]);
  }
  const c = new Check();
  const type = c.oneOf('type', input.type ?? service.type, CAPACITY_TYPES, true);
  const priority = checkPriority(c, input.priority, false) ?? 0;
  const spots = c.int('spots', input.spots, { required: true, min: 1, max: 1_000_000 });
  const perTicket: Record<string, number> = {};
  const ticketRefs: { id: string; path: string }[] = [];
  const spt = c.object('spotsPerTicket', input.spotsPerTicket);
  if (spt) {
    for (const [id, n] of Object.entries(spt)) {
      const path = `spotsPerTicket.${id}`;
      const ticketId = c.uuid(path, id);
      const count = c.int(path, n, { required: true, min: 0, max: 1_000_000 });
      if (ticketId) ticketRefs.push({ id: ticketId, path });
      if (ticketId && count !== undefined) perTicket[ticketId] = count;
    }
    if (type === 'group' && ticketRefs.length > 0) c.fail('spotsPerTicket', 'applies to ticket capacity rules only');
  }
  const limitation = checkLimitation(c, input.limitation);
  const limitedTo = limitationResourceIds(c, limitation);
  c.done('invalid capacity rule');
  await requireResources(ctx, company.id, limitedTo);
  await checkTicketIds(ctx, c, company.id, service.id, ticketRefs);
  c.done('invalid capacity rule');
  const rule = ctx.em.create(CapacityRule, {
    companyId: company.id,
    serviceId: service.id,
    type: type!,
    priority,
    spots: spots!,
    spotsPerTicket: perTicket,
    limitation: limitation ?? null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  return capacityRuleJson(rule);
}

export interface CapacityRuleList {
  capacities: CapacityRuleJson[];
  resources: ResourceJson[];
  tickets: TicketJson[];
}

/** Capacity rules of a service (optionally of one type), with its linked resources and the tickets the rules name. */
export async function listCapacityRules(ctx: Ctx, companyId: string, serviceId: string, type?: unknown): Promise<CapacityRuleList> {
  const company = await companyForMerchant(ctx, companyId, 'rules.read');
  const service = await getServiceInCompany(ctx, company.id, serviceId);
  const only = typeFilter(type, CAPACITY_TYPES);
  const rules = await ctx.em.find(
    CapacityRule,
    { companyId: company.id, serviceId: service.id, ...(only ? { type: only } : {}) },
    { orderBy: { priority: 'desc', createdAt: 'desc', id: 'asc' } },
  );
  const ticketIds = [...new Set(rules.flatMap((r) => Object.keys(r.spotsPerTicket)))];
  const [resources, tickets] = [
    (await linkedResources(ctx, company.id, service.id)).resources,
    await ticketsById(ctx, company.id, service.id, ticketIds),
  ];
  return { capacities: rules.map(capacityRuleJson), resources: resources.map(resourceJson), tickets: tickets.map(ticketJson) };
}
