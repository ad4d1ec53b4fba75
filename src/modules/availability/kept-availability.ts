import type { Ctx } from '../../kernel/context';
import { KeptDocuments } from '../../kernel/kept-documents';
import type { Company } from '../company/company.entity';
import { queryWithParams } from '../../db/params';
import { isUuid } from '../../shared/ids';
import { loadSnapshotRow, snapshotWindow, type SnapshotOptions, type SnapshotRow } from './snapshot';

/**
 * The availability a process keeps between requests.
 *
 * An availability answer reads the catalog (service, links, working hours, closings, prices and
 * the other rules) and the occupancy (bookings, holds and their buffers; slot usage for group and
 * ticket services). Read fresh, that is one statement that builds a document of every booking
 * in the window (`availability_snapshot`): most of a month's answer. Instead the process keeps
 *
 * - the catalog per company, service and window, with the company's catalog version (a
 *   deferred trigger gives the company a new one with every change of a catalog row:
 *   catalog_touch.sql), and
 * - the occupancy per resource and window (with the service's slot usage for a group or ticket
 *   service), with the resource's occupancy version (a deferred trigger gives the resource a new
 *   one with every change of its occupancy or slot usage, in the transaction that makes it,
 *   whoever writes: occupancy_touch.sql),
 *
 * and every request asks the database, in one small statement (`availability_kept`), for the
 * current versions, with the catalog and the occupancy of each resource whose version is not
 * the kept one. So an unchanged catalog and occupancy cost one read of a few version rows, and a
 * booking on one resource costs the next request that resource's occupancy alone. The versions
 * and whatever is read again come from one snapshot of the database taken after the request
 * arrived: the answer reflects every booking committed before it, in this process or another,
 * as the fresh document would, and never mixes two moments (what is kept was read at exactly
 * the versions that statement saw).
 *
 * Windows are whole cells of 32 days around the request's, so that requests for nearby windows
 * share what is kept; each request's document is cut from them exactly as `availability_snapshot`
 * cuts it (`composeRow`). Requests that exclude bookings (a move's check) or ignore the schedule,
 * windows past year 2109 (where a millisecond double no longer holds microseconds apart), and
 * related resources given in an unusual form are read fresh.
 *
 * What is kept is bounded in count and size, the least recently used going first, and shown in
 * `/metrics` (`availability_kept_*`).
 */

const DAY = 86_400_000;
/** Windows are kept in whole cells of this length (epoch-aligned). */
const CELL = 32 * DAY;
/** Kept windows lie within ±2^42 ms of 1970 (years 1831-2109): there a double holds a microsecond's difference exactly. */
const SAFE_MS = 2 ** 42;

/** Catalog documents kept: count, characters of JSON, and the largest kept. */
const MAX_CATALOGS = 2_000;
const MAX_CATALOG_CHARS = 64 * 1024 * 1024;
const MAX_CATALOG_DOC_CHARS = 4 * 1024 * 1024;
/** Occupancy kept per resource and window: count, estimated bytes, and the largest kept. */
const MAX_OCCUPANCIES = 50_000;
const MAX_OCCUPANCY_BYTES = 128 * 1024 * 1024;
const MAX_OCCUPANCY_ONE_BYTES = 8 * 1024 * 1024;

type UsageRow = SnapshotRow['usage'][number];

interface KeptCatalog {
  version: number;
  /** the document for the whole cell, every link, without occupancy and slot usage */
  row: SnapshotRow;
  /** a group or ticket service: its slot usage is kept with each resource's occupancy */
  usage: boolean;
  size: number;
}

interface KeptOccupancy {
  version: number;
  /** starts and ends of the occupied intervals overlapping the cell, in start order (null: unbounded) */
  s: (number | null)[];
  e: (number | null)[];
  /** the service's slot usage of the resource starting in the cell (group and ticket services) */
  u: UsageRow[] | null;
  size: number;
}

/** A resource as `availability_kept` answers it: its version, and its occupancy when the one given was not current. */
interface ResourceAnswer {
  r: string;
  v: number;
  o?: { ok: boolean; s: (number | null)[]; e: (number | null)[] };
  u?: UsageRow[] | null;
}

interface KeptAnswer {
  catalog: number | null;
  doc?: SnapshotRow | null;
  resources?: ResourceAnswer[];
}

