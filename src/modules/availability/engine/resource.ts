/**
 * A resource's schedule prepared for one request, and the per-pass probes that test candidates
 * against it (the resource itself and its related resources alike).
 */
import type { Calendar } from './calendar';
import { compileRules, openHours, type OpenHours } from './hours';
import { ContainCursor, EMPTY_SET, OverlapCursor, subtract, toSet, type IntervalSet } from './intervals';
import type { ClosingPeriodInput, ResourceSchedule } from './types';

export interface PreparedResource {
  readonly id: string;
  /** null for slot services: working hours do not apply to slots */
  readonly hours: OpenHours | null;
  /** open time minus the closing periods of the service */
  readonly free: IntervalSet;
  readonly closings: IntervalSet;
  readonly occupied: IntervalSet;
}

/** Prepares one resource; `withHours` is false for slot services. */
export function prepareResource(cal: Calendar, res: ResourceSchedule, serviceID: string, withHours: boolean): PreparedResource {
  const applies = (c: ClosingPeriodInput) => c.serviceIDs.length === 0 || c.serviceIDs.includes(serviceID);
  const closings = toSet(res.closingPeriods, applies);
  const occupied = toSet(res.occupied);
  const hours = withHours ? openHours(cal, compileRules(res.workingHours, serviceID)) : null;
  const free = hours ? subtract(hours.open, closings) : EMPTY_SET;
  return { id: res.id, hours, free, closings, occupied };
}

/**
 * Forward-only view of a prepared resource for one pass. Every check must be called with
 * non-decreasing start instants (buffered starts included), which the candidate order gives.
 */
export class Probe {
  private readonly free: ContainCursor;
  private readonly closing: OverlapCursor;
  private readonly busy: OverlapCursor;
  private readonly openDays: Uint8Array | null;

  constructor(readonly resource: PreparedResource) {
    this.free = new ContainCursor(resource.free);
    this.closing = new OverlapCursor(resource.closings);
    this.busy = new OverlapCursor(resource.occupied);
    this.openDays = resource.hours ? resource.hours.openDays : null;
  }

  /** Grid candidate: inside open hours minus closings, buffered interval not occupied. */
  gridFree(t: number, end: number, bufLo: number, bufHi: number): boolean {
    return this.free.contains(t, end) && !this.busy.overlaps(bufLo, bufHi);
  }

  /** Slot occurrence: no closing over it, buffered interval not occupied. */
  slotFree(t: number, end: number, bufLo: number, bufHi: number): boolean {
    return !this.closing.overlaps(t, end) && !this.busy.overlaps(bufLo, bufHi);
  }

  /** Stay: every night's date an open day, no closing over it, buffered interval not occupied. */
  stayFree(t: number, end: number, bufLo: number, bufHi: number, firstDay: number, nights: number): boolean {
    const open = this.openDays;
    if (open === null) return false;
    for (let d = firstDay; d < firstDay + nights; d++) if (d >= open.length || open[d] === 0) return false;
    return !this.closing.overlaps(t, end) && !this.busy.overlaps(bufLo, bufHi);
  }
}

export type Mode = 'grid' | 'slots' | 'stays';

/** The related-resource condition of one resource: every `all` probe and one `any` probe free. */
export class RelatedGate {
  private constructor(
    private readonly all: Probe[],
    private readonly any: Probe[],
    private readonly mode: Mode,
  ) {}

  /** null when the requirement can never be met (an `all` resource or every `any` resource is unknown). */
  static create(
    ownID: string,
    req: { all: readonly string[]; any: readonly string[] } | null,
    lookup: (id: string) => PreparedResource | null,
    mode: Mode,
  ): RelatedGate | 'never' | null {
    if (req === null || (req.all.length === 0 && req.any.length === 0)) return null;
    const all: Probe[] = [];
    const any: Probe[] = [];
    for (const id of new Set(req.all)) {
      if (id === ownID) continue;
      const p = lookup(id);
      if (p === null) return 'never';
      all.push(new Probe(p));
    }
    let anyListed = false;
    for (const id of new Set(req.any)) {
      if (id === ownID) continue;
      anyListed = true;
      const p = lookup(id);
      if (p !== null) any.push(new Probe(p));
    }
    if (anyListed && any.length === 0) return 'never';
    if (all.length === 0 && any.length === 0) return null;
    return new RelatedGate(all, any, mode);
  }

  /** Related resources are held for the same (buffered) time as the booked one, so they are checked alike. */
  admits(t: number, end: number, bufLo: number, bufHi: number, firstDay: number, nights: number): boolean {
    for (const p of this.all) if (!this.check(p, t, end, bufLo, bufHi, firstDay, nights)) return false;
    if (this.any.length === 0) return true;
    for (const p of this.any) if (this.check(p, t, end, bufLo, bufHi, firstDay, nights)) return true;
    return false;
  }

  private check(p: Probe, t: number, end: number, bufLo: number, bufHi: number, firstDay: number, nights: number): boolean {
    if (this.mode === 'grid') return p.gridFree(t, end, bufLo, bufHi);
    if (this.mode === 'slots') return p.slotFree(t, end, bufLo, bufHi);
    return p.stayFree(t, end, bufLo, bufHi, firstDay, nights);
  }
}
