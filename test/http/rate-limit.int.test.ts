import { createTestApp, TestClock, type TestApp } from '../helpers/app';

/**
 * Contract section 3: one limit per API key, per client (bearer token) and, for requests
 * without valid credentials, per client IP address.
 */
let t: TestApp;
const clock = new TestClock(Date.parse('2026-03-01T00:00:00Z'));
let cid: string;
let loginKey: string;
const BURST = 3;

beforeAll(async () => {
  t = await createTestApp({ clock, config: { rateLimitPerSecond: 1, rateLimitBurst: BURST } });
  cid = (await t.company('Limits')).id;
  loginKey = await t.keyWith({ [cid]: ['client.login'] });
});
afterAll(async () => t?.close());
// every test starts with full buckets: a minute refills any of them
beforeEach(() => clock.advance(60_000));

async function statuses(n: number, send: () => Promise<{ status: number; headers: Record<string, unknown>; body: any }>) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await send();
    out.push(r.status);
    if (r.status === 429) {
      expect(r.body.code).toBe('rate_limited');
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
  }
  return out;
}

async function clientToken(user: string, ip: string): Promise<string> {
  const r = await t.call('POST', '/v1/client/auth/login', {
    key: loginKey,
    remoteAddress: ip,
    body: { companyID: cid, email: `${user}@example.com`, externalUserID: user },
  });
  expect(r.status).toBe(200);
  return r.body.accessToken;
}

describe('rate limits', () => {
  it('limits a client by its bearer token, whatever its address; another client has its own allowance', async () => {
    const a = await clientToken('a', '10.0.0.1');
    const b = await clientToken('b', '10.0.0.2');
    clock.advance(60_000);
    const seen = await statuses(BURST + 2, () =>
      t.call('GET', '/v1/client/profile', { token: a, remoteAddress: `10.1.0.${Math.floor(Math.random() * 200)}` }),
    );
    expect(seen.slice(0, BURST)).toEqual(Array(BURST).fill(200));
    expect(seen.slice(BURST)).toEqual([429, 429]);
    expect((await t.call('GET', '/v1/client/profile', { token: b })).status).toBe(200);
  });

  it('limits requests with an invalid key per address: guessing keys is refused with 429, not an endless 401', async () => {
    const seen = await statuses(BURST + 2, () =>
      t.call('GET', '/v1/companies', { key: 'bk_guess_0123456789abcdef', remoteAddress: '10.2.0.1' }),
    );
    expect(seen).toEqual([...Array(BURST).fill(401), 429, 429]);
    // another address is not affected; a valid key from the same address has its own bucket
    expect((await t.call('GET', '/v1/companies', { key: 'bk_guess_0123456789abcdef', remoteAddress: '10.2.0.2' })).status).toBe(401);
    expect((await t.call('GET', '/v1/companies', { remoteAddress: '10.2.0.1' })).status).toBe(200);
  });

  it('limits an invalid bearer token per address', async () => {
    const seen = await statuses(BURST + 1, () => t.call('GET', '/v1/client/profile', { token: 'not-a-token', remoteAddress: '10.3.0.1' }));
    expect(seen).toEqual([...Array(BURST).fill(401), 429]);
  });

  it('limits GraphQL without a key per address', async () => {
    const seen: number[] = [];
    for (let i = 0; i < BURST + 1; i++) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        remoteAddress: '10.4.0.1',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ query: '{ __typename }' }),
      });
      // GraphQL over HTTP: 200 under application/json, the reason in errors[].extensions.code
      seen.push(r.statusCode === 200 && JSON.parse(r.body).errors?.[0]?.extensions?.code === 'rate_limited' ? 429 : r.statusCode);
      if (seen.at(-1) === 429) expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    expect(seen).toEqual([...Array(BURST).fill(200), 429]);
  });

  it('limits the test checkout page per address', async () => {
    const seen = await statuses(BURST + 1, () =>
      t.call('GET', '/v1/payments/test-checkout/00000000-0000-4000-8000-000000000000', { key: null, remoteAddress: '10.5.0.1' }),
    );
    expect(seen.slice(0, BURST)).toEqual(Array(BURST).fill(404));
    expect(seen[BURST]).toBe(429);
  });

  it('never limits the health, readiness and metrics endpoints', async () => {
    for (const path of ['/health', '/ready', '/metrics']) {
      const seen = await statuses(BURST + 3, () =>
        t.app
          .inject({ method: 'GET', url: path, remoteAddress: '10.6.0.1' })
          .then((r) => ({ status: r.statusCode, headers: r.headers, body: r.body })),
      );
      expect(seen.every((s) => s === 200)).toBe(true);
    }
  });

  it('refills over time', async () => {
    await statuses(BURST + 1, () => t.call('GET', '/v1/companies', { key: 'bk_wrong_0123456789abcdef', remoteAddress: '10.7.0.1' }));
    clock.advance(1000);
    expect((await t.call('GET', '/v1/companies', { key: 'bk_wrong_0123456789abcdef', remoteAddress: '10.7.0.1' })).status).toBe(401);
  });
});

describe('TRUST_PROXY', () => {
  it('takes the client address from X-Forwarded-For only when the proxy is trusted', async () => {
    const proxied = await createTestApp({ clock, config: { rateLimitPerSecond: 1, rateLimitBurst: 1, trustProxy: ['127.0.0.1'] } });
    try {
      const anon = (forwarded: string) =>
        proxied.call('GET', '/v1/companies', { key: 'bk_wrong_0123456789abcdef', headers: { 'x-forwarded-for': forwarded } });
      expect((await anon('192.0.2.1')).status).toBe(401);
      expect((await anon('192.0.2.1')).status).toBe(429);
      expect((await anon('192.0.2.2')).status).toBe(401); // a different client behind the same proxy
    } finally {
      await proxied.close();
    }
    // untrusted: every forwarded address is the proxy's own
    const direct = await createTestApp({ clock, config: { rateLimitPerSecond: 1, rateLimitBurst: 1 } });
    try {
      const anon = (forwarded: string) =>
        direct.call('GET', '/v1/companies', { key: 'bk_wrong_0123456789abcdef', headers: { 'x-forwarded-for': forwarded } });
      expect((await anon('192.0.2.1')).status).toBe(401);
      expect((await anon('192.0.2.2')).status).toBe(429);
    } finally {
      await direct.close();
    }
  });
});
