import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import { CloseCode, type Context as WsContext } from 'graphql-ws';
import { useServer, type Extra } from 'graphql-ws/use/ws';
import { decodeJwt } from 'jose';
import { Gauge, type Registry } from 'prom-client';
import { WebSocketServer, type WebSocket } from 'ws';
import { createCtx, systemCtx, type Actor, type AppDeps } from '../kernel/context';
import { DomainError } from '../shared/errors';
import { actorOf } from './credentials';
import { isGraphqlRequest } from './graphql-http';
import type { PersistedManifest } from './graphql-persisted';
import { formatErrors, nextPayload, operationChecker, refusal } from './graphql-ws-operation';

/**
 * GraphQL subscriptions over WebSocket on /graphql, with the graphql-ws library (the
 * `graphql-transport-ws` protocol, which Apollo Client's GraphQLWsLink and GraphiQL speak), on a
 * `ws` server sharing Fastify's HTTP server. Events come from the database's change feed
 * (kernel/live.ts), so every process sees every commit.
 *
 * - Credentials travel in `connection_init`'s payload (`{"x-api-key": ...}` or
 *   `{"authorization": "Bearer ..."}`, any case): missing or wrong ones close the connection
 *   (4401, 4403 for a blocked client). They are checked again for each subscription, a key
 *   announced as changed is read again (revoked: 4401, its permissions otherwise follow), and a
 *   client token's connection ends when the token expires (4401).
 * - Limits: subscriptions per connection and per API key or client (on this process: an error
 *   for the subscription over the limit), an idle connection (no subscription) is closed (1000),
 *   pings (a pong missing by the next ping ends the connection), and events waiting for a client
 *   that does not read are bounded (more close the connection with 4413).
 * - Shutdown: no new connections; once the HTTP requests in flight are answered (or the grace
 *   period is over) every connection is closed with 1001 (going away: clients reconnect elsewhere).
 */

export const WS_CLOSE = {
  /** normal closure: the connection held no subscription for GRAPHQL_WS_IDLE_TIMEOUT_MS */
  idle: 1000,
  /** the server is shutting down */
  goingAway: 1001,
  /** credentials missing, wrong, revoked or expired (graphql-ws's Unauthorized) */
  unauthorized: CloseCode.Unauthorized,
  /** the credentials' holder may not connect (a blocked client) */
  forbidden: CloseCode.Forbidden,
  /** the credentials could not be checked now (the database is unreachable) */
  tryAgainLater: 1013,
  /** more events waiting for the client than GRAPHQL_WS_MAX_QUEUED_EVENTS: it does not keep up */
  slowConsumer: 4413,
} as const;

/** How long a closing connection may take to answer the close before it is ended. */
const CLOSE_HANDSHAKE_MS = 2000;
/** Messages are small (a document and its variables); the JSON body limit of HTTP would be far too much. */
const MAX_MESSAGE_BYTES = 256 * 1024;

interface Connection {
  id: string;
  socket: WebSocket;
  key?: string;
  authorization?: string;
  /** shared by every subscription's context, so that changed permissions reach them all */
  actor: Actor | null;
  /** `key:<id>` or `client:<id>`: whose subscriptions are counted together */
  caller: string | null;
  /** subscription id -> its cost */
  subscriptions: Map<string, number>;
  /** the subscriptions whose events flow (their `subscribe` succeeded) */
  running: Set<string>;
  expiry?: NodeJS.Timeout;
  idle?: NodeJS.Timeout;
  closed: boolean;
}

export interface LiveUpdates {
  /** Refuses new connections; closes the open ones with 1001 once `drained` resolves or `graceMs` passed. */
  shutdown(drained: Promise<void>, graceMs: number): void;
  /** Connections open now. */
  readonly connections: number;
}

const lowerKeys = (o: unknown): Record<string, string> => {
  const out: Record<string, string> = {};
  if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) if (typeof v === 'string') out[k.toLowerCase()] = v;
  return out;
};

/** Answers an upgrade request that is refused, and ends its socket. */
function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.on('error', () => undefined);
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * A browser's WebSocket carries the page's Origin and no CORS check applies: pages of the
 * origins of CORS_ORIGINS (or any with `*`) and of this server itself (the explorer) may
 * connect; clients that send no Origin (servers, apps) are not browsers.
 */
