import { request, type IncomingHttpHeaders } from 'node:http';
import { PACED_FROM_BYTES } from '../../src/kernel/paced-body';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { EVERY_DAY, Fixtures } from '../helpers/fixtures';
import { metricIn } from '../helpers/metrics';

/** Contract section 3, "Size of an answer": at most 50,000 start times per answer, else 400. */
let t: TestApp;
let f: Fixtures;
let sid: string;
const rids: string[] = [];
const clock = new TestClock(Date.parse('2026-03-01T00:00:00Z'));

beforeAll(async () => {
  t = await createTestApp({ clock });
  f = new Fixtures(t, (await t.company('Grid club', 'Europe/Riga')).id);
  // a 5-minute grid, open around the clock: 288 start times per resource and day
  sid = await f.service('fixed', { duration: 'PT5M', timeInterval: 'PT5M' });
  for (let i = 0; i < 20; i++) {
    const rid = await f.resource(`Court ${i}`);
    await f.link(sid, rid);
    await f.hours(rid, [{ daysOfWeek: EVERY_DAY, hours: [{ start: '00:00', end: '24:00' }] }]);
    rids.push(rid);
  }
});
afterAll(async () => t?.close());

const window = (days: number) => ({
  from: '2026-03-02T00:00:00Z',
  to: new Date(Date.parse('2026-03-02T00:00:00Z') + days * 86_400_000).toISOString(),
});
const count = (times: Record<string, unknown[]>) => Object.values(times).reduce((n, l) => n + l.length, 0);

describe('size of an available-times answer', () => {
  it('answers up to 50,000 start times', async () => {
    // 8 days x 20 resources x 288 = 46,080
    const r = await t.call('POST', `/v1/companies/${f.companyId}/services/${sid}/times`, { body: window(8) });
    expect(r.status).toBe(200);
    expect(count(r.body.times)).toBe(46_080);
  });

  it('refuses an answer above 50,000 start times with 400 and says how to narrow it', async () => {
    // 9 days x 20 x 288 = 51,840
    const r = await t.call('POST', `/v1/companies/${f.companyId}/services/${sid}/times`, { body: window(9) });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
    expect(r.body.message).toMatch(/50000 start times.*narrow the window.*resources/);
    // the same window for fewer resources fits
    const narrow = await t.call('POST', `/v1/companies/${f.companyId}/services/${sid}/times`, {
      body: { ...window(9), resourceIDs: rids.slice(0, 10) },
    });
    expect(narrow.status).toBe(200);
    expect(count(narrow.body.times)).toBe(9 * 10 * 288);
  });

  it('the 93-day window over every resource is refused, on the client interface too', async () => {
    const widget = await t.keyWith({ [f.companyId]: ['client.read'] });
    const r = await t.call('POST', `/v1/client/companies/${f.companyId}/services/${sid}/times`, { body: window(93), key: widget });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
  });

  it('dates over the same 93 days still answer (a date list is small)', async () => {
    const r = await t.call('POST', `/v1/companies/${f.companyId}/services/${sid}/dates`, { body: window(93) });
    expect(r.status).toBe(200);
    // 93 days from midnight UTC touch 94 local dates in Riga (UTC+2)
    expect(r.body.dates[rids[0]]).toHaveLength(94);
  });

  it('in GraphQL the availability fields of one operation share one allowance', async () => {
    const q = `query($c: ID!, $s: ID!, $a: AvailableTimesInput!, $b: AvailableTimesInput!) {
      a: availableTimes(companyID: $c, serviceID: $s, input: $a) { timeZone }
      b: availableTimes(companyID: $c, serviceID: $s, input: $b) { timeZone }
    }`;
    const five = { ...window(5), resourceIDs: rids.slice(0, 10) }; // 14,400 each
    const ok = await t.gql(q, { c: f.companyId, s: sid, a: five, b: five });
    expect(ok.body.errors).toBeUndefined();
    const big = { ...window(9), resourceIDs: rids.slice(0, 10) }; // 25,920 each: 51,840 together
    const r = await t.gql(q, { c: f.companyId, s: sid, a: big, b: big });
    expect(r.body.errors?.[0]?.extensions?.code).toBe('invalid_request');
    expect(r.body.errors[0].message).toMatch(/narrow the window/);
  });
});

/** POSTs `body` as JSON over a real connection; `leaveAfter` bytes read, the client goes away. */
function post(base: string, path: string, key: string, body: unknown, leaveAfter = Infinity) {
  const payload = JSON.stringify(body);
  return new Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
    const req = request(
      new URL(path, base),
      { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) });
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          read += c.length;
          if (read >= leaveAfter) {
            res.destroy();
            done();
          }
        });
        res.on('end', done);
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const metric = async (name: string) => metricIn((await t.call('GET', '/metrics')).text, name);

describe('a large answer over a real connection (written piece by piece)', () => {
  const path = () => `/v1/companies/${f.companyId}/services/${sid}/times`;
  let base: string;
  beforeAll(async () => {
    base = await t.listen();
  });

  it('arrives whole and with its length, to several clients at once, and /metrics counts it', async () => {
    const expected = await t.call('POST', path(), { body: window(8) });
    expect(expected.status).toBe(200);
    const before = { answers: await metric('http_paced_answers_total'), bytes: await metric('http_paced_bytes_total') };
    const answers = await Promise.all([0, 1, 2, 3].map(() => post(base, path(), t.adminKey, window(8))));
    expect(await metric('http_paced_answers_total')).toBe(before.answers + 4);
    expect(await metric('http_paced_bytes_total')).toBe(before.bytes + 4 * answers[0].bytes.length);
    expect(await metric('http_paced_waiting_pieces')).toBe(0);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.bytes.length).toBeGreaterThan(PACED_FROM_BYTES);
      expect(a.headers['transfer-encoding']).toBeUndefined();
      expect(Number(a.headers['content-length'])).toBe(a.bytes.length);
      expect(a.bytes.equals(answers[0].bytes)).toBe(true);
    }
    expect(JSON.parse(answers[0].bytes.toString('utf8'))).toEqual(expected.body);
  });

  it('a client that leaves in the middle of one does not hold up the others', async () => {
    const [left, whole] = await Promise.all([
      post(base, path(), t.adminKey, window(8), 64 * 1024),
      post(base, path(), t.adminKey, window(7)),
    ]);
    expect(left.status).toBe(200);
    expect(left.bytes.length).toBeLessThan(Number(left.headers['content-length']));
    expect(whole.status).toBe(200);
    expect(Number(whole.headers['content-length'])).toBe(whole.bytes.length);
    expect(count(JSON.parse(whole.bytes.toString('utf8')).times)).toBe(7 * 20 * 288);
    const again = await post(base, path(), t.adminKey, window(8));
    expect(Number(again.headers['content-length'])).toBe(again.bytes.length);
  });
});
