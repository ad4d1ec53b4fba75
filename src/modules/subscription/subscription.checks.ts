import { DateTime, Duration } from 'luxon';
import { RRule } from 'rrule';
import { parseDuration, parseLocalTime } from '../../shared/duration';
import { checkMetaData, type MetaData } from '../../shared/metadata';
import { checkPriority } from '../../shared/rule-checks';
import type { Check } from '../../shared/validate';
import {
  RECURRING_INTERVALS,
  ROLL_OVER_TYPES,
  type Limitations,
  type RecurringInterval,
  type RollOverSettings,
  type TimeWindow,
} from './subscription.entity';
import type { Ctx } from '../../kernel/context';

/**
 * Field checks of subscription, rule and settings input, shared by REST and GraphQL (both
 * hand over the same objects). Every problem names the field (`limitations.times[1].endTime`).
 */

export const MAX_INT = 2_147_483_647;
const MAX_TIME_WINDOWS = 50;
const MAX_IDS = 1000;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * An ISO 8601 duration (`P1M`, `P1Y`, `PT90M`, `P2W`) longer than zero, as sent (upper case).
 * Calendar units stay calendar units: a contract of `P1M` from 31 January ends on the last day
 * of February in the company's zone (see `addDuration`).
 */
export function checkIsoDuration(c: Check, path: string, v: unknown, required = false): string | null | undefined {
  if (v === undefined) {
    if (required) c.fail(path, 'is required');
    return undefined;
  }
  if (v === null || v === '') {
    if (required) c.fail(path, 'is required');
    return null;
  }
  const text = typeof v === 'string' ? v.trim().toUpperCase() : v;
  const seconds = parseDuration(text);
  if (seconds === null || !Duration.fromISO(text as string).isValid)
    return (c.fail(path, 'must be an ISO 8601 duration such as P1M, P1Y or PT90M'), undefined);
  if (seconds <= 0) return (c.fail(path, 'must be longer than zero'), undefined);
  if (seconds > 100 * 366 * 86_400) return (c.fail(path, 'must be at most 100 years'), undefined);
  return text as string;
}

/** `from` plus an ISO 8601 duration, calendar units counted in `zone` (P1M from Jan 31 is Feb 28/29). */
export function addDuration(from: Date, duration: string, zone: string): Date {
  return DateTime.fromJSDate(from, { zone }).plus(Duration.fromISO(duration)).toJSDate();
}

/** Seconds of an ISO 8601 duration (calendar units at their fixed lengths), for comparisons. */
export const durationSeconds = (d: string): number => parseDuration(d) ?? 0;

/**
 * A recurrence rule (`FREQ=MONTHLY;INTERVAL=1`, with or without the `RRULE:` prefix, optionally
 * with a `DTSTART`), parsed by the `rrule` package. Refused when it has no frequency, a
 * frequency below a day (a membership period of hours makes no sense, and such rules could make
 * the search for an occurrence long), a number part that is not a whole number, or no occurrence
 * within ten years of its start.
 */
export function checkRRule(c: Check, path: string, v: unknown): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null || v === '') return null;
  if (typeof v !== 'string') return (c.fail(path, 'must be a string'), undefined);
  const text = v.trim();
  if (text.length > 1000) return (c.fail(path, 'must be at most 1000 characters'), undefined);
  const bad = (why: string) => (c.fail(path, `must be an RFC 5545 recurrence rule such as FREQ=MONTHLY;INTERVAL=1 (${why})`), undefined);
  let options: ReturnType<typeof RRule.parseString>;
  try {
    options = RRule.parseString(text);
  } catch (e) {
    return bad((e as Error).message.slice(0, 100));
  }
  if (options.freq === undefined || options.freq === null) return bad('FREQ is missing');
  if (![RRule.YEARLY, RRule.MONTHLY, RRule.WEEKLY, RRule.DAILY].includes(options.freq)) return bad('FREQ must be DAILY or longer');
  for (const k of [
    'interval',
    'count',
    'bysetpos',
    'bymonth',
    'bymonthday',
    'byyearday',
    'byweekno',
    'byhour',
    'byminute',
    'bysecond',
  ] as const) {
    const val = options[k] as unknown;
    if (val === undefined || val === null) continue;
    const list = Array.isArray(val) ? val : [val];
    if (!list.every((n) => Number.isSafeInteger(n))) return bad(`${k.toUpperCase()} must be a whole number`);
  }
  if (options.interval !== undefined && options.interval !== null && options.interval < 1) return bad('INTERVAL must be at least 1');
  if (options.count !== undefined && options.count !== null && options.count < 1) return bad('COUNT must be at least 1');
  try {
    const start = options.dtstart ?? new Date(Date.UTC(2026, 0, 1));
    if (!Number.isFinite(start.getTime())) return bad('DTSTART is not a date');
    const rule = new RRule({ ...options, dtstart: start });
    const horizon = new Date(start.getTime() + 10 * 366 * 86_400_000);
    if (rule.between(start, horizon, true, (_, i) => i < 1).length === 0) return bad('it has no occurrence within ten years');
  } catch (e) {
    return bad((e as Error).message.slice(0, 100));
  }
  return text;
}

