import { computeAvailability } from './availability';
import { HOUR, MIN, request, resource, rule, service, snapshot, starts, utcEvery } from './testkit';

const riga = (over = {}) => snapshot({ zone: 'Europe/Riga', ...over });
const newYork = (over = {}) => snapshot({ zone: 'America/New_York', ...over });

describe('daylight saving time', () => {
  it('keeps 09:00-17:00 local around the Riga spring-forward (2026-03-29, 03:00 -> 04:00)', () => {
    const result = computeAvailability(riga(), request('2026-03-27T22:00:00Z', '2026-03-30T21:00:00Z'));
    expect(starts(result)).toEqual([
      ...utcEvery('2026-03-28', '07:00', '14:00', 60), // UTC+2
      ...utcEvery('2026-03-29', '06:00', '13:00', 60), // UTC+3 from 04:00 local
      ...utcEvery('2026-03-30', '06:00', '13:00', 60),
    ]);
  });

  it('keeps 09:00-17:00 local around the Riga fall-back (2026-10-25, 04:00 -> 03:00)', () => {
    const result = computeAvailability(riga(), request('2026-10-23T21:00:00Z', '2026-10-26T22:00:00Z'));
    expect(starts(result)).toEqual([
      ...utcEvery('2026-10-24', '06:00', '13:00', 60),
      ...utcEvery('2026-10-25', '07:00', '14:00', 60),
      ...utcEvery('2026-10-26', '07:00', '14:00', 60),
    ]);
  });

  it('keeps 09:00-17:00 local around the New York spring-forward (2026-03-08, 02:00 -> 03:00)', () => {
    const result = computeAvailability(newYork(), request('2026-03-07T05:00:00Z', '2026-03-09T04:00:00Z'));
    expect(starts(result)).toEqual([...utcEvery('2026-03-07', '14:00', '21:00', 60), ...utcEvery('2026-03-08', '13:00', '20:00', 60)]);
  });

  it('keeps 09:00-17:00 local around the New York fall-back (2026-11-01, 02:00 -> 01:00)', () => {
    const result = computeAvailability(newYork(), request('2026-10-31T04:00:00Z', '2026-11-02T05:00:00Z'));
    expect(starts(result)).toEqual([...utcEvery('2026-10-31', '13:00', '20:00', 60), ...utcEvery('2026-11-01', '14:00', '21:00', 60)]);
  });

  it('shrinks night hours by the missing hour in Riga (00:00-06:00 is 5 hours)', () => {
    const r1 = resource('r1', { workingHours: [rule({ hours: '00:00-06:00', mask: 1 })] });
    const result = computeAvailability(riga({ resources: [r1] }), request('2026-03-28T22:00:00Z', '2026-03-29T21:00:00Z'));
    // local 00:00, 01:00, 02:00 (UTC+2), then 04:00, 05:00 (UTC+3)
    expect(starts(result)).toEqual(utcEvery('2026-03-28', '22:00', '23:00', 60).concat(utcEvery('2026-03-29', '00:00', '02:00', 60)));
  });

  it('drops hours that fall entirely into the spring-forward gap and cuts those that start in it', () => {
    const r1 = resource('r1', { workingHours: [rule({ hours: '03:00-03:45,03:30-05:00', mask: 1 })] });
    const svc = service({ durationSec: 30 * MIN });
    const result = computeAvailability(riga({ resources: [r1], service: svc }), request('2026-03-28T22:00:00Z', '2026-03-29T21:00:00Z'));
    // 03:00-05:00 local exists only from 04:00 (01:00Z) to 05:00 (02:00Z)
    expect(starts(result)).toEqual(['2026-03-29T01:00:00Z', '2026-03-29T01:30:00Z']);
  });

  it('lengthens night hours by the repeated hour in Riga (00:00-06:00 is 7 hours)', () => {
    const r1 = resource('r1', { workingHours: [rule({ hours: '00:00-06:00', mask: 1 })] });
    const result = computeAvailability(riga({ resources: [r1] }), request('2026-10-24T21:00:00Z', '2026-10-25T22:00:00Z'));
    // 00:00, 01:00, 02:00, 03:00 (UTC+3), 03:00 again, 04:00, 05:00 (UTC+2)
    expect(starts(result)).toEqual([...utcEvery('2026-10-24', '21:00', '23:00', 60), ...utcEvery('2026-10-25', '00:00', '03:00', 60)]);
  });

  it('lengthens night hours by the repeated hour in New York (00:00-03:00 is 4 hours)', () => {
    const r1 = resource('r1', { workingHours: [rule({ hours: '00:00-03:00', mask: 1 })] });
    const svc = service({ durationSec: 2 * HOUR, timeIntervalSec: HOUR });
    const result = computeAvailability(newYork({ resources: [r1], service: svc }), request('2026-11-01T04:00:00Z', '2026-11-02T05:00:00Z'));
    expect(starts(result)).toEqual(utcEvery('2026-11-01', '04:00', '06:00', 60));
  });

  it('keeps a stay check-in and check-out local across the Riga spring-forward', () => {
    const r1 = resource('r1', { workingHours: [rule({ hours: '00:00-24:00' })] });
    const svc = service({ type: 'days', durationSec: 86_400 });
    const result = computeAvailability(riga({ resources: [r1], service: svc }), request('2026-03-27T22:00:00Z', '2026-03-29T21:00:00Z'));
    expect(starts(result)).toEqual(['2026-03-28T12:00:00Z', '2026-03-29T11:00:00Z']);
    expect(result.times.r1.map((e) => e.durationSec)).toEqual([86_400, 86_400]);
  });
});
