import DataLoader from 'dataloader';
import { loader, type Ctx } from '../../kernel/context';
import type { LinkRecord, ResourceRecord, ServiceRecord, TicketRecord } from './catalog.json';
import {
  columns,
  datesOf,
  LINK_COLUMNS,
  linkRecord,
  RESOURCE_COLUMNS,
  resourceRecord,
  SERVICE_COLUMNS,
  serviceRecord,
  TICKET_COLUMNS,
  ticketRecord,
  type DateOf,
  type Row,
} from './catalog.records';

/**
 * Per-request DataLoaders for the catalog's GraphQL relations. Keys are `companyID|id`, so a
 * batch is one statement per company (in practice one): a list of any length costs the same.
 * They read plain records, not entities (catalog.records.ts).
 */

const SEP = '|';
export const catalogKey = (companyId: string, id: string): string => `${companyId}${SEP}${id}`;

// Waiting for the next macrotask lets every resolver of a list level enqueue its key, even the
// ones that awaited a few promises first, so one level is always one batch.
const options = { batchScheduleFn: (cb: () => void) => setImmediate(cb), maxBatchSize: 1000 };

function byCompany(keys: readonly string[]): Map<string, string[]> {
  const sets = new Map<string, Set<string>>();
  for (const k of keys) {
    const at = k.indexOf(SEP);
    const cid = k.slice(0, at);
    let ids = sets.get(cid);
    if (!ids) sets.set(cid, (ids = new Set()));
    ids.add(k.slice(at + 1));
  }
  const out = new Map<string, string[]>();
  for (const [cid, ids] of sets) out.set(cid, [...ids]);
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

/** Rows of one statement as records, grouped by `owner` (a column of the row). */
async function grouped<V>(
  ctx: Ctx,
  sql: string,
  params: unknown[],
  owner: string,
  record: (row: Row, date: DateOf) => V,
): Promise<Map<string, V[]>> {
  const out = new Map<string, V[]>();
  const rows = await ctx.em.getConnection().execute<Row[]>(sql, params);
  const date = datesOf(ctx);
  for (const row of rows) push(out, row[owner] as string, record(row, date));
  return out;
}

/**
 * Resources linked to each of `serviceIds`, ordered by name: one statement (a join through
 * the links). `onlyEnabled` leaves disabled resources out, as the client interface does.
 */
export async function linkedResourcesOf(
  ctx: Ctx,
  companyId: string,
  serviceIds: string[],
  onlyEnabled = false,
): Promise<Map<string, ResourceRecord[]>> {
  if (!serviceIds.length) return new Map();
  return grouped(
    ctx,
    `select ${columns(RESOURCE_COLUMNS, 'r')}, l.service_id as link_owner_id from service_resource_link l
       join resource r on r.company_id = l.company_id and r.id = l.resource_id
      where l.company_id = ? and l.service_id in (${placeholders(serviceIds.length)})${onlyEnabled ? ' and r.disabled_at is null' : ''}
      order by r.name, r.id`,
    [companyId, ...serviceIds],
    'link_owner_id',
    resourceRecord,
  );
}

/** Services linked to each of `resourceIds`, ordered by position: one statement. */
export async function linkedServicesOf(
  ctx: Ctx,
  companyId: string,
  resourceIds: string[],
  onlyEnabled = false,
): Promise<Map<string, ServiceRecord[]>> {
  if (!resourceIds.length) return new Map();
  return grouped(
    ctx,
    `select ${columns(SERVICE_COLUMNS, 's')}, l.resource_id as link_owner_id from service_resource_link l
       join service s on s.company_id = l.company_id and s.id = l.service_id
      where l.company_id = ? and l.resource_id in (${placeholders(resourceIds.length)})${onlyEnabled ? ' and s.disabled_at is null' : ''}
      order by s.position, s.created_at, s.id`,
    [companyId, ...resourceIds],
    'link_owner_id',
    serviceRecord,
  );
}

/** Tickets of each of `serviceIds`, oldest first: one statement. */
export async function ticketsOf(
  ctx: Ctx,
  companyId: string,
  serviceIds: string[],
  onlyEnabled = false,
): Promise<Map<string, TicketRecord[]>> {
  if (!serviceIds.length) return new Map();
  return grouped(
    ctx,
    `select ${columns(TICKET_COLUMNS, 't')} from ticket t
      where t.company_id = ? and t.service_id in (${placeholders(serviceIds.length)})${onlyEnabled ? ' and t.enabled' : ''}
      order by t.created_at, t.id`,
    [companyId, ...serviceIds],
    'service_id',
    ticketRecord,
  );
}

/** Links of each of `serviceIds`, oldest first: one statement. */
async function linksOf(ctx: Ctx, companyId: string, serviceIds: string[]): Promise<Map<string, LinkRecord[]>> {
  return grouped(
    ctx,
    `select ${columns(LINK_COLUMNS, 'l')} from service_resource_link l
      where l.company_id = ? and l.service_id in (${placeholders(serviceIds.length)})
      order by l.created_at, l.id`,
    [companyId, ...serviceIds],
    'service_id',
    linkRecord,
  );
}

export const resourcesByService = (ctx: Ctx) =>
  loader(
    ctx,
    'catalog.resourcesByService',
    () => new DataLoader<string, ResourceRecord[]>((keys) => batch(keys, (cid, ids) => linkedResourcesOf(ctx, cid, ids)), options),
  );

export const servicesByResource = (ctx: Ctx) =>
  loader(
    ctx,
    'catalog.servicesByResource',
    () => new DataLoader<string, ServiceRecord[]>((keys) => batch(keys, (cid, ids) => linkedServicesOf(ctx, cid, ids)), options),
  );

export const ticketsByService = (ctx: Ctx) =>
  loader(
    ctx,
    'catalog.ticketsByService',
    () => new DataLoader<string, TicketRecord[]>((keys) => batch(keys, (cid, ids) => ticketsOf(ctx, cid, ids)), options),
  );

export const linksByService = (ctx: Ctx) =>
  loader(
    ctx,
    'catalog.linksByService',
    () => new DataLoader<string, LinkRecord[]>((keys) => batch(keys, (cid, ids) => linksOf(ctx, cid, ids)), options),
  );

/** Records of each company (key: company id), in the given order: one statement. */
function byCompanyLoader<V>(ctx: Ctx, table: string, cols: readonly string[], order: string, record: (row: Row, date: DateOf) => V) {
  return new DataLoader<string, V[]>(async (companyIds) => {
    const out = await grouped(
      ctx,
      `select ${columns(cols, 'x')} from ${table} x where x.company_id in (${placeholders(companyIds.length)}) order by ${order}`,
      [...companyIds],
      'company_id',
      record,
    );
    return companyIds.map((c) => out.get(c) ?? []);
  }, options);
}

/** Services of each company (key: company id), in list order. */
export const servicesByCompany = (ctx: Ctx) =>
  loader(ctx, 'catalog.servicesByCompany', () =>
    byCompanyLoader(ctx, 'service', SERVICE_COLUMNS, 'x.position, x.created_at, x.id', serviceRecord),
  );

/** Resources of each company (key: company id), by name. */
export const resourcesByCompany = (ctx: Ctx) =>
  loader(ctx, 'catalog.resourcesByCompany', () => byCompanyLoader(ctx, 'resource', RESOURCE_COLUMNS, 'x.name, x.id', resourceRecord));
