import 'reflect-metadata';
import { mkdtempSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config/env';
import { createOrm, createWriteOrm } from '../src/db/orm';
import { startEmbeddedPostgres } from '../src/db/embedded';
import { buildServer } from '../src/app/server';
import { allEntities, codeHandlersOf, documentsOf, payablesOf } from '../src/app/registry';
import { createMerchant } from '../src/modules/company/apikey.service';
import { systemCtx, type AppDeps } from '../src/kernel/context';
import { PgChangeFeed } from '../src/db/change-feed';
import { companyModule } from '../src/modules/company';

/**
 * A real server for benchmarks: DATABASE_URL when set (a fresh database is not created), else
 * an embedded PostgreSQL in a temporary directory. Rate limiting is off unless BENCH_RATE_LIMIT
 * is set; logging is silent;
 * other settings come from the environment as for the server.
 */
export async function startBenchServer(): Promise<{
  base: string;
  key: string;
  deps: AppDeps;
  databaseUrl: string;
  /** the listening HTTP server */
  server: Server;
  stop(): Promise<void>;
}> {
  let url = process.env.DATABASE_URL;
  let embedded: { stop(): Promise<void> } | null = null;
  if (!url) {
    const parent = mkdtempSync(join(tmpdir(), 'booking-bench-'));
    chmodSync(parent, 0o755);
    const db = await startEmbeddedPostgres({ dir: join(parent, 'pg'), database: 'bench', persistent: false });
    embedded = db;
    url = db.url;
  }
  const config = {
    // The environment's settings apply (AVAILABILITY_THREADS, HEAVY_CONCURRENCY, ...), except these.
    ...loadConfig({
      ...process.env,
      // BENCH_RATE_LIMIT: a limit so high it never refuses, to measure its cost (with REDIS_URL: one Redis call per request)
      RATE_LIMIT_PER_SECOND: process.env.BENCH_RATE_LIMIT ?? '0',
      LOG_LEVEL: 'silent',
      DATA_DIR: join(tmpdir(), 'booking-bench-data'),
      JWT_SECRET: 'bench-jwt-secret-0123456789abcdefghijklmn',
    }),
    dbPoolMax: 20,
  };
  const orm = await createOrm(url, { entities: allEntities(), migrate: true, poolMax: config.dbPoolMax });
  const writeOrm = await createWriteOrm(url, allEntities(), config);
  // As in production: the change notifications that keep the company and API key caches valid
  // (the background work of the other modules, sweepers and delivery workers, is not started).
  const changes = new PgChangeFeed(url, pino({ level: 'silent' }));
  await changes.start();
  const deps: AppDeps = {
    config,
    orm,
    writeOrm,
    clock: { now: () => Date.now() },
    log: pino({ level: 'silent' }),
    encryptionKey: Buffer.alloc(32, 1),
    jwtKey: new TextEncoder().encode(config.jwtSecret!),
    payables: payablesOf(),
    documents: documentsOf(),
    codes: codeHandlersOf(),
    changes,
  };
  const stopCaches = companyModule.start?.(deps);
  const app = await buildServer(deps, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { secret } = await createMerchant(systemCtx(deps, 'bench'), 'Bench');
  return {
    base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    key: secret,
    deps,
    databaseUrl: url,
    server: app.server,
    async stop() {
      await app.close();
      await stopCaches?.();
      await changes.close();
      await writeOrm?.close(true);
      await orm.close(true);
      await embedded?.stop();
    },
  };
}

export async function sqlStatements(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const m = /^db_statements_total (\d+)/m.exec(text);
  return m ? Number(m[1]) : NaN;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
