import { Client } from 'pg';

interface FeedLog {
  info(msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * LISTEN on a dedicated connection that is never pooled (a transaction-pooling PgBouncer would
 * hand LISTEN's session to another client: give the direct URL). When the connection is lost
 * it reconnects with backoff; every handler hears `null` when the connection goes and again
 * when it is back, since notifications sent in between are lost.
 */
export class PgChangeFeed {
  private client: Client | null = null;
  private handlers = new Map<string, Set<(payload: string | null) => void>>();
  private connected = false;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private failures = 0;
  private listens: Promise<void> = Promise.resolve();

  constructor(
    private url: string,
    private log: FeedLog,
  ) {}

  get live(): boolean {
    return this.connected;
  }

  /** Resolves once the channels subscribed so far are listened to (or their connection was lost). */
  listening(): Promise<void> {
    return this.listens;
  }

  /** Connects; resolves when listening, or after the first failure (it retries on its own). */
  async start(): Promise<void> {
    await this.connect();
  }

  subscribe(channel: string, onChange: (payload: string | null) => void): () => Promise<void> {
    let set = this.handlers.get(channel);
    if (!set) {
      this.handlers.set(channel, (set = new Set()));
      const client = this.client;
      if (this.connected && client) {
        // one statement at a time on the connection (pg 9 refuses a query while one is running)
        this.listens = this.listens
          .then(() => client.query(`listen ${ident(channel)}`))
          .then(
            () => undefined,
            (err: Error) => this.lost(err, client),
          );
      }
    }
    set.add(onChange);
    return async () => {
      set.delete(onChange);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const c = this.client;
    this.client = null;
    this.connected = false;
    await c?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new Client({ connectionString: this.url, keepAlive: true, connectionTimeoutMillis: 10_000 });
    client.on('notification', (n) => this.emit(n.channel, n.payload ?? ''));
    client.on('error', (err) => this.lost(err, client));
    client.on('end', () => this.lost(new Error('connection ended'), client));
    this.client = client;
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`listen ${ident(channel)}`);
    } catch (err) {
      this.lost(err as Error, client);
      return;
    }
    if (this.client !== client) return;
    this.connected = true;
    if (this.failures > 0) this.log.info('database change notifications: listening again');
    this.failures = 0;
    this.emitAll();
  }

  private lost(err: Error, client = this.client): void {
    if (client !== this.client || this.closed) return;
    this.client = null;
    void client?.end().catch(() => undefined);
    const wasConnected = this.connected;
    this.connected = false;
    if (wasConnected) this.emitAll();
    if (this.failures++ === 0) this.log.warn({ err }, 'database change notifications: connection lost, reconnecting');
    this.retry = setTimeout(() => void this.connect(), Math.min(200 * this.failures, 5000));
    this.retry.unref();
  }

  private emit(channel: string, payload: string | null): void {
    for (const h of this.handlers.get(channel) ?? []) h(payload);
  }

  private emitAll(): void {
    for (const channel of this.handlers.keys()) this.emit(channel, null);
  }
}

function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a channel name: ${name}`);
  return name;
}
