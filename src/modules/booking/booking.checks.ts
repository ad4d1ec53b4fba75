import { invalid } from '../../shared/errors';
import type { MetaData } from '../../shared/metadata';
import type { Check } from '../../shared/validate';
import type { Service } from '../catalog/catalog.entity';
import { parseRepeat, type RepeatSpec } from '../scheduling/recurrence';

/** Field checks shared by the booking operations (REST and GraphQL hand over the same objects). */

export const MAX_SPOTS = 10_000;

/** `{ticketID: count}`; zero counts are dropped. */
export function checkTickets(c: Check, raw: unknown, path = 'tickets'): Record<string, number> | undefined {
  return c.ticketCounts(path, raw, MAX_SPOTS);
}

export function checkRepeatField(c: Check, raw: unknown): RepeatSpec | undefined {
  if (raw === undefined || raw === null) return undefined;
  const { value, errors } = parseRepeat(raw, 'repeat');
  for (const e of errors ?? []) c.fail(e.path, e.message);
  return value;
}

export function checkPluginData(c: Check, raw: unknown): Record<string, unknown> | undefined {
  const problems = c.details.length;
  const v = c.metaData('pluginData', raw);
  return c.details.length > problems ? undefined : v;
}

/** What a new booking asks for, common to the admin create and the client request. */
export interface PlacementInput {
  serviceId?: string;
  resourceId?: string;
  start?: number;
  durationSec?: number;
  spots?: number;
  tickets?: Record<string, number>;
  metaData?: MetaData;
}

export function checkPlacement(
  c: Check,
  input: {
    serviceID?: unknown;
    resourceID?: unknown;
    startTime?: unknown;
    duration?: unknown;
    spots?: unknown;
    tickets?: unknown;
    metaData?: unknown;
  },
  resourceRequired: boolean,
): PlacementInput {
  return {
    serviceId: c.uuid('serviceID', input.serviceID, true),
    resourceId: input.resourceID === '' && !resourceRequired ? undefined : c.uuid('resourceID', input.resourceID, resourceRequired),
    start: c.timestamp('startTime', input.startTime, true),
    durationSec: c.duration('duration', input.duration, { positive: true })?.seconds,
    spots: c.int('spots', input.spots, { min: 1, max: MAX_SPOTS }),
    tickets: checkTickets(c, input.tickets),
    metaData: c.metaData('metaData', input.metaData),
  };
}

export interface Amounts {
  spots: number;
  tickets: Record<string, number> | undefined;
}

/**
 * Spots and tickets by service type: group bookings take `spots` (default 1), ticket bookings
 * take `tickets` and their spots are the sum; other types book one spot and take no tickets.
 */
export function amountsFor(service: Service, p: PlacementInput): Amounts {
  const sumTickets = Object.values(p.tickets ?? {}).reduce((a, b) => a + b, 0);
  if (service.type === 'ticket') {
    if (!p.tickets || sumTickets === 0)
      throw invalid('a ticket booking needs at least one ticket', [
        { path: 'tickets', message: 'is required for ticket services (ticketID -> count)' },
      ]);
    if (p.spots !== undefined && p.spots !== sumTickets)
      throw invalid('spots of a ticket booking are the sum of its tickets', [
        { path: 'spots', message: `must be ${sumTickets} (the sum of tickets) or left out` },
      ]);
    if (sumTickets > MAX_SPOTS)
      throw invalid(`at most ${MAX_SPOTS} tickets per booking`, [{ path: 'tickets', message: `must add up to at most ${MAX_SPOTS}` }]);
    return { spots: sumTickets, tickets: p.tickets };
  }
  if (p.tickets && Object.keys(p.tickets).length)
    throw invalid('tickets apply to ticket services only', [{ path: 'tickets', message: 'only for ticket services' }]);
  if (service.type === 'group') return { spots: p.spots ?? 1, tickets: undefined };
  if (p.spots !== undefined && p.spots !== 1)
    throw invalid('spots apply to group and ticket services', [{ path: 'spots', message: `must be 1 for a ${service.type} service` }]);
  return { spots: 1, tickets: undefined };
}

/** `clientID` may be blank (or null) when the client is unknown. */
export function checkOptionalClientId(c: Check, raw: unknown): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  return c.uuid('clientID', raw) ?? null;
}
