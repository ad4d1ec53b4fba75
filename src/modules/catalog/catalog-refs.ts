import type { Ctx } from '../../kernel/context';
import { notFound } from '../../shared/errors';
import type { Check } from '../../shared/validate';
import { Resource, Service, ServiceResourceLink, Ticket } from './catalog.entity';
import { getResourceInCompany, getServiceInCompany, linkedResources as catalogLinked } from './catalog.lookup';

/**
 * The catalog records the rules refer to, always looked up inside the addressed company. As the
 * contract says, an id that is not in the company is 404 (whether it exists elsewhere or not);
 * an id of the company that does not fit (a ticket of another service) is a 400 detail.
 */

/** A service of the company; 400 for a malformed id, 404 when it is not there. */
export function serviceOf(ctx: Ctx, companyId: string, serviceId: string): Promise<Service> {
  return getServiceInCompany(ctx, companyId, serviceId);
}

/** A resource of the company; 400 for a malformed id, 404 when it is not there. */
export function resourceOf(ctx: Ctx, companyId: string, resourceId: string): Promise<Resource> {
  return getResourceInCompany(ctx, companyId, resourceId);
}

/** 404 unless every id (UUIDs, already checked) is a resource of the company. */
export async function requireResources(ctx: Ctx, companyId: string, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  if ((await ctx.em.count(Resource, { companyId, id: { $in: unique } })) !== unique.length) throw notFound('resource');
}

/** 404 unless every id (UUIDs, already checked) is a service of the company; the services otherwise. */
export async function requireServices(ctx: Ctx, companyId: string, ids: string[]): Promise<Service[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = await ctx.em.find(Service, { companyId, id: { $in: unique } });
  if (found.length !== unique.length) throw notFound('service');
  return found;
}

/**
 * Ticket ids (UUIDs, already checked) with the request path each came from: 404 when one is not
 * a ticket of the company, a 400 detail when it belongs to another service.
 */
export async function checkTicketIds(ctx: Ctx, c: Check, companyId: string, serviceId: string, refs: { id: string; path: string }[]): Promise<void> {
  const unique = [...new Set(refs.map((r) => r.id))];
  if (unique.length === 0) return;
  const found = new Map((await ctx.em.find(Ticket, { companyId, id: { $in: unique } }, { fields: ['id', 'serviceId'] })).map((t) => [t.id, t.serviceId]));
  if (found.size !== unique.length) throw notFound('ticket');
  for (const r of refs) if (found.get(r.id) !== serviceId) c.fail(r.path, 'is not a ticket of this service');
}

/** Resources linked to a service, by name. */
export async function linkedResources(ctx: Ctx, companyId: string, serviceId: string): Promise<Resource[]> {
  return (await catalogLinked(ctx, companyId, serviceId)).resources;
}

/** serviceId -> ids of its linked resources, for several services in one query. */
export async function linkedResourceIds(ctx: Ctx, companyId: string, serviceIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(serviceIds.map((id) => [id, []]));
  if (serviceIds.length === 0) return out;
  const links = await ctx.em.find(ServiceResourceLink, { companyId, serviceId: { $in: serviceIds } }, { fields: ['serviceId', 'resourceId'], orderBy: { resourceId: 'asc' } });
  for (const l of links) out.get(l.serviceId)?.push(l.resourceId);
  return out;
}

/** Tickets of a service among `ids`, oldest first. */
export async function ticketsById(ctx: Ctx, companyId: string, serviceId: string, ids: string[]): Promise<Ticket[]> {
  if (ids.length === 0) return [];
  return ctx.em.find(Ticket, { companyId, serviceId, id: { $in: ids } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}