const catalogs = new KeptDocuments<KeptCatalog>(MAX_CATALOGS, MAX_CATALOG_CHARS, MAX_CATALOG_DOC_CHARS);
const occupancies = new KeptDocuments<KeptOccupancy>(MAX_OCCUPANCIES, MAX_OCCUPANCY_BYTES, MAX_OCCUPANCY_ONE_BYTES);
/** Catalogs being read now, by key: settled when the request reading one has its document (or failed). */
const catalogsBeingRead = new Map<string, Promise<void>>();

/**
 * For /metrics: answers made from what is kept after the version check alone (`kept`), after
 * reading some of it again (`read`), and read fresh (`fresh`: not a request the kept data
 * serves); catalogs and resources' occupancy read to be kept; what is kept now.
 */
export const keptAvailabilityStats = {
  answers: { kept: 0, read: 0, fresh: 0 },
  catalogReads: 0,
  occupancyReads: 0,
  held: () => ({ catalogs: catalogs.held, occupancy: occupancies.held }),
  evicted: () => catalogs.evicted + occupancies.evicted,
};

/** The window of the kept data a request reads: whole cells around its wide window; null outside the safe years. */
export function keptCells(opts: SnapshotOptions): { from: number; to: number } | null {
  const w = snapshotWindow(opts);
  const from = Math.floor(w.wideFrom / CELL) * CELL;
  const to = Math.ceil(w.wideTo / CELL) * CELL;
  if (!(from > -SAFE_MS && to < SAFE_MS)) return null;
  return { from, to };
}

const UUID_LIST = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => isUuid(x));

/**
 * The related resources of a link as `availability_snapshot` reads them (an array, or `all` and
 * `any`), lower-cased; null for any other form (the request is then read fresh, so that the
 * database reads it, or refuses it, exactly as it always has).
 */
function relatedIds(raw: unknown): string[] | null {
  if (raw === null || raw === undefined) return [];
  if (Array.isArray(raw)) return UUID_LIST(raw) ? raw.map((x) => x.toLowerCase()) : null;
  if (typeof raw !== 'object') return null;
  const { all, any } = raw as { all?: unknown; any?: unknown };
  if ((all !== undefined && !UUID_LIST(all)) || (any !== undefined && !UUID_LIST(any))) return null;
  return [...((all as string[] | undefined) ?? []), ...((any as string[] | undefined) ?? [])].map((x) => x.toLowerCase());
}

/**
 * The resources a request for `wanted` (null: every link) reads in a catalog document of every
 * link: the wanted links' and their related resources (`related`), as availability_snapshot
 * picks them; null when a link's related resources are in a form this does not read.
 */
export function resourcesRead(doc: SnapshotRow, wanted: string[] | null): { all: Set<string>; related: Set<string> } | null {
  const want = wanted ? new Set(wanted) : null;
  const all = new Set<string>();
  const related = new Set<string>();
  for (const l of doc.links) {
    if (want && !want.has(l.resourceId)) continue;
    all.add(l.resourceId);
    const ids = relatedIds(l.related);
    if (!ids) return null;
    for (const id of ids) related.add(id);
  }
  for (const id of related) all.add(id);
  return { all, related };
}

/**
 * The document `availability_snapshot` writes for `opts` (no excluded bookings, the schedule
 * kept), cut from a catalog document of every link over a wider window and the occupancy of the
 * resources it reads over that window: the same rows under the same conditions, in the same
 * order where order is written. Slot usage is given for the resources the request reads only
 * (the answer uses no other); `occupancy` lists resources in `resourcesRead` order.
 */
