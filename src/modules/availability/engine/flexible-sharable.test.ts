import { computeAvailability } from './availability';
import { at, HOUR, MIN, request, resource, service, snapshot, starts, testPricer, utcEvery } from './testkit';

const MONDAY = request('2026-03-01T22:00:00Z', '2026-03-02T22:00:00Z');

describe('flexible services', () => {
  const snap = snapshot({
    service: service({ type: 'flexible', durationSec: HOUR }),
    pricer: testPricer({ step: { durationSec: 30 * MIN, minDurationSec: 30 * MIN, maxDurationSec: 3 * HOUR } }),
  });

  it('steps by the pricing step and books the requested length', () => {
    const result = computeAvailability(snap, { ...MONDAY, durationSec: 90 * MIN });
    expect(starts(result)).toEqual(utcEvery('2026-03-02', '07:00', '13:30', 30));
    expect(result.times.r1[0].durationSec).toBe(90 * MIN);
    expect(result.times.r1[0].price.amount).toBe(2000);
  });

  it('offers nothing for a length the pricing step does not allow', () => {
    expect(computeAvailability(snap, { ...MONDAY, durationSec: 45 * MIN }).times.r1).toEqual([]);
    expect(computeAvailability(snap, { ...MONDAY, durationSec: 4 * HOUR }).times.r1).toEqual([]);
  });

  it('prefers the service time interval as the grid step', () => {
    const every2h = { ...snap, service: service({ type: 'flexible', timeIntervalSec: 2 * HOUR }) };
    expect(starts(computeAvailability(every2h, { ...MONDAY, durationSec: 2 * HOUR }))).toEqual(
      utcEvery('2026-03-02', '07:00', '13:00', 120),
    );
  });

  it('follows a step that changes during the day', () => {
    // 30-minute steps before noon local, hourly after
    const pricer = testPricer({
      step: (ctx) => ({ durationSec: ctx.minuteOfDay < 12 * 60 ? 30 * MIN : HOUR, minDurationSec: null, maxDurationSec: null }),
    });
    const result = computeAvailability({ ...snap, pricer }, { ...MONDAY, durationSec: HOUR });
    expect(starts(result)).toEqual([...utcEvery('2026-03-02', '07:00', '10:00', 30), ...utcEvery('2026-03-02', '11:00', '14:00', 60)]);
  });

  it('offers nothing where no price rule gives a step, and walks the grid by the service duration there', () => {
    expect(computeAvailability({ ...snap, pricer: testPricer() }, MONDAY).times.r1).toEqual([]);
    // a step only from 12:00 local (10:00Z); before that the grid walks hourly from 09:00
    const pricer = testPricer({
      step: (ctx) => (ctx.minuteOfDay >= 12 * 60 ? { durationSec: 30 * MIN, minDurationSec: null, maxDurationSec: null } : null),
    });
    expect(starts(computeAvailability({ ...snap, pricer }, MONDAY))).toEqual(utcEvery('2026-03-02', '10:00', '14:00', 30));
  });
});

describe('sharable services', () => {
  const r1 = resource('r1', {
    occupied: [
      { start: at('2026-03-02T08:00:00Z'), end: at('2026-03-02T08:30:00Z') },
      // still running: no end yet
      { start: at('2026-03-02T11:00:00Z'), end: Infinity },
    ],
  });
  const snap = snapshot({
    service: service({ type: 'sharable', durationSec: HOUR }),
    resources: [r1],
    pricer: testPricer({ step: { durationSec: 30 * MIN, minDurationSec: null, maxDurationSec: null } }),
  });

  it('offers starts free for at least one pricing step, never after a running booking', () => {
    const result = computeAvailability(snap, MONDAY);
    expect(starts(result)).toEqual(['07:00', '07:30', '08:30', '09:00', '09:30', '10:00', '10:30'].map((t) => `2026-03-02T${t}:00Z`));
    expect(result.times.r1[0].durationSec).toBe(30 * MIN);
    const tomorrow = computeAvailability(snap, request('2026-03-02T22:00:00Z', '2026-03-03T22:00:00Z'));
    expect(tomorrow.times.r1).toEqual([]);
  });

  it('needs the requested length free when one is given', () => {
    const result = computeAvailability(snap, { ...MONDAY, durationSec: HOUR });
    expect(starts(result)).toEqual(['07:00', '08:30', '09:00', '09:30', '10:00'].map((t) => `2026-03-02T${t}:00Z`));
  });

  it('falls back to the time interval, then the service duration, without a pricing step', () => {
    const noStep = { ...snap, resources: [resource('r1')], pricer: testPricer() };
    expect(starts(computeAvailability(noStep, MONDAY))).toEqual(utcEvery('2026-03-02', '07:00', '14:00', 60));
    const every15 = { ...noStep, service: service({ type: 'sharable', durationSec: HOUR, timeIntervalSec: 15 * MIN }) };
    expect(starts(computeAvailability(every15, MONDAY))).toEqual(utcEvery('2026-03-02', '07:00', '14:45', 15));
  });

  it('terminates with no times when every length is zero', () => {
    const zero = { ...snap, service: service({ type: 'sharable', durationSec: 0 }), pricer: testPricer() };
    expect(computeAvailability(zero, MONDAY).times.r1).toEqual([]);
  });
});
