import { computeAvailability, computeAvailabilityPaced, computeAvailableDatesPaced, computeAvailableDates } from './availability';
import { TooManyTimes } from './limits';
import { request, resource, snapshot } from './testkit';

// 09:00-17:00 every hour: 8 times per resource on Monday 2026-03-02 (Europe/Riga)
const MONDAY = request('2026-03-01T22:00:00Z', '2026-03-02T22:00:00Z');
const three = () => snapshot({ resources: [resource('r1'), resource('r2'), resource('r3')] });
const total = (r: { times: Record<string, unknown[]> }) => Object.values(r.times).reduce((n, l) => n + l.length, 0);

describe('answer allowance', () => {
  it('an answer of exactly the allowance is complete, and spends it to zero', () => {
    const allowance = { left: 24 };
    expect(total(computeAvailability(three(), { ...MONDAY, allowance }))).toBe(24);
    expect(allowance.left).toBe(0);
  });

  it('one entry more than the allowance throws TooManyTimes', () => {
    expect(() => computeAvailability(three(), { ...MONDAY, allowance: { left: 23 } })).toThrow(TooManyTimes);
  });

  it('several computations draw on one shared allowance', () => {
    const allowance = { left: 30 };
    computeAvailability(three(), { ...MONDAY, allowance });
    expect(allowance.left).toBe(6);
    expect(() => computeAvailability(three(), { ...MONDAY, allowance })).toThrow(TooManyTimes);
  });

  it('a zero allowance refuses any entry, but an empty answer is fine', () => {
    const closed = request('2026-03-01T00:00:00Z', '2026-03-01T06:00:00Z');
    expect(total(computeAvailability(three(), { ...closed, allowance: { left: 0 } }))).toBe(0);
    expect(() => computeAvailability(three(), { ...MONDAY, allowance: { left: 0 } })).toThrow(TooManyTimes);
  });

  it('dates spend nothing', () => {
    const allowance = { left: 0 };
    expect(computeAvailableDates(three(), { ...MONDAY, allowance }).r1).toEqual(['2026-03-02']);
    expect(allowance.left).toBe(0);
  });
});

describe('paced computation', () => {
  it('answers exactly what the one-pass computation answers', async () => {
    expect(await computeAvailabilityPaced(three(), MONDAY, { sliceMs: 0 })).toEqual(computeAvailability(three(), MONDAY));
    expect(await computeAvailableDatesPaced(three(), MONDAY, { sliceMs: 0 })).toEqual(computeAvailableDates(three(), MONDAY));
  });

  it('gives the event loop back between resources when its slice is spent', async () => {
    // other work queued on the loop (a callback that queues itself again) runs between slices;
    // a timer would not do: 30 resources may be computed within its first millisecond
    let turns = 0;
    let stopped = false;
    const tick = () => {
      if (stopped) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    try {
      // a zero slice yields after every resource: timers get to run during the computation
      await computeAvailabilityPaced(snapshot({ resources: Array.from({ length: 30 }, (_, i) => resource(`r${i}`)) }), MONDAY, {
        sliceMs: 0,
      });
    } finally {
      stopped = true;
    }
    expect(turns).toBeGreaterThan(0);
  });

  it('stops when its signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('client went away'));
    await expect(computeAvailabilityPaced(three(), MONDAY, { signal: controller.signal })).rejects.toThrow('client went away');
  });

  it('throws TooManyTimes through the paced path too', async () => {
    await expect(computeAvailabilityPaced(three(), { ...MONDAY, allowance: { left: 5 } })).rejects.toBeInstanceOf(TooManyTimes);
  });
});
