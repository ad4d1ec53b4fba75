import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type DataLoader from 'dataloader';
import type { Config } from '../config/env';
import type { DocumentPrinter, DocumentSources } from './documents';
import type { CodeHandlers } from './codes';
import type { Payables } from './payable';
import type { PrewrittenJson } from './prewritten-json';

/** `{companyID | "*": ["area.action", "area.*", "*"]}` */
export type Permissions = Record<string, string[]>;

export interface MerchantActor {
  kind: 'merchant';
  merchantId: string;
  apiKeyId: string;
  /** the key's name, as the audit log shows it */
  apiKeyName?: string;
  permissions: Permissions;
}

export interface ClientActor {
  kind: 'client';
  clientId: string;
  companyId: string;
}

/** Who is calling: a merchant's API key or a client's access token. */
export type Actor = MerchantActor | ClientActor;

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Changes announced by the database (PostgreSQL NOTIFY), for caches kept per process. A
 * handler gets the payload of each notification on its channel, or null when notifications may
 * have been missed (the listening connection was lost or is back): everything must go then.
 */
export interface ChangeFeed {
  /** false while the listening connection is down: caches must not be trusted */
  readonly live: boolean;
  subscribe(channel: string, onChange: (payload: string | null) => void): () => Promise<void>;
  /** Resolves once the channels subscribed so far are listened to (a change committed after it is heard). */
  listening?(): Promise<void>;
}

/** Process-wide dependencies, created once at start. */
export interface AppDeps {
  config: Config;
  orm: MikroORM;
  /**
   * The pool of writes (`DB_WRITE_POOL_MAX` connections; the same database): a request in the
   * `write` lane takes its connections here, so it never waits behind reads. Absent: `orm`.
   */
  writeOrm?: MikroORM;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Encryption key for secrets at rest (32 bytes). */
  encryptionKey: Buffer;
  /** HMAC key for client access tokens. */
  jwtKey: Uint8Array;
  /** Settlement handlers of every module that owns payable items, by item type. */
  payables: Payables<Ctx>;
  /** Sources of printable items (gift card purchases, membership contracts), by entity type. */
  documents: DocumentSources<Ctx>;
  /** Prints receipts, vouchers and membership cards (the document context's); absent when no module prints. */
  print?: DocumentPrinter<Ctx>;
  /** Handlers of the codes a booking request may carry, in the contract's lookup order. */
  codes: CodeHandlers<Ctx>;
  /** Database change notifications; absent when a single process runs without them (tests). */
  changes?: ChangeFeed;
  /** Why the process can no longer serve (GET /health answers 503 then), or null. */
  liveness?: () => string | null;
  /**
   * Resolves a host name to all its addresses for outbound requests (webhook deliveries and the
   * check of their URLs); absent: the system resolver (`dns.lookup`, as any connection would).
   */
  lookupHost?: HostLookup;
}

/** A host name's addresses, as `dns.promises.lookup(name, { all: true })` answers. */
export type HostLookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** Per-request context handed first to every service method. */
export interface Ctx {
  em: EntityManager;
  actor: Actor | null;
  now: Date;
  deps: AppDeps;
  requestId: string;
  log: FastifyBaseLogger;
  loaders: Map<string, DataLoader<unknown, unknown>>;
  /** Companies already loaded and checked during this request. */
  companies: Map<string, unknown>;
  /** Aborts when the client disconnects before its answer is sent: expensive work stops then. */
  signal?: AbortSignal;
  /**
   * GraphQL: the prewritten values of this request's response, whose bytes the /graphql route
   * sends as they are (app/graphql-direct.ts). A field, not a side table: Apollo hands the
   * operation a shallow copy of the context, which shares this list.
   */
  prewritten?: PrewrittenJson[];
  /** A live subscription's connection (GraphQL over WebSocket); absent for HTTP requests. */
  live?: LiveConnection;
}

/** What a live subscription knows of its connection (kernel/live.ts). */
export interface LiveConnection {
  /** events that may wait to be sent before the client counts as not keeping up */
  maxQueued: number;
  /** ends the connection of a client that does not keep up */
  overflow(): void;
}

/** A per-request DataLoader, created on first use under `name`. */
export function loader<K, V>(ctx: Ctx, name: string, make: () => DataLoader<K, V>): DataLoader<K, V> {
  let l = ctx.loaders.get(name) as DataLoader<K, V> | undefined;
  if (!l) {
    l = make();
    ctx.loaders.set(name, l as DataLoader<unknown, unknown>);
  }
  return l;
}

/**
 * Which pool a request's statements go to: `write` (REST writes) has its own connections, so that
 * no storm of reads can keep a booking waiting for one; `read` everything else.
 */
export type DbLane = 'read' | 'write';

export function createCtx(
  deps: AppDeps,
  actor: Actor | null,
  requestId: string,
  log: FastifyBaseLogger,
  signal?: AbortSignal,
  lane: DbLane = 'read',
): Ctx {
  return {
    signal,
    em: ((lane === 'write' && deps.writeOrm) || deps.orm).em.fork() as EntityManager,
    actor,
    now: new Date(deps.clock.now()),
    deps,
    requestId,
    log,
    loaders: new Map(),
    companies: new Map(),
  };
}

/**
 * The context of work no request asked for: workers, sweepers, CLI commands and start-up code.
 * No actor; `name` (the module or command doing the work) stands for the request id. Its writes
 * are recorded as the system's: a worker runs under `systemScope(name)` (kernel/audit.ts), which
 * `startModules` opens for each module's background work. Made fresh for each piece of work (its
 * own EntityManager, time now), and used with `inTransaction` as any request's.
 */
export function systemCtx(deps: AppDeps, name: string): Ctx {
  return {
    em: deps.orm.em.fork() as EntityManager,
    actor: null,
    now: new Date(deps.clock.now()),
    deps,
    requestId: name,
    log: deps.log,
    loaders: new Map(),
    companies: new Map(),
  };
}

/**
 * A long-lived context (a live subscription's) made fresh for its next piece of work: its own
 * EntityManager, loaders and company cache, and the time now, as a new request would have.
 */
export function renewCtx(ctx: Ctx): void {
  ctx.em = ctx.deps.orm.em.fork() as EntityManager;
  ctx.loaders = new Map();
  ctx.companies = new Map();
  ctx.now = new Date(ctx.deps.clock.now());
}
