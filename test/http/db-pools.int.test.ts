import { Client } from 'pg';
import { createTestApp, type TestApp } from '../helpers/app';
import { EVERY_DAY, Fixtures } from '../helpers/fixtures';
import { metricIn } from '../helpers/metrics';

/**
 * Writes and the readiness probe have database connections of their own (DB_WRITE_POOL_MAX, and
 * one for /ready): while every connection of the read pool is taken and more reads wait for
 * one, a booking is written and /ready answers, and the reads go on once connections free up.
 */
let t: TestApp;
let f: Fixtures;

beforeAll(async () => {
  t = await createTestApp({ config: { dbWritePoolMax: 2 } });
  f = new Fixtures(t, (await t.company('Pool salon', 'UTC')).id);
});
afterAll(async () => t?.close());

const metric = async (name: string) => metricIn((await t.call('GET', '/metrics')).text, name);

const guard = <T>(p: Promise<T>) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('still waiting after 30 s')), 30_000).unref())]);

it('a booking is written and /ready answers while every read connection is taken', async () => {
  const sid = await f.service('fixed', { duration: 'PT30M' });
  const rid = await f.resource('Room');
  await f.link(sid, rid);
  await f.hours(rid, [{ daysOfWeek: EVERY_DAY, hours: [{ start: '00:00', end: '24:00' }] }]);
  const book = (startTime: string) =>
    t.call('POST', `/v1/companies/${f.companyId}/bookings`, { body: { serviceID: sid, resourceID: rid, startTime } });
  expect((await book('2031-04-01T09:00:00Z')).status).toBe(200);

  // every connection of the read pool waits on a lock this test holds, and more reads queue behind them
  const holder = new Client({ connectionString: t.deps.orm.config.get('clientUrl') });
  await holder.connect();
  await holder.query('select pg_advisory_lock(7406)');
  const size = t.deps.orm.config.get('pool')?.max ?? 0;
  const held = Array.from({ length: size }, () =>
    t.deps.orm.em.fork().getConnection().execute('select pg_advisory_xact_lock_shared(7406)'),
  );
  let readDone = false;
  try {
    while ((await metric('db_pool_connections_in_use')) < size) await new Promise((r) => setTimeout(r, 20));
    const read = t.call('GET', `/v1/companies/${f.companyId}/services/${sid}`).then((r) => {
      readDone = true;
      return r;
    });
    while ((await metric('db_pool_pending_acquires')) < 1) await new Promise((r) => setTimeout(r, 20));

    // (were they waiting for a read connection, they would wait for the lock: the guard ends the test then)
    const booked = await guard(book('2031-04-01T10:00:00Z'));
    expect(booked.status).toBe(200);
    expect((await guard(t.call('GET', '/ready'))).status).toBe(200);
    expect(readDone).toBe(false);

    await holder.query('select pg_advisory_unlock(7406)');
    expect((await read).status).toBe(200);
  } finally {
    await holder.end();
    await Promise.allSettled(held);
  }
  const { rows } = await t.deps.orm.em
    .fork()
    .getConnection()
    .execute<{ n: number }[]>(`select count(*)::int as n from booking where company_id = ?`, [f.companyId])
    .then((rows) => ({ rows }));
  expect(rows[0].n).toBe(2);
});
