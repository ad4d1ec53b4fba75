import { jittered } from '../../kernel/outbox-worker';

/**
 * When a failed delivery is tried again: exponential backoff from 10 s, tripling, capped at 6 h,
 * with up to ±20 % jitter so that endpoints coming back after an outage are not hit by every
 * delivery at once. 11 attempts in all span about 21 hours (17-25 with jitter); a delivery
 * whose last attempt fails is given up.
 */
export const MAX_ATTEMPTS = 11;
const BASE_MS = 10_000;
const FACTOR = 3;
const CAP_MS = 6 * 3600_000;
export const JITTER = 0.2;

/** The delay before the attempt after attempt `n` (1-based) without jitter, or null after the last one. */
export function baseDelayMs(n: number): number | null {
  if (!Number.isInteger(n) || n < 1 || n >= MAX_ATTEMPTS) return null;
  return Math.min(CAP_MS, BASE_MS * FACTOR ** (n - 1));
}

/** The delay after attempt `n` with jitter; `random` in [0, 1). */
export function retryDelayMs(n: number, random: () => number = Math.random): number | null {
  const base = baseDelayMs(n);
  return base === null ? null : jittered(base, random, JITTER);
}

/**
 * An endpoint whose deliveries have failed for this long without one success in between is
 * disabled when a delivery is given up (a merchant enables it again).
 */
export const DISABLE_AFTER_MS = 16 * 3600_000;