const LIMITATION_KEYS = ['bookingsCount', 'daysOfWeek', 'maxDuration', 'maxSpotsPerBooking', 'maxTicketsPerBooking', 'times'];

/**
 * Limitations of a subscription: `bookingsCount` visits per period (>= 1), `daysOfWeek` the
 * contract's 7-bit mask (Mon 64 ... Sun 1; 0 any day), `maxDuration` ISO 8601, `maxSpotsPerBooking`
 * (>= 1), `maxTicketsPerBooking` {ticketID: n >= 1}, `times` [{startTime, endTime}] `HH:MM` in the
 * company's zone with start before end (`24:00` allowed as an end). Null parts are absent;
 * unknown keys are refused (a misspelt limit must not silently allow everything).
 */
export function checkLimitations(c: Check, raw: unknown, path = 'limitations'): Limitations | undefined {
  if (raw === undefined) return undefined;
  if (raw === null) return {};
  if (!isRecord(raw)) return (c.fail(path, 'must be an object'), undefined);
  const out: Limitations = {};
  for (const k of Object.keys(raw))
    if (!LIMITATION_KEYS.includes(k)) c.fail(`${path}.${k.slice(0, 64)}`, `is not a limitation (${LIMITATION_KEYS.join(', ')})`);
  const bookings = c.int(`${path}.bookingsCount`, raw.bookingsCount, { min: 1, max: 1_000_000 });
  if (bookings !== undefined) out.bookingsCount = bookings;
  const days = c.int(`${path}.daysOfWeek`, raw.daysOfWeek, { min: 0, max: 127 });
  if (days !== undefined && days !== 0) out.daysOfWeek = days;
  const maxDuration = checkIsoDuration(c, `${path}.maxDuration`, raw.maxDuration);
  if (maxDuration) out.maxDuration = maxDuration;
  const spots = c.int(`${path}.maxSpotsPerBooking`, raw.maxSpotsPerBooking, { min: 1, max: 1_000_000 });
  if (spots !== undefined) out.maxSpotsPerBooking = spots;
  const tickets = raw.maxTicketsPerBooking;
  if (tickets !== undefined && tickets !== null) {
    if (!isRecord(tickets)) c.fail(`${path}.maxTicketsPerBooking`, 'must be an object {ticketID: count}');
    else {
      const map: Record<string, number> = {};
      for (const [id, n] of Object.entries(tickets)) {
        const p = `${path}.maxTicketsPerBooking.${id.slice(0, 64)}`;
        if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) c.fail(p, 'key must be a ticket id (UUID)');
        else {
          const count = c.int(p, n, { required: true, min: 1, max: 1_000_000 });
          if (count !== undefined) map[id.toLowerCase()] = count;
        }
      }
      if (Object.keys(map).length) out.maxTicketsPerBooking = map;
    }
  }
  const times = raw.times;
  if (times !== undefined && times !== null) {
    if (!Array.isArray(times)) c.fail(`${path}.times`, 'must be an array of {startTime, endTime}');
    else if (times.length > MAX_TIME_WINDOWS) c.fail(`${path}.times`, `must have at most ${MAX_TIME_WINDOWS} windows`);
    else {
      const list: TimeWindow[] = [];
      times.forEach((w, i) => {
        const p = `${path}.times[${i}]`;
        if (!isRecord(w)) return c.fail(p, 'must be an object {startTime, endTime}');
        const start = c.localTime(`${p}.startTime`, w.startTime, { required: true });
        const end = c.localTime(`${p}.endTime`, w.endTime, { required: true, allowEndOfDay: true });
        if (start === undefined || end === undefined) return;
        if (parseLocalTime(end, true)! <= parseLocalTime(start)!) return c.fail(`${p}.endTime`, 'must be after startTime');
        list.push({ startTime: start, endTime: end });
      });
      if (list.length) out.times = list;
    }
  }
  return out;
}

