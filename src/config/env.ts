import { resolve } from 'node:path';

/** Process configuration, read and validated once at start. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  /**
   * The same database without a pooler in between (PgBouncer in transaction mode): LISTEN and
   * migrations need a session of their own. Default: DATABASE_URL.
   */
  databaseDirectUrl: string | null;
  dataDir: string;
  adminApiKey: string | null;
  encryptionKey: string | null;
  jwtSecret: string | null;
  publicUrl: string;
  logLevel: string;
  /** `json` (one object per line), `pretty` (for people), or `auto`: pretty on a terminal, else JSON */
  logFormat: 'json' | 'pretty' | 'auto';
  redisUrl: string | null;
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  /** Which proxies' X-Forwarded-For to believe for the client IP: none, all, a hop count or addresses/CIDRs. */
  trustProxy: boolean | number | string[];
  paymentTimeoutSec: number;
  /** how often each process looks for expired pending payments, ms */
  paymentSweepIntervalMs: number;
  /** API processes sharing the port (node:cluster); 1: this process serves */
  workers: number;
  graphqlIntrospection: boolean;
  /**
   * `GRAPHQL_DIRECT_ANSWERS` (default true): operations asking only `availableTimes` or
   * `clientAvailableTimes` are answered as written JSON instead of field by field, and the
   * catalog's queries are executed by the server's writer instead of graphql-js (the same
   * answers); false leaves both to graphql-js. Read per request, so a test can compare both on
   * one server.
   */
  graphqlDirectAnswers: boolean;
  /**
   * `GRAPHQL_PERSISTED_ONLY=true`: `/graphql` runs only the operations of the manifest
   * `GRAPHQL_PERSISTED_MANIFEST` (sent by hash or as the same text), and introspection is off.
   */
  graphqlPersistedOnly: boolean;
  /** `GRAPHQL_PERSISTED_MANIFEST`: the path of an Apollo persisted-query manifest (JSON); null: none */
  graphqlPersistedManifest: string | null;
  /** GraphQL over WebSocket: subscriptions one connection may hold at once */
  wsMaxSubscriptions: number;
  /** GraphQL over WebSocket: subscriptions one API key or client may hold at once on this process */
  wsMaxSubscriptionsPerCaller: number;
  /** GraphQL over WebSocket: how long a connection without a subscription stays open, ms */
  wsIdleTimeoutMs: number;
  /** GraphQL over WebSocket: how often the server pings; a connection whose pong is not back by the next ping is ended, ms (0: no pings) */
  wsPingIntervalMs: number;
  /** GraphQL over WebSocket: events that may wait for a client that does not read before its connection is ended */
  wsMaxQueuedEvents: number;
  accessTokenTtlSec: number;
  dbPoolMax: number;
  /**
   * connections of the pool that writes (a REST request other than GET, availability excepted)
   * take, apart from `dbPoolMax`, so that they never wait behind reads for a connection (0:
   * writes share the one pool)
   */
  dbWritePoolMax: number;
  /** PostgreSQL `statement_timeout` of API connections, ms (0: none) */
  statementTimeoutMs: number;
  /** how long a request may wait for a pooled database connection, ms */
  dbAcquireTimeoutMs: number;
  /** time to receive a whole request (headers and body), ms */
  requestTimeoutMs: number;
  /** time to receive the request headers, ms */
  headersTimeoutMs: number;
  /** how long an idle kept-alive connection stays open, ms */
  keepAliveTimeoutMs: number;
  /** how long shutdown waits for requests in flight, ms */
  shutdownGraceMs: number;
  /** expensive requests (long availability windows) computed at once */
  heavyConcurrency: number;
  /** expensive requests that may wait for a turn; more are refused with 503 */
  heavyQueue: number;
  /** worker threads computing long availability windows (0: on the main thread) */
  availabilityThreads: number;
  /** worker threads reading uploaded PDF templates and drawing PDFs from them (at least 1) */
  pdfThreads: number;
  /** how long one PDF may take on its thread before it is refused and the thread ended, ms */
  pdfTimeoutMs: number;
  /** a module each worker thread requires first (a require hook, to run the TypeScript sources' threads in tests); null: none */
  threadPreload: string | null;
  /** Origins whose browsers may call `/graphql` and `/v1/*` (`['*']`: any); empty: none. */
  corsOrigins: string[];
  /** `WEBHOOK_ALLOW_INSECURE=true`: webhook endpoints may be `http` URLs to loopback hosts (development, tests) */
  webhookAllowInsecure: boolean;
  /** how long a webhook delivery waits for the endpoint's answer, ms */
  webhookTimeoutMs: number;
  /** how often the webhook worker looks for due deliveries, ms */
  webhookPollMs: number;
  /** `SMTP_URL`: the mail transport of notifications (`smtp://user:pass@host:587`, `smtps://...`); null: messages are recorded, not sent */
  smtpUrl: string | null;
  /** `SMTP_FROM`: the From address of notifications (`"Bookings <bookings@example.com>"`); null: `bookings@<PUBLIC_URL host>` */
  smtpFrom: string | null;
  /** how often the notification worker looks for due messages, ms */
  notificationPollMs: number;
  /** how long the mail server may take to connect, greet or answer one command, ms (a message's lease is three times that and 10 s) */
  smtpTimeoutMs: number;
  /**
   * `STRIPE_API_URL`: where the Stripe library sends its requests (scheme, host and port
   * only), for local servers that speak Stripe's API; null: Stripe's own API.
   */
  stripeApiUrl: string | null;
}

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer between ${min} and ${max}`);
  return n;
}

function str(env: NodeJS.ProcessEnv, name: string): string | null {
  const v = env[name];
  return v === undefined || v.trim() === '' ? null : v.trim();
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const v = str(env, name);
  if (v === null || v === 'false') return false;
  if (v === 'true') return true;
  throw new ConfigError(`${name} must be true or false`);
}

const ORIGIN = /^https?:\/\/[^/?#\s*]+$/i;

/**
 * `CORS_ORIGINS`: `*` alone, or a comma-separated list of origins (`https://shop.example`,
 * `http://localhost:3000`), each a scheme and host with an optional port and nothing else.
 */
