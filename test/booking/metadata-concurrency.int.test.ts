import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';
import { tally } from '../helpers/tally';

/**
 * Real parallel HTTP requests: 20 metaDataUpdates with the same expectedVersion on one record.
 * Exactly one may win; the others are 409 version_conflict, and the stored value is the winner's.
 */

let t: TestApp;
let s: Shop;
let base: string;
const clock = new TestClock(Date.parse('2026-03-01T00:00:00Z'));
const N = 20;

beforeAll(async () => {
  t = await createTestApp({ clock });
  s = await Shop.open(t, 'Meta shop', 'UTC');
  base = await t.listen();
});
afterAll(async () => t?.close());

async function send(method: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': s.key },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Races N updates of `path`, each writing its own number, and checks the outcome. */
async function race(path: string, read: () => Promise<any>, extra: (i: number) => Record<string, unknown> = () => ({})) {
  const before = await read();
  expect(before.metaDataVersion).toBe(1);
  const results = await Promise.all(
    Array.from({ length: N }, (_, i) =>
      send('PATCH', path, { ...extra(i), metaDataUpdate: { expectedVersion: 1, path: `k.w${i}`, value: i } }),
    ),
  );
  expect(tally(results)).toEqual({ 200: 1, '409 version_conflict': N - 1 });
  const winner = results.find((r) => r.status === 200)!.body;
  const after = await read();
  expect(after.metaDataVersion).toBe(2);
  expect(after.metaData).toEqual(winner.metaData);
  expect(Object.keys(after.metaData.k)).toHaveLength(1);
  // The next update with the new version works; the old one is still refused.
  expect((await send('PATCH', path, { metaDataUpdate: { expectedVersion: 2, path: 'next', value: true } })).status).toBe(200);
  expect((await send('PATCH', path, { metaDataUpdate: { expectedVersion: 2, path: 'again', value: true } })).body.code).toBe(
    'version_conflict',
  );
}

const get = (path: string) => async () => (await t.call('GET', path, { key: s.key })).body;

describe('parallel metaDataUpdate with the same expectedVersion', () => {
  it('on a service', async () => {
    const sid = await s.service('fixed', { duration: 'PT1H' });
    await race(`${s.base}/services/${sid}`, get(`${s.base}/services/${sid}`));
  });

  it('on a resource', async () => {
    const rid = await s.resource('Racing room');
    await race(`${s.base}/resources/${rid}`, get(`${s.base}/resources/${rid}`), (i) => ({ name: `Room ${i}` }));
  });

  it('on a ticket', async () => {
    const sid = await s.service('ticket', { duration: 'PT1H' });
    const tid = await s.ticket(sid, 'Adult');
    await race(`${s.base}/services/${sid}/tickets/${tid}`, get(`${s.base}/services/${sid}/tickets/${tid}`));
  });

  it('on a client', async () => {
    const c = await t.call('POST', `${s.base}/clients`, { key: s.key, body: { email: 'racer@example.com', externalUserID: 'racer' } });
    expect(c.status).toBe(201);
    const read = async () => (await t.call('GET', `${s.base}/clients/search`, { key: s.key, query: { externalUserID: 'racer' } })).body[0];
    await race(`${s.base}/clients/${c.body.id}`, read);
  });

  it('on a booking', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const b = await s.book({ serviceID: sid, resourceID: rids[0], startTime: '2026-03-02T10:00:00Z' });
    expect(b.status).toBe(200);
    await race(`${s.base}/bookings/${b.body.id}`, get(`${s.base}/bookings/${b.body.id}`));
  });

  it('over GraphQL', async () => {
    const rid = await s.resource('Graph room');
    const q =
      'mutation($c: ID!, $r: ID!, $u: MetaDataUpdateInput!) { updateResource(companyID: $c, id: $r, input: { metaDataUpdate: $u }) { metaDataVersion } }';
    const results = await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const r = await send('POST', '/graphql', {
          query: q,
          variables: { c: s.companyId, r: rid, u: { expectedVersion: 1, path: 'w', value: i } },
        });
        return r.body.errors ? r.body.errors[0].extensions.code : 'ok';
      }),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r === 'version_conflict')).toHaveLength(N - 1);
    expect((await get(`${s.base}/resources/${rid}`)()).metaDataVersion).toBe(2);
  });
});
