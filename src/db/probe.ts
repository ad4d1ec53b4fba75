import { Pool } from 'pg';
import { sqlStats } from './stats';

/**
 * The readiness probe's own connection to the database, apart from the pools of requests: a
 * storm of requests that holds every pooled connection (or waits for one) cannot make `/ready`
 * wait, nor fail it, while the database itself answers. One connection, opened on first use and
 * again after it is lost.
 */
export class ProbeConnection {
  private readonly pool: Pool;

  constructor(url: string, timeoutMs = 5000) {
    this.pool = new Pool({
      connectionString: url,
      max: 1,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      keepAlive: true,
    });
    // an idle connection the database drops (a restart) is replaced on the next probe
    this.pool.on('error', () => undefined);
  }

  /** Resolves when the database answers a statement now. */
  async check(): Promise<void> {
    sqlStats.statements++;
    await this.pool.query('select 1');
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
