import type { Ctx } from '../../kernel/context';
import { queryWithParams } from '../../db/params';
import { DomainError, notFound, sqlState } from '../../shared/errors';
import { MIN_TIMESTAMP_MS } from '../../shared/time';
import { unavailable } from './booking.store';
import { normaliseRelated, type PreloadedSnapshot, type SnapshotRow } from '../availability/snapshot';
import { bookingSnapshotOptions } from '../availability/availability.service';
import { Resource, Service } from '../catalog/catalog.entity';
import { mapped } from './booking-placement.service';
import { KeptDocuments } from '../../kernel/kept-documents';

/**
 * A booking's check against the catalog kept in the process.
 *
 * The check of a new booking reads two kinds of data: the catalog (service, resource, working
 * hours, closings, prices and the other rules) and the occupancy. For a grid service (fixed or
 * flexible) on a resource without related resources, the occupancy enters the check in one
 * way only: a start is refused when its buffered time overlaps an occupied interval of the
 * resource. The occupancy row the insert writes is exactly that buffered time, and the
 * exclusion constraint on `booking_occupancy` refuses it when it overlaps another: the same
 * verdict, given by the database in the statement that writes the booking (the property test
 * `availability/kept-catalog-check.test.ts` holds the engine to it on random cases).
 *
 * So such a booking is checked against the catalog alone, kept here per company, service,
 * resource and year of the calendar with the company's catalog version, and written by
 * `booking_insert_at_version`, which writes nothing unless the catalog is still at that
 * version (a trigger gives the company a new version with every change of a catalog row:
 * src/db/functions/catalog_touch.sql). A booking then costs one statement instead of two,
 * and the check can never rest on a catalog older than the one the insert sees. A refusal by
 * the kept catalog is not trusted (it may be older than the database's): the full check
 * answers it.
 */

interface Kept {
  version: string;
  service: Record<string, unknown>;
  resource: Record<string, unknown>;
  row: SnapshotRow;
  /** the end of the span the kept document covers, margin included */
  to: number;
  /** the length of the document's JSON, for the bound on what is kept */
  size: number;
}

const DAY = 86_400_000;
/**
 * A kept document covers a span of the calendar, from a little before to a little after (the
 * checks of bookings near its edges reach beyond it): a booking's span is its start's.
 */
const SPAN = 366 * DAY;
const MARGIN = 3 * DAY;
const LAST_INSTANT = Date.parse('9999-12-31T00:00:00Z');
/**
 * What a process keeps: documents (one resource and span is a few kilobytes) up to this many
 * and this much JSON in all, the least recently used going first; a larger document is used
 * once, not kept.
 */
const MAX_KEPT = 5_000;
const MAX_KEPT_CHARS = 64 * 1024 * 1024;
const MAX_DOCUMENT_CHARS = 1024 * 1024;

const kept = new KeptDocuments<Kept>(MAX_KEPT, MAX_KEPT_CHARS, MAX_DOCUMENT_CHARS);

/**
 * How single bookings were checked, for /metrics: `written` and `occupied` against the kept
 * catalog (written, or refused by the exclusion constraint); `changed` (the catalog moved on
 * before the insert), `rechecked` (the kept catalog refused) and `full` (not a booking the
 * kept catalog can check) in full. `loads`: documents read to be kept.
 */
export const keptCatalogStats = {
  loads: 0,
  outcomes: { written: 0, occupied: 0, changed: 0, rechecked: 0, full: 0 },
  /** documents and characters of JSON kept now */
  held: () => kept.held,
};

/** SQLSTATE of `booking_insert_at_version` when the catalog changed since the check read it (src/db/functions). */
export const CATALOG_CHANGED = 'BKV01';

const KEPT_CATALOG =
  'select v, s, r, snap::text as snap from booking_kept_catalog(?::uuid, ?::uuid, ?::uuid, ?::timestamptz, ?::timestamptz)';

/** Service types whose bookings occupancy can only refuse by overlap (the grid services without open-ended rentals). */
const KEPT_TYPES = new Set(['fixed', 'flexible']);

export interface KeptCheck {
  version: string;
  service: Service;
  resource: Resource;
  /** the document to check the booking with (no occupancy), with the options it covers */
  preloaded: PreloadedSnapshot;
}

/** The key of the document a booking of `resourceId` starting at `start` is checked with: one per span of the calendar. */
const keyOf = (companyId: string, serviceId: string, resourceId: string, start: number): string =>
  `${companyId}|${serviceId}|${resourceId}|${Math.floor(start / SPAN)}`;

/** Reads of documents under way, by key. */
const loading = new Map<string, Promise<Kept | null>>();

/**
 * Reads and keeps the document of `key` (company, service and resource `ids`, from `from` to
 * `to`): null when the company has no catalog version.
 */
