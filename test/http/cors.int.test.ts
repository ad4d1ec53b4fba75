import { ConfigError, loadConfig } from '../../src/config/env';
import { createTestApp, type TestApp } from '../helpers/app';

/**
 * CORS over a real socket, as a browser on a merchant's site sends it: a preflight OPTIONS with
 * Origin, Access-Control-Request-Method and Access-Control-Request-Headers, then the request.
 */

const SHOP = 'https://shop.example';

async function preflight(base: string, path: string, origin: string, method = 'POST', headers = 'content-type, x-api-key') {
  return fetch(`${base}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

const allowedHeaders = (res: Response) =>
  (res.headers.get('access-control-allow-headers') ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);

describe('CORS_ORIGINS lists the origins', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ config: { corsOrigins: [SHOP, 'http://localhost:3000'] } });
    base = await t.listen();
  });
  afterAll(async () => t?.close());

  it.each([
    ['/graphql', 'POST'],
    ['/v1/client/bookings', 'POST'],
    ['/v1/companies/5b1f3c1e-0000-4000-8000-000000000000/bookings/5b1f3c1e-0000-4000-8000-000000000001', 'PATCH'],
  ])('answers the preflight of %s (%s) for a listed origin', async (path, method) => {
    const res = await preflight(base, path, SHOP, method, 'content-type, x-api-key, authorization, idempotency-key');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(res.headers.get('access-control-allow-methods')).toContain(method);
    expect(allowedHeaders(res)).toEqual(expect.arrayContaining(['content-type', 'x-api-key', 'authorization', 'idempotency-key']));
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(res.headers.get('vary')).toMatch(/origin/i);
  });

  it('allows the headers Apollo Client sends, on POST and on GET queries, without credentials', async () => {
    const apollo =
      'content-type, x-api-key, authorization, apollographql-client-name, apollographql-client-version, apollo-require-preflight, x-apollo-operation-name, x-request-id';
    for (const method of ['POST', 'GET']) {
      const res = await preflight(base, '/graphql', SHOP, method, apollo);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
      expect(res.headers.get('access-control-allow-methods')).toContain(method);
      expect(allowedHeaders(res)).toEqual(expect.arrayContaining(apollo.split(', ')));
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
    // the query itself, as Apollo Client sends a GET (its CSRF header makes the server run it)
    const query = encodeURIComponent('{ companies { total } }');
    const got = await fetch(`${base}/graphql?query=${query}`, {
      headers: {
        origin: SHOP,
        'x-api-key': t.adminKey,
        'apollo-require-preflight': 'true',
        'apollographql-client-name': 'shop-widget',
        'apollographql-client-version': '1.2.3',
        'x-request-id': 'widget-request-1',
      },
    });
    expect(got.status).toBe(200);
    expect(got.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(got.headers.get('x-request-id')).toBe('widget-request-1');
    expect(((await got.json()) as { data: { companies: { total: number } } }).data.companies.total).toEqual(expect.any(Number));
  });

  it('gives an unlisted origin no Access-Control-Allow-Origin', async () => {
    const res = await preflight(base, '/graphql', 'https://evil.example');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('marks the request itself, its errors included, and exposes Retry-After and X-Request-Id', async () => {
    const ok = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { origin: SHOP, 'content-type': 'application/json', 'x-api-key': t.adminKey },
      body: JSON.stringify({ query: '{ companies { total } }' }),
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/retry-after/i);
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/x-request-id/i);

    const refused = await fetch(`${base}/v1/companies`, { headers: { origin: SHOP, 'x-api-key': 'not-a-valid-key-0000' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(await refused.json()).toEqual(expect.objectContaining({ code: 'unauthorized' }));
  });

  it('leaves the operational endpoints without CORS', async () => {
    const res = await fetch(`${base}/health`, { headers: { origin: SHOP } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS_ORIGINS=*', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ config: { corsOrigins: ['*'] } });
    base = await t.listen();
  });
  afterAll(async () => t?.close());

  it('allows any origin, never with credentials', async () => {
    const res = await preflight(base, '/graphql', 'https://any.example');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const get = await fetch(`${base}/v1/companies`, { headers: { origin: 'https://any.example', 'x-api-key': t.adminKey } });
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    expect(get.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('without CORS_ORIGINS', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp();
    base = await t.listen();
  });
  afterAll(async () => t?.close());

  it('answers no CORS headers, so browsers on other origins cannot call the API', async () => {
    const res = await preflight(base, '/graphql', SHOP);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const rest = await preflight(base, '/v1/companies', SHOP, 'GET');
    expect(rest.headers.get('access-control-allow-origin')).toBeNull();
    expect(rest.status).toBe(404);
  });
});

describe('CORS_ORIGINS parsing', () => {
  it('reads a comma list, * alone, and refuses what is not an origin', () => {
    expect(loadConfig({ CORS_ORIGINS: ' https://a.example , http://localhost:3000 ' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:3000',
    ]);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(() => loadConfig({ CORS_ORIGINS: 'shop.example' })).toThrow(ConfigError);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://shop.example/path' })).toThrow(ConfigError);
    expect(() => loadConfig({ CORS_ORIGINS: '*, https://shop.example' })).toThrow(ConfigError);
  });
});
