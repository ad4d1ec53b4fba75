import { timesAnswerJson, timesEntries } from './availability.compute';
import { computeAvailability, computeAvailabilityColumns } from './engine';
import { calendarFor } from './engine/calendar';
import { request, resource, rule, service, snapshot } from './engine/testkit';
import type { AvailabilityRequest, AvailabilitySnapshot } from './engine/types';
import { FIRST_DATES, HOUR_MS, loadedOf, prng, randomCase, TYPES, ZONES } from './random-cases';
import { localDate, startOfLocalDay } from '../../shared/zone';

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
          price: c.priceTable[c.priceIndex[i]],
          spotsAvailable: c.slots ? c.slots.totalSpots[i] - c.slots.bookedSpots[i] : null,
          totalSpots: c.slots ? c.slots.totalSpots[i] : null,
          bookedSpots: c.slots ? c.slots.bookedSpots[i] : null,
          bookedSpotsPerTicket: c.slots ? c.slots.bookedSpotsPerTicket[i] : null,
          totalSpotsPerTicket: c.slots ? c.slots.totalSpotsPerTicket[i] : null,
          ticketPrices: c.slots ? c.slots.ticketPrices[i] : null,
        }));
        expect(rebuilt).toEqual(entries);
        // the writers start a new price text exactly where the index changes
        for (let i = 1; i < c.length; i++)
          expect(c.priceIndex[i] === c.priceIndex[i - 1]).toBe(JSON.stringify(entries[i].price) === JSON.stringify(entries[i - 1].price));
      }
      const loaded = loadedOf(snap);
      const text = timesAnswerJson(loaded, columns, snap.zone).toString();
      expect(text).toBe(JSON.stringify(timesEntries(loaded, objects, snap.zone)));
    },
  );

  it('covers every service type with entries, shared and changing prices, prices quoted once per length, and starts off the whole minute', () => {
    const seen = new Set<string>();
    let shared = 0;
    let changes = 0;
    let offMinute = 0;
    let quotedOnce = 0;
    for (let seed = 1; seed <= 240; seed++) {
      const { snap, req } = randomCase(seed);
      const fixed = snap.pricer.fixedQuote?.({ serviceType: snap.service.type, durationSec: 3600, spots: 1, tickets: {} }) ?? null;
      for (const c of Object.values(computeAvailabilityColumns(snap, req))) {
        if (c.length > 0) seen.add(snap.service.type);
        if (c.length > 0 && fixed !== null) quotedOnce++;
        offMinute += c.starts.filter((t) => t % 60_000 !== 0).length;
        for (let i = 1; i < c.length; i++) {
          if (c.priceIndex[i] === c.priceIndex[i - 1]) shared++;
          else changes++;
        }
      }
    }
    expect([...seen].sort()).toEqual([...TYPES].sort());
    expect(shared).toBeGreaterThan(1000);
    expect(changes).toBeGreaterThan(50);
    expect(offMinute).toBeGreaterThan(20);
    expect(quotedOnce).toBeGreaterThan(20);
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

describe('the times answer of services without spots', () => {
  const json = (snap: AvailabilitySnapshot, req: AvailabilityRequest) => {
    const loaded = loadedOf(snap);
    const text = timesAnswerJson(loaded, computeAvailabilityColumns(snap, req), snap.zone).toString();
    expect(text).toBe(JSON.stringify(timesEntries(loaded, computeAvailability(snap, req), snap.zone)));
    return JSON.parse(text) as { times: Record<string, { startTime: string }[]> };
  };

  it('writes starts off the whole minute and before 1970 the long way, among whole minutes, as JSON.stringify does', () => {
    // 7.5-minute steps from midnight: every other start falls on half a minute
    const snap = snapshot({
      zone: 'UTC',
      now: 0,
      service: service({ timeIntervalSec: 450, durationSec: 1800 }),
      resources: [resource('r1', { workingHours: [rule({ hours: '00:00-24:00' })] }), resource('r2')],
    });
    const answer = json(snap, request('1969-12-31T22:00:00Z', '1970-01-01T02:00:00Z', { includePast: true }));
    expect(answer.times.r1.slice(0, 3).map((e) => e.startTime)).toEqual([
      '1969-12-31T22:00:00Z',
      '1969-12-31T22:07:30Z',
      '1969-12-31T22:15:00Z',
    ]);
    expect(answer.times.r1.map((e) => e.startTime)).toContain('1970-01-01T00:07:30Z');
    expect(answer.times.r1).toHaveLength(32);
  });

  it('writes runs of one price across days and prices that change within a day, for every length of run', () => {
    for (const stepMin of [5, 15, 60, 180]) {
      const snap = snapshot({
        zone: 'Asia/Kolkata',
        service: service({ timeIntervalSec: stepMin * 60 }),
        resources: [resource('r1', { workingHours: [rule({ hours: '00:00-24:00' })] })],
        pricer: {
          quote: (_req, ctx) => ({ amount: ctx.minuteOfDay < 600 || ctx.weekday === 3 ? 100 : 200, comparedAmount: 300, currency: 'Kč' }),
          step: () => null,
        },
      });
      json(snap, request('2026-03-02T00:00:00Z', '2026-03-06T00:00:00Z'));
    }
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
