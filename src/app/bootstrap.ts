import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/env';
import { createOrm, createWriteOrm } from '../db/orm';
import { PgChangeFeed } from '../db/change-feed';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded';
import { bootstrapAdminKey } from '../modules/company/apikey.service';
import { systemClock, systemCtx, type AppDeps, type Clock } from '../kernel/context';
import { resolveEncryptionKey } from './encryption-key';
import { allEntities, codeHandlersOf, documentsOf, payablesOf, printerOf } from './registry';

/**
 * The HMAC key of client access tokens: JWT_SECRET, or a random secret kept in the data
 * directory so that tokens survive a restart of a single-process installation.
 */
export function jwtKeyFrom(config: Config, log?: FastifyBaseLogger): Uint8Array {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  const file = join(config.dataDir, 'jwt-secret');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
    log?.warn(`JWT_SECRET is not set: generated one in ${file}; set JWT_SECRET when several processes serve the API`);
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

/** Host, port and database of a connection URL, for the log (never its password). */
function databaseAddress(url: string): string {
  try {
    const at = new URL(url);
    return `${at.hostname || 'localhost'}:${at.port || 5432}${at.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

export interface Runtime {
  deps: AppDeps;
  /** the database the pool connects to */
  url: string;
  embedded: EmbeddedDatabase | null;
  close(): Promise<void>;
}

/** Connects the database (embedded when DATABASE_URL is unset), migrates, bootstraps the admin key. */
export async function startRuntime(
  config: Config,
  log: FastifyBaseLogger,
  clock: Clock = systemClock,
  opts: { migrate?: boolean } = {},
): Promise<Runtime> {
  let embedded: EmbeddedDatabase | null = null;
  let url = config.databaseUrl;
  if (!url) {
    log.info(`starting the embedded PostgreSQL (DATABASE_URL is not set; data in ${join(config.dataDir, 'pg')})`);
    embedded = await startEmbeddedPostgres({ dir: join(config.dataDir, 'pg'), log: (m) => log.info(m) });
    url = embedded.url;
    log.info(`embedded PostgreSQL running (data in ${join(config.dataDir, 'pg')})`);
  } else {
    log.info(`connecting to PostgreSQL at ${databaseAddress(url)}`);
  }
  // LISTEN and migrations need a session of their own: not through a transaction pooler.
  const directUrl = (config.databaseUrl && config.databaseDirectUrl) || url;
  let orm: MikroORM;
  try {
    orm = await createOrm(url, {
      entities: allEntities(),
      migrate: opts.migrate ?? true,
      migrateUrl: directUrl,
      poolMax: config.dbPoolMax,
      statementTimeoutMs: config.statementTimeoutMs,
      acquireTimeoutMs: config.dbAcquireTimeoutMs,
      log: (m) => log.info(m),
    });
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  let writeOrm: MikroORM | undefined;
  try {
    writeOrm = await createWriteOrm(url, allEntities(), config);
  } catch (err) {
    await orm.close(true);
    await embedded?.stop();
    throw err;
  }
  const changes = new PgChangeFeed(directUrl, log);
  const deps: AppDeps = {
    config,
    orm,
    writeOrm,
    clock,
    log,
    // resolved below, with the start-up's context (made of these dependencies), before anything reads it
    encryptionKey: Buffer.alloc(0),
    jwtKey: jwtKeyFrom(config, log),
    payables: payablesOf(),
    documents: documentsOf(),
    codes: codeHandlersOf(),
    changes,
    liveness: () => (embedded?.state() === 'failed' ? 'the embedded PostgreSQL could not be restarted' : null),
  };
  try {
    if (config.adminApiKey) await bootstrapAdminKey(systemCtx(deps, 'start-up'), config.adminApiKey);
    deps.encryptionKey = await resolveEncryptionKey(config, systemCtx(deps, 'start-up'), log);
  } catch (err) {
    await writeOrm?.close(true);
    await orm.close(true);
    await embedded?.stop();
    throw err;
  }
  await changes.start();
  deps.print = printerOf(deps);
  return {
    deps,
    url,
    embedded,
    async close() {
      await changes.close();
      await writeOrm?.close(true);
      await orm.close(true);
      await embedded?.stop();
    },
  };
}
