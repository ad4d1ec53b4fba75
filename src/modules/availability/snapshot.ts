import type { Ctx } from '../../kernel/context';
import type { Company } from '../company/company.entity';
import type { RelatedResources, ServiceSettings } from '../catalog/catalog.entity';
import type { PriceRuleInput, DiscountInput } from '../pricing/engine/types';
import type { ServiceType } from '../../shared/service-type';
import type { LimitationInput } from '../../shared/limitation';
import { createPricer } from '../pricing/engine/pricer';
import { compileLimitation } from '../pricing/engine/limitation';
import { parseDuration, parseLocalTime } from '../../shared/duration';
import { expandOccurrences } from '../scheduling/recurrence';
import { queryWithParams } from '../../db/params';
import { positive } from './engine/plan';
import { MIN_TIMESTAMP_MS } from '../../shared/time';
import type {
  AvailabilitySnapshot,
  CapacityRuleInput,
  ResourceInput,
  ResourceSchedule,
  SlotOccurrence,
  TimeInterval,
  WorkingHoursRuleInput,
} from './engine/types';

/**
 * Loads everything one availability computation needs in ONE SQL statement (a JSON document
 * built by PostgreSQL), whatever the number of resources, days or rules, and turns it into the
 * engine's snapshot. Occupancy, closing periods and slots are limited to the requested range,
 * widened by the longest stay and the buffers so that edge candidates are judged correctly.
 */

/** The snapshot document as PostgreSQL builds it: plain data, so it can move to a worker thread. */
export interface SnapshotRow {
  service: null | { id: string; type: ServiceType; settings: ServiceSettings; disabled_at: string | null; name: string };
  links: { resourceId: string; name: string; disabled: boolean; related: RelatedResources | string[] | null }[];
  resources: { id: string; disabled: boolean }[];
  hours: {
    id: string;
    resourceId: string;
    priority: number;
    createdAt: number;
    start: number | null;
    end: number | null;
    serviceIds: string[];
    days: { daysOfWeek: number; hours: { start: string; end: string }[] }[];
  }[];
  closings: { resourceId: string; start: number; end: number; serviceIds: string[] }[];
  /** per resource, the starts and ends of its occupied intervals in start order (null: unbounded) */
  occupancy: { r: string; s: (number | null)[]; e: (number | null)[] }[];
  prices: {
    id: string;
    type: ServiceType;
    priority: number;
    createdAt: number;
    price: number;
    comparedPrice: number | null;
    durationSec: number | null;
    minDurationSec: number | null;
    maxDurationSec: number | null;
    ticketId: string | null;
    limitation: LimitationInput | null;
  }[];
  discounts: {
    id: string;
    type: 'ticket' | 'spots';
    priority: number;
    createdAt: number;
    sumsUp: boolean;
    rules: DiscountInput['rules'];
    limitation: LimitationInput | null;
  }[];
  capacity: (Omit<CapacityRuleInput, 'matches'> & { limitation: LimitationInput | null })[];
  slots: {
    id: string;
    resourceId: string | null;
    start: number;
    durationSec: number;
    rrule: string | null;
    timeZone: string | null;
    until: number | null;
    exdates: number[];
  }[];
  usage: { resourceId: string; start: number; spots: number; perTicket: Record<string, number> }[];
  tickets: { id: string; enabled: boolean }[];
}

/** One statement: the `availability_snapshot` function (see its migration) builds the document. */
const SQL =
  'select availability_snapshot(?::uuid, ?::uuid, ?::timestamptz, ?::timestamptz, ?::timestamptz, ?::timestamptz, ?::uuid[], ?::uuid[]) as snap';

/** A PostgreSQL array literal of UUIDs (ids are validated UUIDs), or null. */
const uuidArray = (ids: readonly string[] | null | undefined): string | null => (ids && ids.length ? `{${ids.join(',')}}` : null);

export interface SnapshotOptions {
  from: number;
  to: number;
  /** resources to compute; null = every linked, enabled resource */
  resourceIds: string[] | null;
  /** how far past `to` a candidate can reach (the requested length), in seconds */
  reachSec?: number;
  /** bookings whose occupancy is ignored (a booking being moved does not block itself) */
  excludeBookingIds?: string[];
  /** replace working hours, closings and the horizon with "always open" (admin ignoreSchedule) */
  ignoreSchedule?: boolean;
  /** ignoreSchedule on group/ticket services: the occurrence to book */
  adHocSlot?: { start: number; durationSec: number } | null;
}