/** `{rollOverType: none | all | capped, settings: {maxVisits}}`; `capped` needs `settings.maxVisits` (>= 0). */
export function checkRollOver(c: Check, raw: unknown, path = 'rollOverSettings'): RollOverSettings | undefined {
  if (raw === undefined) return undefined;
  if (raw === null) return { rollOverType: 'none', settings: {} };
  if (!isRecord(raw)) return (c.fail(path, 'must be an object {rollOverType, settings}'), undefined);
  const type = c.oneOf(`${path}.rollOverType`, raw.rollOverType, ROLL_OVER_TYPES, true);
  let settings: RollOverSettings['settings'] = {};
  if (raw.settings !== undefined && raw.settings !== null) {
    if (!isRecord(raw.settings)) c.fail(`${path}.settings`, 'must be an object');
    else {
      checkMetaData(raw.settings, `${path}.settings`).forEach((d) => c.fail(d.path, d.message));
      settings = { ...raw.settings };
      const max = c.int(`${path}.settings.maxVisits`, raw.settings.maxVisits, { min: 0, max: 1_000_000 });
      if (max === undefined) delete settings.maxVisits;
    }
  }
  if (type === 'capped' && typeof settings.maxVisits !== 'number')
    c.fail(`${path}.settings.maxVisits`, 'is required when rollOverType is capped');
  return type ? { rollOverType: type, settings } : undefined;
}

/** The fields of a subscription as stored (instants as Dates). */
export interface SubscriptionFields {
  title: string;
  duration: string | null;
  availableFrom: Date | null;
  availableTo: Date | null;
  limitations: Limitations;
  rRule: string | null;
  recurringConfig: MetaData | null;
  recurringEnabled: boolean;
  recurringInterval: RecurringInterval | null;
  recurringIntervalCount: number | null;
  recurringProvider: string | null;
  renewPeriod: string | null;
  serviceIds: string[];
  resourceIds: string[];
  ticketIds: string[];
  rollOverSettings: RollOverSettings;
}

export interface SubscriptionInput {
  archive?: unknown;
  availableFrom?: unknown;
  availableTo?: unknown;
  duration?: unknown;
  limitations?: unknown;
  metaData?: unknown;
  metaDataUpdate?: unknown;
  rRule?: unknown;
  recurringConfig?: unknown;
  recurringEnabled?: unknown;
  recurringInterval?: unknown;
  recurringIntervalCount?: unknown;
  recurringProvider?: unknown;
  renewPeriod?: unknown;
  resourceIDs?: unknown;
  rollOverSettings?: unknown;
  serviceIDs?: unknown;
  ticketIDs?: unknown;
  title?: unknown;
}

const idList = (c: Check, path: string, v: unknown): string[] | undefined => {
  if (v === null) return [];
  const ids = c.uuids(path, v);
  if (ids && ids.length > MAX_IDS) return (c.fail(path, `must have at most ${MAX_IDS} ids`), undefined);
  return ids;
};

const instant = (c: Check, path: string, v: unknown): Date | null | undefined => {
  if (v === null || v === '') return null;
  const ms = c.timestamp(path, v);
  return ms === undefined ? undefined : new Date(ms);
};

