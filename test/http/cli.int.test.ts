import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createTestApp, type TestApp } from '../helpers/app';

/**
 * The command line: `npm run cli -- --help` lists the commands and exits 0; mistakes exit 2;
 * the key and migration commands work on a real database.
 */
const root = join(__dirname, '..', '..');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['-r', join(root, 'test/helpers/swc-register.cjs'), join(root, 'src/cli.ts'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
  });

/** The CLI on the database at `url`, with the settings of the test server (its encryption key among them). */
function cliOn(url: string, dataDir: string, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['-r', join(root, 'test/helpers/swc-register.cjs'), join(root, 'src/cli.ts'), ...args], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      ADMIN_API_KEY: '',
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      JWT_SECRET: 'test-jwt-secret-0123456789abcdefghijklmnop',
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

// each command is a process that compiles the sources it loads: five of them in one test outlast
// the default minute on a loaded machine
jest.setTimeout(180_000);

const COMMANDS = ['merchant:create', 'demo:seed', 'keys:list', 'keys:revoke', 'migrate:status', '--version'];

describe('cli', () => {
  it.each(['--help', '-h', 'help'])('%s lists every command and exits 0 without touching the database', (flag) => {
    const r = cli(flag);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('merchant:create --name <name>');
    for (const command of COMMANDS) expect(r.stdout).toContain(command);
  });

  it.each(['--version', '-v', 'version'])('%s prints the version of package.json and exits 0', (flag) => {
    const r = cli(flag);
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
  });

  it('an unknown command, a missing name or a missing key id exits 2 with the list', () => {
    const unknown = cli('merchant:delete');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown command merchant:delete');
    expect(unknown.stderr).toContain('merchant:create');
    expect(cli('constructor').status).toBe(2);
    const nameless = cli('merchant:create');
    expect(nameless.status).toBe(2);
    expect(nameless.stderr).toContain('needs --name');
    const idless = cli('keys:revoke');
    expect(idless.status).toBe(2);
    expect(idless.stderr).toContain('keys:revoke needs the id');
    expect(cli('demo:seed', '--forse').status).toBe(2);
  });
});

describe('cli on a database', () => {
  let t: TestApp;
  let url: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'booking-cli-'));

  beforeAll(async () => {
    t = await createTestApp();
    url = t.deps.orm.config.get('clientUrl')!;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keys:list shows every key with its merchant and companies, never a secret; keys:revoke refuses it from then on', async () => {
    const company = await t.company('Listed salon');
    const scoped = await t.keyWith({ [company.id]: ['bookings.read'] });
    const listed = await cliOn(url, dataDir, 'keys:list');
    expect(listed.stderr).toBe('');
    expect(listed.status).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^id\s+prefix\s+name\s+merchant\s+companies\s+created\s+revoked$/);
    const row = lines.find((l) => l.includes(scoped.slice(0, 12)))!;
    expect(row).toMatch(/scoped\s+Test merchant\s+Listed salon\s+\d{4}-\d\d-\d\dT[\d:.]+Z\s+-$/);
    expect(lines.some((l) => /Test merchant admin\s+Test merchant\s+\*\s/.test(l))).toBe(true);
    for (const secret of [scoped, t.adminKey]) expect(listed.stdout).not.toContain(secret);

    const id = row.split(/\s+/)[0];
    expect((await t.call('GET', `/v1/companies/${company.id}/bookings`, { key: scoped })).status).toBe(200);
    const revoked = await cliOn(url, dataDir, 'keys:revoke', id);
    expect(revoked.status).toBe(0);
    expect(revoked.stdout).toContain(`revoked ${id}`);
    expect((await t.call('GET', `/v1/companies/${company.id}/bookings`, { key: scoped })).status).toBe(401);
    expect((await cliOn(url, dataDir, 'keys:list')).stdout.split('\n').find((l) => l.startsWith(id))).toMatch(
      /Z\s+\d{4}-\d\d-\d\dT[\d:.]+Z$/,
    );

    const unknown = await cliOn(url, dataDir, 'keys:revoke', '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('no API key');
    const malformed = await cliOn(url, dataDir, 'keys:revoke', 'nope');
    expect(malformed.status).toBe(1);
    expect(malformed.stderr).toContain('id must be a UUID');
  });

  it('migrate:status lists the applied migrations, and on an empty database every one as pending, changing no table', async () => {
    const migrations = readdirSync(join(root, 'src/migrations')).filter((f) => /^Migration\d+.*\.ts$/.test(f)).length;
    const status = await cliOn(url, dataDir, 'migrate:status');
    expect(status.status).toBe(0);
    expect(status.stdout).toContain(`${migrations} applied, 0 pending`);
    expect(status.stdout).toMatch(/^applied {2}Migration20261122000100Company {2}\d{4}-/m);

    const empty = new URL(url);
    empty.pathname = `/${empty.pathname.slice(1)}_empty`;
    const admin = new Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database "${empty.pathname.slice(1)}"`);
    await admin.end();
    const pending = await cliOn(empty.toString(), dataDir, 'migrate:status');
    expect(pending.status).toBe(0);
    expect(pending.stdout).toContain(`0 applied, ${migrations} pending (the next start applies them)`);
    expect(pending.stdout).toMatch(/^pending {2}Migration20261122000100Company$/m);
    const check = new Client({ connectionString: empty.toString() });
    await check.connect();
    try {
      const tables = await check.query(`select table_name from information_schema.tables where table_schema = 'public'`);
      expect(tables.rows.map((r) => r.table_name).filter((n) => n !== 'mikro_orm_migrations')).toEqual([]);
    } finally {
      await check.end();
    }
  });
});
