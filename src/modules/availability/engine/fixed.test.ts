import { computeAvailability, computeAvailableDates } from './availability';
import { at, HOUR, MIN, request, resource, rule, service, snapshot, starts, utc, utcEvery } from './testkit';

// Europe/Riga is UTC+2 in early March 2026; 2026-03-02 is a Monday.
const MONDAY = request('2026-03-01T22:00:00Z', '2026-03-02T22:00:00Z');

describe('fixed services', () => {
  it('offers a plain 09:00-17:00 day every hour', () => {
    const result = computeAvailability(snapshot(), MONDAY);
    expect(starts(result)).toEqual(utcEvery('2026-03-02', '07:00', '14:00', 60));
    expect(result.times.r1[0]).toEqual({
      startTime: at('2026-03-02T07:00:00Z'),
      endTime: at('2026-03-02T08:00:00Z'),
      durationSec: HOUR,
      price: { amount: 1000, comparedAmount: 1000, currency: 'EUR' },
      spotsAvailable: null,
      totalSpots: null,
      bookedSpots: null,
      bookedSpotsPerTicket: null,
      totalSpotsPerTicket: null,
      ticketPrices: null,
    });
  });

  it('leaves out times overlapping a booking without shifting the grid', () => {
    const r1 = resource('r1', { occupied: [{ start: at('2026-03-02T10:00:00Z'), end: at('2026-03-02T11:30:00Z') }] });
    expect(starts(computeAvailability(snapshot({ resources: [r1] }), MONDAY))).toEqual(
      utc('2026-03-02', '07:00', '08:00', '09:00', '12:00', '13:00', '14:00'),
    );
    const every30 = snapshot({ resources: [r1], service: service({ timeIntervalSec: 30 * MIN }) });
    expect(starts(computeAvailability(every30, MONDAY))).toEqual([
      ...utcEvery('2026-03-02', '07:00', '09:00', 30),
      ...utcEvery('2026-03-02', '11:30', '14:00', 30),
    ]);
  });

  it('applies buffers on both sides: touching is fine, a buffer overlap is not', () => {
    const r1 = resource('r1', { occupied: [{ start: at('2026-03-02T10:00:00Z'), end: at('2026-03-02T11:00:00Z') }] });
    const svc = service({ timeIntervalSec: 15 * MIN, bufferBeforeSec: 15 * MIN, bufferAfterSec: 30 * MIN });
    const got = starts(computeAvailability(snapshot({ resources: [r1], service: svc }), MONDAY));
    // 08:30 + 60 min + 30 min after-buffer ends at 10:00; 11:15 - 15 min before-buffer starts at 11:00
    expect(got).toEqual([...utcEvery('2026-03-02', '07:00', '08:30', 15), ...utcEvery('2026-03-02', '11:15', '14:00', 15)]);
    expect(got).not.toContain('2026-03-02T08:45:00Z');
    expect(got).not.toContain('2026-03-02T11:00:00Z');
  });

  it('subtracts closing periods of the service only', () => {
    const r1 = resource('r1', {
      closingPeriods: [
        { start: at('2026-03-02T09:15:00Z'), end: at('2026-03-02T10:10:00Z'), serviceIDs: [] },
        { start: at('2026-03-02T12:00:00Z'), end: at('2026-03-02T15:00:00Z'), serviceIDs: ['another'] },
      ],
    });
    const svc = service({ timeIntervalSec: 30 * MIN });
    expect(starts(computeAvailability(snapshot({ resources: [r1], service: svc }), MONDAY))).toEqual([
      ...utcEvery('2026-03-02', '07:00', '08:00', 30),
      ...utcEvery('2026-03-02', '10:30', '14:00', 30),
    ]);
  });

  it('chooses the working-hours rule per date by priority, recency and window', () => {
    const local = (d: string) => at(`${d}T00:00:00+02:00`);
    const r1 = resource('r1', {
      workingHours: [
        rule({ id: 'base', priority: 0, createdAt: 1, hours: '09:00-17:00' }),
        rule({
          id: 'short',
          priority: 5,
          createdAt: 1,
          windowStart: local('2026-03-03'),
          windowEnd: local('2026-03-05'),
          hours: '10:00-12:00',
        }),
        // same priority, newer: wins where the windows meet; its hours are clipped to its window
        rule({
          id: 'long',
          priority: 5,
          createdAt: 2,
          windowStart: at('2026-03-04T11:00:00+02:00'),
          windowEnd: local('2026-03-06'),
          hours: '08:00-18:00',
        }),
        rule({ id: 'sundays', priority: 9, windowStart: local('2026-03-02'), windowEnd: local('2026-03-03'), mask: 1 }),
        rule({ id: 'other service', priority: 10, serviceIDs: ['another'], hours: '00:00-24:00' }),
      ],
    });
    const result = computeAvailability(snapshot({ resources: [r1] }), request('2026-03-01T22:00:00Z', '2026-03-06T22:00:00Z'));
    expect(starts(result)).toEqual([
      // Mon: the winning rule has no Monday hours, so the resource is closed
      ...utc('2026-03-03', '08:00', '09:00'),
      ...utcEvery('2026-03-04', '09:00', '15:00', 60),
      ...utcEvery('2026-03-05', '06:00', '15:00', 60),
      ...utcEvery('2026-03-06', '07:00', '14:00', 60),
    ]);
  });

  it('keeps times between now and the booking horizon; includePast lifts only the lower bound', () => {
    const snap = snapshot({ now: at('2026-03-02T10:20:00Z'), service: service({ availabilityPeriodSec: 86_400 }) });
    const twoDays = request('2026-03-01T22:00:00Z', '2026-03-03T22:00:00Z');
    expect(starts(computeAvailability(snap, twoDays))).toEqual([
      ...utc('2026-03-02', '11:00', '12:00', '13:00', '14:00'),
      ...utcEvery('2026-03-03', '07:00', '10:00', 60),
    ]);
    expect(starts(computeAvailability(snap, { ...twoDays, includePast: true }))).toEqual([
      ...utcEvery('2026-03-02', '07:00', '14:00', 60),
      ...utcEvery('2026-03-03', '07:00', '10:00', 60),
    ]);
    expect(computeAvailableDates(snap, twoDays)).toEqual({ r1: ['2026-03-02', '2026-03-03'] });
  });

  it('keeps only starts inside [from, to)', () => {
    const result = computeAvailability(snapshot(), request('2026-03-02T08:30:00Z', '2026-03-02T11:00:00Z'));
    expect(starts(result)).toEqual(utc('2026-03-02', '09:00', '10:00'));
  });

  it('answers an empty list for every resource when nothing is open', () => {
    const snap = snapshot({ resources: [resource('r1', { workingHours: [] }), resource('r2')] });
    const result = computeAvailability(snap, request('2026-03-01T22:00:00Z', '2026-03-01T23:00:00Z'));
    expect(result.times).toEqual({ r1: [], r2: [] });
    expect(Object.keys(computeAvailability(snap, request('2026-03-03T00:00:00Z', '2026-03-02T00:00:00Z')).times)).toEqual(['r1', 'r2']);
  });

  it('lets a booking run past midnight when the next day opens at 00:00', () => {
    const r1 = resource('r1', { workingHours: [rule({ hours: '20:00-24:00,00:00-02:00' })] });
    const svc = service({ durationSec: 3 * HOUR });
    const result = computeAvailability(
      snapshot({ resources: [r1], service: svc }),
      request('2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z'),
    );
    // 23:00 local + 3 h ends at 02:00 the next day; the next day's grid restarts at its 00:00, too late
    expect(starts(result)).toEqual(['2026-03-02T18:00:00Z', '2026-03-02T21:00:00Z']);
  });
});