async function loadKept(ctx: Ctx, key: string, ids: string[], from: number, to: number): Promise<Kept | null> {
  const rows = await queryWithParams<{
    v: string | null;
    s: Record<string, unknown> | null;
    r: Record<string, unknown> | null;
    snap: string;
  }>(ctx.em, KEPT_CATALOG, [...ids, new Date(from).toISOString(), new Date(to).toISOString()]);
  const got = rows[0];
  if (!got?.s) throw notFound('service');
  if (!got.r) throw notFound('resource');
  if (got.v === null) return null;
  keptCatalogStats.loads++;
  const k = { version: got.v, service: got.s, resource: got.r, row: JSON.parse(got.snap) as SnapshotRow, to, size: got.snap.length };
  kept.keep(key, k);
  return k;
}

/**
 * The catalog of a booking of `resourceId` at `start`, kept or loaded now, when the booking can
 * be checked against it (see above); null when it cannot (the full check runs then). 404 when
 * the service or resource is not in the company.
 */
export async function keptCheck(
  ctx: Ctx,
  companyId: string,
  serviceId: string,
  resourceId: string,
  start: number,
  durationSec: number | undefined,
): Promise<KeptCheck | null> {
  const opts = bookingSnapshotOptions(start, resourceId, durationSec);
  // the document of a check reaches from two days before the start to two days after its reach
  const needFrom = opts.from - 2 * DAY;
  const needTo = opts.to + (opts.reachSec ?? 0) * 1000 + 2 * DAY;
  const span = Math.floor(start / SPAN);
  // within the years a timestamp of the database and an ISO string both write
  const from = Math.max(span * SPAN - MARGIN, MIN_TIMESTAMP_MS);
  const to = Math.min((span + 1) * SPAN + MARGIN, LAST_INSTANT);
  // a booking whose check reaches beyond its span (a long stay near the edge) is checked in full
  if (needFrom < from || needTo > to) return null;
  const key = keyOf(companyId, serviceId, resourceId, start);
  let k = kept.get(key);
  if (!k) {
    // bookings arriving while the document is read (after a catalog change, say) share the read
    let load = loading.get(key);
    if (!load) {
      load = loadKept(ctx, key, [companyId, serviceId, resourceId], from, to);
      loading.set(key, load);
      void load.then(
        () => loading.delete(key),
        () => loading.delete(key),
      );
    }
    const got = await load;
    if (!got) return null;
    k = got;
  }
  if (!KEPT_TYPES.has(k.row.service?.type ?? '')) return null;
  const link = k.row.links.find((l) => l.resourceId === resourceId);
  if (link) {
    const related = normaliseRelated(link.related);
    if (related.all.length || related.any.length) return null;
  }
  return {
    version: k.version,
    service: mapped(ctx, Service, k.service),
    resource: mapped(ctx, Resource, k.resource),
    // the document covers the check's window with the reach the kept window allows
    preloaded: { row: k.row, opts: { ...opts, reachSec: Math.floor((k.to - 2 * DAY - opts.to) / 1000) } },
  };
}

/** Forgets the kept catalog of a booking's resource (the insert found the catalog changed). */
function forgetKept(companyId: string, serviceId: string, resourceId: string, start: number): void {
  kept.forget(keyOf(companyId, serviceId, resourceId, start));
}

/**
 * Places a booking with the kept catalog `checked`, or answers null for the full check: when
 * there is none (not a booking it can check), or when it refuses the booking (a refusal is
 * confirmed by the full check, since the kept catalog may be older than the database's).
 */
export async function placeKept<T>(checked: KeptCheck | null, place: (c: KeptCheck) => Promise<T>): Promise<T | null> {
  const outcomes = keptCatalogStats.outcomes;
  if (!checked) {
    outcomes.full++;
    return null;
  }
  try {
    return await place(checked);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    outcomes.rechecked++;
    return null;
  }
}

/**
 * Commits a booking checked against the kept catalog. When the catalog changed before the
 * insert, the document is forgotten and `full` (the full check and commit) answers; when the
 * exclusion constraint refuses the time, the answer is the full check's 409.
 */
export async function commitChecked<T>(
  where: { companyId: string; serviceId: string; resourceId: string; start: number },
  commit: () => Promise<T>,
  full: () => Promise<T>,
): Promise<T> {
  const outcomes = keptCatalogStats.outcomes;
  try {
    const done = await commit();
    outcomes.written++;
    return done;
  } catch (err) {
    if (sqlState(err) === CATALOG_CHANGED) {
      outcomes.changed++;
      forgetKept(where.companyId, where.serviceId, where.resourceId, where.start);
      return full();
    }
    if (sqlState(err) === '23P01') {
      outcomes.occupied++;
      throw unavailable();
    }
    throw err;
  }
}