export function composeRow(
  doc: SnapshotRow,
  occupancy: ReadonlyMap<string, Pick<KeptOccupancy, 's' | 'e' | 'u'>>,
  opts: SnapshotOptions,
  read: { all: Set<string>; related: Set<string> },
): SnapshotRow {
  const w = snapshotWindow(opts);
  const want = opts.resourceIds ? new Set(opts.resourceIds) : null;
  const first = doc.links[0]?.resourceId;
  const occ: SnapshotRow['occupancy'] = [];
  const usage: UsageRow[] = [];
  for (const id of read.all) {
    const o = occupancy.get(id);
    if (!o) continue;
    const s: (number | null)[] = [];
    const e: (number | null)[] = [];
    // [lo, hi) overlaps [wideFrom, wideTo) (an interval is never empty: a check constraint)
    for (let i = 0; i < o.s.length; i++) {
      const lo = o.s[i];
      const hi = o.e[i];
      if ((lo === null || lo < w.wideTo) && (hi === null || hi > w.wideFrom)) {
        s.push(lo);
        e.push(hi);
      }
    }
    if (s.length) occ.push({ r: id, s, e });
    if (o.u) for (const u of o.u) if (u.start >= w.from && u.start < w.to) usage.push(u);
  }
  return {
    service: doc.service,
    links: doc.links.filter((l) => !want || want.has(l.resourceId) || l.resourceId === first),
    resources: doc.resources.filter((r) => read.related.has(r.id)),
    hours: doc.hours.filter((h) => read.all.has(h.resourceId)),
    closings: doc.closings.filter((c) => read.all.has(c.resourceId) && c.end > w.wideFrom && c.start < w.wideTo),
    occupancy: occ,
    prices: doc.prices,
    discounts: doc.discounts,
    capacity: doc.capacity,
    slots: doc.slots.filter((s) => s.start < w.to && (s.rrule !== null || s.start + s.durationSec * 1000 > w.from)),
    usage,
    tickets: doc.tickets,
  };
}

const KEPT_SQL =
  'select availability_kept(?::uuid, ?::uuid, ?::timestamptz, ?::timestamptz, ?::bigint, ?::uuid[], ?::bigint[], ?::boolean) as kept';

const catalogKeyOf = (companyId: string, serviceId: string, cells: { from: number; to: number }) =>
  `${companyId}|${serviceId}|${cells.from}|${cells.to}`;
const occupancyKey = (companyId: string, resourceId: string, cells: { from: number; to: number }, usageOf: string | null) =>
  `${companyId}|${resourceId}|${cells.from}|${cells.to}${usageOf ? `|${usageOf}` : ''}`;

/** Bytes an occupancy weighs against the bound, roughly: the arrays' numbers and the usage rows. */
const occupancySize = (s: unknown[], u: UsageRow[] | null | undefined) => 128 + 32 * s.length + 160 * (u?.length ?? 0);

/**
 * A request's snapshot document, with the versions of what it was cut from when it comes from
 * what the process keeps (the catalog's and each resource's occupancy's, in one string: the same
 * string means the same document for the same request); null versions for a document read fresh.
 */
export interface AvailabilityDocument {
  row: SnapshotRow;
  versions: string | null;
}

/**
 * The snapshot document of a request from what the process keeps, brought up to date with one
 * statement; null when the request is not one the kept data serves (then it is read fresh).
 */
export async function keptSnapshotRow(
  ctx: Ctx,
  company: Company,
  serviceId: string,
  opts: SnapshotOptions,
): Promise<AvailabilityDocument | null> {
  if (opts.excludeBookingIds?.length || opts.ignoreSchedule || opts.adHocSlot) return null;
  const cells = keptCells(opts);
  if (!cells) return null;
  const catalogKey = catalogKeyOf(company.id, serviceId, cells);
  const catalog = catalogs.get(catalogKey);
  if (catalog || catalogsBeingRead.has(catalogKey)) return keptRow(ctx, company, serviceId, opts, cells, catalogKey, catalog);
  // the first request for a catalog not kept: others arriving meanwhile can wait for it (keptCatalogRead)
  const reading = keptRow(ctx, company, serviceId, opts, cells, catalogKey, undefined);
  const settled = reading.then(
    () => undefined,
    () => undefined,
  );
  catalogsBeingRead.set(catalogKey, settled);
  void settled.then(() => catalogsBeingRead.delete(catalogKey));
  return reading;
}

