/**
 * Per-key token bucket (contract section 3): `perSecond` tokens refill each second up to
 * `burst`. In-process; with several processes each enforces its own share.
 */
export class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private perSecond: number,
    private burst: number,
  ) {}

  get enabled(): boolean {
    return this.perSecond > 0;
  }

  /** Takes one token; returns 0 when allowed, else the seconds to wait. */
  take(key: string, now: number): number {
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
}
