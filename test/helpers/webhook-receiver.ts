import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  /** when it arrived, by the receiver's clock */
  at: number;
}

/** What the receiver answers a request: a status (and body), or `hang` (never answers). */
export type Behaviour = { status: number; body?: string } | 'hang';

/**
 * A real HTTP server on a loopback port that records every request and answers as told:
 * `answer` decides when it is set and returns a behaviour; otherwise `plan` is consumed one
 * entry per request, then `fallback` answers.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  /** Decides the answer from the request itself (for example by its `webhook-id`). */
  answer: ((r: Received) => Behaviour | undefined) | null = null;
  plan: Behaviour[] = [];
  fallback: Behaviour = { status: 200, body: 'ok' };
  private server: Server | null = null;
  private hanging = new Set<() => void>();
  private waiters: { n: number; resolve: () => void }[] = [];
  url = '';

  /** `now`: the receiver's clock (a test moves it along with the server's). */
  constructor(private readonly now: () => number = Date.now) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown = null;
        try {
          json = JSON.parse(body);
        } catch {
          /* not JSON */
        }
        const got: Received = { headers: req.headers, body, json, at: this.now() };
        this.received.push(got);
        this.waiters = this.waiters.filter((w) => (this.received.length >= w.n ? (w.resolve(), false) : true));
        const b = this.answer?.(got) ?? this.plan.shift() ?? this.fallback;
        if (b === 'hang') {
          const end = () => res.destroy();
          this.hanging.add(end);
          res.on('close', () => this.hanging.delete(end));
          return;
        }
        res.writeHead(b.status, { 'content-type': 'text/plain' }).end(b.body ?? '');
      });
    });
    // Idle kept-alive connections stay open longer than a test's pauses, so a sender never
    // reuses one at the moment the receiver closes it (a reset the sender would rightly retry).
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this.url;
  }

  /** Resolves once `n` requests in all have arrived. */
  until(n: number): Promise<void> {
    if (this.received.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }

  async stop(): Promise<void> {
    for (const end of this.hanging) end();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
