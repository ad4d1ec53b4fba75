import type { ServiceType } from '../../shared/service-type';
import type { MatchContext, Pricer, Quote, QuoteRequest } from '../pricing/engine/types';
import { timesAnswerJson, timesEntries } from './availability.compute';
import { computeAvailability, computeAvailabilityColumns } from './engine';
import { calendarFor } from './engine/calendar';
import { MIN, resource, rule, service, snapshot } from './engine/testkit';
import type { AvailabilityRequest, AvailabilitySnapshot, SlotOccurrence, TimeInterval } from './engine/types';
import type { LoadedSnapshot } from './snapshot';
import { localDate, startOfLocalDay } from '../../shared/zone';

/** Deterministic pseudo-random numbers (mulberry32). */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  return { next, int, pick };
}

const ZONES = ['Europe/Riga', 'America/New_York', 'Asia/Kolkata', 'UTC', 'Australia/Lord_Howe'];
const FIRST_DATES = ['2026-03-06', '2026-03-27', '2026-10-23', '2026-10-30', '2026-04-03', '2026-06-10'];
const TYPES: ServiceType[] = ['fixed', 'flexible', 'sharable', 'days', 'group', 'ticket'];
const HOUR_MS = 3_600_000;

/** Prices that change over the day (evening surcharge) and with the length, so entries share some price objects and not others. */
function dayPricer(r: ReturnType<typeof prng>): Pricer {
  const base = r.pick([0, 1000, 2550]);
  const evening = r.pick([0, 500]);
  // a currency outside ASCII checks the writer's UTF-8
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

function randomCase(seed: number): { snap: AvailabilitySnapshot; req: AvailabilityRequest } {
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

const loadedOf = (snap: AvailabilitySnapshot): LoadedSnapshot => ({
  snapshot: snap,
  serviceName: 'Service',
  linked: [],
  ticketIds: ['t1'],
  disabled: false,
});

describe('the columnar times path', () => {
  it.each(Array.from({ length: 240 }, (_, i) => i + 1))(
    'random case #%i: the same entries and the same JSON as the entry objects',
    (seed) => {
      const { snap, req } = randomCase(seed);
      const objects = computeAvailability(snap, req);
      const columns = computeAvailabilityColumns(snap, req);
      expect(Object.keys(columns)).toEqual(Object.keys(objects.times));
      for (const [id, entries] of Object.entries(objects.times)) {
        const c = columns[id];
        expect(c.length).toBe(entries.length);
        const rebuilt = entries.map((_, i) => ({
          startTime: c.starts[i],
          endTime: c.ends[i],
          durationSec: c.durations[i],
          price: c.prices[i],
          spotsAvailable: c.slots ? c.slots.totalSpots[i] - c.slots.bookedSpots[i] : null,
          totalSpots: c.slots ? c.slots.totalSpots[i] : null,
          bookedSpots: c.slots ? c.slots.bookedSpots[i] : null,
          bookedSpotsPerTicket: c.slots ? c.slots.bookedSpotsPerTicket[i] : null,
          totalSpotsPerTicket: c.slots ? c.slots.totalSpotsPerTicket[i] : null,
          ticketPrices: c.slots ? c.slots.ticketPrices[i] : null,
        }));
        expect(rebuilt).toEqual(entries);
      }
      const loaded = loadedOf(snap);
      const text = timesAnswerJson(loaded, columns, snap.zone).toString();
      expect(text).toBe(JSON.stringify(timesEntries(loaded, objects, snap.zone)));
    },
  );

  it('covers every service type with entries, shared and changing prices, and starts off the whole minute', () => {
    const seen = new Set<string>();
    let shared = 0;
    let changes = 0;
    let offMinute = 0;
    for (let seed = 1; seed <= 240; seed++) {
      const { snap, req } = randomCase(seed);
      for (const c of Object.values(computeAvailabilityColumns(snap, req))) {
        if (c.length > 0) seen.add(snap.service.type);
        offMinute += c.starts.filter((t) => t % 60_000 !== 0).length;
        for (let i = 1; i < c.length; i++) {
          if (c.prices[i] === c.prices[i - 1]) shared++;
          else changes++;
        }
      }
    }
    expect([...seen].sort()).toEqual([...TYPES].sort());
    expect(shared).toBeGreaterThan(1000);
    expect(changes).toBeGreaterThan(50);
    expect(offMinute).toBeGreaterThan(20);
  });

  it('writes a resource without times, and a repeated resource id once, as JSON.stringify does', () => {
    const snap = snapshot({ resources: [resource('r1', { workingHours: [] }), resource('r2'), resource('r1', { workingHours: [] })] });
    const req: AvailabilityRequest = {
      from: Date.parse('2026-01-05T00:00:00Z'),
      to: Date.parse('2026-01-06T00:00:00Z'),
      includePast: false,
      durationSec: null,
      spots: null,
      tickets: null,
    };
    const loaded = loadedOf(snap);
    const text = timesAnswerJson(loaded, computeAvailabilityColumns(snap, req), 'Europe/Riga').toString();
    expect(text).toBe(JSON.stringify(timesEntries(loaded, computeAvailability(snap, req), 'Europe/Riga')));
    expect(JSON.parse(text).times.r2).toHaveLength(8);
  });
});

describe('calendars shared between requests', () => {
  it('returns one calendar for one zone and period, equal to a freshly built one, whatever the instants within its dates', () => {
    const r = prng(99);
    for (let i = 0; i < 300; i++) {
      const zone = r.pick(ZONES);
      const from = startOfLocalDay(zone, r.pick(FIRST_DATES)) + r.int(-48, 48) * 30 * 60_000;
      const to = from + r.int(1, 24 * 40) * HOUR_MS;
      const cal = calendarFor(zone, from, to, 1, 800);
      expect(calendarFor(zone, from + 1, to, 1, 800).days[0].date).toBe(cal.days[0].date);
      expect(cal.days[0].date).toBe(localDate(zone, from));
      expect(cal.days[cal.days.length - 2].date).toBe(localDate(zone, to - 1));
      expect(calendarFor(zone, cal.days[0].start, to, 1, 800)).toBe(cal);
    }
  });
});
