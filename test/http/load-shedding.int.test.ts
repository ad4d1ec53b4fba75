import { request } from 'node:http';
import { heavyBulkhead } from '../../src/kernel/bulkhead';
import { createTestApp, type TestApp } from '../helpers/app';
import { EVERY_DAY, Fixtures } from '../helpers/fixtures';
import { metricIn } from '../helpers/metrics';
import { recordStatements, takeStatements } from '../helpers/sql-audit';

/**
 * Expensive requests (availability answers that can hold many start times, lists) run under a bulkhead of one
 * at a time with no queue here: while the slot is taken, the next one is refused at once with
 * 503 and Retry-After, while short windows, bookings and /health are answered as usual.
 */
let t: TestApp;
let f: Fixtures;
let sid: string;
let rid: string;

beforeAll(async () => {
  t = await createTestApp({ config: { heavyConcurrency: 1, heavyQueue: 0 } });
  f = new Fixtures(t, (await t.company('Busy salon', 'UTC')).id);
  // a month on 5 resources on a 15-minute grid can hold 14,400 start times: an expensive answer;
  // a day holds 480 at most: a cheap one
  sid = await f.service('fixed', { duration: 'PT15M' });
  for (let i = 0; i < 5; i++) {
    const r = await f.resource(`Room ${i}`);
    await f.link(sid, r);
    await f.hours(r, [{ daysOfWeek: EVERY_DAY, hours: [{ start: '09:00', end: '17:00' }] }]);
    rid ??= r;
  }
});
afterAll(async () => t?.close());

const month = { from: '2031-03-01T00:00:00Z', to: '2031-03-31T00:00:00Z' };
const day = { from: '2031-03-03T00:00:00Z', to: '2031-03-04T00:00:00Z' };

/** Takes the slot of a lane until the returned function is called. */
async function occupy(lane: 'availability' | 'lists' | 'documents'): Promise<() => Promise<void>> {
  let release!: () => void;
  const running = heavyBulkhead(t.deps, lane).run(() => new Promise<void>((r) => (release = r)));
  await new Promise((r) => setImmediate(r));
  return async () => {
    release();
    await running;
  };
}

it('an expensive availability answer is refused with 503 and Retry-After while the bulkhead is full; cheap requests are not queued', async () => {
  const times = (body: object) => t.call('POST', `/v1/companies/${f.companyId}/services/${sid}/times`, { body });
  expect((await times(month)).status).toBe(200);
  const release = await occupy('availability');
  try {
    const refused = await times(month);
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('service_unavailable');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const dates = await t.call('POST', `/v1/companies/${f.companyId}/services/${sid}/dates`, { body: month });
    expect(dates.status).toBe(503);
    const gql = await t.gql(
      `query($c: ID!, $s: ID!, $i: AvailableTimesInput!) { availableTimes(companyID: $c, serviceID: $s, input: $i) { timeZone } }`,
      { c: f.companyId, s: sid, i: month },
    );
    expect(gql.status).toBe(503);
    expect(gql.body.errors[0].extensions.code).toBe('service_unavailable');
    expect(Number(gql.headers['retry-after'])).toBeGreaterThan(0);
    // a short window, a narrow one, a booking and /health go straight through
    expect((await times(day)).status).toBe(200);
    expect((await times({ ...month, resourceIDs: [rid] })).status).toBe(200);
    const booking = await t.call('POST', `/v1/companies/${f.companyId}/bookings`, {
      body: { serviceID: sid, resourceID: rid, startTime: '2031-03-03T09:00:00Z' },
    });
    expect(booking.status).toBe(200);
    expect((await t.call('GET', '/health')).status).toBe(200);
    // the list lane is separate
    expect((await t.call('GET', `/v1/companies/${f.companyId}/bookings`)).status).toBe(200);
  } finally {
    await release();
  }
  expect((await times(month)).status).toBe(200);
});

it('an expensive availability request is refused before it reads anything, once the process keeps the service', async () => {
  const times = (body: object) => t.call('POST', `/v1/companies/${f.companyId}/services/${sid}/times`, { body });
  expect((await times(month)).status).toBe(200);
  const release = await occupy('availability');
  try {
    recordStatements();
    takeStatements();
    const refused = await times(month);
    const dates = await t.call('POST', `/v1/companies/${f.companyId}/services/${sid}/dates`, { body: month });
    expect([refused.status, dates.status]).toEqual([503, 503]);
    // the API key's lookup alone (this server keeps no keys: it has no change feed)
    expect(takeStatements().filter((s) => !/ from api_key /.test(s))).toEqual([]);
  } finally {
    await release();
  }
});

