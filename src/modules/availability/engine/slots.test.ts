import { computeAvailability, computeAvailableDates } from './availability';
import { at, HOUR, request, resource, service, snapshot, starts, testPricer } from './testkit';
import type { CapacityRuleInput, SlotOccurrence } from './types';

const slot = (start: string, bookedSpots = 0, bookedSpotsPerTicket: Record<string, number> = {}, resourceID = 'r1'): SlotOccurrence => ({
  resourceID,
  start: at(start),
  durationSec: HOUR,
  bookedSpots,
  bookedSpotsPerTicket,
});

const capacity = (over: Partial<CapacityRuleInput>): CapacityRuleInput => ({
  id: 'cap',
  type: 'group',
  priority: 0,
  createdAt: 0,
  spots: 10,
  spotsPerTicket: {},
  matches: null,
  ...over,
});

const DAY = request('2026-03-01T22:00:00Z', '2026-03-02T22:00:00Z');

describe('group services', () => {
  // no working hours at all: slots do not need them
  const r1 = resource('r1', {
    workingHours: [],
    closingPeriods: [{ start: at('2026-03-02T14:30:00Z'), end: at('2026-03-02T14:45:00Z'), serviceIDs: [] }],
  });
  const snap = snapshot({
    service: service({ type: 'group' }),
    resources: [r1, resource('r2', { workingHours: [] })],
    slots: [
      slot('2026-03-02T15:00:00Z', 3),
      slot('2026-03-02T08:00:00Z', 0),
      slot('2026-03-02T10:00:00Z', 8),
      slot('2026-03-02T12:00:00Z', 10),
      slot('2026-03-02T14:00:00Z', 0), // touches the closing period
      slot('2026-03-01T12:00:00Z', 0), // before the range
      slot('2026-03-02T09:00:00Z', 0, {}, 'r2'),
    ],
    capacityRules: [
      capacity({ id: 'all day', spots: 10 }),
      // from 17:00 local the room is smaller
      capacity({ id: 'evening', priority: 5, spots: 4, matches: (ctx) => ctx.minuteOfDay >= 17 * 60 }),
      capacity({ id: 'tickets', type: 'ticket', priority: 9, spots: 100 }),
    ],
  });

  it('offers occurrences with spots left, with their capacity figures', () => {
    const result = computeAvailability(snap, DAY);
    expect(starts(result)).toEqual(['2026-03-02T08:00:00Z', '2026-03-02T10:00:00Z', '2026-03-02T15:00:00Z']);
    expect(result.times.r1.map((e) => [e.spotsAvailable, e.totalSpots, e.bookedSpots])).toEqual([
      [10, 10, 0],
      [2, 10, 8],
      [1, 4, 3],
    ]);
    expect(result.times.r1[0].bookedSpotsPerTicket).toBeNull();
    expect(result.times.r1[0].price).toEqual({ amount: 1000, comparedAmount: 1000, currency: 'EUR' });
    expect(starts(result, 'r2')).toEqual(['2026-03-02T09:00:00Z']);
  });

  it('reflects bookings: the same slot before and after 3 spots are booked', () => {
    const before = computeAvailability({ ...snap, slots: [slot('2026-03-02T08:00:00Z', 0)] }, DAY).times.r1[0];
    const after = computeAvailability({ ...snap, slots: [slot('2026-03-02T08:00:00Z', 3)] }, DAY).times.r1[0];
    expect([before.spotsAvailable, before.bookedSpots]).toEqual([10, 0]);
    expect([after.spotsAvailable, after.bookedSpots]).toEqual([7, 3]);
  });

  it('requires the requested spots and prices them', () => {
    const result = computeAvailability(snap, { ...DAY, spots: 2 });
    expect(starts(result)).toEqual(['2026-03-02T08:00:00Z', '2026-03-02T10:00:00Z']);
    expect(result.times.r1[0].price.amount).toBe(2000);
    expect(starts(computeAvailability(snap, { ...DAY, spots: 3 }))).toEqual(['2026-03-02T08:00:00Z']);
  });

  it('does not offer slots without a capacity rule of the service type', () => {
    const noRule = { ...snap, capacityRules: [capacity({ type: 'ticket' })] };
    expect(computeAvailability(noRule, DAY).times).toEqual({ r1: [], r2: [] });
  });

  it('removes slots on a resource busy with another service, buffers included', () => {
    const busy = resource('r1', { workingHours: [], occupied: [{ start: at('2026-03-02T09:00:00Z'), end: at('2026-03-02T09:50:00Z') }] });
    const result = computeAvailability({ ...snap, service: service({ type: 'group', bufferAfterSec: 15 * 60 }), resources: [busy] }, DAY);
    // 08:00 + 1 h + 15 min after-buffer reaches into the other booking at 09:00
    expect(starts(result)).toEqual(['2026-03-02T10:00:00Z', '2026-03-02T14:00:00Z', '2026-03-02T15:00:00Z']);
  });

  it('lists the dates of available slots', () => {
    expect(computeAvailableDates(snap, request('2026-03-01T00:00:00Z', '2026-03-03T00:00:00Z'))).toEqual({
      r1: ['2026-03-01', '2026-03-02'],
      r2: ['2026-03-02'],
    });
  });
});

