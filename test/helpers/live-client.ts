import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

/**
 * A graphql-ws client (the library Apollo Client's GraphQLWsLink wraps) on a real WebSocket,
 * connected at once and never retrying, with what happens recorded for the tests to wait on.
 */

export interface Closed {
  code: number;
  reason: string;
}

export interface LiveSubscription {
  /** the `next` payloads received so far */
  items: any[];
  /** the next payload after those already taken; rejects after `ms` */
  take(ms?: number): Promise<any>;
  /** resolves when the subscription ended: `error` (errors, or the close event) or complete */
  ended: Promise<{ error?: unknown }>;
  /** no further payload within `ms` */
  quiet(ms: number): Promise<void>;
  dispose(): void;
}

export interface LiveClient {
  client: Client;
  /** the first close of the socket */
  closed: Promise<Closed>;
  /** resolves when the server acknowledged the connection */
  connected: Promise<void>;
  subscribe(query: string, variables?: Record<string, unknown>, extra?: { extensions?: Record<string, unknown> }): LiveSubscription;
  dispose(): Promise<void>;
}

export function liveClient(url: string, params: Record<string, unknown>, opts: { origin?: string } = {}): LiveClient {
  let onClosed: (c: Closed) => void = () => undefined;
  let onConnected: () => void = () => undefined;
  const closed = new Promise<Closed>((resolve) => (onClosed = resolve));
  const connected = new Promise<void>((resolve) => (onConnected = resolve));
  const impl = opts.origin
    ? class extends WebSocket {
        constructor(address: string, protocols?: string | string[]) {
          super(address, protocols, { origin: opts.origin });
        }
      }
    : WebSocket;
  const client = createClient({
    url,
    webSocketImpl: impl,
    connectionParams: params,
    lazy: false,
    retryAttempts: 0,
    shouldRetry: () => false,
    on: {
      connected: () => onConnected(),
      closed: (e) => onClosed({ code: (e as { code: number }).code, reason: String((e as { reason?: unknown }).reason ?? '') }),
    },
    // the error of a failed connection is the close event, read from `closed`
    onNonLazyError: () => undefined,
  });
  return {
    client,
    closed,
    connected,
    subscribe(query, variables, extra = {}) {
      const items: any[] = [];
      let taken = 0;
      let wake: (() => void) | null = null;
      let onEnd: (r: { error?: unknown }) => void = () => undefined;
      const ended = new Promise<{ error?: unknown }>((resolve) => (onEnd = resolve));
      const dispose = client.subscribe(
        { query, variables, ...extra },
        {
          next: (v) => {
            items.push(v);
            wake?.();
          },
          error: (error) => {
            onEnd({ error });
            wake?.();
          },
          complete: () => {
            onEnd({});
            wake?.();
          },
        },
      );
      let over = false;
      void ended.then(() => (over = true));
      return {
        items,
        ended,
        dispose,
        async take(ms = 5000) {
          const deadline = Date.now() + ms;
          while (taken >= items.length) {
            if (over) throw new Error(`the subscription ended before another payload (${items.length} received)`);
            const left = deadline - Date.now();
            if (left <= 0) throw new Error(`no payload within ${ms} ms (${items.length} received)`);
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, left);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wake = null;
          }
          return items[taken++];
        },
        async quiet(ms) {
          const before = items.length;
          await new Promise((r) => setTimeout(r, ms));
          if (items.length !== before) throw new Error(`unexpected payload: ${JSON.stringify(items.slice(before))}`);
        },
      };
    },
    dispose: () => client.dispose() as Promise<void>,
  };
}

export const wsUrl = (base: string) => `${base.replace(/^http/, 'ws')}/graphql`;

/** A gauge of a server's /metrics text. */
function gauge(metricsText: string, name: string): number {
  const m = new RegExp(`^${name} (\\d+)$`, 'm').exec(metricsText);
  return m ? Number(m[1]) : 0;
}

async function until(metrics: () => Promise<string>, ok: (text: string) => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (ok(await metrics())) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(
    `${what} within 5 s: ${(await metrics())
      .split('\n')
      .filter((l) => l.startsWith('graphql_'))
      .join('; ')}`,
  );
}

/** Waits until a server holds no WebSocket connection (those of a finished test are gone). */
export const settled = (metrics: () => Promise<string>) =>
  until(metrics, (text) => gauge(text, 'graphql_ws_connections') === 0, 'the connections did not close');

/**
 * Subscribes and waits until the server runs `running` subscriptions (this one among them), so
 * that a change made next is one it hears: graphql-transport-ws acknowledges connections, not
 * subscriptions.
 */
export async function subscribed(
  c: LiveClient,
  metrics: () => Promise<string>,
  query: string,
  variables?: Record<string, unknown>,
  running = 1,
): Promise<LiveSubscription> {
  const sub = c.subscribe(query, variables);
  await until(
    metrics,
    (text) => gauge(text, 'graphql_subscriptions_running') >= running || sub.items.length > 0,
    'the subscription did not start',
  );
  return sub;
}
