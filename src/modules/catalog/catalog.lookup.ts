import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import type { Ctx } from '../../kernel/context';
import { invalid, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { Resource, Service, ServiceResourceLink, Ticket } from './catalog.entity';
import type { Check } from '../../shared/validate';

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
 * so that every statement stays on one company's shard (docs/design/scaling.md); another company's
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

/** The ids among `serviceIds` that name no service of the company (one query). */
export async function unknownServices(ctx: Ctx, companyId: string, serviceIds: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(serviceIds.map((id) => id.toLowerCase()))];
  if (!wanted.length) return [];
  const found = await ctx.em
    .getConnection()
    .execute<{ id: string }[]>('select id from service where company_id = ? and id = any(?::uuid[])', [
      companyId.toLowerCase(),
      `{${wanted.join(',')}}`,
    ]);
  const known = new Set(found.map((s) => s.id));
  return wanted.filter((id) => !known.has(id));
}

/** A resource of the company; 400 for a malformed id, 404 when it is not in the company. */
export async function getResourceInCompany(ctx: Ctx, companyId: string, resourceId: unknown, path = 'resourceID'): Promise<Resource> {
  const id = parseId(resourceId, path);
  const r = await byId(ctx, Resource, companyId, id);
  if (!r) throw notFound('resource');
  return r;
}

/** A ticket of the service (which must be in the company); 400 for malformed ids, 404 otherwise. */
export async function getTicketInService(
  ctx: Ctx,
  companyId: string,
  serviceId: unknown,
  ticketId: unknown,
  path = 'ticketID',
): Promise<Ticket> {
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
export async function linkedResources(
  ctx: Ctx,
  companyId: string,
  serviceId: string,
): Promise<{ links: ServiceResourceLink[]; resources: Resource[] }> {
  const cid = companyId.toLowerCase();
  const links = await ctx.em.find(
    ServiceResourceLink,
    { companyId: cid, serviceId: serviceId.toLowerCase() },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  if (!links.length) return { links, resources: [] };
  const resources = await ctx.em.find(
    Resource,
    { companyId: cid, id: { $in: links.map((l) => l.resourceId) } },
    { orderBy: { name: 'asc', id: 'asc' } },
  );
  return { links, resources };
}

/**
 * The catalog records the rules refer to, always looked up inside the addressed company. As the
 * contract says, an id that is not in the company is 404 (whether it exists elsewhere or not);
 * an id of the company that does not fit (a ticket of another service) is a 400 detail.
 */

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
export async function checkTicketIds(
  ctx: Ctx,
  c: Check,
  companyId: string,
  serviceId: string,
  refs: { id: string; path: string }[],
): Promise<void> {
  const unique = [...new Set(refs.map((r) => r.id))];
  if (unique.length === 0) return;
  const found = new Map(
    (await ctx.em.find(Ticket, { companyId, id: { $in: unique } }, { fields: ['id', 'serviceId'] })).map((t) => [t.id, t.serviceId]),
  );
  if (found.size !== unique.length) throw notFound('ticket');
  for (const r of refs) if (found.get(r.id) !== serviceId) c.fail(r.path, 'is not a ticket of this service');
}

/** serviceId -> ids of its linked resources, for several services in one query. */
export async function linkedResourceIds(ctx: Ctx, companyId: string, serviceIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(serviceIds.map((id) => [id, []]));
  if (serviceIds.length === 0) return out;
  const links = await ctx.em.find(
    ServiceResourceLink,
    { companyId, serviceId: { $in: serviceIds } },
    { fields: ['serviceId', 'resourceId'], orderBy: { resourceId: 'asc' } },
  );
  for (const l of links) out.get(l.serviceId)?.push(l.resourceId);
  return out;
}

/** Tickets of a service among `ids`, oldest first. */
export async function ticketsById(ctx: Ctx, companyId: string, serviceId: string, ids: string[]): Promise<Ticket[]> {
  if (ids.length === 0) return [];
  return ctx.em.find(Ticket, { companyId, serviceId, id: { $in: ids } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}
