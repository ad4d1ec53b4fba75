import { MAX_ATTEMPTS, retryDelayMs } from './retry-schedule';

it('retries at least 5 times over at least an hour, then gives up', () => {
  const low = () => 0;
  let total = 0;
  for (let n = 1; n < MAX_ATTEMPTS; n++) total += retryDelayMs(n, low)!;
  expect(MAX_ATTEMPTS).toBeGreaterThanOrEqual(5);
  expect(total).toBeGreaterThan(3600_000);
  expect(retryDelayMs(MAX_ATTEMPTS)).toBeNull();
  expect(retryDelayMs(1, () => 0.999)).toBeLessThanOrEqual(72_000);
});
