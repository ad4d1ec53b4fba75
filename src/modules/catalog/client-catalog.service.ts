import type { Ctx } from '../../kernel/context';
import { companyForClientInterface } from '../company/company.access';
import { notFound } from '../../shared/errors';
import type { Company } from '../company/company.entity';
import { Resource, Service } from './catalog.entity';
import { clientResourceJson, clientServiceJson, type ClientResourceJson, type ClientServiceJson } from './catalog.json';
import { getResourceInCompany, getServiceInCompany } from './catalog.lookup';
import { linkedResourcesOf, linkedServicesOf, ticketsOf } from './catalog.loaders';
import { RESOURCE_ORDER } from './resource.service';
import { SERVICE_ORDER } from './service.service';

/**
 * The catalog as the client interface offers it: enabled services and resources only, with
 * their enabled counterparts. A list costs the same few statements whatever its length.
 */

async function clientServices(ctx: Ctx, company: Company, services: Service[]): Promise<ClientServiceJson[]> {
  const ids = services.map((s) => s.id);
  const resources = await linkedResourcesOf(ctx, company.id, ids, true);
  const tickets = await ticketsOf(
    ctx,
    company.id,
    services.filter((s) => s.type === 'ticket').map((s) => s.id),
    true,
  );
  return services.map((s) => clientServiceJson(s, company.timeZone, resources.get(s.id) ?? [], tickets.get(s.id) ?? []));
}

async function clientResources(ctx: Ctx, company: Company, resources: Resource[]): Promise<ClientResourceJson[]> {
  const services = await linkedServicesOf(
    ctx,
    company.id,
    resources.map((r) => r.id),
    true,
  );
  return resources.map((r) => clientResourceJson(r, services.get(r.id) ?? []));
}

/** Enabled services of a company in the client form. */
export async function listClientServices(ctx: Ctx, companyId: string): Promise<ClientServiceJson[]> {
  return (await listClientServicesInOrder(ctx, companyId)).services;
}

/** The same list with each service's position, the first key of its order (the client form leaves it out). */
export async function listClientServicesInOrder(
  ctx: Ctx,
  companyId: string,
): Promise<{ services: ClientServiceJson[]; positions: Map<string, number> }> {
  const company = await companyForClientInterface(ctx, companyId, 'client.read');
  const services = await ctx.em.find(Service, { companyId: company.id, disabledAt: null }, { orderBy: SERVICE_ORDER });
  return { services: await clientServices(ctx, company, services), positions: new Map(services.map((s) => [s.id, s.position])) };
}

/** One enabled service in the client form; a disabled one is not offered (404). */
export async function getClientService(ctx: Ctx, companyId: string, id: string): Promise<ClientServiceJson> {
  const company = await companyForClientInterface(ctx, companyId, 'client.read');
  const service = await getServiceInCompany(ctx, company.id, id, 'id');
  if (service.disabledAt) throw notFound('service');
  return (await clientServices(ctx, company, [service]))[0];
}

/** Enabled resources of a company in the client form. */
export async function listClientResources(ctx: Ctx, companyId: string): Promise<ClientResourceJson[]> {
  const company = await companyForClientInterface(ctx, companyId, 'client.read');
  const resources = await ctx.em.find(Resource, { companyId: company.id, disabledAt: null }, { orderBy: RESOURCE_ORDER });
  return clientResources(ctx, company, resources);
}

/** One enabled resource in the client form; a disabled one is not offered (404). */
export async function getClientResource(ctx: Ctx, companyId: string, id: string): Promise<ClientResourceJson> {
  const company = await companyForClientInterface(ctx, companyId, 'client.read');
  const resource = await getResourceInCompany(ctx, company.id, id, 'id');
  if (resource.disabledAt) throw notFound('resource');
  return (await clientResources(ctx, company, [resource]))[0];
}
