import { invalid, notFound } from '../../shared/errors';
import { formatDuration, parseDuration } from '../../shared/duration';
import { formatTimestamp } from '../../shared/time';
import type { Check } from '../../shared/validate';
import { Resource, ServiceResourceLink, type Service } from '../catalog/catalog.entity';
import { parseRepeat, type RepeatSpec } from './recurrence';
import type { Slot } from './scheduling.entity';
import { MAX_SLOT_DURATION_SEC, type SlotSeries } from './slot-expand';
import type { Ctx } from '../../kernel/context';

/** Whether a slot is one occurrence or a series (an RRULE). */
export const SLOT_TYPES = ['single', 'recurring'] as const;
export type SlotType = (typeof SLOT_TYPES)[number];

/** Slot JSON, shared by the slot operations and the schedule. */
export interface SlotJson {
  id: string;
  serviceID: string;
  /** null: the slot applies to every resource linked to the service */
  resourceID: string | null;
  startTime: string;
  duration: string;
  rrule: string | null;
  /** `single` (one occurrence) or `recurring` (an RRULE series) */
  type: SlotType;
  repeat: { rrule: string; timeZone: string; until: string | null } | null;
  createdAt: string;
  updatedAt: string;
}

export function slotJson(s: Slot, occurrence?: { start: number; resourceId: string }): SlotJson {
  return {
    id: s.id,
    serviceID: s.serviceId,
    resourceID: occurrence ? occurrence.resourceId : s.resourceId,
    startTime: formatTimestamp(occurrence ? occurrence.start : s.startTime)!,
    duration: formatDuration(s.durationSec),
    rrule: s.rrule,
    type: s.rrule ? 'recurring' : 'single',
    repeat: s.rrule ? { rrule: s.rrule, timeZone: s.timeZone!, until: formatTimestamp(s.until) } : null,
    createdAt: formatTimestamp(s.createdAt)!,
    updatedAt: formatTimestamp(s.updatedAt)!,
  };
}

export function seriesOf(s: Slot): SlotSeries {
  return {
    id: s.id,
    resourceId: s.resourceId,
    start: s.startTime.getTime(),
    durationSec: s.durationSec,
    rrule: s.rrule,
    timeZone: s.timeZone,
    until: s.until ? s.until.getTime() : null,
    exdates: s.exdates ?? [],
  };
}

/** Slots exist for services booked at scheduled times only. */
export function assertSlotService(service: Service): void {
  if (service.type !== 'group' && service.type !== 'ticket') {
    throw invalid('slots apply to group and ticket services', [{ path: 'serviceID', message: `is a ${service.type} service` }]);
  }
}

/** A slot length: the given ISO duration, else the service's duration. */
export function checkSlotDuration(c: Check, path: string, raw: unknown, fallback: Service | null): number | undefined {
  if (raw === undefined || raw === null) {
    if (!fallback) return undefined;
    const sec = parseDuration(fallback.settings?.duration);
    if (sec === null || sec <= 0) return (c.fail(path, 'is required: the service has no duration'), undefined);
    return Math.min(sec, MAX_SLOT_DURATION_SEC);
  }
  const d = c.duration(path, raw, { positive: true });
  if (d && d.seconds > MAX_SLOT_DURATION_SEC) return (c.fail(path, 'must be at most P31D'), undefined);
  return d?.seconds;
}

/**
 * A `repeat` object: the RRULE is validated by the recurrence rules; `timeZone` defaults to
 * `zone` (the company's, or the series' own on updates). Null or absent: no repetition.
 */
export function checkRepeat(c: Check, path: string, raw: unknown, zone: string, start: number | undefined): RepeatSpec | null | undefined {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) return (c.fail(path, 'must be an object {rrule, timeZone, until}'), undefined);
  const r = raw as Record<string, unknown>;
  // GraphQL's DateTime scalar hands over a Date; the parser reads RFC 3339 text.
  const until = r.until instanceof Date ? (Number.isFinite(r.until.getTime()) ? r.until.toISOString() : 'invalid') : r.until;
  const { value, errors } = parseRepeat({ rrule: r.rrule, timeZone: r.timeZone ?? zone, until }, path);
  if (errors) {
    for (const e of errors) c.fail(e.path, e.message);
    return undefined;
  }
  if (value!.until !== null && start !== undefined && value!.until < start)
    c.fail(`${path}.until`, 'must not be before the start of the series');
  return value;
}

/** True when the resource is linked to the service. */
export async function isLinked(ctx: Ctx, companyId: string, serviceId: string, resourceId: string): Promise<boolean> {
  return (await ctx.em.count(ServiceResourceLink, { companyId, serviceId, resourceId })) > 0;
}

/**
 * A resource of the company (404 otherwise) that is linked to the service (400 otherwise):
 * a slot on a resource that cannot be booked for the service would never be used.
 */
export async function linkedResourceOf(ctx: Ctx, companyId: string, serviceId: string, resourceId: string, path: string): Promise<string> {
  if (!(await ctx.em.count(Resource, { companyId, id: resourceId }))) throw notFound('resource');
  if (!(await isLinked(ctx, companyId, serviceId, resourceId))) {
    throw invalid('the resource is not linked to the service', [{ path, message: 'is not linked to this service' }]);
  }
  return resourceId;
}
