import { EVERYTHING, type AvailabilityNotes } from '../../kernel/live';
import { parseDuration } from '../../shared/duration';

/**
 * What an `availabilityChanged` subscription reports, from the changes the database announces
 * (pure; availability-live.service.ts feeds it). A change of a row is narrowed to the service
 * (rows of another service are ignored), to the resources it touches (a resource's rows reach
 * the linked resources that are it or hold it as a related resource) and to its time (a
 * booking's occupancy, a closing period, a slot occurrence's spots), widened by the service's
 * longest booking span on each side: a time whose booking would overlap the change may change.
 */

/** The service a subscription watches. */
export interface Watched {
  serviceId: string;
  /** the linked resources, sorted */
  resources: string[];
  /** resource id -> the linked resources whose times it affects (itself, or as a related resource) */
  reach: Map<string, string[]>;
  /** how far a change reaches on each side, ms; null: every time of the window (stays) */
  spanMs: number | null;
}

export interface AvailabilityChangeJson {
  serviceID: string;
  resourceIDs: string[];
  from: Date;
  to: Date;
}

const HOUR_MS = 3_600_000;
/** Tables whose change changes what is watched: the service's settings, links and resources. */
const RELINKING = new Set(['service', 'service_resource_link', 'resource']);
/** What flexible services and services without a duration are assumed to span. */
const DEFAULT_SPAN_MS = 24 * HOUR_MS;

/** A link's related resources: a list, or `{all, any}`. */
function relatedOf(raw: unknown): string[] {
  const list = Array.isArray(raw)
    ? raw
    : raw && typeof raw === 'object'
      ? [...((raw as { all?: unknown[] }).all ?? []), ...((raw as { any?: unknown[] }).any ?? [])]
      : [];
  return list.filter((v): v is string => typeof v === 'string').map((v) => v.toLowerCase());
}

/** The watched service from its type, settings and links. */
export function watchedOf(
  serviceId: string,
  type: string,
  settings: { duration?: string | null; bufferBefore?: string | null; bufferAfter?: string | null } | null,
  links: { resourceId: string; related: unknown }[],
): Watched {
  const reach = new Map<string, Set<string>>();
  const add = (from: string, to: string) => {
    let set = reach.get(from);
    if (!set) reach.set(from, (set = new Set()));
    set.add(to);
  };
  for (const l of links) {
    const rid = l.resourceId.toLowerCase();
    add(rid, rid);
    for (const related of relatedOf(l.related)) add(related, rid);
  }
  const buffers = ((parseDuration(settings?.bufferBefore) ?? 0) + (parseDuration(settings?.bufferAfter) ?? 0)) * 1000;
  const duration = parseDuration(settings?.duration);
  const spanMs = type === 'days' ? null : (type === 'flexible' || !duration ? DEFAULT_SPAN_MS : duration * 1000) + buffers;
  return {
    serviceId,
    resources: [...new Set(links.map((l) => l.resourceId.toLowerCase()))].sort(),
    reach: new Map([...reach].map(([k, v]) => [k, [...v].sort()])),
    spanMs,
  };
}

/**
 * The part of the window [from, to) (epoch ms) whose times the announced changes may have
 * changed, or null when none did. `relinked` is set when a link or the service itself changed
 * (the watched resources must be read again).
 */
export function changeOf(
  w: Watched,
  notes: AvailabilityNotes,
  from: number,
  to: number,
): { change: AvailabilityChangeJson | null; relinked: boolean } {
  const whole = (resources: readonly string[]) => ({
    serviceID: w.serviceId,
    resourceIDs: [...resources],
    from: new Date(from),
    to: new Date(to),
  });
  if (notes === EVERYTHING) return { change: whole(w.resources), relinked: true };
  let lo = Infinity;
  let hi = -Infinity;
  const resources = new Set<string>();
  let relinked = false;
  for (const n of notes) {
    if (n.serviceId !== null && n.serviceId !== w.serviceId) continue;
    if (RELINKING.has(n.table)) relinked = true;
    const touched = n.resourceId === null ? w.resources : (w.reach.get(n.resourceId) ?? (n.serviceId !== null ? [n.resourceId] : []));
    if (!touched.length) continue;
    let a = from;
    let b = to;
    if (w.spanMs !== null && (n.from !== null || n.until !== null)) {
      if (n.from !== null) a = Math.max(from, n.from - w.spanMs);
      if (n.until !== null) b = Math.min(to, n.until + w.spanMs);
    }
    if (a >= b) continue;
    lo = Math.min(lo, a);
    hi = Math.max(hi, b);
    for (const r of touched) resources.add(r);
  }
  if (!resources.size) return { change: null, relinked };
  return { change: { serviceID: w.serviceId, resourceIDs: [...resources].sort(), from: new Date(lo), to: new Date(hi) }, relinked };
}

/** Two changes not yet sent, as one. */
export function mergeChanges(a: AvailabilityChangeJson, b: AvailabilityChangeJson): AvailabilityChangeJson {
  return {
    serviceID: a.serviceID,
    resourceIDs: [...new Set([...a.resourceIDs, ...b.resourceIDs])].sort(),
    from: a.from <= b.from ? a.from : b.from,
    to: a.to >= b.to ? a.to : b.to,
  };
}