it('expensive requests arriving together for a service the process does not keep yet read its catalog once, then are refused before reading', async () => {
  // a process just started (or a service never asked for here): nothing kept to weigh the requests by
  const cold = await f.service('fixed', { duration: 'PT15M' });
  for (let i = 0; i < 5; i++) {
    const r = await f.resource(`Court ${i}`);
    await f.link(cold, r);
    await f.hours(r, [{ daysOfWeek: EVERY_DAY, hours: [{ start: '09:00', end: '17:00' }] }]);
  }
  const catalogReads = async () => metricIn((await t.call('GET', '/metrics')).text, 'availability_kept_reads_total{part="catalog"}');
  const before = await catalogReads();
  const release = await occupy('availability');
  try {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => t.call('POST', `/v1/companies/${f.companyId}/services/${cold}/times`, { body: month })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(503));
    expect(answers.every((a) => Number(a.headers['retry-after']) > 0)).toBe(true);
    // one of them read the catalog; the other seven waited for it and were refused on what it read
    expect((await catalogReads()) - before).toBe(1);
  } finally {
    await release();
  }
  expect((await t.call('POST', `/v1/companies/${f.companyId}/services/${cold}/times`, { body: month })).status).toBe(200);
});

it('large lists run under their own bulkhead (REST and GraphQL)', async () => {
  const release = await occupy('lists');
  try {
    expect((await t.call('GET', `/v1/companies/${f.companyId}/bookings`)).status).toBe(503);
    expect((await t.call('GET', `/v1/companies/${f.companyId}/clients`)).status).toBe(503);
    expect((await t.call('GET', `/v1/companies/${f.companyId}/payments`)).status).toBe(503);
    const gql = await t.gql(`query($c: ID!) { bookings(companyID: $c) { total } }`, { c: f.companyId });
    expect(gql.body.errors[0].extensions.code).toBe('service_unavailable');
    expect((await t.call('POST', `/v1/companies/${f.companyId}/services/${sid}/times`, { body: month })).status).toBe(200);
  } finally {
    await release();
  }
  expect((await t.call('GET', `/v1/companies/${f.companyId}/bookings`)).status).toBe(200);
});

it('PDF generation (receipts, entity PDFs) runs under its own bulkhead', async () => {
  const receipt = `/v1/companies/${f.companyId}/payments/00000000-0000-4000-8000-000000000001/receipt`;
  const release = await occupy('documents');
  try {
    const refused = await t.call('GET', receipt);
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 503, code: 'service_unavailable' });
    expect((await t.call('GET', '/health')).status).toBe(200);
  } finally {
    await release();
  }
  expect((await t.call('GET', receipt)).status).toBe(404);
});

it('a queued request whose client disconnects leaves the queue and is never computed', async () => {
  const t2 = await createTestApp({ config: { heavyConcurrency: 1, heavyQueue: 4 } });
  try {
    const f2 = new Fixtures(t2, (await t2.company('Queue salon', 'UTC')).id);
    const s2 = await f2.service('fixed', { duration: 'PT15M' });
    for (let i = 0; i < 5; i++) {
      const r = await f2.resource(`Room ${i}`);
      await f2.link(s2, r);
      await f2.hours(r, [{ daysOfWeek: EVERY_DAY, hours: [{ start: '09:00', end: '17:00' }] }]);
    }
    const base = await t2.listen();
    const bulkhead = heavyBulkhead(t2.deps, 'availability');
    let release!: () => void;
    const running = bulkhead.run(() => new Promise<void>((r) => (release = r)));
    const payload = JSON.stringify(month);
    const req = request(`${base}/v1/companies/${f2.companyId}/services/${s2}/times`, {
      method: 'POST',
      headers: { 'x-api-key': t2.adminKey, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    });
    req.on('error', () => undefined);
    req.end(payload);
    for (let i = 0; i < 200 && bulkhead.load.waiting === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(bulkhead.load).toEqual({ running: 1, waiting: 1 });
    req.destroy();
    for (let i = 0; i < 200 && bulkhead.load.waiting > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(bulkhead.load).toEqual({ running: 1, waiting: 0 });
    release();
    await running;
    expect(bulkhead.load).toEqual({ running: 0, waiting: 0 });
  } finally {
    await t2.close();
  }
});