async function keptRow(
  ctx: Ctx,
  company: Company,
  serviceId: string,
  opts: SnapshotOptions,
  cells: { from: number; to: number },
  catalogKey: string,
  kept: KeptCatalog | undefined,
): Promise<AvailabilityDocument | null> {
  const wanted = opts.resourceIds;
  let catalog = kept;
  let readAgain = false;
  // Usually one round; another when the catalog was read (changed, or not kept yet) and the
  // request reads resources the database was not asked about: an answer holds every resource it
  // reads, all at the versions of one snapshot.
  for (let round = 0; round < 3; round++) {
    const read = catalog ? resourcesRead(catalog.row, wanted) : null;
    if (catalog && !read) return null;
    const ids = read ? [...read.all] : [];
    const usageOf = catalog?.usage ? serviceId : null;
    const versions = ids.map((id) => occupancies.get(occupancyKey(company.id, id, cells, usageOf))?.version ?? null);
    const rows = await queryWithParams<{ kept: string }>(ctx.em, KEPT_SQL, [
      company.id,
      serviceId,
      new Date(cells.from).toISOString(),
      new Date(cells.to).toISOString(),
      catalog?.version ?? null,
      `{${ids.join(',')}}`,
      `{${versions.map((v) => v ?? 'NULL').join(',')}}`,
      catalog?.usage ?? false,
    ]);
    const answer = JSON.parse(rows[0].kept) as KeptAnswer;
    if (answer.catalog === null) return null;
    if (answer.doc) {
      readAgain = true;
      const row = answer.doc;
      // a service that is not there is answered (404) from the document, never kept
      if (!row.service) return { row, versions: null };
      keptAvailabilityStats.catalogReads++;
      catalog = { version: answer.catalog, row, usage: row.service.type === 'group' || row.service.type === 'ticket', size: 0 };
      catalog.size = JSON.stringify(row).length;
      catalogs.keep(catalogKey, catalog);
    }
    if (!catalog) return null;
    const now = resourcesRead(catalog.row, wanted);
    if (!now) return null;
    const current = new Map<string, KeptOccupancy>();
    for (const a of answer.resources ?? []) {
      const key = occupancyKey(company.id, a.r, cells, catalog.usage ? serviceId : null);
      if (a.o) {
        // an interval not closed below and open above is compared by the database alone
        if (!a.o.ok) return null;
        readAgain = true;
        keptAvailabilityStats.occupancyReads++;
        const kept: KeptOccupancy = { version: a.v, s: a.o.s, e: a.o.e, u: a.u ?? null, size: occupancySize(a.o.s, a.u) };
        occupancies.keep(key, kept);
        current.set(a.r, kept);
      } else {
        const kept = occupancies.get(key);
        if (kept && kept.version === a.v) current.set(a.r, kept);
      }
    }
    if ([...now.all].every((id) => current.has(id))) {
      keptAvailabilityStats.answers[readAgain ? 'read' : 'kept']++;
      const versions = [...now.all]
        .sort()
        .map((id) => `${id}:${current.get(id)!.version}`)
        .join(',');
      return { row: composeRow(catalog.row, current, opts, now), versions: `${catalog.version};${versions}` };
    }
  }
  return null;
}

/**
 * The catalog document kept for a request's window, as it was last read (it may be older than
 * the database's): what admission weighs a request by before reading anything. Null when none is kept.
 */
export function keptCatalogHint(companyId: string, serviceId: string, opts: SnapshotOptions): SnapshotRow | null {
  const cells = keptCells(opts);
  return cells ? (catalogs.get(catalogKeyOf(companyId, serviceId, cells))?.row ?? null) : null;
}

/**
 * The read of the catalog document for a request's window that a request of this process has
 * under way, if one has (settled when it is done, whatever its outcome), else null: a request
 * finding nothing kept waits for it and is then weighed by what it read, so that many expensive
 * requests arriving together at a process that keeps nothing yet (just started, or a service
 * never asked for here) read the catalog once and the excess is refused before reading anything.
 */
export function keptCatalogRead(companyId: string, serviceId: string, opts: SnapshotOptions): Promise<void> | null {
  const cells = keptCells(opts);
  return cells ? (catalogsBeingRead.get(catalogKeyOf(companyId, serviceId, cells)) ?? null) : null;
}

/**
 * The snapshot document of an availability request: from what the process keeps when it can
 * (see above), else read fresh. Only for answers outside a transaction (what is kept was
 * committed; a transaction's own writes are not in it).
 */
export async function availabilityDocument(
  ctx: Ctx,
  company: Company,
  serviceId: string,
  opts: SnapshotOptions,
): Promise<AvailabilityDocument> {
  const kept = await keptSnapshotRow(ctx, company, serviceId, opts);
  if (kept) return kept;
  keptAvailabilityStats.answers.fresh++;
  return { row: await loadSnapshotRow(ctx, company, serviceId, opts), versions: null };
}
