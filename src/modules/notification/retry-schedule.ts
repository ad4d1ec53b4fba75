import { jittered } from '../../kernel/outbox-worker';

/**
 * When a failed message is tried again: after 1 min, 5 min, 15 min, 30 min, 1 h, 2 h and 4 h,
 * each ±20 % at random (a mail server coming back is not hit by every message at once): 8
 * attempts over about 8 hours. Then the message is `failed`.
 */
export const MAX_ATTEMPTS = 8;
const DELAYS_MS = [60_000, 300_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000];
export const JITTER = 0.2;

/** The delay after attempt `n` (1-based), or null after the last one; `random` in [0, 1). */
export function retryDelayMs(n: number, random: () => number = Math.random): number | null {
  if (!Number.isInteger(n) || n < 1 || n >= MAX_ATTEMPTS) return null;
  return jittered(DELAYS_MS[n - 1], random, JITTER);
}