describe('ticket services', () => {
  const snap = snapshot({
    service: service({ type: 'ticket' }),
    resources: [resource('r1', { workingHours: [] })],
    slots: [slot('2026-03-02T08:00:00Z', 5, { adult: 5 }), slot('2026-03-02T10:00:00Z', 2, { child: 2 })],
    capacityRules: [capacity({ type: 'ticket', spots: 10, spotsPerTicket: { adult: 6, child: 4 } })],
    pricer: testPricer({ ticketPrices: { adult: 1500, child: 700 } }),
  });

  it('checks every requested ticket against its own limit', () => {
    const run = (tickets: Record<string, number>) => starts(computeAvailability(snap, { ...DAY, tickets }));
    expect(run({ adult: 2 })).toEqual(['2026-03-02T10:00:00Z']);
    expect(run({ child: 2 })).toEqual(['2026-03-02T08:00:00Z', '2026-03-02T10:00:00Z']);
    expect(run({ child: 3 })).toEqual(['2026-03-02T08:00:00Z']);
    expect(run({ adult: 1, child: 4 })).toEqual(['2026-03-02T08:00:00Z']);
    expect(run({ adult: 1, child: 5 })).toEqual([]);
  });

  it('checks the total spots', () => {
    const full = { ...snap, capacityRules: [capacity({ type: 'ticket', spots: 6, spotsPerTicket: {} })] };
    expect(starts(computeAvailability(full, { ...DAY, tickets: { adult: 2 } }))).toEqual(['2026-03-02T10:00:00Z']);
    // without tickets a slot with at least one spot left is listed
    expect(starts(computeAvailability(full, DAY))).toEqual(['2026-03-02T08:00:00Z', '2026-03-02T10:00:00Z']);
  });

  it('carries per-ticket figures and unit prices', () => {
    const [entry] = computeAvailability(snap, { ...DAY, tickets: { child: 1 } }).times.r1;
    expect(entry).toEqual({
      startTime: at('2026-03-02T08:00:00Z'),
      endTime: at('2026-03-02T09:00:00Z'),
      durationSec: HOUR,
      price: { amount: 1000, comparedAmount: 1000, currency: 'EUR' },
      spotsAvailable: 5,
      totalSpots: 10,
      bookedSpots: 5,
      bookedSpotsPerTicket: { adult: 5 },
      totalSpotsPerTicket: { adult: 6, child: 4 },
      ticketPrices: {
        adult: { amount: 1500, comparedAmount: 1500, currency: 'EUR' },
        child: { amount: 700, comparedAmount: 700, currency: 'EUR' },
      },
    });
  });

  it('skips zero-length occurrences', () => {
    const zero = { ...snap, slots: [{ ...slot('2026-03-02T08:00:00Z'), durationSec: 0 }] };
    expect(computeAvailability(zero, DAY).times.r1).toEqual([]);
  });
});