export function parseCorsOrigins(raw: string | null): string[] {
  if (raw === null) return [];
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.includes('*')) {
    if (list.length > 1) throw new ConfigError('CORS_ORIGINS must be * alone or a list of origins, not both');
    return ['*'];
  }
  for (const o of list) {
    if (!ORIGIN.test(o)) throw new ConfigError(`CORS_ORIGINS: ${o} is not an origin (scheme://host[:port], no path)`);
  }
  return [...new Set(list.map((o) => o.toLowerCase().replace(/\/+$/, '')))];
}

function trustProxy(env: NodeJS.ProcessEnv): boolean | number | string[] {
  const raw = str(env, 'TRUST_PROXY');
  if (raw === null || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return int(env, 'TRUST_PROXY', 0, 0, 100);
  const list = raw
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  if (!list.every((a) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(a)))
    throw new ConfigError('TRUST_PROXY must be true, false, a hop count or a comma-separated list of addresses/CIDRs');
  return list;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env, 'PORT', 4000, 0, 65535);
  const logLevel = str(env, 'LOG_LEVEL') ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent');
  }
  const logFormat = str(env, 'LOG_FORMAT') ?? 'auto';
  if (logFormat !== 'json' && logFormat !== 'pretty' && logFormat !== 'auto')
    throw new ConfigError('LOG_FORMAT must be json, pretty or auto');
  const adminApiKey = str(env, 'ADMIN_API_KEY');
  if (adminApiKey !== null && adminApiKey.length < 16) throw new ConfigError('ADMIN_API_KEY must be at least 16 characters');
  const jwtSecret = str(env, 'JWT_SECRET');
  if (jwtSecret !== null && jwtSecret.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters');
  const rate = int(env, 'RATE_LIMIT_PER_SECOND', 100, 0);
  const requestTimeoutMs = int(env, 'REQUEST_TIMEOUT_MS', 30_000, 1);
  const headersTimeoutMs = int(env, 'HEADERS_TIMEOUT_MS', Math.min(10_000, requestTimeoutMs), 1);
  if (headersTimeoutMs > requestTimeoutMs) throw new ConfigError('HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS');
  const graphqlPersistedOnly = flag(env, 'GRAPHQL_PERSISTED_ONLY');
  const manifest = str(env, 'GRAPHQL_PERSISTED_MANIFEST');
  if (graphqlPersistedOnly && manifest === null)
    throw new ConfigError('GRAPHQL_PERSISTED_ONLY=true needs GRAPHQL_PERSISTED_MANIFEST (the path of the persisted-operation manifest)');
  const publicUrl = (str(env, 'PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(publicUrl)) throw new ConfigError('PUBLIC_URL must be an http(s) URL');
  return {
    port,
    host: str(env, 'HOST') ?? '0.0.0.0',
    databaseUrl: str(env, 'DATABASE_URL'),
    databaseDirectUrl: str(env, 'DATABASE_DIRECT_URL'),
    dataDir: resolve(str(env, 'DATA_DIR') ?? './.data'),
    adminApiKey,
    encryptionKey: str(env, 'ENCRYPTION_KEY'),
    jwtSecret,
    publicUrl,
    logLevel,
    logFormat,
    redisUrl: str(env, 'REDIS_URL'),
    rateLimitPerSecond: rate,
    rateLimitBurst: int(env, 'RATE_LIMIT_BURST', rate * 2, 0),
    trustProxy: trustProxy(env),
    paymentTimeoutSec: int(env, 'PAYMENT_TIMEOUT', 900, 1),
    paymentSweepIntervalMs: int(env, 'PAYMENT_SWEEP_INTERVAL_MS', 5000, 50, 3_600_000),
    workers: int(env, 'WORKERS', 1, 1, 256),
    graphqlIntrospection: (str(env, 'GRAPHQL_INTROSPECTION') ?? 'true') !== 'false',
    graphqlDirectAnswers: (str(env, 'GRAPHQL_DIRECT_ANSWERS') ?? 'true') !== 'false',
    graphqlPersistedOnly,
    graphqlPersistedManifest: manifest === null ? null : resolve(manifest),
    wsMaxSubscriptions: int(env, 'GRAPHQL_WS_MAX_SUBSCRIPTIONS', 50, 1, 10_000),
    wsMaxSubscriptionsPerCaller: int(env, 'GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_CALLER', 500, 1, 1_000_000),
    wsIdleTimeoutMs: int(env, 'GRAPHQL_WS_IDLE_TIMEOUT_MS', 300_000, 100, 86_400_000),
    wsPingIntervalMs: int(env, 'GRAPHQL_WS_PING_INTERVAL_MS', 12_000, 0, 3_600_000),
    wsMaxQueuedEvents: int(env, 'GRAPHQL_WS_MAX_QUEUED_EVENTS', 100, 1, 100_000),
    accessTokenTtlSec: int(env, 'ACCESS_TOKEN_TTL', 900, 1),
    dbPoolMax: int(env, 'DB_POOL_MAX', 20, 1, 1000),
    dbWritePoolMax: int(env, 'DB_WRITE_POOL_MAX', 8, 0, 1000),
    statementTimeoutMs: int(env, 'STATEMENT_TIMEOUT_MS', 15_000, 0),
    dbAcquireTimeoutMs: int(env, 'DB_ACQUIRE_TIMEOUT_MS', 10_000, 100),
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: int(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 1),
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 25_000, 0),
    heavyConcurrency: int(env, 'HEAVY_CONCURRENCY', 2, 1, 1000),
    heavyQueue: int(env, 'HEAVY_QUEUE', 4, 0, 100_000),
    availabilityThreads: int(env, 'AVAILABILITY_THREADS', 1, 0, 64),
    pdfThreads: int(env, 'PDF_THREADS', 1, 1, 64),
    pdfTimeoutMs: int(env, 'PDF_TIMEOUT_MS', 10_000, 100, 600_000),
    threadPreload: str(env, 'THREAD_PRELOAD'),
    corsOrigins: parseCorsOrigins(str(env, 'CORS_ORIGINS')),
    webhookAllowInsecure: flag(env, 'WEBHOOK_ALLOW_INSECURE'),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    webhookPollMs: int(env, 'WEBHOOK_POLL_MS', 1000, 10, 600_000),
    smtpUrl: parseSmtpUrl(str(env, 'SMTP_URL')),
    smtpFrom: str(env, 'SMTP_FROM'),
    notificationPollMs: int(env, 'NOTIFICATION_POLL_MS', 1000, 10, 600_000),
    smtpTimeoutMs: int(env, 'SMTP_TIMEOUT_MS', 20_000, 100, 300_000),
    stripeApiUrl: parseStripeApiUrl(str(env, 'STRIPE_API_URL')),
  };
}

/** `STRIPE_API_URL`: `http(s)://host[:port]`, nothing after it (the library takes protocol, host and port). */
export function parseStripeApiUrl(raw: string | null): string | null {
  if (raw === null) return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError('STRIPE_API_URL must be a URL like https://api.stripe.com or http://127.0.0.1:12111');
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.pathname !== '/' || u.search || u.hash || u.username || u.password)
    throw new ConfigError('STRIPE_API_URL must be http(s)://host[:port] with no path, query or credentials');
  return u.origin;
}

/** `SMTP_URL`: `smtp://` or `smtps://` with a host (credentials and options as nodemailer reads them). */
export function parseSmtpUrl(raw: string | null): string | null {
  if (raw === null) return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError('SMTP_URL must be a URL like smtp://user:pass@mail.example.com:587 or smtps://...:465');
  }
  if ((u.protocol !== 'smtp:' && u.protocol !== 'smtps:') || !u.hostname)
    throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL with a host');
  return raw;
}
