import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/**
 * Each case starts its own embedded PostgreSQL in a temporary directory, in a child process:
 * the package is ES modules only, which jest's module sandbox cannot load.
 */
// Starting PostgreSQL (initdb included) takes seconds; more on a busy machine.
jest.setTimeout(120_000);

let parent: string;
beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), 'booking-embedded-'));
  // When run as root the server runs as the `postgres` user, which must reach the directory.
  chmodSync(parent, 0o755);
});
afterEach(() => rmSync(parent, { recursive: true, force: true }));

interface Child {
  url: string;
  logs: string[];
  stop(): Promise<void>;
}

function run(mode: 'start' | 'legacy-init', dir: string): Promise<Child> {
  const root = join(__dirname, '..', '..');
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['-r', join(root, 'test/helpers/swc-register.cjs'), join(root, 'test/helpers/embedded-child.ts'), mode, dir],
    { cwd: root },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  child.stdin.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl === -1) return;
      const line = JSON.parse(out.slice(0, nl));
      resolve({
        url: line.url,
        logs: line.logs ?? [],
        async stop() {
          child.stdin.write('stop\n');
          await exited;
        },
      });
    });
    exited.then((code) => reject(new Error(`child exited with ${code}: ${err}`)));
  });
}

async function canConnect(port: number, password: string): Promise<boolean | string> {
  const c = new Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
}

describe('embedded PostgreSQL superuser password', () => {
  it('is generated per data directory on first start, kept beside it (0600) and reused', async () => {
    const dir = join(parent, 'pg');
    const db = await run('start', dir);
    try {
      const url = new URL(db.url);
      const password = decodeURIComponent(url.password);
      expect(password).not.toBe('postgres');
      expect(password.length).toBeGreaterThanOrEqual(32);
      const file = join(parent, 'pg.password');
      expect(readFileSync(file, 'utf8').trim()).toBe(password);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(await canConnect(Number(url.port), 'postgres')).toBe('28P01');
      expect(await canConnect(Number(url.port), password)).toBe(true);
    } finally {
      await db.stop();
    }
    const again = await run('start', dir);
    try {
      expect(decodeURIComponent(new URL(again.url).password)).toBe(readFileSync(join(parent, 'pg.password'), 'utf8').trim());
      expect(await canConnect(Number(new URL(again.url).port), decodeURIComponent(new URL(again.url).password))).toBe(true);
    } finally {
      await again.stop();
    }
  });

  it('replaces the old constant password of a directory initialised before, and keeps its data', async () => {
    const dir = join(parent, 'pg');
    // A data directory as earlier versions created it: superuser password "postgres", no password file.
    await (await run('legacy-init', dir)).stop();
    expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(parent, 'pg.password'))).toBe(false);

    const db = await run('start', dir);
    try {
      const url = new URL(db.url);
      const password = decodeURIComponent(url.password);
      expect(password).not.toBe('postgres');
      expect(readFileSync(join(parent, 'pg.password'), 'utf8').trim()).toBe(password);
      expect(await canConnect(Number(url.port), 'postgres')).toBe('28P01');
      const c = new Client({ connectionString: db.url });
      await c.connect();
      await c.query('create table kept (v int)');
      await c.query('insert into kept values (42)');
      await c.end();
      expect(db.logs.join('\n')).toMatch(/replaced the default superuser password/);
    } finally {
      await db.stop();
    }
    const again = await run('start', dir);
    try {
      const c = new Client({ connectionString: again.url });
      await c.connect();
      expect((await c.query('select v from kept')).rows).toEqual([{ v: 42 }]);
      await c.end();
    } finally {
      await again.stop();
    }
  });
});
