import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { newId } from '../../shared/ids';
import { updateRecordMetaData } from '../../shared/metadata';
import { Check } from '../../shared/validate';
import { Resource } from './catalog.entity';
import { resourceJson, type ResourceJson } from './catalog.json';
import { getResourceInCompany } from './catalog.lookup';

export interface CreateResourceFields {
  name?: unknown;
  color?: unknown;
  metaData?: unknown;
  relatedResourceIDs?: unknown;
}

export interface UpdateResourceFields {
  name?: unknown;
  color?: unknown;
  enabled?: unknown;
  metaDataUpdate?: unknown;
  relatedResourceIDs?: unknown;
}

export const RESOURCE_ORDER = { name: 'asc', id: 'asc' } as const;

/**
 * Checks that well-formed resource ids are resources of the company and not `selfId`; each
 * problem goes into `c` under the path of the offending id. One statement.
 */
export async function checkResourceIds(
  ctx: Ctx,
  c: Check,
  companyId: string,
  entries: { path: string; id: string }[],
  selfId: string,
): Promise<void> {
  for (const e of entries) if (e.id === selfId) c.fail(e.path, 'must not be the resource itself');
  const others = [...new Set(entries.map((e) => e.id).filter((id) => id !== selfId))];
  if (!others.length) return;
  const found = new Set((await ctx.em.find(Resource, { companyId, id: { $in: others } })).map((r) => r.id));
  for (const e of entries) if (e.id !== selfId && !found.has(e.id)) c.fail(e.path, 'is not a resource of this company');
}

const indexed = (path: string, ids: string[] | undefined) => (ids ?? []).map((id, i) => ({ path: `${path}[${i}]`, id }));

/** Resources of a company, by name. */
export async function listResources(ctx: Ctx, companyId: string): Promise<ResourceJson[]> {
  const company = await companyForMerchant(ctx, companyId, 'resources.read');
  const resources = await ctx.em.find(Resource, { companyId: company.id }, { orderBy: RESOURCE_ORDER });
  return resources.map(resourceJson);
}

/** One resource of a company. */
export async function getResource(ctx: Ctx, companyId: string, id: string): Promise<ResourceJson> {
  const company = await companyForMerchant(ctx, companyId, 'resources.read');
  return resourceJson(await getResourceInCompany(ctx, company.id, id, 'id'));
}

/** Creates a resource (`name` and `color` required). */
export async function createResource(ctx: Ctx, companyId: string, input: CreateResourceFields): Promise<ResourceJson> {
  const company = await companyForMerchant(ctx, companyId, 'resources.write');
  const id = newId();
  const c = new Check();
  const name = c.string('name', input.name, { required: true });
  const color = c.color('color', input.color, true);
  const metaData = c.metaData('metaData', input.metaData);
  const related = c.uuids('relatedResourceIDs', input.relatedResourceIDs);
  await checkResourceIds(ctx, c, company.id, indexed('relatedResourceIDs', related), id);
  c.done('invalid resource');
  const resource = ctx.em.create(Resource, {
    id,
    companyId: company.id,
    name: name!,
    color: color!,
    relatedResourceIDs: related ?? [],
    metaData: metaData ?? {},
    metaDataVersion: 1,
    disabledAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  return resourceJson(resource);
}

/**
 * Partial update. As the specification says, a request without `enabled` enables the
 * resource: only `enabled: false` disables it.
 */
export async function updateResource(ctx: Ctx, companyId: string, id: string, input: UpdateResourceFields): Promise<ResourceJson> {
  const company = await companyForMerchant(ctx, companyId, 'resources.write');
  const resource = await getResourceInCompany(ctx, company.id, id, 'id');
  const c = new Check();
  const name = c.string('name', input.name, { required: input.name !== undefined });
  const color = c.color('color', input.color, input.color !== undefined);
  const enabled = c.bool('enabled', input.enabled) ?? true;
  // null clears the list; absent leaves it as it is.
  const related = input.relatedResourceIDs === null ? [] : c.uuids('relatedResourceIDs', input.relatedResourceIDs);
  await checkResourceIds(ctx, c, company.id, indexed('relatedResourceIDs', related), resource.id);
  c.done('invalid resource update');

  updateRecordMetaData(resource, input.metaDataUpdate);
  if (name !== undefined) resource.name = name;
  if (color !== undefined) resource.color = color;
  if (related !== undefined) resource.relatedResourceIDs = related;
  if (enabled) resource.disabledAt = null;
  else if (!resource.disabledAt) resource.disabledAt = ctx.now;
  resource.updatedAt = ctx.now;
  await ctx.em.flush();
  return resourceJson(resource);
}
