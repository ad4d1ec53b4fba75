import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import { randomUUID } from 'node:crypto';
import type { AppDeps, Actor } from '../kernel/context';
import { actorOf } from './credentials';
import { createCtx } from '../kernel/context';
import { dbLaneOf, registerScope } from '../kernel/rest';
import { isPaced, pacedBody } from '../kernel/paced-body';
import { auditActorOf, runAudited } from '../kernel/audit';
import { installErrorHandlers } from './errors';
import { clientErrorHandler, frameworkErrors, installInputGuards } from './input-guards';
import { logStream, RequestLog, requestLogRedaction } from './log';
import { installCors } from './cors';
import { buildGraphqlSchema, createApollo } from './graphql';
import { installLiveUpdates, type LiveUpdates } from './graphql-ws';
import { describeRouteSchema, finishDocument } from './openapi';
import { sendingPrewritten } from './graphql-direct';
import { checkDocumentSize } from './graphql-limits';
import { loadPersistedManifest } from './graphql-persisted';
import { explorerRoutes, serveExplorer } from './explorer';
import { guideRoutes } from './guides';
import { createMetrics } from './metrics';
import { RateLimiter, RedisRateLimiter, type Limiter } from './rate-limit';
import { modules } from './registry';
import { DomainError, unavailable } from '../shared/errors';
import { watchResourceShortage } from '../db/resource-shortage';
import { ProbeConnection } from '../db/probe';
import { VERSION } from '../config/version';
import { LazyValidators } from './validators';