/** The fields present in `input` (null where an optional one is cleared). */
export function readSubscriptionInput(c: Check, input: SubscriptionInput, creating: boolean): Partial<SubscriptionFields> {
  const out: Partial<SubscriptionFields> = {};
  if (input.title === null) c.fail('title', creating ? 'is required' : 'cannot be removed');
  const title = c.string('title', input.title, { required: creating, max: 255 });
  if (title !== undefined) out.title = title;
  const duration = checkIsoDuration(c, 'duration', input.duration, creating);
  if (duration !== undefined) out.duration = duration;
  for (const k of ['availableFrom', 'availableTo'] as const) {
    const v = instant(c, k, input[k]);
    if (v !== undefined) out[k] = v;
  }
  const limitations = checkLimitations(c, input.limitations);
  if (limitations !== undefined) out.limitations = limitations;
  const rRule = checkRRule(c, 'rRule', input.rRule);
  if (rRule !== undefined) out.rRule = rRule;
  if (input.recurringConfig === null) out.recurringConfig = null;
  else if (input.recurringConfig !== undefined) {
    const cfg = c.object('recurringConfig', input.recurringConfig);
    if (cfg) {
      const problems = checkMetaData(cfg, 'recurringConfig');
      problems.forEach((d) => c.fail(d.path, d.message));
      if (!problems.length) out.recurringConfig = cfg;
    }
  }
  if (input.recurringEnabled === null) out.recurringEnabled = false;
  const enabled = c.bool('recurringEnabled', input.recurringEnabled);
  if (enabled !== undefined) out.recurringEnabled = enabled;
  if (input.recurringInterval === null || input.recurringInterval === '') out.recurringInterval = null;
  const interval = c.oneOf('recurringInterval', input.recurringInterval === '' ? undefined : input.recurringInterval, RECURRING_INTERVALS);
  if (interval !== undefined) out.recurringInterval = interval;
  if (input.recurringIntervalCount === null) out.recurringIntervalCount = null;
  const count = c.int('recurringIntervalCount', input.recurringIntervalCount, { min: 1, max: 1000 });
  if (count !== undefined) out.recurringIntervalCount = count;
  if (input.recurringProvider === null || input.recurringProvider === '') out.recurringProvider = null;
  const provider = c.string('recurringProvider', input.recurringProvider === '' ? undefined : input.recurringProvider, { max: 100 });
  if (provider !== undefined) out.recurringProvider = provider;
  const renew = checkIsoDuration(c, 'renewPeriod', input.renewPeriod);
  if (renew !== undefined) out.renewPeriod = renew;
  const ids = [
    ['serviceIDs', 'serviceIds'],
    ['resourceIDs', 'resourceIds'],
    ['ticketIDs', 'ticketIds'],
  ] as const;
  for (const [wire, field] of ids) {
    const v = idList(c, wire, input[wire]);
    if (v !== undefined) out[field] = v;
  }
  const roll = checkRollOver(c, input.rollOverSettings);
  if (roll !== undefined) out.rollOverSettings = roll;
  return out;
}

/**
 * `current` with the sent `patch`, once the combination holds: the window's end after its start;
 * a recurring subscription has exactly one recurrence (`rRule`, or `recurringInterval` with
 * `recurringIntervalCount`, default 1); a recurrence without `recurringEnabled` is kept but unused.
 */
export function checkSubscriptionFields(c: Check, current: SubscriptionFields, patch: Partial<SubscriptionFields>): SubscriptionFields {
  const next = { ...current, ...patch };
  if (next.availableFrom && next.availableTo && next.availableTo.getTime() <= next.availableFrom.getTime())
    c.fail('availableTo', 'must be after availableFrom');
  if (next.rRule && next.recurringInterval) c.fail('recurringInterval', 'cannot be combined with rRule: give one recurrence');
  if (next.recurringIntervalCount !== null && !next.recurringInterval && patch.recurringIntervalCount !== undefined)
    c.fail('recurringIntervalCount', 'needs recurringInterval');
  if (next.recurringEnabled && !next.rRule && !next.recurringInterval)
    c.fail('recurringEnabled', 'needs a recurrence: rRule, or recurringInterval and recurringIntervalCount');
  if (next.recurringInterval && next.recurringIntervalCount === null) next.recurringIntervalCount = 1;
  if (!next.recurringInterval) next.recurringIntervalCount = null;
  if (!next.duration) c.fail('duration', 'is required');
  return next;
}

export const newSubscriptionDefaults = (): SubscriptionFields => ({
  title: '',
  duration: null,
  availableFrom: null,
  availableTo: null,
  limitations: {},
  rRule: null,
  recurringConfig: null,
  recurringEnabled: false,
  recurringInterval: null,
  recurringIntervalCount: null,
  recurringProvider: null,
  renewPeriod: null,
  serviceIds: [],
  resourceIds: [],
  ticketIds: [],
  rollOverSettings: { rollOverType: 'none', settings: {} },
});

/**
 * Ids that must be records of the company: services, resources and tickets named by a
 * subscription (and the ticket keys of `maxTicketsPerBooking`). Each unknown id is a problem at
 * its own path; disabled records still count as the company's.
 */
export async function checkCompanyIds(
  ctx: Ctx,
  c: Check,
  companyId: string,
  lists: { path: string; table: 'service' | 'resource' | 'ticket'; ids: string[] }[],
): Promise<void> {
  for (const { path, table, ids } of lists) {
    if (!ids.length) continue;
    const rows = await ctx.em.execute<{ id: string }[]>(`select id from ${table} where company_id = ? and id = any(?::uuid[])`, [
      companyId,
      `{${ids.join(',')}}`,
    ]);
    const found = new Set(rows.map((r) => r.id));
    ids.forEach((id, i) => {
      if (!found.has(id))
        c.fail(path.includes('maxTicketsPerBooking') ? `${path}.${id}` : `${path}[${i}]`, `is not a ${table} of the company`);
    });
  }
}

