import type { FastifyInstance } from 'fastify';

/**
 * Signals that stop the server gracefully: SIGTERM (a supervisor), SIGINT (Ctrl-C) and SIGHUP
 * (the terminal that runs it was closed; its default would end the process at once and leave
 * the embedded PostgreSQL running).
 */
export const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/**
 * How long kept-alive connections that are idle when the shutdown begins stay open (at most the
 * grace period): a request a client sends on one meanwhile is answered `503` with `Retry-After`
 * and `Connection: close`, where closing the connection under it would reset the request.
 */
export const IDLE_CONNECTION_WINDOW_MS = 2000;

/** How often, after that window, connections that became idle since are closed. */
const IDLE_SWEEP_MS = 100;

/**
 * Stops the HTTP server: no new connections; requests in flight finish (their answers carry
 * `Connection: close`); requests arriving on kept-alive connections are refused with 503 (the
 * server's `closing` hooks). Idle connections are closed only after IDLE_CONNECTION_WINDOW_MS, or
 * once nothing else is open: Node's `server.close()`, which Fastify's `close()` calls, would close
 * them at once, and a request already on its way on one would then be reset. Resolves true when
 * every connection ended within `graceMs`, false when some were still busy (they stay open; the
 * caller decides).
 */
export async function closeHttpServer(app: FastifyInstance, graceMs: number): Promise<boolean> {
  const server = app.server;
  const closeIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => undefined;
  const started = Date.now();
  const closed = app.close().then(() => true);
  const within = (ms: number) => {
    let timer: NodeJS.Timeout | undefined;
    const elapsed = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, ms))));
    return Promise.race([closed, elapsed]).finally(() => clearTimeout(timer));
  };
  let sweep: NodeJS.Timeout | undefined;
  try {
    if (await within(Math.min(IDLE_CONNECTION_WINDOW_MS, graceMs))) return true;
    // From now on idle connections close, including those that finish an answer begun before
    // the shutdown (it may not carry `Connection: close`).
    closeIdle();
    sweep = setInterval(closeIdle, IDLE_SWEEP_MS);
    return await within(graceMs - (Date.now() - started));
  } finally {
    clearInterval(sweep);
    server.closeIdleConnections = closeIdle;
  }
}
