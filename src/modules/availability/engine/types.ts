/**
 * Input and output of the pure availability engine.
 *
 * The database layer loads one `AvailabilitySnapshot` per request (a fixed number of queries,
 * whatever the number of resources or days) and the engine turns it into available times.
 * Conventions: instants are epoch milliseconds, durations whole seconds, local times of day
 * minutes since local midnight (0-1440) in the snapshot's `zone`. Every interval is half-open
 * `[start, end)`: touching intervals do not overlap.
 *
 * Intervals the engine compares candidates with (closings, occupancy) must be loaded for the
 * request range widened by what a candidate can reach: `[from - bufferBefore, to + longest
 * length + bufferAfter)`, the longest length being the service or requested duration, or the
 * stay's nights plus one day for days services. Anything more is harmless.
 */
import type { MatchContext, Pricer } from '../../pricing/engine/types';
import type { Money } from '../../../shared/money';
import type { ServiceType } from '../../../shared/service-type';

/** A half-open span of instants; `end` may be `Infinity` (a sharable booking still running). */
export interface TimeInterval {
  start: number;
  end: number;
}

/** Local wall-clock hours of one day, in minutes since midnight; `end` may be 1440 (24:00). */
export interface HoursRange {
  start: number;
  end: number;
}

export interface WorkingHoursDay {
  /** Contract 7-bit mask: Mon 64, Tue 32, Wed 16, Thu 8, Fri 4, Sat 2, Sun 1. */
  daysOfWeek: number;
  hours: HoursRange[];
}

export interface WorkingHoursRuleInput {
  id: string;
  priority: number;
  /** creation instant; ties in priority go to the newest */
  createdAt: number;
  /** activity window `[windowStart, windowEnd)`; null = unbounded on that side */
  windowStart: number | null;
  windowEnd: number | null;
  /** services the rule is limited to; empty = every service of the resource */
  serviceIDs: readonly string[];
  days: WorkingHoursDay[];
}

export interface ClosingPeriodInput {
  start: number;
  end: number;
  /** services the closing applies to; empty = every service */
  serviceIDs: readonly string[];
}

/** What the engine needs to know about one resource's time. */
export interface ResourceSchedule {
  id: string;
  /** every working-hours rule of the resource; the engine filters by service */
  workingHours: WorkingHoursRuleInput[];
  /** closing periods overlapping the widened range, any service; the engine filters by service */
  closingPeriods: ClosingPeriodInput[];
  /**
   * Time held by other bookings and blocked times of the resource, their buffers already
   * included, in any order. For group/ticket services this must NOT contain the bookings held
   * at this service's slots: those are counted in `SlotOccurrence.bookedSpots` instead.
   */
  occupied: TimeInterval[];
}

/** The link's `relatedResourceIDs`: every `all` resource and one `any` resource are booked too. */
export interface RelatedRequirement {
  all: readonly string[];
  any: readonly string[];
}

/** An enabled resource linked to the service, to compute times for. */
export interface ResourceInput extends ResourceSchedule {
  related: RelatedRequirement | null;
}

export interface ServiceInput {
  id: string;
  type: ServiceType;
  /** settings.duration (fixed length; grid fallback for the other types) */
  durationSec: number;
  timeIntervalSec: number | null;
  bufferBeforeSec: number;
  bufferAfterSec: number;
  /** how far ahead of `now` a time may start; null = no limit */
  availabilityPeriodSec: number | null;
  /** days services; null = 14:00 check-in, 12:00 check-out */
  checkInMinute: number | null;
  checkOutMinute: number | null;
  /** used when a quote carries no currency */
  currency: string;
}

/** One expanded occurrence of a slot (group/ticket services) with what is booked at it. */
export interface SlotOccurrence {
  resourceID: string;
  start: number;
  durationSec: number;
  /** spots held at this occurrence by pending/confirmed bookings */
  bookedSpots: number;
  /** ticket services: ticketID -> spots held; treated as read-only and shared by the entry */
  bookedSpotsPerTicket: Record<string, number>;
}

