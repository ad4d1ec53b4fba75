import { DateTime } from 'luxon';
import { failedLimitation, withinTimes, type BookingFacts, type ContractTerms } from './limitations';

const ZONE = 'Europe/Riga';
const at = (iso: string) => DateTime.fromISO(iso, { zone: ZONE }).toMillis();
const MIN = 60_000;

const terms = (over: Partial<ContractTerms> = {}): ContractTerms => ({
  limitations: {},
  serviceIds: [],
  resourceIds: [],
  activeFrom: at('2026-01-01T00:00'),
  expiresAt: at('2027-01-01T00:00'),
  ...over,
});
const booking = (start: string, minutes = 60, over: Partial<BookingFacts> = {}): BookingFacts => ({
  start: at(start),
  end: at(start) + minutes * MIN,
  spots: 1,
  tickets: null,
  serviceId: 's1',
  resourceId: 'r1',
  ...over,
});
const fail = (t: ContractTerms, b: BookingFacts) => failedLimitation(t, b, ZONE)?.name ?? null;

describe('subscription limitations', () => {
  it('the contract covers bookings starting in [activeFrom, expiresAt)', () => {
    const t = terms();
    expect(fail(t, booking('2026-01-01T00:00'))).toBeNull();
    expect(fail(t, booking('2025-12-31T23:59'))).toBe('activeFrom');
    expect(fail(t, booking('2026-12-31T23:59'))).toBeNull();
    expect(fail(t, booking('2027-01-01T00:00'))).toBe('expiresAt');
    expect(fail(terms({ activeFrom: null, expiresAt: null }), booking('1999-01-01T00:00'))).toBeNull();
  });

  it('services and resources: an empty list allows all', () => {
    expect(fail(terms({ serviceIds: ['s2'] }), booking('2026-05-05T10:00'))).toBe('serviceIDs');
    expect(fail(terms({ serviceIds: ['s2', 's1'] }), booking('2026-05-05T10:00'))).toBeNull();
    expect(fail(terms({ resourceIds: ['r2'] }), booking('2026-05-05T10:00'))).toBe('resourceIDs');
    expect(fail(terms({ resourceIds: null, serviceIds: null }), booking('2026-05-05T10:00'))).toBeNull();
  });

  it('the last allowed minute of a time window', () => {
    const t = terms({ limitations: { times: [{ startTime: '09:00', endTime: '12:00' }] } });
    expect(fail(t, booking('2026-05-05T09:00'))).toBeNull();
    expect(fail(t, booking('2026-05-05T11:00'))).toBeNull(); // ends 12:00 exactly
    expect(fail(t, booking('2026-05-05T11:01'))).toBe('times'); // ends 12:01
    expect(fail(t, booking('2026-05-05T08:59'))).toBe('times');
    expect(fail(t, booking('2026-05-05T11:59', 1))).toBeNull();
    expect(fail(t, booking('2026-05-05T12:00', 1))).toBe('times');
  });

  it('a booking must lie inside one window, not across two', () => {
    const t = terms({
      limitations: {
        times: [
          { startTime: '09:00', endTime: '10:00' },
          { startTime: '10:00', endTime: '11:00' },
        ],
      },
    });
    expect(fail(t, booking('2026-05-05T09:30', 30))).toBeNull();
    expect(fail(t, booking('2026-05-05T09:30', 60))).toBe('times');
  });

  it('windows up to 24:00 and past midnight', () => {
    const evening = terms({ limitations: { times: [{ startTime: '20:00', endTime: '24:00' }] } });
    expect(fail(evening, booking('2026-05-05T23:00'))).toBeNull();
    expect(fail(evening, booking('2026-05-05T23:30'))).toBe('times');
    const night = terms({ limitations: { times: [{ startTime: '22:00', endTime: '02:00' }] } });
    expect(fail(night, booking('2026-05-05T23:30', 120))).toBeNull(); // ends 01:30 next day
    expect(fail(night, booking('2026-05-06T01:00', 60))).toBeNull(); // in the tail of the previous day's window
    expect(fail(night, booking('2026-05-06T01:30', 60))).toBe('times');
  });

  it('time windows are wall times on DST change days', () => {
    const t = terms({ limitations: { times: [{ startTime: '01:00', endTime: '05:00' }] } });
    // 29 March 2026: 03:00 -> 04:00 in Riga. 01:00-05:00 local is three real hours.
    const start = at('2026-03-29T01:00');
    expect(withinTimes(ZONE, t.limitations!.times!, start, start + 3 * 60 * MIN)).toBe(true);
    expect(withinTimes(ZONE, t.limitations!.times!, start, start + 3 * 60 * MIN + MIN)).toBe(false);
    // 25 October 2026: 04:00 -> 03:00. 01:00-05:00 local is five real hours.
    const fall = at('2026-10-25T01:00');
    expect(withinTimes(ZONE, t.limitations!.times!, fall, fall + 5 * 60 * MIN)).toBe(true);
    expect(withinTimes(ZONE, t.limitations!.times!, fall, fall + 5 * 60 * MIN + MIN)).toBe(false);
  });

  it('daysOfWeek uses the contract mask (Mon 64 ... Sun 1) of the local day, across a DST week', () => {
    const weekdays = terms({ limitations: { daysOfWeek: 124 } }); // Mon-Fri
    // the week of 23-29 March 2026; DST starts Sunday 29 March 03:00 in Riga
    expect(fail(weekdays, booking('2026-03-27T23:30', 15))).toBeNull(); // Friday local
    expect(fail(weekdays, booking('2026-03-28T00:00', 15))).toBe('daysOfWeek'); // Saturday local, Friday 22:00 UTC
    expect(fail(weekdays, booking('2026-03-29T23:59', 1))).toBe('daysOfWeek'); // Sunday
    expect(fail(weekdays, booking('2026-03-30T00:00', 15))).toBeNull(); // Monday 00:00 local = Sunday 21:00 UTC
    const sundays = terms({ limitations: { daysOfWeek: 1 } });
    expect(fail(sundays, booking('2026-03-29T00:30', 15))).toBeNull();
    expect(fail(sundays, booking('2026-03-29T04:00', 15))).toBeNull();
    expect(fail(terms({ limitations: { daysOfWeek: 0 } }), booking('2026-03-29T04:00'))).toBeNull();
  });

  it('maxDuration, spots and tickets at their limits', () => {
    const t = terms({ limitations: { maxDuration: 'PT1H30M', maxSpotsPerBooking: 2, maxTicketsPerBooking: { adult: 2, child: 1 } } });
    expect(fail(t, booking('2026-05-05T10:00', 90))).toBeNull();
    expect(fail(t, booking('2026-05-05T10:00', 91))).toBe('maxDuration');
    expect(fail(t, booking('2026-05-05T10:00', 60, { spots: 2 }))).toBeNull();
    expect(fail(t, booking('2026-05-05T10:00', 60, { spots: 3 }))).toBe('maxSpotsPerBooking');
    expect(fail(t, booking('2026-05-05T10:00', 60, { spots: 2, tickets: { adult: 2 } }))).toBeNull();
    expect(fail(t, booking('2026-05-05T10:00', 60, { spots: 2, tickets: { child: 2 } }))).toBe('maxTicketsPerBooking');
    expect(
      fail(terms({ limitations: { maxTicketsPerBooking: { adult: 1 } } }), booking('2026-05-05T10:00', 60, { tickets: { senior: 5 } })),
    ).toBeNull();
  });

  it('reports the first failure in a fixed order with a message', () => {
    const t = terms({ serviceIds: ['x'], limitations: { daysOfWeek: 64, maxSpotsPerBooking: 1 } });
    const f = failedLimitation(t, booking('2026-05-10T10:00', 60, { spots: 4 }), ZONE)!;
    expect(f.name).toBe('serviceIDs');
    expect(f.message).toMatch(/service/);
  });
});
