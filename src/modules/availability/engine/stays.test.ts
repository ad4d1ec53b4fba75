import { computeAvailability, computeAvailableDates } from './availability';
import { at, DAY, request, resource, rule, service, snapshot, starts } from './testkit';

// Riga, UTC+2: check-in 14:00 local is 12:00Z, check-out 12:00 local is 10:00Z.
// Open every day but Wednesday; closed 12:00-13:00 local on Friday 2026-03-06.
const r1 = resource('r1', {
  workingHours: [rule({ hours: '00:00-24:00', mask: 127 - 16 })],
  closingPeriods: [{ start: at('2026-03-06T10:00:00Z'), end: at('2026-03-06T11:00:00Z'), serviceIDs: [] }],
});
const snap = snapshot({ service: service({ type: 'days', durationSec: DAY }), resources: [r1] });
const WEEK = request('2026-03-01T22:00:00Z', '2026-03-07T22:00:00Z');

describe('days services', () => {
  it('offers one-night stays on open days; a stay may end where a closing begins', () => {
    const result = computeAvailability(snap, WEEK);
    expect(starts(result)).toEqual(['02', '03', '05', '06', '07'].map((d) => `2026-03-${d}T12:00:00Z`));
    expect(result.times.r1[0].durationSec).toBe(DAY);
    expect(result.times.r1[0].price.amount).toBe(24_000);
  });

  it('needs every night open and no closing inside a longer stay', () => {
    const result = computeAvailability(snap, { ...WEEK, durationSec: 2 * DAY });
    // Tue and Wed starts include closed Wednesday; Thu-Sat runs over Friday's closing
    expect(starts(result)).toEqual(['02', '06', '07'].map((d) => `2026-03-${d}T12:00:00Z`));
    expect(result.times.r1.map((e) => e.durationSec)).toEqual([2 * DAY, 2 * DAY, 2 * DAY]);
    expect(computeAvailableDates(snap, { ...WEEK, durationSec: 2 * DAY })).toEqual({ r1: ['2026-03-02', '2026-03-06', '2026-03-07'] });
  });

  it('uses the service check-in and check-out times and buffers against bookings', () => {
    const svc = service({ type: 'days', checkInMinute: 15 * 60, checkOutMinute: 11 * 60, bufferAfterSec: 3600 });
    // another stay arrives Tuesday 13:00 local
    const busy = resource('r1', { ...r1, occupied: [{ start: at('2026-03-03T11:00:00Z'), end: at('2026-03-04T09:00:00Z') }] });
    const result = computeAvailability(
      { ...snap, service: svc, resources: [busy] },
      request('2026-03-01T22:00:00Z', '2026-03-03T22:00:00Z'),
    );
    // Mon 15:00 -> Tue 11:00 local plus 1 h buffer ends 12:00 local (10:00Z), before 11:00Z
    expect(starts(result)).toEqual(['2026-03-02T13:00:00Z']);
    const tight = { ...busy, occupied: [{ start: at('2026-03-03T09:30:00Z'), end: at('2026-03-04T09:00:00Z') }] };
    expect(
      computeAvailability({ ...snap, service: svc, resources: [tight] }, request('2026-03-01T22:00:00Z', '2026-03-03T22:00:00Z')).times.r1,
    ).toEqual([]);
  });

  it('answers the end of each stay itself: check-out time, nights local dates after check-in', () => {
    const result = computeAvailability(snap, { ...WEEK, durationSec: 2 * DAY });
    // default check-out 12:00 local (10:00Z); a two-night stay from Monday leaves on Wednesday
    expect(result.times.r1[0].endTime).toBe(at('2026-03-04T10:00:00Z'));
    const svc = service({ type: 'days', checkInMinute: 15 * 60, checkOutMinute: 11 * 60 });
    expect(computeAvailability({ ...snap, service: svc }, WEEK).times.r1[0].endTime).toBe(at('2026-03-03T09:00:00Z'));
  });

  it('keeps check-out on the wall clock across a DST change (a night of 23 hours)', () => {
    // Riga springs forward on Sunday 2026-03-29 at 03:00 local: UTC+2 before, UTC+3 after
    const open = resource('r1', { workingHours: [rule({ hours: '00:00-24:00', mask: 127 })] });
    const dst = snapshot({ service: service({ type: 'days', durationSec: DAY }), resources: [open] });
    const [sat] = computeAvailability(dst, request('2026-03-27T22:00:00Z', '2026-03-28T22:00:00Z')).times.r1;
    expect(sat.startTime).toBe(at('2026-03-28T12:00:00Z'));
    expect(sat.endTime).toBe(at('2026-03-29T09:00:00Z'));
    expect(sat.endTime - sat.startTime).toBe(21 * 3_600_000);
  });

  it('offers stays starting in the range only, after now', () => {
    const later = { ...snap, now: at('2026-03-05T12:30:00Z') };
    expect(starts(computeAvailability(later, WEEK))).toEqual(['06', '07'].map((d) => `2026-03-${d}T12:00:00Z`));
  });
});