/** The compiled limitation of a rule (see pricing's `compileLimitation`). */
export type LimitationMatcher = (ctx: MatchContext) => boolean;

export interface CapacityRuleInput {
  id: string;
  type: 'group' | 'ticket';
  priority: number;
  createdAt: number;
  spots: number;
  /** ticketID -> maximum spots of that ticket; read-only, shared by the entries */
  spotsPerTicket: Record<string, number>;
  /** null = the rule has no limitation and matches every occurrence */
  matches: LimitationMatcher | null;
}

/**
 * Everything one availability request depends on.
 *
 * `MatchContext` and `QuoteRequest` objects handed to `pricer` and to capacity matchers are
 * reused between calls: read them during the call, never keep them.
 */
export interface AvailabilitySnapshot {
  /** the company's IANA zone */
  zone: string;
  now: number;
  service: ServiceInput;
  /** the resources to compute, in answer order */
  resources: ResourceInput[];
  /**
   * Schedules of related resources that are not themselves in `resources` (a related id is
   * looked up in `resources` first). A related id found in neither is treated as never free.
   */
  relatedResources: ResourceSchedule[];
  /** group/ticket services: occurrences on the listed resources overlapping the range */
  slots: SlotOccurrence[];
  /** group/ticket services: the service's capacity rules (other types are ignored) */
  capacityRules: CapacityRuleInput[];
  pricer: Pricer;
}

export interface AvailabilityRequest {
  /** times starting in `[from, to)` */
  from: number;
  to: number;
  /** keep times before `now` (admin only) */
  includePast: boolean;
  /**
   * flexible: the booked length (default: the service duration); days: n * 86400 (default one
   * night); sharable: the length to be free for (default: one pricing step); else ignored.
   */
  durationSec: number | null;
  /** group services: spots to book (default 1) */
  spots: number | null;
  /** ticket services: ticketID -> count */
  tickets: Record<string, number> | null;
  /**
   * Entries the whole answer may hold; one more throws `TooManyTimes`. A shared `{ left }` lets
   * several requests (the fields of one GraphQL operation) draw on one allowance.
   */
  allowance?: { left: number };
}

/** One entry of the available-times answer; spot fields are null for services without slots. */
export interface AvailableTime {
  startTime: number;
  /** when the booked time ends: start + duration, or for a stay the check-out instant `nights` local dates later */
  endTime: number;
  durationSec: number;
  price: Money;
  spotsAvailable: number | null;
  totalSpots: number | null;
  bookedSpots: number | null;
  /** ticket services only */
  bookedSpotsPerTicket: Record<string, number> | null;
  totalSpotsPerTicket: Record<string, number> | null;
  ticketPrices: Record<string, Money> | null;
}

/**
 * A resource's available times in columns: entry `i` is `starts[i]`, `ends[i]`,
 * `durations[i]` (seconds) and the price `priceTable[priceIndex[i]]`; consecutive entries with
 * equal prices share one index, so a change of index marks a change of price. The numeric
 * columns are views of storage shared with the other resources of the answer; all of it is
 * read-only. `slots` is set for group and ticket services (the spot fields of
 * `AvailableTime`), else null.
 */
export interface TimeColumns {
  length: number;
  starts: Float64Array;
  ends: Float64Array;
  durations: Float64Array;
  priceIndex: Int32Array;
  priceTable: Money[];
  slots: null | {
    totalSpots: number[];
    bookedSpots: number[];
    bookedSpotsPerTicket: (Record<string, number> | null)[];
    totalSpotsPerTicket: (Record<string, number> | null)[];
    ticketPrices: (Record<string, Money> | null)[];
  };
}

/** resourceID -> its times in columns; every requested resource has an entry. */
export type AvailabilityColumns = Record<string, TimeColumns>;

export interface AvailabilityResult {
  /** resourceID -> entries sorted by `startTime`; every requested resource has a list */
  times: Record<string, AvailableTime[]>;
}

/** resourceID -> `YYYY-MM-DD` dates (company zone) with at least one available time, ascending. */
export type AvailableDates = Record<string, string[]>;
