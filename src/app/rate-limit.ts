import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** Takes one request's token from the bucket `key`: resolves to 0 when allowed, else the seconds to wait. */
export interface Limiter {
  readonly enabled: boolean;
  take(key: string, now: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * Per-key token bucket (contract section 3): `perSecond` tokens refill each second up to
 * `burst`. In-process: with several processes each enforces its own share.
 */
export class RateLimiter implements Limiter {
  private buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private perSecond: number,
    private burst: number,
  ) {}

  get enabled(): boolean {
    return this.perSecond > 0;
  }

  async take(key: string, now: number): Promise<number> {
    if (!this.enabled) return 0;
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: this.burst, at: now };
      this.buckets.set(key, b);
      if (this.buckets.size > 100_000) this.buckets.clear(); // bound memory under key churn
    }
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perSecond));
  }

  async close(): Promise<void> {}
}

const LATE = Symbol('late');

export interface SharedLimiterEvents {
  /** the store could not be asked: the request was let through */
  onStoreFailure(err: Error): void;
  /** the store answers again after a failure */
  onStoreBack(): void;
}

/**
 * The same allowance kept in Redis, shared by every process: a window of `burst` requests per
 * `burst / perSecond` seconds (at least one second), counted atomically by one Lua script per
 * request. While Redis cannot be reached, or does not answer within `commandTimeoutMs`, the
 * limiter fails open (the request is let through, and the failure is reported); the connection
 * retries on its own and limits resume as soon as Redis answers again.
 *
 * The time-out is this limiter's own, not the client library's: a turn of the event loop runs
 * its timers before it reads its sockets, so a timer that expires during a long turn (a storm, a
 * long synchronous task) would fire before an answer that had long arrived is read, and a busy
 * process would let its requests through unchecked just when limits matter most. When the time
 * is up, the decision waits for the same turn's reading of the sockets (`setImmediate`); only
 * an answer still missing then counts as a failure.
 */
export class RedisRateLimiter implements Limiter {
  readonly enabled: boolean;
  private redis: Redis;
  private store: RateLimiterRedis;
  private failing = false;
  private readonly timeoutMs: number;

  constructor(
    url: string,
    perSecond: number,
    burst: number,
    private events: SharedLimiterEvents,
    opts: { keyPrefix?: string; commandTimeoutMs?: number } = {},
  ) {
    this.enabled = perSecond > 0;
    this.timeoutMs = opts.commandTimeoutMs ?? 250;
    // the client library is loaded only when a shared limit is configured
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Redis: Client } = require('ioredis') as typeof import('ioredis');
    this.redis = new Client(url, {
      // Nothing waits for a connection that is down: the request goes on without a limit.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times) => Math.min(100 * times, 2000),
      lazyConnect: !this.enabled,
    });
    // connection errors are reported per request (onStoreFailure); reconnecting is automatic
    this.redis.on('error', () => undefined);
    const points = Math.max(1, burst);
    this.store = new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix: opts.keyPrefix ?? 'rl',
      points,
      duration: Math.max(1, Math.ceil(points / Math.max(perSecond, 1e-9))),
      rejectIfRedisNotReady: true,
    });
  }

  async take(key: string): Promise<number> {
    if (!this.enabled) return 0;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<typeof LATE>((resolve) => {
      timer = setTimeout(() => setImmediate(resolve, LATE), this.timeoutMs);
    });
    try {
      if ((await Promise.race([this.store.consume(key, 1), late])) === LATE) {
        return this.failed(new Error(`Redis did not answer within ${this.timeoutMs} ms`));
      }
      this.recovered();
      return 0;
    } catch (res) {
      if (res instanceof RateLimiterRes) {
        this.recovered();
        return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      }
      return this.failed(res instanceof Error ? res : new Error(String(res)));
    } finally {
      clearTimeout(timer);
    }
  }

  /** The request goes on without a limit. */
  private failed(err: Error): number {
    this.failing = true;
    this.events.onStoreFailure(err);
    return 0;
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.events.onStoreBack();
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