/** Fields of a price or capacity rule as stored. */
export interface RuleFields {
  subscriptionIds: string[];
  priority: number;
  startDate: Date | null;
  endDate: Date | null;
  price: number;
  comparedPrice: number | null;
  maxCount: number;
}

export interface RuleInput {
  archive?: unknown;
  comparedPrice?: unknown;
  endDate?: unknown;
  maxCount?: unknown;
  metaData?: unknown;
  metaDataUpdate?: unknown;
  price?: unknown;
  priority?: unknown;
  startDate?: unknown;
  subscriptionIDs?: unknown;
}

export type RuleKind = 'price' | 'capacity';

/** The rule fields present in `input`; `price` (price rules) and `maxCount` (capacity rules) are required on create. */
export function readRuleInput(c: Check, input: RuleInput, kind: RuleKind, creating: boolean): Partial<RuleFields> {
  const out: Partial<RuleFields> = {};
  if (input.subscriptionIDs === null) c.fail('subscriptionIDs', 'must be an array of UUIDs');
  const ids = idList(c, 'subscriptionIDs', input.subscriptionIDs);
  if (creating && input.subscriptionIDs === undefined) c.fail('subscriptionIDs', 'is required');
  else if (ids !== undefined && ids.length === 0) c.fail('subscriptionIDs', 'must name at least one subscription');
  if (ids?.length) out.subscriptionIds = ids;
  if (input.priority === null) out.priority = 0;
  const priority = checkPriority(c, input.priority, false);
  if (priority !== undefined) out.priority = priority;
  for (const k of ['startDate', 'endDate'] as const) {
    const v = instant(c, k, input[k]);
    if (v !== undefined) out[k] = v;
  }
  if (kind === 'price') {
    if (input.price === null) c.fail('price', 'is required');
    const price = c.int('price', input.price, { required: creating, min: 0, max: MAX_INT });
    if (price !== undefined) out.price = price;
    if (input.comparedPrice === null) out.comparedPrice = null;
    const compared = c.int('comparedPrice', input.comparedPrice, { min: 0, max: MAX_INT });
    if (compared !== undefined) out.comparedPrice = compared;
  } else {
    if (input.maxCount === null) c.fail('maxCount', 'is required');
    const max = c.int('maxCount', input.maxCount, { required: creating, min: 0, max: MAX_INT });
    if (max !== undefined) out.maxCount = max;
  }
  return out;
}

/** `current` with `patch`, once the date range is ordered. */
export function checkRuleFields(c: Check, current: RuleFields, patch: Partial<RuleFields>): RuleFields {
  const next = { ...current, ...patch };
  if (next.startDate && next.endDate && next.endDate.getTime() <= next.startDate.getTime()) c.fail('endDate', 'must be after startDate');
  return next;
}

export interface SettingsInput {
  cartExpiration?: unknown;
  currency?: unknown;
  metaData?: unknown;
  metaDataUpdate?: unknown;
  taxInclusive?: unknown;
  taxRate?: unknown;
}

export interface SettingsFields {
  cartExpiration: string;
  currency: string | null;
  taxInclusive: boolean;
  taxRate: number;
}

/** Settings fields present in `input`: `cartExpiration` ISO 8601 (1 minute to 7 days), `currency` ISO 4217, `taxRate` 0-100. */
export function readSettingsInput(c: Check, input: SettingsInput): Partial<SettingsFields> {
  const out: Partial<SettingsFields> = {};
  if (input.cartExpiration === null) c.fail('cartExpiration', 'cannot be removed');
  const exp = checkIsoDuration(c, 'cartExpiration', input.cartExpiration);
  if (exp) {
    const s = durationSeconds(exp);
    if (s < 60 || s > 7 * 86_400) c.fail('cartExpiration', 'must be between PT1M and P7D');
    else out.cartExpiration = exp;
  }
  if (input.currency === null) out.currency = null;
  const currency = c.currency('currency', input.currency);
  if (currency !== undefined) out.currency = currency;
  if (input.taxInclusive === null) out.taxInclusive = false;
  const incl = c.bool('taxInclusive', input.taxInclusive);
  if (incl !== undefined) out.taxInclusive = incl;
  if (input.taxRate === null) out.taxRate = 0;
  const rate = c.number('taxRate', input.taxRate, { min: 0, max: 100 });
  if (rate !== undefined) out.taxRate = rate;
  return out;
}
