import { unavailable } from '../shared/errors';
import type { AppDeps, Ctx } from './context';

interface Waiter {
  admit(): void;
  refuse(err: Error): void;
}

/**
 * Bounded concurrency with a short queue. Work beyond `concurrency` waits its turn; when
 * `queue` are already waiting the work is refused at once with `503 service_unavailable` and
 * `Retry-After` instead of waiting for minutes. Work whose client has gone (its signal aborts)
 * leaves the queue, or is never started.
 *
 * `Retry-After` says when the work ahead should be done: the average duration of recent work
 * times the work running and waiting, per slot (at least `minRetryAfterSec`, at most 60 s), so
 * that clients that honour it do not come back while the bulkhead is still full.
 */
export class Bulkhead {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  /** Moving average of how long work takes, ms (0: nothing measured yet). */
  private averageMs = 0;

  constructor(
    readonly concurrency: number,
    readonly queue: number,
    readonly minRetryAfterSec = 1,
    private readonly clock: () => number = () => performance.now(),
  ) {
    if (!(concurrency >= 1)) throw new Error('a bulkhead needs a concurrency of at least 1');
  }

  /** Seconds after which a refused request may find room. */
  get retryAfterSec(): number {
    const ahead = this.running + this.waiting.length;
    const estimate = Math.ceil((this.averageMs * ahead) / this.concurrency / 1000);
    return Math.min(60, Math.max(this.minRetryAfterSec, estimate));
  }

  /** Work running now and work waiting for a turn. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw gone();
    if (this.running < this.concurrency) this.running++;
    else await this.wait(signal);
    const started = this.clock();
    try {
      if (signal?.aborted) throw gone();
      return await fn();
    } finally {
      const took = this.clock() - started;
      this.averageMs = this.averageMs === 0 ? took : 0.8 * this.averageMs + 0.2 * took;
      this.release();
    }
  }

  private wait(signal: AbortSignal | undefined): Promise<void> {
    if (this.waiting.length >= this.queue) {
      const after = this.retryAfterSec;
      return Promise.reject(unavailable(`the server is busy with expensive requests; retry in ${after} s`, after));
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(gone());
      };
      const waiter: Waiter = {
        admit: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        refuse: reject,
      };
      this.waiting.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Hands the slot straight to the next waiter (the running count stays), or frees it. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next.admit();
    else this.running--;
  }
}

/** What a request whose client disconnected ends with; nobody reads it. */
function gone(): Error {
  return unavailable('the client closed the connection', 0);
}

/** Stops expensive work between its steps when the request's client has disconnected. */
export function stopIfGone(ctx: Ctx): void {
  if (ctx.signal?.aborted) throw gone();
}

/** Kinds of expensive work; each has its own bulkhead, so a storm of one does not starve the other. */
export type HeavyLane = 'availability' | 'lists' | 'documents';

const heavyByDeps = new WeakMap<AppDeps, Map<HeavyLane, Bulkhead>>();

/** The process-wide bulkhead of a lane of expensive requests (sized by HEAVY_CONCURRENCY and HEAVY_QUEUE). */
export function heavyBulkhead(deps: AppDeps, lane: HeavyLane): Bulkhead {
  let lanes = heavyByDeps.get(deps);
  if (!lanes) heavyByDeps.set(deps, (lanes = new Map()));
  let b = lanes.get(lane);
  if (!b) lanes.set(lane, (b = new Bulkhead(deps.config.heavyConcurrency, deps.config.heavyQueue)));
  return b;
}

/**
 * Runs an expensive operation (a long availability window, a large list) under the bulkhead
 * of its lane, abandoning it when the request's client disconnects. Cheap operations
 * (bookings, payments, health) never pass through here, so they never queue behind expensive ones.
 */
export function runHeavy<T>(ctx: Ctx, lane: HeavyLane, fn: () => Promise<T>): Promise<T> {
  return heavyBulkhead(ctx.deps, lane).run(fn, ctx.signal);
}

/** `runHeavy` when `heavy` holds, else `fn` at once. */
export function runHeavyIf<T>(ctx: Ctx, heavy: boolean, lane: HeavyLane, fn: () => Promise<T>): Promise<T> {
  return heavy ? runHeavy(ctx, lane, fn) : fn();
}
