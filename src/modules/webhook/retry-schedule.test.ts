import { baseDelayMs, DISABLE_AFTER_MS, JITTER, MAX_ATTEMPTS, retryDelayMs } from './retry-schedule';

const total = (random: () => number) => {
  let sum = 0;
  for (let n = 1; n < MAX_ATTEMPTS; n++) sum += retryDelayMs(n, random)!;
  return sum;
};

describe('retry schedule', () => {
  it('grows exponentially and is capped', () => {
    expect([1, 2, 3, 4].map((n) => baseDelayMs(n))).toEqual([10_000, 30_000, 90_000, 270_000]);
    for (let n = 2; n < MAX_ATTEMPTS; n++) expect(baseDelayMs(n)!).toBeGreaterThanOrEqual(baseDelayMs(n - 1)!);
    expect(baseDelayMs(MAX_ATTEMPTS - 1)).toBe(6 * 3600_000);
  });
  it('stops after the last attempt and refuses nonsense', () => {
    expect(baseDelayMs(MAX_ATTEMPTS)).toBeNull();
    expect(retryDelayMs(MAX_ATTEMPTS)).toBeNull();
    for (const n of [0, -1, 1.5, NaN]) expect(baseDelayMs(n)).toBeNull();
  });
  it('jitters within ±20 %', () => {
    expect(retryDelayMs(3, () => 0)).toBe(Math.round(90_000 * (1 - JITTER)));
    expect(retryDelayMs(3, () => 0.999999)).toBeCloseTo(90_000 * (1 + JITTER), -1);
    expect(retryDelayMs(3, () => 0.5)).toBe(90_000);
  });
  it('spans about a day, longer than the disabling threshold whatever the jitter', () => {
    const h = 3600_000;
    expect(total(() => 0.5) / h).toBeGreaterThan(19);
    expect(total(() => 0.5) / h).toBeLessThan(23);
    expect(total(() => 0)).toBeGreaterThan(DISABLE_AFTER_MS);
    expect(total(() => 0.999999) / h).toBeLessThan(30);
  });
});
