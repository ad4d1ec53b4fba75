import { drainDue, jittered, startPolling } from './outbox-worker';

const clock = { now: () => Date.parse('2031-01-01T00:00:00Z') };

/** An outbox of `n` due items, claimed in order. */
function outbox(n: number) {
  const due = Array.from({ length: n }, (_, i) => i);
  const claims: number[] = [];
  return {
    claims,
    claim: async (_now: Date, limit: number) => {
      const got = due.splice(0, limit);
      claims.push(got.length);
      return got;
    },
  };
}

describe('drainDue', () => {
  it('claims batch after batch until fewer than a batch are due, attempting each item once', async () => {
    const o = outbox(7);
    const seen: number[] = [];
    const done = await drainDue({ clock, claim: o.claim, attempt: async (i) => void seen.push(i), batch: 3, unrecorded: () => undefined });
    expect(done).toBe(7);
    expect(o.claims).toEqual([3, 3, 1]);
    expect(seen.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('a stopping process finishes the batch under way and claims no other', async () => {
    const o = outbox(9);
    let stopping = false;
    const done = await drainDue({
      clock,
      claim: o.claim,
      attempt: async () => void (stopping = true),
      batch: 3,
      unrecorded: () => undefined,
      stopping: () => stopping,
    });
    expect([done, o.claims]).toEqual([3, [3]]);
  });

  it('an attempt whose outcome cannot be recorded is reported and the others go on', async () => {
    const o = outbox(3);
    const lost: unknown[] = [];
    const done = await drainDue({
      clock,
      claim: o.claim,
      attempt: async (i) => {
        if (i === 1) throw new Error('database away');
      },
      batch: 5,
      unrecorded: (err) => lost.push((err as Error).message),
    });
    expect([done, lost]).toEqual([3, ['database away']]);
  });

  it('claims at the clock’s now', async () => {
    const at: string[] = [];
    await drainDue({
      clock,
      claim: async (now) => (at.push(now.toISOString()), []),
      attempt: async () => undefined,
      batch: 1,
      unrecorded: () => undefined,
    });
    expect(at).toEqual(['2031-01-01T00:00:00.000Z']);
  });
});

describe('startPolling', () => {
  it('runs a pass every pollMs, goes on after a failed one, and stops after the pass under way', async () => {
    let passes = 0;
    const failures: unknown[] = [];
    let release: () => void = () => undefined;
    const stop = startPolling(
      async () => {
        passes++;
        if (passes === 1) throw new Error('first pass failed');
        if (passes === 3) await new Promise<void>((r) => (release = r));
      },
      5,
      (err) => failures.push(err),
    );
    while (passes < 3) await new Promise((r) => setTimeout(r, 5));
    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(stopped).toBe(false); // waits for the third pass
    release();
    await stopping;
    await new Promise((r) => setTimeout(r, 20));
    expect(passes).toBe(3);
    expect(failures).toHaveLength(1);
  });
});

it('jittered spreads a delay by at most the fraction either way', () => {
  expect(jittered(1000, () => 0, 0.2)).toBe(800);
  expect(jittered(1000, () => 0.5, 0.2)).toBe(1000);
  expect(jittered(1000, () => 0.999999, 0.2)).toBe(1200);
});