export interface LoadedSnapshot {
  snapshot: AvailabilitySnapshot;
  serviceName: string;
  /** linked resources in answer order (enabled or not) */
  linked: { id: string; name: string; disabled: boolean; related: { all: string[]; any: string[] } }[];
  ticketIds: string[];
  disabled: boolean;
}

const DAY = 86_400_000;

export function normaliseRelated(raw: RelatedResources | string[] | null | undefined): { all: string[]; any: string[] } {
  if (!raw) return { all: [], any: [] };
  if (Array.isArray(raw)) return { all: raw, any: [] };
  return { all: raw.all ?? [], any: raw.any ?? [] };
}

/** Seconds of a setting, or a fallback. */
const secs = (v: string | null | undefined, fallback: number | null): number | null => (v ? (parseDuration(v) ?? fallback) : fallback);

/**
 * The service's booking horizon in seconds as the engine applies it (`engine/plan.ts`: only a
 * positive, finite period bounds the window), or null when it has none.
 */
export function horizonSecOf(row: SnapshotRow): number | null {
  return positive(secs(row.service?.settings?.availabilityPeriod, null));
}

export async function loadSnapshot(ctx: Ctx, company: Company, serviceId: string, opts: SnapshotOptions): Promise<LoadedSnapshot | null> {
  const row = await loadSnapshotRow(ctx, company, serviceId, opts);
  return row.service ? buildSnapshot(ctx.now.getTime(), company.timeZone, row, opts) : null;
}

/**
 * The windows a snapshot document is read for, epoch milliseconds: occupancy and closings in
 * [wideFrom, wideTo), slots and slot usage in [from, to). Bookings, stays and buffers reach
 * beyond the candidates' start range: the wide window adds the requested length plus two days
 * of margin for buffers. Nothing is stored before year 0001, and PostgreSQL reads no earlier
 * ISO year. Each bound is a whole millisecond, as its ISO text sent to the database is.
 */
export function snapshotWindow(opts: SnapshotOptions): { wideFrom: number; wideTo: number; from: number; to: number } {
  const ms = (x: number) => new Date(x).getTime();
  return {
    wideFrom: ms(Math.max(opts.from - 2 * DAY, MIN_TIMESTAMP_MS)),
    wideTo: ms(opts.to + Math.max(0, opts.reachSec ?? 0) * 1000 + 2 * DAY),
    from: ms(Math.max(opts.from - DAY, MIN_TIMESTAMP_MS)),
    to: ms(opts.to + DAY),
  };
}

/** The parameters of `availability_snapshot` for these options, in its order (company and service first). */
export function snapshotParams(company: Company, serviceId: string, opts: SnapshotOptions): unknown[] {
  const w = snapshotWindow(opts);
  return [
    company.id,
    serviceId,
    new Date(w.wideFrom).toISOString(),
    new Date(w.wideTo).toISOString(),
    new Date(w.from).toISOString(),
    new Date(w.to).toISOString(),
    uuidArray(opts.excludeBookingIds),
    opts.resourceIds ? `{${opts.resourceIds.join(',')}}` : null,
  ];
}

/** The snapshot document of one service (its `service` is null when there is no such service). */
export async function loadSnapshotRow(ctx: Ctx, company: Company, serviceId: string, opts: SnapshotOptions): Promise<SnapshotRow> {
  const rows = await queryWithParams<{ snap: SnapshotRow }>(ctx.em, SQL, snapshotParams(company, serviceId, opts));
  return rows[0].snap;
}

/** A snapshot document loaded ahead of the check that reads it, with the options it was loaded for. */
export interface PreloadedSnapshot {
  row: SnapshotRow;
  opts: SnapshotOptions;
}

/**
 * Whether a document loaded for `loaded` holds everything a snapshot for `wanted` would: the
 * same window and resources, nothing excluded or replaced, and at least the reach asked for.
 */