export const BODY_LIMIT = 1024 * 1024;

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Builds the HTTP server: REST adapter, GraphQL, operational endpoints. Does not listen. */
export async function buildServer(deps: AppDeps, opts: { logger?: boolean | object } = {}): Promise<FastifyInstance> {
  const validators = new LazyValidators();
  const app = Fastify({
    ...validators.options(),
    // A logger the caller configures (its level and destination) keeps the redaction and serialisers.
    logger:
      typeof opts.logger === 'boolean'
        ? opts.logger
        : { level: deps.config.logLevel, stream: logStream(deps.config.logFormat), ...requestLogRedaction, ...opts.logger },
    bodyLimit: BODY_LIMIT,
    // a hop count trusts that many proxies nearest to the server
    trustProxy:
      typeof deps.config.trustProxy === 'number'
        ? (
            (hops: number) => (_addr: string, i: number) =>
              i < hops
          )(deps.config.trustProxy)
        : deps.config.trustProxy,
    // one line per request, written when it completes, instead of Fastify's two
    logController: new RequestLog(),
    requestIdHeader: 'x-request-id',
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // While closing, new requests get our own 503 (below); Fastify's has another body shape.
    return503OnClosing: false,
    requestTimeout: deps.config.requestTimeoutMs,
    keepAliveTimeout: deps.config.keepAliveTimeoutMs,
    frameworkErrors,
    clientErrorHandler,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true, useDefaults: false, strict: false } },
  });
  app.server.headersTimeout = deps.config.headersTimeoutMs;
  // Shutdown: from `close()` on, a request arriving on a kept-alive connection is refused with
  // 503 and `Connection: close` (Fastify adds the header), while requests already started finish;
  // WebSocket connections are closed once those are answered (graphql-ws.ts).
  let closing = false;
  let live: LiveUpdates | null = null;
  let inFlight = 0;
  let drained: (() => void) | null = null;
  app.addHook('preClose', async () => {
    closing = true;
    live?.shutdown(inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (drained = resolve)), deps.config.shutdownGraceMs);
  });
  // Answers still being made when shutdown starts end their connection, so the server can close.
  app.addHook('onSend', async (_req, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  // A large answer is written piece by piece, sharing each turn of the event loop (paced-body.ts).
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.method === 'HEAD') return payload;
    const bytes = Buffer.isBuffer(payload) ? payload : typeof payload === 'string' && isPaced(payload.length) ? Buffer.from(payload) : null;
    if (!bytes || !isPaced(bytes.length)) return payload;
    reply.header('content-length', bytes.length);
    return pacedBody(bytes);
  });
  // Response schemas document the API; serialisation is plain JSON so nothing is silently dropped.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // JSON only (contract section 1); other content types are 415.
  app.removeContentTypeParser('text/plain');
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Booking platform API',
        // the product's version (package.json); the paths are those of the Bookla Platform API 1.0
        version: VERSION,
        description: 'REST adapter of the booking platform (Bookla Platform API 1.0 paths).',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      // Relative: the document describes the server that serves it, whatever its address.
      servers: [{ url: '/', description: 'this server' }],
      // One tag per bounded context, given to its routes below.
      tags: modules.filter((m) => m.routes).map((m) => ({ name: m.name, description: m.description })),
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A merchant API key.' },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'A client access token (`POST /v1/client/auth/login`).',
          },
        },
      },
    },
    // The texts of the GraphQL schema and named components (app/openapi.ts); the document only.
    transform: ({ schema, url }) => ({
      schema: describeRouteSchema(schema as Record<string, unknown>, buildGraphqlSchema()) as never,
      url,
    }),
    transformObject: (documents) =>
      finishDocument((documents as { openapiObject: Record<string, unknown> }).openapiObject, buildGraphqlSchema()) as never,
  });
  await explorerRoutes(app);
  await guideRoutes(app);
  installErrorHandlers(app);
  installInputGuards(app);
  await installCors(app, deps.config.corsOrigins);
  // Every route, as registered; the OpenAPI test compares it with the generated document.
  const registered: { method: string; url: string }[] = [];
  app.decorate('registeredRoutes', registered);
  // Compiles every route's request validators now (they are compiled at first use otherwise).
  app.decorate('compileValidators', () => validators.compileAll());
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) if (method !== 'HEAD') registered.push({ method, url: r.url });
  });

  const metrics = createMetrics(deps.orm, deps.writeOrm);
  const limiter = createLimiter(deps, metrics);
  app.addHook('onClose', async () => limiter.close());
  app.addHook('onClose', async () => {
    await Promise.all(modules.map((m) => m.close?.(deps)));
  });

  // Contract section 3: one bucket per API key, per client, and per IP address for requests
  // without valid credentials (none, a wrong key or token, pages without auth).
  const limit = async (reply: FastifyReply, bucket: string, what: string) => {
    const wait = await limiter.take(bucket, deps.clock.now());
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      throw new DomainError('rate_limited', `too many requests for this ${what}`);
    }
  };
  app.addHook('onRequest', async (req, reply) => {
    inFlight++;
    reply.raw.once('close', () => {
      if (--inFlight === 0) drained?.();
    });
    reply.header('x-request-id', req.id);
    if (closing) throw unavailable('the server is shutting down; retry on another instance', 1);
    // Aborts when the client goes away before its answer is complete (the request's own
    // 'close' fires as soon as its body is read, so the response is watched instead).
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) gone.abort();
    });
    const config = req.routeOptions.config;
    const limited = limiter.enabled && config?.rateLimit !== false;
    const mode = config?.auth ?? 'none';
    const lane = dbLaneOf(req.method, config?.db);
    let actor: Actor | null = null;
    // the credentials are looked up with the request's own context (its pool), which gets the actor they name
    const ctx = createCtx(deps, null, req.id, req.log, gone.signal, lane);
    if (mode !== 'none') {
      try {
        const auth = req.headers.authorization;
        actor = await actorOf(ctx, req.headers['x-api-key'] as string | undefined, typeof auth === 'string' ? auth : undefined);
      } catch (err) {
        // guessing keys or tokens spends the address's allowance
        if (limited) await limit(reply, `ip:${req.ip}`, 'address');
        throw err;
      }
    }
    if (limited) {
      if (actor?.kind === 'merchant') await limit(reply, `key:${actor.apiKeyId}`, 'API key');
      else if (actor?.kind === 'client') await limit(reply, `client:${actor.clientId}`, 'client');
      else await limit(reply, `ip:${req.ip}`, 'address');
    }
    if (!actor && mode !== 'none' && mode !== 'optional') throw new DomainError('unauthorized', 'missing or invalid credentials');
    ctx.actor = actor;
    req.ctx = ctx;
  });

  // Everything a handler does runs under the request's audit scope (kernel/audit.ts), so every
  // write records its actor and request id. preHandler runs after the body is read: the scope
  // then reaches the handler through the callback chain.
  app.addHook('preHandler', (req, _reply, done) => {
    const { actor } = req.ctx;
    const scope = {
      actor: auditActorOf(actor),
      merchantId: actor?.kind === 'merchant' ? actor.merchantId : null,
      requestId: req.id,
      clock: deps.clock,
    };
    runAudited(scope, done);
  });

  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    metrics.requests.inc({ method: req.method, route, status: String(reply.statusCode) });
    metrics.latency.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });

  // Operational endpoints
  // Liveness: the process can serve, or will once its database is back. Not alive: the
  // embedded database could not be restarted (the process is about to exit non-zero).
  app.get('/health', { schema: { hide: true } as object, config: { rateLimit: false } }, async () => {
    const problem = deps.liveness?.();
    if (problem) throw new DomainError('service_unavailable', problem);
    return { status: 'ok', version: VERSION };
  });
  // Readiness: the database answers now, and has not refused work for lack of resources (a
  // full disk lets `select 1` through while every write fails) in the last SHORTAGE_WINDOW_MS.
  const resources = watchResourceShortage([deps.orm, deps.writeOrm], () => deps.clock.now());
  app.addHook('onClose', async () => resources.stop());
  const probe = new ProbeConnection(deps.orm.config.get('clientUrl')!);
  app.addHook('onClose', async () => probe.close());
  app.get('/ready', { schema: { hide: true } as object, config: { rateLimit: false } }, async () => {
    const shortage = resources.shortage.recent(deps.clock.now());
    if (shortage !== null) {
      const ago = Math.max(0, Math.round((deps.clock.now() - shortage) / 1000));
      throw unavailable(`the database refused work for lack of resources (disk space, memory or connections) ${ago} s ago`);
    }
    try {
      await probe.check();
    } catch {
      throw unavailable('the database is unreachable');
    }
    return { status: 'ready' };
  });
  app.get('/metrics', { schema: { hide: true } as object, config: { rateLimit: false } }, async (_req, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
  app.get('/v1/openapi.json', { schema: { hide: true } as object }, async () => app.swagger());

  // Each context's routes in a scope of their own, which tags them with the context's name.
  for (const m of modules) {
    const routes = m.routes;
    if (!routes) continue;
    registerScope(app, m.name, async (scope) => {
      scope.addHook('onRoute', (r) => {
        if (r.schema) r.schema.tags = [m.name];
      });
      routes(scope);
    });
  }
  // Registering is idempotent: a second server on the same ORM (tests) adds nothing.
  for (const orm of new Set([deps.orm, deps.writeOrm ?? deps.orm]))
    for (const m of modules) for (const sub of m.subscribers ?? []) orm.em.getEventManager().registerSubscriber(sub);

  const persisted = deps.config.graphqlPersistedOnly ? loadPersistedManifest(deps.config.graphqlPersistedManifest!) : null;
  const onInternalError = (err: unknown) => deps.log.error({ err }, 'unexpected GraphQL error');
  const apollo = createApollo({ introspection: deps.config.graphqlIntrospection, persisted, onInternalError });
  // subscriptions: GraphQL over WebSocket on the same path
  live = installLiveUpdates(app, deps, {
    schema: buildGraphqlSchema(),
    persisted,
    introspection: deps.config.graphqlIntrospection && !persisted,
    onInternalError,
    registry: metrics.registry,
  });
  await apollo.start();
  app.addHook('onClose', async () => apollo.stop());
  const graphqlHandler = fastifyApolloHandler(apollo, { context: async (req: FastifyRequest) => req.ctx });
  // A browser's GET (Accept: text/html, no query) gets the explorer page; everything else is the API.
  app.route({
    url: '/graphql',
    method: ['GET', 'POST'],
    // queries, availability among them, read: GraphQL's writes share the read pool
    config: { auth: 'optional', db: 'read' },
    schema: { hide: true } as object,
    handler: async (req, reply) => {
      if (serveExplorer(req, reply)) return reply;
      checkDocumentSize(req);
      return sendingPrewritten(req.ctx, async () => graphqlHandler.call(app, req as never, reply as never));
    },
  });
  return app;
}

/**
 * The rate limiter: shared by every process through Redis when REDIS_URL is set, else kept in
 * this process. A Redis outage lets requests through; it is logged once when it starts and
 * once when it ends, and every request let through unchecked is counted in /metrics.
 */
function createLimiter(deps: AppDeps, metrics: ReturnType<typeof createMetrics>): Limiter {
  const { rateLimitPerSecond: perSecond, rateLimitBurst: burst, redisUrl } = deps.config;
  if (!redisUrl) return new RateLimiter(perSecond, burst);
  let down = false;
  metrics.rateLimitStoreUp.set(1);
  return new RedisRateLimiter(redisUrl, perSecond, burst, {
    onStoreFailure(err) {
      metrics.rateLimitStoreFailures.inc();
      metrics.rateLimitStoreUp.set(0);
      if (!down) deps.log.error({ err }, 'the rate-limit store (Redis) cannot be reached: requests are served without a limit');
      down = true;
    },
    onStoreBack() {
      metrics.rateLimitStoreUp.set(1);
      down = false;
      deps.log.info('the rate-limit store (Redis) answers again: limits apply');
    },
  });
}
