import { join } from 'node:path';
import pino from 'pino';
import pretty from 'pino-pretty';
import { loadConfig } from './config/env';
import { startRuntime, type Runtime } from './app/bootstrap';
import { allEntities } from './app/registry';
import { seedDemo } from './app/demo-seed';
import { startEmbeddedPostgres } from './db/embedded';
import { migrationStatus } from './db/orm';
import { createMerchant, listAllApiKeys, revokeApiKeyById, type ApiKeyListing } from './modules/company/apikey.service';
import { systemCtx } from './kernel/context';

/** Warnings (a secret generated in DATA_DIR, ...) as readable lines on stderr: stdout is the command's answer. */
const cliLog = pino(
  { level: 'warn' },
  pretty({ destination: 2, sync: true, colorize: !!process.stderr.isTTY, ignore: 'pid,hostname,time' }),
);

/** Runs `fn` on the server's database (migrated, as `npm start` leaves it), then closes it. */
async function withRuntime<T>(fn: (runtime: Runtime) => Promise<T>): Promise<T> {
  const runtime = await startRuntime(loadConfig(), cliLog);
  try {
    return await fn(runtime);
  } finally {
    await runtime.close();
  }
}

/** `merchant:create --name <name>`: a merchant and its first API key, printed once. */
export async function createMerchantCommand(name: string): Promise<number> {
  return withRuntime(async (runtime) => {
    const { merchant, secret } = await createMerchant(systemCtx(runtime.deps, 'cli'), name);
    console.log(`merchant ${merchant.id} created: ${name}`);
    console.log(`API key (shown once; send it as X-API-Key): ${secret}`);
    return 0;
  });
}

/** A fixed-width table of strings, for people reading a terminal. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows]
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const keyRow = (k: ApiKeyListing) => [
  k.id,
  `${k.keyPrefix}...`,
  k.name,
  k.merchant,
  k.companies.join(', '),
  k.createdAt,
  k.revokedAt ?? '-',
];
const KEY_HEADER = ['id', 'prefix', 'name', 'merchant', 'companies', 'created', 'revoked'];

/** `keys:list`: every key with what it reaches; `*` in companies is all of its merchant's. */
export async function listKeysCommand(): Promise<number> {
  return withRuntime(async (runtime) => {
    const keys = await listAllApiKeys(systemCtx(runtime.deps, 'cli'));
    console.log(keys.length ? table(KEY_HEADER, keys.map(keyRow)) : 'no API keys');
    return 0;
  });
}

/** `keys:revoke <id>`: the key is refused from the next request on, by every server on this database. */
export async function revokeKeyCommand(id: string): Promise<number> {
  return withRuntime(async (runtime) => {
    const key = await revokeApiKeyById(systemCtx(runtime.deps, 'cli'), id.trim());
    if (!key) {
      console.error(`no API key ${id} (keys:list shows them)`);
      return 1;
    }
    console.log(`revoked ${key.id} (${key.keyPrefix}..., ${key.name}) at ${key.revokedAt}`);
    if (key.name === 'ADMIN_API_KEY') console.log('note: a server started with ADMIN_API_KEY set makes that key active again');
    return 0;
  });
}

/** `migrate:status`: what the database has applied and what the next start would apply; migrates nothing. */
export async function migrateStatusCommand(): Promise<number> {
  const config = loadConfig();
  const embedded = config.databaseUrl ? null : await startEmbeddedPostgres({ dir: join(config.dataDir, 'pg') });
  try {
    const url = config.databaseUrl ? (config.databaseDirectUrl ?? config.databaseUrl) : embedded!.url;
    const { applied, pending } = await migrationStatus(url, allEntities());
    for (const m of applied) console.log(`applied  ${m.name}  ${m.executedAt.toISOString()}`);
    for (const name of pending) console.log(`pending  ${name}`);
    console.log(`${applied.length} applied, ${pending.length} pending${pending.length ? ' (the next start applies them)' : ''}`);
    return 0;
  } finally {
    await embedded?.stop();
  }
}

/** `demo:seed [--force]`: the demo merchant and its companies (app/demo-seed.ts). */
export async function demoSeedCommand(opts: { force: boolean }): Promise<number> {
  return withRuntime(async (runtime) => {
    const outcome = await seedDemo(runtime.deps, { force: opts.force });
    console.log(outcome.message);
    return outcome.code;
  });
}
