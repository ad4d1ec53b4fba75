import { PassThrough } from 'node:stream';
import { createTestApp, type TestApp } from '../helpers/app';

/**
 * One log line per request, written when it completes: method, path (secrets redacted),
 * status, duration and request id; the probes (/health, /ready, /metrics) at debug only.
 */
interface Line {
  level: number;
  msg: string;
  reqId?: string;
  status?: number;
  ms?: number;
  req?: { method: string; url: string };
}

async function appLogging(level: string): Promise<{ t: TestApp; lines: Line[] }> {
  const lines: Line[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) =>
    lines.push(
      ...chunk
        .toString('utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Line),
    ),
  );
  return { t: await createTestApp({ logStream: stream, logLevel: level }), lines };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('at info', () => {
  let t: TestApp;
  let lines: Line[];
  beforeAll(async () => ({ t, lines } = await appLogging('info')));
  afterAll(async () => t?.close());

  it('a request is one line at completion with method, path, status, duration and request id', async () => {
    const cid = (await t.company('Logged')).id;
    await t.call('GET', `/v1/companies/${cid}/services?limit=5`, { headers: { 'x-request-id': 'req-one-line' } });
    await t.call('GET', '/v1/companies/nope', { headers: { 'x-request-id': 'req-bad-id' } });
    await flush();
    const mine = lines.filter((l) => l.reqId === 'req-one-line');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ level: 30, status: 200, req: { method: 'GET', url: `/v1/companies/${cid}/services?limit=5` } });
    expect(mine[0].ms).toEqual(expect.any(Number));
    expect(mine[0].msg).toMatch(new RegExp(`^GET /v1/companies/${cid}/services\\?limit=5 200 \\d+(\\.\\d)? ms$`));
    const bad = lines.filter((l) => l.reqId === 'req-bad-id');
    expect(bad).toHaveLength(1);
    expect(bad[0].msg).toMatch(/^GET \/v1\/companies\/nope 4\d\d /);
  });

  it('secrets in the query string are redacted in the message and the fields', async () => {
    const secret = 'tok-0123456789-secret';
    await t.call('GET', `/v1/client/bookings/00000000-0000-4000-8000-000000000000?accessToken=${secret}&x=1`, {
      key: null,
      headers: { 'x-request-id': 'req-secret' },
    });
    await flush();
    const [line] = lines.filter((l) => l.reqId === 'req-secret');
    expect(line.msg).toContain('?accessToken=[redacted]&x=1');
    expect(JSON.stringify(lines)).not.toContain(secret);
  });

  it('probes are not logged at info', async () => {
    for (const path of ['/health', '/ready', '/metrics'])
      await t.call('GET', path, { key: null, headers: { 'x-request-id': 'req-probe' } });
    await flush();
    expect(lines.filter((l) => l.reqId === 'req-probe')).toEqual([]);
  });
});

describe('at debug', () => {
  let t: TestApp;
  let lines: Line[];
  beforeAll(async () => ({ t, lines } = await appLogging('debug')));
  afterAll(async () => t?.close());

  it('probes are logged at debug, one line each', async () => {
    for (const path of ['/health', '/ready', '/metrics'])
      await t.call('GET', path, { key: null, headers: { 'x-request-id': `probe${path.replace('/', '-')}` } });
    await flush();
    for (const path of ['/health', '/ready', '/metrics']) {
      const mine = lines.filter((l) => l.reqId === `probe${path.replace('/', '-')}`);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ level: 20, status: 200 });
      expect(mine[0].msg).toMatch(new RegExp(`^GET ${path} 200 `));
    }
  });
});
