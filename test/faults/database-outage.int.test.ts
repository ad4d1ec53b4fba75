import { createTestApp, type TestApp } from '../helpers/app';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';

/**
 * While PostgreSQL cannot be reached every request answers 503 `service_unavailable` with
 * `Retry-After` (never 500), `/ready` is 503 and `/health` stays 200; when it is back, the same
 * server answers again without a restart. The server reaches the database through a relay that
 * the test cuts (every connection reset, new ones refused) and restores.
 */
let t: TestApp;
let proxy: TcpProxy;
let cid: string;

beforeAll(async () => {
  const admin = new URL(process.env.BOOKING_TEST_ADMIN_URL!);
  proxy = await startTcpProxy(admin.hostname, Number(admin.port || 5432));
  t = await createTestApp({
    rewriteUrl: (u) => {
      u.hostname = '127.0.0.1';
      u.port = String(proxy.port);
      return u;
    },
  });
  cid = (await t.company('Outage salon')).id;
});
afterAll(async () => {
  await proxy?.up().catch(() => undefined);
  await t?.close();
  await proxy?.close();
});

const expectUnavailable = (r: { status: number; body: { code?: string }; headers: Record<string, unknown> }) => {
  expect(r.status).toBe(503);
  expect(r.body.code).toBe('service_unavailable');
  expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
};

it('answers 503 service_unavailable with Retry-After while the database is gone, and recovers by itself', async () => {
  expect((await t.call('GET', '/ready')).status).toBe(200);
  await proxy.down();
  try {
    expectUnavailable(await t.call('GET', `/v1/companies/${cid}`));
    expectUnavailable(
      await t.call('POST', `/v1/companies/${cid}/services`, { body: { name: 'Cut', type: 'fixed', settings: { duration: 'PT1H' } } }),
    );
    expectUnavailable(await t.call('GET', '/v1/companies'));
    // GraphQL answers in its own shape, with the same status and Retry-After
    const gql = await t.gql('{ companies { companies { id } } }');
    expect(gql.status).toBe(503);
    expect(gql.body.errors[0].extensions.code).toBe('service_unavailable');
    expect(Number(gql.headers['retry-after'])).toBeGreaterThan(0);
    expectUnavailable(await t.call('GET', '/ready'));
    // liveness: the process itself is fine and will serve again when the database returns
    expect((await t.call('GET', '/health')).status).toBe(200);
  } finally {
    await proxy.up();
  }
  let ready = 0;
  for (let i = 0; i < 100 && ready !== 200; i++) {
    ready = (await t.call('GET', '/ready')).status;
    if (ready !== 200) await new Promise((r) => setTimeout(r, 100));
  }
  expect(ready).toBe(200);
  const company = await t.call('GET', `/v1/companies/${cid}`);
  expect(company.status).toBe(200);
  expect((await t.gql('{ companies { companies { id } } }')).body.data.companies.companies.map((c: { id: string }) => c.id)).toContain(cid);
});

it('connections cut in the middle of work are 503 too, and the pool replaces them', async () => {
  // pooled connections exist; cut them all, then the relay accepts new ones at once
  await t.call('GET', `/v1/companies/${cid}`);
  await proxy.down();
  await proxy.up();
  const answers = await Promise.all(Array.from({ length: 10 }, () => t.call('GET', `/v1/companies/${cid}`)));
  for (const a of answers) {
    if (a.status !== 200) expectUnavailable(a);
  }
  expect((await t.call('GET', `/v1/companies/${cid}`)).status).toBe(200);
});
