import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { conflict, notFound } from '../../shared/errors';
import { Check } from '../../shared/validate';
import { Service, ServiceResourceLink, type RelatedResources } from './catalog.entity';
import { linkJson, resourceJson, serviceJson, type LinkJson, type ResourceJson, type ServiceJson } from './catalog.json';
import { getResourceInCompany, getServiceInCompany, linkedResources } from './catalog.lookup';
import { checkResourceIds } from './resource.service';
import { SERVICE_ORDER } from './service.service';

export interface CreateLinkFields {
  resourceID?: unknown;
  relatedResourceIDs?: unknown;
}

export interface UpdateLinkFields {
  relatedResourceIDs?: unknown;
}

const STRATEGIES = ['all', 'any'] as const;

/**
 * `relatedResourceIDs` as sent: `{all: [ids], any: [ids]}` (either key optional), or a plain
 * array, which means `all` (the default strategy). `null` is "no related resources".
 */
function parseRelated(c: Check, raw: unknown): RelatedResources | undefined {
  const path = 'relatedResourceIDs';
  if (raw === undefined) return undefined;
  if (raw === null) return { all: [], any: [] };
  if (Array.isArray(raw)) return { all: c.uuids(path, raw) ?? [], any: [] };
  const o = c.object(path, raw);
  if (!o) return undefined;
  for (const key of Object.keys(o)) {
    if (!(STRATEGIES as readonly string[]).includes(key) && o[key] !== undefined)
      c.fail(`${path}.${key}`, 'is not a strategy; use all or any');
  }
  const all = c.uuids(`${path}.all`, o.all) ?? [];
  const any = c.uuids(`${path}.any`, o.any) ?? [];
  any.forEach((id, i) => {
    if (all.includes(id)) c.fail(`${path}.any[${i}]`, 'is already listed under all');
  });
  return { all, any };
}

async function checkRelated(
  ctx: Ctx,
  c: Check,
  companyId: string,
  related: RelatedResources | undefined,
  resourceId: string,
): Promise<void> {
  if (!related) return;
  const entries = [
    ...related.all.map((id, i) => ({ path: `relatedResourceIDs.all[${i}]`, id })),
    ...related.any.map((id, i) => ({ path: `relatedResourceIDs.any[${i}]`, id })),
  ];
  await checkResourceIds(ctx, c, companyId, entries, resourceId);
}

/** Links a resource to a service (201); a second link of the same pair is a 409. */
export async function createLink(ctx: Ctx, companyId: string, serviceId: string, input: CreateLinkFields): Promise<LinkJson> {
  const company = await companyForMerchant(ctx, companyId, 'services.write');
  const service = await getServiceInCompany(ctx, company.id, serviceId);
  const c = new Check();
  const resourceID = c.uuid('resourceID', input.resourceID, true);
  const related = parseRelated(c, input.relatedResourceIDs);
  c.done('invalid service-resource link');
  const resource = await getResourceInCompany(ctx, company.id, resourceID);
  await checkRelated(ctx, c, company.id, related, resource.id);
  c.done('invalid service-resource link');
  const existing = await ctx.em.findOne(ServiceResourceLink, { companyId: company.id, serviceId: service.id, resourceId: resource.id });
  if (existing)
    throw conflict('the resource is already linked to this service', [
      { path: 'resourceID', message: `already linked (link ${existing.id})` },
    ]);
  // A concurrent duplicate still meets the unique constraint, which answers 409 as well.
  const link = ctx.em.create(ServiceResourceLink, {
    companyId: company.id,
    serviceId: service.id,
    resourceId: resource.id,
    relatedResourceIDs: related ?? { all: [], any: [] },
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  return linkJson(link);
}

/** Replaces a link's related resources. */
export async function updateLink(
  ctx: Ctx,
  companyId: string,
  serviceId: string,
  linkId: string,
  input: UpdateLinkFields,
): Promise<LinkJson> {
  const company = await companyForMerchant(ctx, companyId, 'services.write');
  const service = await getServiceInCompany(ctx, company.id, serviceId);
  const link = await linkInService(ctx, company.id, service.id, linkId);
  const c = new Check();
  const related = parseRelated(c, input.relatedResourceIDs);
  c.done('invalid service-resource link update');
  await checkRelated(ctx, c, company.id, related, link.resourceId);
  c.done('invalid service-resource link update');
  if (related) link.relatedResourceIDs = related;
  link.updatedAt = ctx.now;
  await ctx.em.flush();
  return linkJson(link);
}

async function linkInService(ctx: Ctx, companyId: string, serviceId: string, linkId: string): Promise<ServiceResourceLink> {
  const c = new Check();
  const id = c.uuid('linkID', linkId, true);
  c.done('invalid link id');
  const link = await ctx.em.findOne(ServiceResourceLink, { id: id!, companyId, serviceId });
  if (!link) throw notFound('service-resource link');
  return link;
}

/** A service's links and the linked resources. */
export async function listServiceLinks(
  ctx: Ctx,
  companyId: string,
  serviceId: string,
): Promise<{ links: LinkJson[]; resources: ResourceJson[] }> {
  const company = await companyForMerchant(ctx, companyId, 'services.read');
  const service = await getServiceInCompany(ctx, company.id, serviceId);
  const { links, resources } = await linkedResources(ctx, company.id, service.id);
  return { links: links.map(linkJson), resources: resources.map(resourceJson) };
}

/** A resource's links and the linked services. */
export async function listResourceLinks(
  ctx: Ctx,
  companyId: string,
  resourceId: string,
): Promise<{ links: LinkJson[]; services: ServiceJson[] }> {
  const company = await companyForMerchant(ctx, companyId, 'services.read');
  const resource = await getResourceInCompany(ctx, company.id, resourceId);
  const links = await ctx.em.find(
    ServiceResourceLink,
    { companyId: company.id, resourceId: resource.id },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  const services = links.length
    ? await ctx.em.find(Service, { companyId: company.id, id: { $in: links.map((l) => l.serviceId) } }, { orderBy: SERVICE_ORDER })
    : [];
  return { links: links.map(linkJson), services: services.map(serviceJson) };
}