describe('degenerate input', () => {
  it('offers nothing for a zero-length service and terminates', () => {
    const result = computeAvailability(snapshot({ service: service({ durationSec: 0 }) }), MONDAY);
    expect(result.times.r1).toEqual([]);
  });

  it('treats a zero time interval as unset and raises a tiny one to 5 minutes', () => {
    expect(starts(computeAvailability(snapshot({ service: service({ timeIntervalSec: 0 }) }), MONDAY))).toHaveLength(8);
    const tiny = starts(computeAvailability(snapshot({ service: service({ timeIntervalSec: 1 }) }), MONDAY));
    expect(tiny).toEqual(utcEvery('2026-03-02', '07:00', '14:00', 5));
  });

  it('ignores zero-length hours, bookings and closings; merges touching hours and bookings', () => {
    const r1 = resource('r1', {
      workingHours: [rule({ hours: '09:00-12:00,12:00-17:00,18:00-18:00' })],
      occupied: [
        { start: at('2026-03-02T08:00:00Z'), end: at('2026-03-02T08:00:00Z') },
        { start: at('2026-03-02T13:00:00Z'), end: at('2026-03-02T13:30:00Z') },
        { start: at('2026-03-02T13:30:00Z'), end: at('2026-03-02T14:00:00Z') },
      ],
      closingPeriods: [{ start: at('2026-03-02T10:00:00Z'), end: at('2026-03-02T10:00:00Z'), serviceIDs: [] }],
    });
    const svc = service({ durationSec: 90 * MIN });
    // one 09:00-17:00 range: the grid runs on across noon instead of restarting at 12:00
    expect(starts(computeAvailability(snapshot({ resources: [r1], service: svc }), MONDAY))).toEqual(
      utc('2026-03-02', '07:00', '08:30', '10:00', '11:30'),
    );
  });

  it('caps the candidates of an always-open month at 5-minute steps', () => {
    const r1 = resource('r1', { workingHours: [rule({ hours: '00:00-24:00' })] });
    const svc = service({ durationSec: 5 * MIN, timeIntervalSec: 1 });
    const result = computeAvailability(
      snapshot({ resources: [r1], service: svc }),
      request('2026-03-01T00:00:00Z', '2026-03-31T00:00:00Z'),
    );
    expect(result.times.r1).toHaveLength(30 * 288);
  });
});