function originAllowed(req: IncomingMessage, origins: string[]): boolean {
  const origin = req.headers.origin;
  if (!origin || origins.includes('*') || origins.includes(origin.toLowerCase())) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

export function installLiveUpdates(
  app: FastifyInstance,
  deps: AppDeps,
  opts: {
    schema: GraphQLSchema;
    persisted: PersistedManifest | null;
    introspection: boolean;
    onInternalError: (err: unknown) => void;
    /** where the connection and subscription counts are reported (/metrics) */
    registry: Registry;
  },
): LiveUpdates {
  const config = deps.config;
  const check = operationChecker(opts);
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const connections = new Map<WebSocket, Connection>();
  const perCaller = new Map<string, number>();
  let accepting = true;
  new Gauge({
    name: 'graphql_ws_connections',
    help: 'GraphQL WebSocket connections open',
    registers: [opts.registry],
    collect() {
      this.set(connections.size);
    },
  });
  new Gauge({
    name: 'graphql_subscriptions_running',
    help: 'GraphQL subscriptions whose events are being sent',
    registers: [opts.registry],
    collect() {
      let n = 0;
      for (const c of connections.values()) n += c.running.size;
      this.set(n);
    },
  });

  const close = (c: Connection, code: number, reason: string) => {
    if (c.socket.readyState === c.socket.OPEN || c.socket.readyState === c.socket.CONNECTING) c.socket.close(code, reason);
    setTimeout(() => c.socket.terminate(), CLOSE_HANDSHAKE_MS).unref();
  };
  const idleAfterwards = (c: Connection) => {
    clearTimeout(c.idle);
    if (c.subscriptions.size || c.closed) return;
    c.idle = setTimeout(() => close(c, WS_CLOSE.idle, `no subscription for ${config.wsIdleTimeoutMs} ms`), config.wsIdleTimeoutMs);
    c.idle.unref();
  };
  const forget = (c: Connection, id: string) => {
    c.running.delete(id);
    if (!c.subscriptions.delete(id) || !c.caller) return;
    const n = (perCaller.get(c.caller) ?? 1) - 1;
    if (n > 0) perCaller.set(c.caller, n);
    else perCaller.delete(c.caller);
  };

  /**
   * The connection's credentials, read again (`recheck`: from the database, a key announced as
   * changed). Refused credentials close the connection; the refusal is returned. When they
   * cannot be checked (the database is unreachable), a recheck keeps the connection as it is.
   */
  const authenticate = async (c: Connection, recheck = false): Promise<DomainError | null> => {
    let actor: Actor | null;
    try {
      actor = await actorOf(systemCtx(deps, 'graphql-ws'), c.key, c.authorization, { fresh: recheck });
    } catch (err) {
      if (!(err instanceof DomainError) || err.code === 'service_unavailable') {
        if (recheck) return null;
        close(c, WS_CLOSE.tryAgainLater, 'the credentials could not be checked now; try again');
        return new DomainError('service_unavailable', 'the credentials could not be checked now; try again');
      }
      const revoked = recheck && err.code === 'unauthorized' && c.key !== undefined;
      close(c, err.code === 'forbidden' ? WS_CLOSE.forbidden : WS_CLOSE.unauthorized, revoked ? 'the API key was revoked' : err.message);
      return err;
    }
    if (!actor) {
      const message = 'credentials required: send {"x-api-key": ...} or {"authorization": "Bearer ..."} in connection_init';
      close(c, WS_CLOSE.unauthorized, message);
      return new DomainError('unauthorized', message);
    }
    // the subscriptions' contexts share this actor: changed permissions reach them all
    if (c.actor) Object.assign(c.actor, actor);
    else c.actor = actor;
    return null;
  };

  // A key changed (revoked, permissions edited) by any process: its connections check it again.
  const unfollow = deps.changes?.subscribe('api_key_changed', (id) => {
    for (const c of connections.values())
      if (c.actor?.kind === 'merchant' && (id === null || c.actor.apiKeyId === id)) void authenticate(c, true);
  });

  const connection = (ctx: WsContext<Record<string, unknown>, Extra>) => connections.get(ctx.extra.socket);

  useServer<Record<string, unknown>>(
    {
      isProd: true,
      connectionInitWaitTimeout: 3000,
      async onConnect(ctx) {
        const c = connection(ctx);
        if (!c) return false;
        const params = lowerKeys(ctx.connectionParams);
        c.key = params['x-api-key'];
        c.authorization = params.authorization;
        if (await authenticate(c)) return false;
        const actor = c.actor!;
        c.caller = actor.kind === 'merchant' ? `key:${actor.apiKeyId}` : `client:${actor.clientId}`;
        if (actor.kind === 'client' && c.authorization) {
          const exp = decodeJwt(c.authorization.replace(/^bearer\s+/i, '').trim()).exp;
          if (exp) {
            const left = Math.max(0, exp * 1000 - deps.clock.now());
            c.expiry = setTimeout(() => close(c, WS_CLOSE.unauthorized, 'the access token expired'), Math.min(left, 2 ** 31 - 1));
            c.expiry.unref();
          }
        }
        idleAfterwards(c);
        return true;
      },
      async onSubscribe(ctx, id, payload) {
        const c = connection(ctx);
        if (!c || c.closed) return [refusal('unauthorized', 'the connection is closing')];
        const denied = await authenticate(c);
        if (denied) return [refusal(denied.code, denied.message)];
        if (c.subscriptions.size >= config.wsMaxSubscriptions)
          return [refusal('rate_limited', `at most ${config.wsMaxSubscriptions} subscriptions on one connection`)];
        if (c.caller && (perCaller.get(c.caller) ?? 0) >= config.wsMaxSubscriptionsPerCaller)
          return [refusal('rate_limited', `at most ${config.wsMaxSubscriptionsPerCaller} subscriptions for one API key or client`)];
        const checked = check(payload);
        if (Array.isArray(checked)) return checked;
        c.subscriptions.set(id, checked.cost);
        if (c.caller) perCaller.set(c.caller, (perCaller.get(c.caller) ?? 0) + 1);
        idleAfterwards(c);
        const requestId = `${c.id}:${id}`.slice(0, 64);
        const contextValue = createCtx(deps, c.actor, requestId, deps.log.child({ reqId: requestId }));
        contextValue.live = {
          maxQueued: config.wsMaxQueuedEvents,
          overflow: () =>
            close(c, WS_CLOSE.slowConsumer, `more than ${config.wsMaxQueuedEvents} events waiting: the client does not keep up`),
        };
        return {
          schema: opts.schema,
          document: checked.document,
          variableValues: payload.variables ?? undefined,
          operationName: payload.operationName ?? undefined,
          contextValue,
        };
      },
      onOperation(ctx, id, _payload, _args, result) {
        if (Symbol.asyncIterator in result) connection(ctx)?.running.add(id);
      },
      onNext(ctx, id, _payload, _args, result) {
        return nextPayload(result, connection(ctx)?.subscriptions.get(id) ?? null, opts.onInternalError);
      },
      onError(_ctx, _id, _payload, errors) {
        return formatErrors(errors, opts.onInternalError);
      },
      onComplete(ctx, id) {
        const c = connection(ctx);
        if (!c) return;
        forget(c, id);
        idleAfterwards(c);
      },
      onClose(ctx) {
        const c = connection(ctx);
        if (!c) return;
        c.closed = true;
        clearTimeout(c.expiry);
        clearTimeout(c.idle);
        for (const id of [...c.subscriptions.keys()]) forget(c, id);
        connections.delete(c.socket);
      },
    },
    wss,
    config.wsPingIntervalMs,
  );

  // registered before graphql-ws's own listener (useServer), so the connection is known to its hooks
  wss.prependListener('connection', (socket: WebSocket) => {
    connections.set(socket, {
      id: randomUUID(),
      socket,
      actor: null,
      caller: null,
      subscriptions: new Map(),
      running: new Set(),
      closed: false,
    });
  });

  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!isGraphqlRequest(req.url)) return refuseUpgrade(socket, 404, 'Not Found');
    if (!accepting) return refuseUpgrade(socket, 503, 'Service Unavailable');
    if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return refuseUpgrade(socket, 400, 'Bad Request');
    if (!originAllowed(req, config.corsOrigins)) return refuseUpgrade(socket, 403, 'Forbidden');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  app.addHook('onClose', async () => {
    await unfollow?.();
    for (const c of connections.values()) c.socket.terminate();
  });

  return {
    shutdown(drained, graceMs) {
      accepting = false;
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      void Promise.race([drained, grace]).then(() => {
        clearTimeout(timer);
        for (const c of connections.values()) close(c, WS_CLOSE.goingAway, 'the server is shutting down');
      });
    },
    get connections() {
      return connections.size;
    },
  };
}
