import { epochToLocal } from '../../../shared/zone';
import { computeAvailability, computeAvailableDates } from './availability';
import { request, resource, rule, service, snapshot, starts, utcEvery } from './testkit';

/**
 * A DST fixture whose answer must not move with the process time zone. The suite is run with
 * TZ=UTC, TZ=America/New_York and TZ=Asia/Kolkata (jest's sandbox does not let a test switch
 * the zone of its own process).
 */
function fixture() {
  const r1 = resource('r1', { workingHours: [rule({ hours: '00:00-02:00,09:00-17:00' })] });
  const snap = snapshot({ zone: 'America/New_York', resources: [r1], service: service({ timeIntervalSec: 30 * 60 }) });
  const req = request('2026-03-08T05:00:00Z', '2026-03-09T04:00:00Z');
  return { times: starts(computeAvailability(snap, req)), dates: computeAvailableDates(snap, req) };
}

const EXPECTED = [
  // 00:00-02:00 EST, the night the clocks jump from 02:00 to 03:00
  ...utcEvery('2026-03-08', '05:00', '06:00', 30),
  // 09:00-17:00 EDT
  ...utcEvery('2026-03-08', '13:00', '20:00', 30),
];

describe('independence from the process time zone', () => {
  it(`gives the exact answer under TZ=${process.env.TZ ?? '(unset)'}`, () => {
    const tz = process.env.TZ;
    if (tz) {
      // the process really runs in that zone: its Date offset matches the zone's
      const t = Date.UTC(2026, 0, 15, 12);
      const p = epochToLocal(tz, t);
      expect(0 - new Date(t).getTimezoneOffset()).toBe((Date.UTC(p.year, p.month - 1, p.day) - t) / 60_000 + p.minuteOfDay);
    }
    expect(fixture()).toEqual({ times: EXPECTED, dates: { r1: ['2026-03-08'] } });
  });
});
