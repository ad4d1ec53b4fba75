import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, chownSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { SHORTAGE_WINDOW_MS } from '../../src/db/resource-shortage';
import { createTestApp, TestClock, type Res, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';

/**
 * The database refuses work for lack of resources (SQLSTATE class 53; here 53100, disk full):
 * writes answer 503 `service_unavailable` with `Retry-After` on REST and GraphQL (never 500),
 * reads still work, and `/ready` answers 503 until SHORTAGE_WINDOW_MS has passed without another
 * such failure, so a load balancer stops sending writes. First with the failure raised by a
 * trigger of the test's database, then (where the machine allows it: root, a local database
 * server, tmpfs) with a table on a really full file system.
 */
let t: TestApp;
const clock = new TestClock();

beforeEach(async () => {
  t = await createTestApp({ clock });
});
afterEach(async () => {
  await t?.close();
});

const expectUnavailable = (r: Res) => {
  expect({ status: r.status, code: r.body.code ?? r.body.errors?.[0]?.extensions?.code }).toEqual({
    status: 503,
    code: 'service_unavailable',
  });
  expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
};

const createCompany = (name: string) => t.call('POST', '/v1/companies', { body: { name, timeZone: 'UTC' } });

it('a write failing with 53100 answers 503 with Retry-After (REST and GraphQL) and /ready is 503 until the window passes', async () => {
  const sql = (q: string) => t.deps.orm.em.getConnection().execute(q);
  expect((await createCompany('Before')).status).toBe(201);
  expect((await t.call('GET', '/ready')).status).toBe(200);
  await sql(`create function test_disk_full() returns trigger language plpgsql as $$
    begin
      raise exception 'could not extend file "base/16384/16385": No space left on device' using errcode = '53100', hint = 'Check free disk space.';
    end $$`);
  await sql('create trigger test_disk_full before insert on company for each row execute function test_disk_full()');

  expectUnavailable(await createCompany('During'));
  const gql = await t.gql('mutation { createCompany(input: { name: "During", timeZone: "UTC" }) { id } }');
  expectUnavailable(gql);
  expect(gql.body.errors[0].extensions.code).toBe('service_unavailable');
  expectUnavailable(await t.call('GET', '/ready'));
  // reads go on; liveness is not concerned
  expect((await t.call('GET', '/v1/companies')).status).toBe(200);
  expect((await t.call('GET', '/health')).status).toBe(200);

  // the disk has room again: /ready stays 503 for the window after the last failure, then 200
  await sql('drop trigger test_disk_full on company');
  clock.advance(SHORTAGE_WINDOW_MS - 1000);
  expectUnavailable(await t.call('GET', '/ready'));
  clock.advance(1000);
  expect((await t.call('GET', '/ready')).status).toBe(200);
  expect((await createCompany('After')).status).toBe(201);
});

it('bookings, one and in a client batch, failing with 53100 answer 503 with Retry-After', async () => {
  const shop = await Shop.open(t, 'Full disk salon', 'UTC');
  const { sid, rids } = await shop.bookable('fixed', { duration: 'PT1H' });
  const token = await shop.login('guest@example.com', t.adminKey);
  const startTime = new Date(Date.UTC(2031, 0, 7, 9)).toISOString();
  const sql = (q: string) => t.deps.orm.em.getConnection().execute(q);
  await sql(`create function test_disk_full() returns trigger language plpgsql as $$
    begin raise exception 'could not extend file: No space left on device' using errcode = '53100'; end $$`);
  await sql('create trigger test_disk_full before insert on booking for each row execute function test_disk_full()');

  expectUnavailable(await shop.book({ serviceID: sid, resourceID: rids[0], startTime }));
  const batch = await t.call('POST', '/v1/client/bookings/batch', {
    token,
    body: { bookings: [{ companyID: shop.companyId, serviceID: sid, resourceID: rids[0], startTime }] },
  });
  expectUnavailable(batch);
  expectUnavailable(await t.call('GET', '/ready'));

  await sql('drop trigger test_disk_full on booking');
  expect((await shop.book({ serviceID: sid, resourceID: rids[0], startTime })).status).toBe(200);
});

/** Why the real full-disk case cannot run here, or null when it can. */
function fullDiskUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'not running as root (mounting a tmpfs needs it)';
  const host = new URL(process.env.BOOKING_TEST_ADMIN_URL ?? 'postgres://unset').hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) return `the test database server (${host}) is not on this machine`;
  if (process.env.TEST_DATABASE_POOLER_URL) return 'the test servers go through a pooler';
  const probe = mkdtempSync(join(tmpdir(), 'booking-tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe], { stdio: 'pipe' });
    return null;
  } catch (e) {
    return `mounting a tmpfs failed: ${String((e as { stderr?: Buffer }).stderr ?? e).trim()}`;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const noFullDisk = fullDiskUnavailable();
if (noFullDisk) console.log(`skipping the real full-disk test: ${noFullDisk}`);

(noFullDisk ? it.skip : it)(
  'a table on a full file system: 503 with Retry-After, /ready 503, then recovery once space is freed',
  async () => {
    const mountPoint = mkdtempSync(join(tmpdir(), 'booking-full-disk-'));
    const tablespace = `booking_full_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const dbUrl = t.deps.orm.config.get('clientUrl')!;
    const db = new Client({ connectionString: dbUrl });
    await db.connect();
    let mounted = false;
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k,mode=0700', 'tmpfs', mountPoint]);
      mounted = true;
      // the directory belongs to the user the database server runs as
      const dataDir = (await db.query<{ data_directory: string }>('show data_directory')).rows[0].data_directory;
      const owner = statSync(dataDir);
      chownSync(mountPoint, owner.uid, owner.gid);
      await db.query(`create tablespace ${tablespace} location '${mountPoint}'`);
      await db.query(`alter table company set tablespace ${tablespace}`);
      await db.query(`create table test_filler (b text) tablespace ${tablespace}`);
      await db.query('alter table test_filler alter column b set storage plain');
      // fill the file system (rows of 1,920 bytes stored as they are), batch by batch until it is full
      let full = false;
      for (let i = 0; i < 1000 && !full; i++) {
        try {
          await db.query(`insert into test_filler select (select string_agg(md5(random()::text || g || s), '') from generate_series(1, 60) s)
          from generate_series(1, 16) g`);
        } catch (e) {
          expect((e as { code?: string }).code).toBe('53100');
          full = true;
        }
      }
      expect(full).toBe(true);

      // companies are written until the table's last page is full too; then 503, never 500
      let refused: Res | null = null;
      for (let i = 0; i < 2000 && !refused; i++) {
        const r = await createCompany(`Company ${i} ${'x'.repeat(200)}`);
        if (r.status !== 201) refused = r;
      }
      expect(refused).not.toBeNull();
      expectUnavailable(refused!);
      expectUnavailable(await t.call('GET', '/ready'));
      expect((await t.call('GET', '/v1/companies')).status).toBe(200);

      // space freed (a dropped table's file is truncated at once): writes succeed, /ready follows after the window
      await db.query('drop table test_filler');
      expect((await createCompany('After')).status).toBe(201);
      expectUnavailable(await t.call('GET', '/ready'));
      clock.advance(SHORTAGE_WINDOW_MS);
      expect((await t.call('GET', '/ready')).status).toBe(200);
    } finally {
      await db.query('drop table if exists test_filler').catch(() => undefined);
      await db.query('alter table company set tablespace pg_default').catch(() => undefined);
      await db.query(`drop tablespace if exists ${tablespace}`).catch(() => undefined);
      await db.end();
      if (mounted) execFileSync('umount', ['-l', mountPoint]);
      rmSync(mountPoint, { recursive: true, force: true });
    }
  },
);
