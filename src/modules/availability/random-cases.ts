import type { ServiceType } from '../../shared/service-type';
import { startOfLocalDay } from '../../shared/zone';
import { createPricer } from '../pricing/engine/pricer';
import type { MatchContext, PriceRuleInput, Pricer, Quote, QuoteRequest } from '../pricing/engine/types';
import { MIN, prng, resource, rule, service, snapshot } from './engine/testkit';
import type { AvailabilityRequest, AvailabilitySnapshot, SlotOccurrence, TimeInterval } from './engine/types';
import type { LoadedSnapshot } from './snapshot';

/**
 * Seeded random availability cases for tests: every service type, several zones and DST
 * weeks, bookings, closings, slots off the whole minute, prices that change over the day.
 */

export { prng };

export const ZONES = ['Europe/Riga', 'America/New_York', 'Asia/Kolkata', 'UTC', 'Australia/Lord_Howe'];
export const FIRST_DATES = ['2026-03-06', '2026-03-27', '2026-10-23', '2026-10-30', '2026-04-03', '2026-06-10'];
export const TYPES: ServiceType[] = ['fixed', 'flexible', 'sharable', 'days', 'group', 'ticket'];
export const HOUR_MS = 3_600_000;

/** Prices that change over the day (evening surcharge) and with the length, so entries share some price objects and not others. */
function dayPricer(r: ReturnType<typeof prng>): Pricer {
  const base = r.pick([0, 1000, 2550]);
  const evening = r.pick([0, 500]);
  // a currency outside ASCII checks the writers' UTF-8
  const currency = r.pick(['', 'EUR', 'USD', 'Kč']);
  const step = r.next() < 0.3 ? null : { durationSec: r.pick([15, 30, 60]) * MIN, minDurationSec: null, maxDurationSec: null };
  return {
    quote(req: QuoteRequest, ctx: MatchContext): Quote {
      const amount = base * Math.max(1, Math.ceil(req.durationSec / 3600)) + (ctx.minuteOfDay >= 17 * 60 ? evening : 0);
      const q: Quote = { amount, comparedAmount: amount + (ctx.weekday === 6 ? 100 : 0), currency };
      if (req.serviceType === 'ticket') q.ticketPrices = { t1: { amount: 700, comparedAmount: 700, currency: 'EUR' } };
      return q;
    },
    step: () => step,
  };
}

/**
 * The service's own pricer from price rules: none, one for every start (a quote the engine may
 * ask once per length), or one with an evening rule above it (a quote per start).
 */
function rulePricer(r: ReturnType<typeof prng>, type: ServiceType, zone: string): Pricer {
  const stepSec = type === 'flexible' || type === 'sharable' || type === 'days' ? r.pick([null, 30 * MIN, 60 * MIN]) : null;
  const rule = (id: string, price: number, priority: number, evening: boolean): PriceRuleInput => ({
    id,
    type,
    priority,
    createdAt: 0,
    durationSec: stepSec,
    minDurationSec: null,
    maxDurationSec: null,
    price,
    comparedPrice: r.pick([null, price + 250]),
    ticketID: null,
    limitation: evening ? { times: [{ start: '17:00', end: '24:00' }] } : r.pick([null, { daysOfWeek: 127 }]),
  });
  const kind = r.pick(['none', 'everywhere', 'evening']);
  const priceRules = kind === 'none' ? [] : [rule('base', r.pick([0, 1200]), 0, false)];
  if (kind === 'evening') priceRules.push(rule('evening', 1700, 1, true));
  return createPricer({ serviceType: type, currency: r.pick(['EUR', 'Kč']), zone, priceRules, discounts: [], ticketIDs: ['t1'] });
}

export function randomCase(seed: number): { snap: AvailabilitySnapshot; req: AvailabilityRequest } {
  const r = prng(seed);
  const zone = r.pick(ZONES);
  const type = TYPES[seed % TYPES.length];
  const from = startOfLocalDay(zone, r.pick(FIRST_DATES)) + r.int(0, 5) * HOUR_MS;
  const to = from + r.int(1, 10) * 24 * HOUR_MS;
  const at = (lo: number, hi: number) => lo + r.int(0, Math.floor((hi - lo) / (15 * 60_000))) * 15 * 60_000;
  const resources = [];
  const slots: SlotOccurrence[] = [];
  for (let i = r.int(1, 4); i > 0; i--) {
    const occupied: TimeInterval[] = [];
    for (let k = r.int(0, 30); k > 0; k--) {
      const s = at(from - 6 * HOUR_MS, to);
      occupied.push({ start: s, end: s + r.int(1, 12) * 15 * 60_000 });
    }
    // half the lists come sorted, as the snapshot loads them
    if (r.next() < 0.5) occupied.sort((a, b) => a.start - b.start);
    const id = `r${i}`;
    resources.push(
      resource(id, {
        workingHours: [rule({ hours: r.pick(['09:00-13:00,14:00-19:00', '00:00-24:00', '08:00-20:00']), mask: r.pick([127, 126, 62]) })],
        closingPeriods: r.next() < 0.5 ? [] : [{ start: at(from, to), end: at(from, to) + 5 * HOUR_MS, serviceIDs: [] }],
        occupied,
      }),
    );
    if (type === 'group' || type === 'ticket') {
      // some occurrences off the whole minute (seconds, milliseconds): written the long way
      const offset = r.pick([0, 0, 1500, 61_000]);
      for (let t = from + offset; t < to; t += r.pick([2, 3]) * HOUR_MS) {
        slots.push({
          resourceID: id,
          start: t,
          durationSec: 3600,
          bookedSpots: r.int(0, 3),
          bookedSpotsPerTicket: type === 'ticket' ? { t1: r.int(0, 2) } : {},
        });
      }
    }
  }
  const snap = snapshot({
    zone,
    now: from - r.int(0, 24) * HOUR_MS,
    service: service({
      type,
      durationSec: r.pick([30, 60, 90]) * MIN,
      timeIntervalSec: r.pick([null, 15 * MIN, 30 * MIN]),
      bufferBeforeSec: r.pick([0, 15]) * MIN,
      bufferAfterSec: r.pick([0, 15]) * MIN,
    }),
    resources,
    slots,
    capacityRules:
      type === 'group' || type === 'ticket'
        ? [{ id: 'k', type, priority: 0, createdAt: 0, spots: 5, spotsPerTicket: type === 'ticket' ? { t1: 4 } : {}, matches: null }]
        : [],
    pricer: dayPricer(r),
  });
  // a third of the cases priced by the service's rules, chosen apart so the cases above stay as they were
  const own = prng(seed * 7919 + 17);
  if (own.next() < 1 / 3) snap.pricer = rulePricer(own, type, zone);
  const req: AvailabilityRequest = {
    from,
    to,
    includePast: false,
    durationSec:
      type === 'flexible' || type === 'sharable' ? r.pick([null, 60 * MIN]) : type === 'days' ? r.pick([null, 2 * 86_400]) : null,
    spots: type === 'group' ? r.int(1, 2) : null,
    tickets: type === 'ticket' ? { t1: 1 } : null,
  };
  if (type === 'flexible' && req.durationSec === null) req.durationSec = 60 * MIN;
  return { snap, req };
}

export const loadedOf = (snap: AvailabilitySnapshot): LoadedSnapshot => ({
  snapshot: snap,
  serviceName: 'Service',
  linked: [],
  ticketIds: ['t1'],
  disabled: false,
});
