import { LockMode } from '@mikro-orm/core';
import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { invalid, notFound } from '../../shared/errors';
import { Check } from '../../shared/validate';
import type { Company } from '../company/company.entity';
import { getServiceInCompany } from '../catalog/catalog.lookup';
import { excludeOccurrence, isOccurrence, splitSeries, truncateBefore, type RepeatSpec } from './recurrence';
import { Slot } from './scheduling.entity';
import { seriesSpec, shiftExdates } from './slot-expand';
import {
  assertSlotService,
  checkRepeat,
  checkSlotDuration,
  isLinked,
  linkedResourceOf,
  seriesOf,
  slotJson,
  type SlotJson,
} from './slot.input';
import { inTransaction } from '../../kernel/transaction';

export interface CreateSlotInput {
  startTime?: unknown;
  duration?: unknown;
  resourceID?: unknown;
  repeat?: unknown;
}

/** Creates a slot of a group or ticket service: one occurrence, or a series when `repeat` is given. */
export async function createSlot(ctx: Ctx, companyId: string, serviceId: string, input: CreateSlotInput): Promise<SlotJson> {
  const company = await companyForMerchant(ctx, companyId, 'slots.write');
  const service = await getServiceInCompany(ctx, company.id, serviceId);
  assertSlotService(service);
  const c = new Check();
  const start = c.timestamp('startTime', input.startTime, true);
  const durationSec = checkSlotDuration(c, 'duration', input.duration, service);
  const resourceId = c.uuid('resourceID', input.resourceID);
  const repeat = checkRepeat(c, 'repeat', input.repeat, company.timeZone, start);
  c.done('invalid slot');
  if (resourceId) await linkedResourceOf(ctx, company.id, service.id, resourceId, 'resourceID');
  const slot = ctx.em.create(Slot, {
    companyId: company.id,
    serviceId: service.id,
    resourceId: resourceId ?? null,
    startTime: new Date(start!),
    durationSec: durationSec!,
    ...repeatFields(repeat ?? null),
    exdates: [],
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  return slotJson(slot);
}

function repeatFields(r: RepeatSpec | null): Pick<Slot, 'rrule' | 'timeZone' | 'until'> {
  return r
    ? { rrule: r.rrule, timeZone: r.timeZone, until: r.until === null ? null : new Date(r.until) }
    : { rrule: null, timeZone: null, until: null };
}

/** Slots of a service, by start. */
export async function listSlots(ctx: Ctx, companyId: string, serviceId: string): Promise<SlotJson[]> {
  const company = await companyForMerchant(ctx, companyId, 'slots.read');
  const service = await getServiceInCompany(ctx, company.id, serviceId);
  const slots = await ctx.em.find(Slot, { companyId: company.id, serviceId: service.id }, { orderBy: { startTime: 'asc', id: 'asc' } });
  return slots.map((s) => slotJson(s));
}

/** Which occurrences of a series a change applies to (slots, recurring bookings). */
export const UPDATE_STRATEGIES = ['single', 'upcoming'] as const;
type Strategy = (typeof UPDATE_STRATEGIES)[number];

/**
 * The slot whose occurrence starts at `at` on `resourceId`, locked for the change. A slot of the
 * resource wins over one shared by all linked resources (whose occurrence is then changed for
 * every resource, as it is one record). Without `resourceId` the occurrence must be unambiguous.
 */
async function findOccurrence(ctx: Ctx, company: Company, serviceId: string, resourceId: string | undefined, at: number): Promise<Slot> {
  const where = { companyId: company.id, serviceId, startTime: { $lte: new Date(at) } };
  const candidates = await ctx.em.find(Slot, resourceId ? { ...where, $or: [{ resourceId }, { resourceId: null }] } : where, {
    orderBy: { createdAt: 'asc', id: 'asc' },
    lockMode: LockMode.PESSIMISTIC_WRITE,
  });
  const hits = candidates.filter((s) => (s.rrule ? isOccurrence(seriesSpec(seriesOf(s)), at) : s.startTime.getTime() === at));
  if (resourceId) {
    const own = hits.find((s) => s.resourceId === resourceId);
    if (own) return own;
    const shared = hits.find((s) => s.resourceId === null);
    if (shared && (await isLinked(ctx, company.id, serviceId, resourceId))) return shared;
    throw notFound('slot occurrence');
  }
  if (hits.length > 1)
    throw invalid('several slots start at this time; send resourceID', [{ path: 'resourceID', message: 'is required to choose the slot' }]);
  if (hits.length === 0) throw notFound('slot occurrence');
  return hits[0];
}

export interface UpdateSlotInput {
  resourceID?: unknown;
  startTime?: unknown;
  updateStrategy?: unknown;
  newStartTime?: unknown;
  newDuration?: unknown;
  newRepeat?: unknown;
  newResourceID?: unknown;
}

/**
 * Changes the occurrence at `startTime`: `single` detaches it from its series (an exclusion on
 * the series plus a standalone slot with the new values); `upcoming` ends the series before it
 * and starts a new series there with the new values. A slot without repetition is changed in
 * place. Returns the slot that now holds the occurrence.
 */
export async function updateSlot(ctx: Ctx, companyId: string, serviceId: string, input: UpdateSlotInput): Promise<SlotJson> {
  const company = await companyForMerchant(ctx, companyId, 'slots.write');
  const service = await getServiceInCompany(ctx, company.id, serviceId);
  const c = new Check();
  const at = c.timestamp('startTime', input.startTime, true);
  const resourceId = c.uuid('resourceID', input.resourceID);
  const strategy: Strategy = c.oneOf('updateStrategy', input.updateStrategy ?? 'single', UPDATE_STRATEGIES) ?? 'single';
  const newStart = c.timestamp('newStartTime', input.newStartTime);
  const newDuration = checkSlotDuration(c, 'newDuration', input.newDuration, null);
  const newResourceId = c.uuid('newResourceID', input.newResourceID);
  if (input.newRepeat !== undefined && input.newRepeat !== null && strategy === 'single') {
    c.fail('newRepeat', 'needs updateStrategy upcoming: a single occurrence does not repeat');
  } else if (at !== undefined) {
    // Shape problems are reported before looking for the occurrence; its series' zone is the default applied below.
    checkRepeat(c, 'newRepeat', input.newRepeat, company.timeZone, newStart ?? at);
  }
  c.done('invalid slot update');
  if (newResourceId) await linkedResourceOf(ctx, company.id, service.id, newResourceId, 'newResourceID');

  const result = await inTransaction(ctx, async (tx) => {
    const slot = await findOccurrence(tx, company, service.id, resourceId, at!);
    const start = newStart ?? at!;
    const zone = slot.timeZone ?? company.timeZone;
    const rc = new Check();
    const newRepeat = checkRepeat(rc, 'newRepeat', input.newRepeat, zone, start);
    rc.done('invalid slot update');
    const values = {
      startTime: new Date(start),
      durationSec: newDuration ?? slot.durationSec,
      resourceId: newResourceId ?? slot.resourceId,
      updatedAt: ctx.now,
    };
    if (!slot.rrule) {
      tx.em.assign(slot, { ...values, ...(newRepeat ? repeatFields(newRepeat) : {}) });
      return slot;
    }
    const spec = seriesSpec(seriesOf(slot));
    if (strategy === 'single') {
      tx.em.assign(slot, { exdates: excludeOccurrence(spec, at!)!.exdates as number[], updatedAt: ctx.now });
      return tx.em.create(Slot, {
        companyId: company.id,
        serviceId: service.id,
        ...values,
        rrule: null,
        timeZone: null,
        until: null,
        exdates: [],
        createdAt: ctx.now,
      });
    }
    const split = splitSeries(spec, at!)!;
    const next: Pick<Slot, 'rrule' | 'timeZone' | 'until' | 'exdates'> = newRepeat
      ? { ...repeatFields(newRepeat), exdates: [] }
      : {
          rrule: split.after.rrule,
          timeZone: slot.timeZone,
          until: slot.until,
          exdates: shiftExdates(slot.timeZone!, split.after.exdates ?? [], at!, start).filter((t) => t > start),
        };
    if (!split.before) {
      tx.em.assign(slot, { ...values, ...next });
      return slot;
    }
    tx.em.assign(slot, { rrule: split.before.rrule, exdates: [...(split.before.exdates ?? [])], updatedAt: ctx.now });
    return tx.em.create(Slot, { companyId: company.id, serviceId: service.id, ...values, ...next, createdAt: ctx.now });
  });
  return slotJson(result);
}

export interface DeleteSlotInput {
  resourceID?: unknown;
  startTime?: unknown;
  deleteStrategy?: unknown;
}

/** Removes the occurrence at `startTime` (`single`) or it and every later one (`upcoming`). */
export async function deleteSlot(ctx: Ctx, companyId: string, serviceId: string, input: DeleteSlotInput): Promise<void> {
  const company = await companyForMerchant(ctx, companyId, 'slots.write');
  const service = await getServiceInCompany(ctx, company.id, serviceId);
  const c = new Check();
  const at = c.timestamp('startTime', input.startTime, true);
  const resourceId = c.uuid('resourceID', input.resourceID);
  const strategy = c.oneOf('deleteStrategy', input.deleteStrategy ?? 'single', UPDATE_STRATEGIES);
  c.done('invalid slot deletion');
  await inTransaction(ctx, async (tx) => {
    const slot = await findOccurrence(tx, company, service.id, resourceId, at!);
    if (!slot.rrule) return tx.em.remove(slot);
    const spec = seriesSpec(seriesOf(slot));
    if (strategy === 'single') {
      tx.em.assign(slot, { exdates: excludeOccurrence(spec, at!)!.exdates as number[], updatedAt: ctx.now });
      return;
    }
    const rest = truncateBefore(spec, at!);
    if (!rest) return tx.em.remove(slot);
    tx.em.assign(slot, { rrule: rest.rrule, exdates: [...(rest.exdates ?? [])], updatedAt: ctx.now });
  });
}
