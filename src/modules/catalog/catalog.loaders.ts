import DataLoader from 'dataloader';
import { loader, type Ctx } from '../../kernel/context';
import { Resource, Service, ServiceResourceLink, Ticket } from './catalog.entity';

/**
 * Per-request DataLoaders for the catalog's GraphQL relations. Keys are `companyID|id`, so a
 * batch is one statement per company (in practice one): a list of any length costs the same.
 */

const SEP = '|';
export const catalogKey = (companyId: string, id: string): string => `${companyId}${SEP}${id}`;

// Waiting for the next macrotask lets every resolver of a list level enqueue its key, even the
// ones that awaited a few promises first, so one level is always one batch.
const options = { batchScheduleFn: (cb: () => void) => setImmediate(cb), maxBatchSize: 1000 };

function byCompany(keys: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const k of keys) {
    const [cid, id] = k.split(SEP);
    const list = out.get(cid) ?? [];
    if (!list.includes(id)) list.push(id);
    out.set(cid, list);
  }
  return out;
}

async function batch<V>(keys: readonly string[], load: (companyId: string, ids: string[]) => Promise<Map<string, V[]>>): Promise<V[][]> {
  const results = new Map<string, V[]>();
  for (const [cid, ids] of byCompany(keys)) {
    const found = await load(cid, ids);
    for (const id of ids) results.set(catalogKey(cid, id), found.get(id) ?? []);
  }
  return keys.map((k) => results.get(k) ?? []);
}

function push<V>(map: Map<string, V[]>, key: string, v: V): void {
  const list = map.get(key);
  if (list) list.push(v);
  else map.set(key, [v]);
}

const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/**
 * Resources linked to each of `serviceIds`, ordered by name: one statement (a join through
 * the links). `onlyEnabled` leaves disabled resources out, as the client interface does.
 */
export async function linkedResourcesOf(
  ctx: Ctx,
  companyId: string,
  serviceIds: string[],
  onlyEnabled = false,
): Promise<Map<string, Resource[]>> {
  const out = new Map<string, Resource[]>();
  if (!serviceIds.length) return out;
  const rows = await ctx.em.getConnection().execute<Record<string, unknown>[]>(
    `select r.*, l.service_id as link_owner_id from service_resource_link l
       join resource r on r.company_id = l.company_id and r.id = l.resource_id
      where l.company_id = ? and l.service_id in (${placeholders(serviceIds.length)})${onlyEnabled ? ' and r.disabled_at is null' : ''}
      order by r.name, r.id`,
    [companyId, ...serviceIds],
  );
  for (const { link_owner_id: owner, ...row } of rows) push(out, owner as string, ctx.em.map(Resource, row));
  return out;
}

/** Services linked to each of `resourceIds`, ordered by position: one statement. */
export async function linkedServicesOf(
  ctx: Ctx,
  companyId: string,
  resourceIds: string[],
  onlyEnabled = false,
): Promise<Map<string, Service[]>> {
  const out = new Map<string, Service[]>();
  if (!resourceIds.length) return out;
  const rows = await ctx.em.getConnection().execute<Record<string, unknown>[]>(
    `select s.*, l.resource_id as link_owner_id from service_resource_link l
       join service s on s.company_id = l.company_id and s.id = l.service_id
      where l.company_id = ? and l.resource_id in (${placeholders(resourceIds.length)})${onlyEnabled ? ' and s.disabled_at is null' : ''}
      order by s.position, s.created_at, s.id`,
    [companyId, ...resourceIds],
  );
  for (const { link_owner_id: owner, ...row } of rows) push(out, owner as string, ctx.em.map(Service, row));
  return out;
}

/** Tickets of each of `serviceIds`, oldest first: one statement. */
export async function ticketsOf(ctx: Ctx, companyId: string, serviceIds: string[], onlyEnabled = false): Promise<Map<string, Ticket[]>> {
  const out = new Map<string, Ticket[]>();
  if (!serviceIds.length) return out;
  const tickets = await ctx.em.find(
    Ticket,
    { companyId, serviceId: { $in: serviceIds }, ...(onlyEnabled ? { enabled: true } : {}) },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  for (const t of tickets) push(out, t.serviceId, t);
  return out;
}

export const resourcesByService = (ctx: Ctx) =>
  loader(
    ctx,
    'catalog.resourcesByService',
    () => new DataLoader<string, Resource[]>((keys) => batch(keys, (cid, ids) => linkedResourcesOf(ctx, cid, ids)), options),
  );

export const servicesByResource = (ctx: Ctx) =>
  loader(
    ctx,
    'catalog.servicesByResource',
    () => new DataLoader<string, Service[]>((keys) => batch(keys, (cid, ids) => linkedServicesOf(ctx, cid, ids)), options),
  );

export const ticketsByService = (ctx: Ctx) =>
  loader(
    ctx,
    'catalog.ticketsByService',
    () => new DataLoader<string, Ticket[]>((keys) => batch(keys, (cid, ids) => ticketsOf(ctx, cid, ids)), options),
  );

export const linksByService = (ctx: Ctx) =>
  loader(
    ctx,
    'catalog.linksByService',
    () =>
      new DataLoader<string, ServiceResourceLink[]>(
        (keys) =>
          batch(keys, async (cid, ids) => {
            const out = new Map<string, ServiceResourceLink[]>();
            const links = await ctx.em.find(
              ServiceResourceLink,
              { companyId: cid, serviceId: { $in: ids } },
              { orderBy: { createdAt: 'asc', id: 'asc' } },
            );
            for (const l of links) push(out, l.serviceId, l);
            return out;
          }),
        options,
      ),
  );

/** Services of each company (key: company id), in list order. */
export const servicesByCompany = (ctx: Ctx) =>
  loader(
    ctx,
    'catalog.servicesByCompany',
    () =>
      new DataLoader<string, Service[]>(async (companyIds) => {
        const out = new Map<string, Service[]>();
        const services = await ctx.em.find(
          Service,
          { companyId: { $in: [...companyIds] } },
          { orderBy: { position: 'asc', createdAt: 'asc', id: 'asc' } },
        );
        for (const s of services) push(out, s.companyId, s);
        return companyIds.map((c) => out.get(c) ?? []);
      }, options),
  );

/** Resources of each company (key: company id), by name. */
export const resourcesByCompany = (ctx: Ctx) =>
  loader(
    ctx,
    'catalog.resourcesByCompany',
    () =>
      new DataLoader<string, Resource[]>(async (companyIds) => {
        const out = new Map<string, Resource[]>();
        const resources = await ctx.em.find(Resource, { companyId: { $in: [...companyIds] } }, { orderBy: { name: 'asc', id: 'asc' } });
        for (const r of resources) push(out, r.companyId, r);
        return companyIds.map((c) => out.get(c) ?? []);
      }, options),
  );
