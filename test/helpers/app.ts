import 'reflect-metadata';
import type { FastifyInstance } from 'fastify';
import { Client } from 'pg';
import pino from 'pino';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config/env';
import { createOrm, createWriteOrm } from '../../src/db/orm';
import { allEntities, codeHandlersOf, documentsOf, payablesOf, printerOf, startModules } from '../../src/app/registry';
import { companyModule } from '../../src/modules/company';
import { buildServer } from '../../src/app/server';
import { systemCtx, type AppDeps, type Clock, type Ctx } from '../../src/kernel/context';
import type { DocumentEntityType, DocumentSource } from '../../src/kernel/documents';
import { createMerchant } from '../../src/modules/company/apikey.service';
import { sqlStats } from '../../src/db/stats';
import { PgChangeFeed } from '../../src/db/change-feed';
import { checkUnrouted, installResponseCheck } from './response-check';
import { pooled } from './test-database';

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** the body's bytes (a PDF download) */
  raw: Buffer;
}

export interface CallOpts {
  key?: string | null;
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** the client address the server sees (default 127.0.0.1) */
  remoteAddress?: string;
}

/** A controllable clock: tests move time explicitly. */
export class TestClock implements Clock {
  constructor(public ms = Date.now()) {}
  now(): number {
    return this.ms;
  }
  set(iso: string | number): void {
    this.ms = typeof iso === 'number' ? iso : Date.parse(iso);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  /** An all-powerful key of a fresh merchant. */
  adminKey: string;
  call<T = any>(method: string, url: string, opts?: CallOpts): Promise<Res<T>>;
  gql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    opts?: { key?: string | null; token?: string | null },
  ): Promise<Res<{ data: T; errors?: any; extensions?: any }>>;
  newMerchant(name?: string): Promise<string>;
  /** Creates an API key with the given permissions using `creatorKey` (default the admin key). */
  keyWith(permissions: Record<string, string[]>, creatorKey?: string): Promise<string>;
  company(name?: string, timeZone?: string, key?: string): Promise<{ id: string; [k: string]: any }>;
  /** Number of SQL statements `fn` sends. */
  countStatements(fn: () => Promise<unknown>): Promise<number>;
  /** Starts listening on a free loopback port, for tests that need real parallel HTTP. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

let counter = 0;

export async function createTestApp(
  opts: {
    clock?: Clock;
    config?: Partial<Config>;
    logStream?: NodeJS.WritableStream;
    /** level of the lines written to `logStream` (default info) */
    logLevel?: string;
    routes?: (app: FastifyInstance) => void;
    /** Document sources the test registers in place of (or beside) the modules' own. */
    documents?: Partial<Record<DocumentEntityType, DocumentSource<Ctx>>>;
    /** Connects the server to the test database through another address (a relay a test can cut). */
    rewriteUrl?: (url: URL) => URL;
    /** The server's host name resolver for outbound requests (names of a test's own choosing). */
    lookupHost?: AppDeps['lookupHost'];
    /** Listens to the database's change announcements, as a server process does (live updates, caches). */
    changeFeed?: boolean;
  } = {},
): Promise<TestApp> {
  const adminUrl = process.env.BOOKING_TEST_ADMIN_URL;
  const template = process.env.BOOKING_TEST_TEMPLATE;
  if (!adminUrl || !template) throw new Error('integration tests need the global setup (run them through jest)');
  const name = `${template}_${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}" template "${template}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const config: Config = {
    ...loadConfig({
      DATA_DIR: '/tmp/booking-test-data',
      JWT_SECRET: 'test-jwt-secret-0123456789abcdefghijklmnop',
      RATE_LIMIT_PER_SECOND: '0',
      // Availability runs on the event loop here; test/faults/availability-threads.int.test.ts covers its
      // threads through the real server process.
      AVAILABILITY_THREADS: '0',
      // PDFs are only ever read on worker threads, which load the TypeScript sources through the
      // same require hook as a server process started from them (jest's own transform does not reach threads).
      THREAD_PRELOAD: join(__dirname, 'swc-register.cjs'),
      // A thread's start is not counted in a document's time-out (kernel/thread-pool.ts), but its
      // first document drawn from scratch compiles pdfkit's sources (pdf-task.ts loads them then),
      // which on a loaded machine can take longer than the 10 s a running server allows; the tests
      // of the time-out set their own.
      PDF_TIMEOUT_MS: '60000',
    }),
    ...opts.config,
  };
  const serverUrl = (opts.rewriteUrl ? opts.rewriteUrl(new URL(url)) : pooled(url)).toString();
  const orm = await createOrm(serverUrl, {
    entities: allEntities(),
    poolMax: 30,
    statementTimeoutMs: config.statementTimeoutMs,
    // Tests that exhaust the pool on purpose (parallel sweepers) wait for it as long as they need
    // on a busy machine; an unreachable database still fails at once.
    acquireTimeoutMs: 60_000,
  });
  // writes take their own pool, as in the server
  const writeOrm = await createWriteOrm(serverUrl, allEntities(), { ...config, dbAcquireTimeoutMs: 60_000 });
  const log = opts.logStream ? pino({ level: 'info' }, opts.logStream) : pino({ level: 'silent' });
  const changes = opts.changeFeed ? new PgChangeFeed(url.toString(), log) : undefined;
  await changes?.start();
  const deps: AppDeps = {
    config,
    orm,
    writeOrm,
    clock: opts.clock ?? { now: () => Date.now() },
    log,
    encryptionKey: Buffer.alloc(32, 7),
    jwtKey: new TextEncoder().encode(config.jwtSecret!),
    payables: payablesOf(),
    documents: new Map([...documentsOf(), ...(Object.entries(opts.documents ?? {}) as [DocumentEntityType, DocumentSource<Ctx>][])]),
    codes: codeHandlersOf(),
    lookupHost: opts.lookupHost,
    changes,
  };
  deps.print = printerOf(deps);
  const app = await buildServer(deps, { logger: opts.logStream ? { level: opts.logLevel ?? 'info', stream: opts.logStream } : false });
  // with the change feed, the caches of companies and API keys follow the announced changes as a
  // server process's do (the company module's start; the other modules' background work stays off)
  const following = changes ? startModules(deps, [companyModule]) : [];
  // Every response is checked against its route's declared response schema (test/helpers/response-check.ts).
  const responses = installResponseCheck(app);
  opts.routes?.(app);
  await app.ready();
  const { secret: adminKey } = await createMerchant(systemCtx(deps, 'test'), 'Test merchant');

  const call = async <T = any>(method: string, path: string, o: CallOpts = {}): Promise<Res<T>> => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    const key = o.key === undefined ? (o.token ? null : adminKey) : o.key;
    if (key) headers['x-api-key'] = key;
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let payload: string | Buffer | undefined;
    if (o.body !== undefined) {
      payload = typeof o.body === 'string' || Buffer.isBuffer(o.body) ? o.body : JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const query = o.query
      ? Object.fromEntries(
          Object.entries(o.query)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [k, String(v)]),
        )
      : undefined;
    const res = await app.inject({ method: method as never, url: path, headers, payload, query, remoteAddress: o.remoteAddress });
    const problem = responses.take(res.raw.res) ?? checkUnrouted(method, path, res);
    if (problem) throw new Error(`response schema drift: ${problem}`);
    let body: any = res.body;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.statusCode, body, headers: res.headers as Res['headers'], text: res.body, raw: res.rawPayload };
  };

  const t: TestApp = {
    app,
    deps,
    adminKey,
    call,
    gql: (query, variables, o = {}) => call('POST', '/graphql', { body: { query, variables }, key: o.key, token: o.token }),
    async newMerchant(n = 'Other merchant') {
      return (await createMerchant(systemCtx(deps, 'test'), n)).secret;
    },
    async keyWith(permissions, creatorKey = adminKey) {
      const r = await call<any>('POST', '/v1/api-keys', { key: creatorKey, body: { name: 'scoped', permissions } });
      if (r.status !== 201) throw new Error(`key creation failed: ${r.status} ${r.text}`);
      return r.body.key;
    },
    async company(n = 'Acme', timeZone = 'Europe/Riga', key = adminKey) {
      const r = await call<any>('POST', '/v1/companies', { key, body: { name: n, timeZone } });
      if (r.status !== 201) throw new Error(`company creation failed: ${r.status} ${r.text}`);
      return r.body;
    },
    async countStatements(fn) {
      const before = sqlStats.statements;
      await fn();
      return sqlStats.statements - before;
    },
    async listen() {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const addr = app.server.address() as AddressInfo;
      return `http://127.0.0.1:${addr.port}`;
    },
    async close() {
      await app.close();
      for (const stop of following) await stop();
      await changes?.close();
      await writeOrm?.close(true);
      await orm.close(true);
      const a = new Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists "${name}" with (force)`);
      await a.end();
      const drift = responses.unreported();
      if (drift.length) throw new Error(`response schema drift in ${drift.length} response(s) sent over a socket:\n${drift.join('\n')}`);
    },
  };
  return t;
}
