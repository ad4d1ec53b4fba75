import type { Clock } from './context';

/**
 * The loop of a worker that sends what the transactional outbox holds (webhook deliveries,
 * e-mail messages). Each pass claims due items in batches, in one statement per batch that
 * leases them (`for update skip locked`, `next_attempt_at` moved a lease ahead): several
 * processes never attempt the same item at once, and a process that dies during an attempt
 * leaves the item due again when its lease ends. The attempts of a batch run in parallel, outside
 * any transaction; each records its own outcome. Retries follow each worker's schedule, spread
 * by `jittered` so that a receiver coming back is not hit by every item at once.
 */

export interface DrainOptions<T> {
  clock: Clock;
  /** Claims (and leases) at most `limit` items due at `now`. */
  claim(now: Date, limit: number): Promise<T[]>;
  /** Attempts one item and records its outcome; a rejection means the outcome could not be recorded. */
  attempt(item: T): Promise<void>;
  batch: number;
  /** Called with each error of an attempt whose outcome could not be recorded (its lease runs out; it is tried again). */
  unrecorded(err: unknown): void;
  /** True once the process is stopping: the batch under way finishes, no other is claimed (a backlog can be long). */
  stopping?: () => boolean;
}

/** One pass: claims and attempts due items batch by batch until fewer than a batch are due, or `stopping()`; returns the attempts made. */
export async function drainDue<T>(o: DrainOptions<T>): Promise<number> {
  let done = 0;
  for (;;) {
    const claimed = await o.claim(new Date(o.clock.now()), o.batch);
    const settled = await Promise.allSettled(claimed.map((item) => o.attempt(item)));
    for (const r of settled) if (r.status === 'rejected') o.unrecorded(r.reason);
    done += claimed.length;
    if (claimed.length < o.batch || o.stopping?.()) return done;
  }
}

/**
 * Runs `pass` every `pollMs` (a pass that fails is reported to `failed` and the next one comes
 * all the same). The returned function stops the polling and waits for the pass under way.
 */
export function startPolling(
  pass: (stopping: () => boolean) => Promise<unknown>,
  pollMs: number,
  failed: (err: unknown) => void,
): () => Promise<void> {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  const tick = () => {
    running = pass(() => stopped)
      .catch(failed)
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, pollMs).unref();
      });
  };
  timer = setTimeout(tick, pollMs).unref();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
  };
}

/** `baseMs` spread by up to ±`fraction` (`random` in [0, 1)), rounded to the millisecond. */
export const jittered = (baseMs: number, random: () => number, fraction: number): number =>
  Math.round(baseMs * (1 - fraction + 2 * fraction * random()));