export function preloadCovers(loaded: SnapshotOptions, wanted: SnapshotOptions): boolean {
  const sameIds = (a: string[] | null, b: string[] | null) =>
    a === null || b === null ? a === b : a.length === b.length && a.every((id, i) => id === b[i]);
  return (
    loaded.from === wanted.from &&
    loaded.to === wanted.to &&
    sameIds(loaded.resourceIds, wanted.resourceIds) &&
    (loaded.reachSec ?? 0) >= (wanted.reachSec ?? 0) &&
    !loaded.excludeBookingIds?.length &&
    !wanted.excludeBookingIds?.length &&
    !loaded.ignoreSchedule &&
    !wanted.ignoreSchedule
  );
}

/** The engine's snapshot from the document; pure, so it also runs on a worker thread. */
export function buildSnapshot(now: number, zone: string, row: SnapshotRow, opts: SnapshotOptions): LoadedSnapshot {
  const svc = row.service!;
  const settings = svc.settings ?? {};
  const durationSec = secs(settings.duration, null) ?? secs(settings.timeInterval, null) ?? 3600;
  const ignore = !!opts.ignoreSchedule;

  const disabledRelated = new Set(row.resources.filter((r) => r.disabled).map((r) => r.id));
  const hoursBy = new Map<string, WorkingHoursRuleInput[]>();
  for (const h of row.hours) {
    const list = hoursBy.get(h.resourceId) ?? [];
    list.push({
      id: h.id,
      priority: h.priority,
      createdAt: h.createdAt,
      windowStart: h.start,
      windowEnd: h.end,
      serviceIDs: h.serviceIds ?? [],
      days: (h.days ?? []).map((d) => ({
        daysOfWeek: d.daysOfWeek,
        hours: d.hours.map((x) => ({ start: parseLocalTime(x.start, true) ?? 0, end: parseLocalTime(x.end, true) ?? 0 })),
      })),
    });
    hoursBy.set(h.resourceId, list);
  }
  const closingsBy = new Map<string, { start: number; end: number; serviceIDs: string[] }[]>();
  for (const cl of row.closings) {
    const list = closingsBy.get(cl.resourceId) ?? [];
    list.push({ start: cl.start, end: cl.end, serviceIDs: cl.serviceIds ?? [] });
    closingsBy.set(cl.resourceId, list);
  }
  const occBy = new Map<string, TimeInterval[]>();
  for (const o of row.occupancy) {
    const list: TimeInterval[] = new Array(o.s.length);
    for (let i = 0; i < o.s.length; i++) list[i] = { start: o.s[i] ?? -Infinity, end: o.e[i] ?? Infinity };
    occBy.set(o.r, list);
  }
  const ALWAYS_OPEN: WorkingHoursRuleInput[] = [
    {
      id: 'always',
      priority: 0,
      createdAt: 0,
      windowStart: null,
      windowEnd: null,
      serviceIDs: [],
      days: [{ daysOfWeek: 127, hours: [{ start: 0, end: 1440 }] }],
    },
  ];
  const schedule = (id: string): ResourceSchedule => ({
    id,
    workingHours: ignore ? ALWAYS_OPEN : (hoursBy.get(id) ?? []),
    closingPeriods: ignore ? [] : (closingsBy.get(id) ?? []),
    occupied: occBy.get(id) ?? [],
  });

  const linked = row.links.map((l) => ({ id: l.resourceId, name: l.name, disabled: l.disabled, related: normaliseRelated(l.related) }));
  const wanted = opts.resourceIds ? new Set(opts.resourceIds) : null;
  const resources: ResourceInput[] = [];
  for (const l of linked) {
    if (l.disabled || (wanted && !wanted.has(l.id))) continue;
    // A disabled related resource can never be booked alongside.
    const related = { all: l.related.all, any: l.related.any.filter((id) => !disabledRelated.has(id)) };
    const blockedAll = l.related.all.some((id) => disabledRelated.has(id));
    resources.push({
      ...schedule(l.id),
      related: blockedAll
        ? { all: ['00000000-0000-4000-8000-000000000000'], any: [] }
        : related.all.length || related.any.length
          ? related
          : null,
    });
  }
  const inAnswer = new Set(resources.map((r) => r.id));
  const relatedResources = row.resources.filter((r) => !r.disabled && !inAnswer.has(r.id)).map((r) => schedule(r.id));

  let slots: SlotOccurrence[] = [];
  if (svc.type === 'group' || svc.type === 'ticket') {
    const usage = new Map<string, { spots: number; perTicket: Record<string, number> }>();
    for (const u of row.usage) usage.set(`${u.resourceId}|${u.start}`, { spots: u.spots, perTicket: u.perTicket ?? {} });
    const occurrence = (resourceID: string, start: number, durationSec: number): SlotOccurrence => {
      const u = usage.get(`${resourceID}|${start}`);
      return { resourceID, start, durationSec, bookedSpots: u?.spots ?? 0, bookedSpotsPerTicket: u?.perTicket ?? {} };
    };
    if (ignore && opts.adHocSlot) {
      slots = resources.map((r) => occurrence(r.id, opts.adHocSlot!.start, opts.adHocSlot!.durationSec));
    } else {
      // A resource's own slot wins over a service-wide one starting at the same instant.
      const seen = new Set<string>();
      const ordered = [...row.slots].sort((a, b) => (a.resourceId ? 0 : 1) - (b.resourceId ? 0 : 1));
      for (const s of ordered) {
        const starts =
          s.rrule && s.timeZone
            ? expandOccurrences(
                { rrule: s.rrule, timeZone: s.timeZone, until: s.until, start: s.start, exdates: s.exdates ?? [] },
                { from: opts.from - s.durationSec * 1000, to: opts.to },
              )
            : [s.start];
        const targets = s.resourceId ? [s.resourceId] : resources.map((r) => r.id);
        for (const rid of targets) {
          if (!inAnswer.has(rid)) continue;
          for (const st of starts) {
            const key = `${rid}|${st}`;
            if (seen.has(key)) continue;
            seen.add(key);
            slots.push(occurrence(rid, st, s.durationSec));
          }
        }
      }
    }
  }

  const capacityRules: CapacityRuleInput[] = row.capacity.map((k) => ({
    id: k.id,
    type: k.type,
    priority: k.priority,
    createdAt: k.createdAt,
    spots: k.spots,
    spotsPerTicket: k.spotsPerTicket ?? {},
    matches: k.limitation ? compileLimitation(k.limitation, zone) : null,
  }));
  const currency = settings.currency ?? 'EUR';
  const ticketIds = row.tickets.filter((t) => t.enabled).map((t) => t.id);
  const priceRules: PriceRuleInput[] = row.prices.map((p) => ({
    id: p.id,
    type: p.type,
    priority: p.priority,
    createdAt: p.createdAt,
    durationSec: p.durationSec,
    minDurationSec: p.minDurationSec,
    maxDurationSec: p.maxDurationSec,
    price: p.price,
    comparedPrice: p.comparedPrice,
    ticketID: p.ticketId,
    limitation: p.limitation,
  }));
  const discounts: DiscountInput[] = row.discounts.map((d) => ({
    id: d.id,
    type: d.type,
    priority: d.priority,
    createdAt: d.createdAt,
    sumsUp: d.sumsUp,
    rules: d.rules ?? [],
    limitation: d.limitation,
  }));
  const snapshot: AvailabilitySnapshot = {
    zone,
    now,
    service: {
      id: svc.id,
      type: svc.type,
      durationSec,
      timeIntervalSec: secs(settings.timeInterval, null),
      bufferBeforeSec: secs(settings.bufferBefore, 0) ?? 0,
      bufferAfterSec: secs(settings.bufferAfter, 0) ?? 0,
      availabilityPeriodSec: ignore ? null : secs(settings.availabilityPeriod, null),
      checkInMinute: settings.checkInTime ? parseLocalTime(settings.checkInTime) : null,
      checkOutMinute: settings.checkOutTime ? parseLocalTime(settings.checkOutTime) : null,
      currency,
    },
    resources,
    relatedResources,
    slots,
    capacityRules,
    pricer: createPricer({ serviceType: svc.type, currency, zone, priceRules, discounts, ticketIDs: ticketIds }),
  };
  return { snapshot, serviceName: svc.name, linked, ticketIds, disabled: svc.disabled_at !== null };
}
