import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import type { Ctx } from '../../kernel/context';
import { invalid, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { Resource, Service, ServiceResourceLink, Ticket } from './catalog.entity';

/**
 * Lookups other contexts use to reach catalog records. They only scope by company: the caller
 * has already checked the actor against the company (`companyForMerchant` and friends).
 * Disabled records are returned too; whether a disabled one may be used is the caller's rule.
 */

function parseId(id: unknown, path: string): string {
  if (!isUuid(id)) throw invalid(`${path} must be a UUID`, [{ path, message: 'must be a UUID' }]);
  return id.toLowerCase();
}

/**
 * A record of the company by id. The company is part of the condition, not checked afterwards,
 * so that every statement stays on one company's shard (docs/scaling.md); another company's
 * record is reported exactly like a missing one.
 */
async function byId<T extends object>(ctx: Ctx, entity: EntityClass<T>, companyId: string, id: string): Promise<T | null> {
  return ctx.em.findOne(entity, { id, companyId: companyId.toLowerCase() } as FilterQuery<T>);
}

/** A service of the company; 400 for a malformed id, 404 when it is not in the company. */
export async function getServiceInCompany(ctx: Ctx, companyId: string, serviceId: unknown, path = 'serviceID'): Promise<Service> {
  const id = parseId(serviceId, path);
  const s = await byId(ctx, Service, companyId, id);
  if (!s) throw notFound('service');
  return s;
}

/** A resource of the company; 400 for a malformed id, 404 when it is not in the company. */
export async function getResourceInCompany(ctx: Ctx, companyId: string, resourceId: unknown, path = 'resourceID'): Promise<Resource> {
  const id = parseId(resourceId, path);
  const r = await byId(ctx, Resource, companyId, id);
  if (!r) throw notFound('resource');
  return r;
}

/** A ticket of the service (which must be in the company); 400 for malformed ids, 404 otherwise. */
export async function getTicketInService(ctx: Ctx, companyId: string, serviceId: unknown, ticketId: unknown, path = 'ticketID'): Promise<Ticket> {
  const service = await getServiceInCompany(ctx, companyId, serviceId);
  const id = parseId(ticketId, path);
  const t = await ctx.em.findOne(Ticket, { id, companyId: service.companyId, serviceId: service.id });
  if (!t) throw notFound('ticket');
  return t;
}

/**
 * The service's resource links and the linked resources (disabled ones included), resources
 * ordered by name. The service itself is not checked; pair with `getServiceInCompany`.
 */
export async function linkedResources(ctx: Ctx, companyId: string, serviceId: string): Promise<{ links: ServiceResourceLink[]; resources: Resource[] }> {
  const cid = companyId.toLowerCase();
  const links = await ctx.em.find(ServiceResourceLink, { companyId: cid, serviceId: serviceId.toLowerCase() }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  if (!links.length) return { links, resources: [] };
  const resources = await ctx.em.find(Resource, { companyId: cid, id: { $in: links.map((l) => l.resourceId) } }, { orderBy: { name: 'asc', id: 'asc' } });
  return { links, resources };
}
