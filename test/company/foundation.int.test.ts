import { createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('operational endpoints', () => {
  it('answers /health, /ready and /metrics without credentials', async () => {
    expect((await t.call('GET', '/health', { key: null })).body).toEqual({
      status: 'ok',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    expect((await t.call('GET', '/ready', { key: null })).status).toBe(200);
    const m = await t.call('GET', '/metrics', { key: null });
    expect(m.status).toBe(200);
    expect(m.text).toContain('http_requests_total');
    expect(m.text).toContain('db_statements_total');
    expect(m.text).toContain('db_pool_connections_in_use');
  });
  it('echoes a request id', async () => {
    const r = await t.call('GET', '/health', { key: null, headers: { 'x-request-id': 'abc-123' } });
    expect(r.headers['x-request-id']).toBe('abc-123');
  });
});

describe('companies over REST', () => {
  it('creates, lists and reads a company', async () => {
    const created = await t.call('POST', '/v1/companies', { body: { name: 'Salon', timeZone: 'Europe/Riga' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Salon', timeZone: 'Europe/Riga', enabled: true });
    expect(created.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    const got = await t.call('GET', `/v1/companies/${created.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
    const list = await t.call('GET', '/v1/companies');
    expect(list.body.map((c: { id: string }) => c.id)).toContain(created.body.id);
  });
  it('validates the time zone and the name', async () => {
    const r = await t.call('POST', '/v1/companies', { body: { name: 'X', timeZone: 'Mars/Olympus' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
    expect(r.body.details).toEqual([{ path: 'timeZone', message: expect.any(String) }]);
    const r2 = await t.call('POST', '/v1/companies', { body: { name: '   ', timeZone: 'UTC' } });
    expect(r2.status).toBe(400);
    const before = (await t.call('GET', '/v1/companies')).body.length;
    expect(before).toBe((await t.call('GET', '/v1/companies')).body.length);
  });
  it('answers 404 for an unknown company and 400 for a malformed id', async () => {
    expect((await t.call('GET', '/v1/companies/5b1f3c1e-0000-4000-8000-000000000000')).status).toBe(404);
    const bad = await t.call('GET', '/v1/companies/not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_request');
  });
});

describe('auth matrix', () => {
  let company: { id: string };
  let otherCompany: { id: string };
  beforeAll(async () => {
    company = await t.company('Mine');
    otherCompany = await t.company('Mine too');
  });
  it('refuses a missing key and a bad key with 401', async () => {
    const none = await t.call('GET', '/v1/companies', { key: null });
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ code: 'unauthorized', message: expect.any(String) });
    expect((await t.call('GET', '/v1/companies', { key: 'bpk_nonsense-key-that-does-not-exist' })).status).toBe(401);
  });
  it('refuses a revoked key at once', async () => {
    const key = await t.keyWith({ '*': ['companies.read'] });
    expect((await t.call('GET', '/v1/companies', { key })).status).toBe(200);
    const list = await t.call('GET', '/v1/api-keys');
    const entry = list.body.find((k: { keyPrefix: string; state: string }) => key.startsWith(k.keyPrefix) && k.state === 'active');
    expect(entry).toBeDefined();
    expect(JSON.stringify(list.body)).not.toContain(key);
    const revoked = await t.call('DELETE', `/v1/api-keys/${entry.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.state).toBe('revoked');
    expect((await t.call('GET', '/v1/companies', { key })).status).toBe(401);
  });
  it('refuses another merchant’s company with 403', async () => {
    const otherKey = await t.newMerchant();
    const r = await t.call('GET', `/v1/companies/${company.id}`, { key: otherKey });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('forbidden');
    const list = await t.call('GET', '/v1/companies', { key: otherKey });
    expect(list.body).toEqual([]);
  });
  it('refuses a key scoped to another company with 403', async () => {
    const key = await t.keyWith({ [otherCompany.id]: ['companies.read'] });
    expect((await t.call('GET', `/v1/companies/${company.id}`, { key })).status).toBe(403);
    expect((await t.call('GET', `/v1/companies/${otherCompany.id}`, { key })).status).toBe(200);
    const list = await t.call('GET', '/v1/companies', { key });
    expect(list.body.map((c: { id: string }) => c.id)).toEqual([otherCompany.id]);
  });
  it('refuses a missing permission with 403', async () => {
    const key = await t.keyWith({ '*': ['services.read'] });
    expect((await t.call('GET', `/v1/companies/${company.id}`, { key })).status).toBe(403);
    const create = await t.call('POST', '/v1/companies', { key, body: { name: 'No', timeZone: 'UTC' } });
    expect(create.status).toBe(403);
  });
  it('refuses privilege escalation when a key creates a key', async () => {
    const limited = await t.keyWith({ [company.id]: ['apikeys.write', 'bookings.read'] });
    const ok = await t.call('POST', '/v1/api-keys', {
      key: limited,
      body: { name: 'sub', permissions: { [company.id]: ['bookings.read'] } },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.key).toMatch(/^bpk_/);
    for (const permissions of [
      { [company.id]: ['bookings.write'] },
      { [company.id]: ['*'] },
      { '*': ['bookings.read'] },
      { [otherCompany.id]: ['bookings.read'] },
    ]) {
      const r = await t.call('POST', '/v1/api-keys', { key: limited, body: { name: 'escalate', permissions } });
      expect(r.status).toBe(403);
    }
    const bad = await t.call('POST', '/v1/api-keys', { body: { name: 'bad', permissions: { '*': ['bookings.fly'] } } });
    expect(bad.status).toBe(400);
  });
  it('stores only a hash of the key', async () => {
    const key = await t.keyWith({ '*': ['companies.read'] });
    const rows = await t.deps.orm.em.fork().getConnection().execute(`select key_hash, key_prefix from api_key`);
    expect(JSON.stringify(rows)).not.toContain(key);
  });
});

describe('error shapes', () => {
  it('answers malformed JSON with 400 invalid_request', async () => {
    const r = await t.call('POST', '/v1/companies', { body: '{"name": ' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: 'invalid_request', message: expect.any(String) });
  });
  it('answers wrong types with 400 and details', async () => {
    const r = await t.call('POST', '/v1/companies', { body: { name: 5, timeZone: 'UTC' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
    expect(r.body.details[0].path).toContain('name');
    const missing = await t.call('POST', '/v1/companies', { body: { name: 'x' } });
    expect(missing.status).toBe(400);
    expect(missing.body.details[0].path).toBe('timeZone');
  });
  it('answers an oversize body with 413', async () => {
    const r = await t.call('POST', '/v1/companies', { body: { name: 'x'.repeat(1024 * 1024 + 10), timeZone: 'UTC' } });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('payload_too_large');
  });
  it('answers an unknown route with JSON 404', async () => {
    const r = await t.call('GET', '/v1/nothing-here');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('not_found');
  });
  it('answers a wrong content type with 415', async () => {
    const r = await t.call('POST', '/v1/companies', { body: 'name=x', headers: { 'content-type': 'text/plain' } });
    expect(r.status).toBe(415);
    expect(r.body.code).toBe('unsupported_media_type');
  });
});

describe('companies over GraphQL', () => {
  it('creates and reads a company', async () => {
    const created = await t.gql<{ createCompany: { id: string; name: string; timeZone: string } }>(
      'mutation($input: CreateCompanyInput!) { createCompany(input: $input) { id name timeZone ownerID enabled } }',
      { input: { name: 'Club', timeZone: 'America/New_York' } },
    );
    expect(created.status).toBe(200);
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data!.createCompany.id;
    const got = await t.gql('query($id: ID!) { company(id: $id) { id name timeZone } companies { companies { id } } }', { id });
    expect(got.body.data.company).toEqual({ id, name: 'Club', timeZone: 'America/New_York' });
    expect(got.body.data.companies.companies.map((c: { id: string }) => c.id)).toContain(id);
  });
  it('carries the REST error codes in extensions.code', async () => {
    const bad = await t.gql('mutation { createCompany(input: {name: "x", timeZone: "Nowhere/Land"}) { id } }');
    expect(bad.body.errors[0].extensions.code).toBe('invalid_request');
    expect(bad.body.errors[0].extensions.details[0].path).toBe('timeZone');
    const missing = await t.gql('query { company(id: "5b1f3c1e-0000-4000-8000-000000000000") { id } }');
    expect(missing.body.errors[0].extensions.code).toBe('not_found');
    const anon = await t.gql('query { companies { total } }', undefined, { key: null });
    expect(anon.body.errors[0].extensions.code).toBe('unauthorized');
  });
  it('refuses a 30-deep query before execution', async () => {
    const deep = `query { __schema { types { fields { type { ${'ofType { '.repeat(26)}name${' }'.repeat(26)} } } } } }`;
    const r = await t.gql(deep);
    expect(r.status).toBe(200); // application/json: a well-formed GraphQL request (graphql-http.int.test.ts)
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors[0].message).toMatch(/depth/);
    expect(r.body.errors[0].extensions.code).toBe('invalid_request');
  });
});

describe('rate limit and introspection switch', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ config: { rateLimitPerSecond: 2, rateLimitBurst: 3, graphqlIntrospection: false } });
  });
  afterAll(async () => limited?.close());

  it('answers 429 with Retry-After once a key has spent its burst', async () => {
    const statuses: number[] = [];
    let retryAfter: unknown;
    for (let i = 0; i < 6; i++) {
      const r = await limited.call('GET', '/v1/companies');
      statuses.push(r.status);
      if (r.status === 429) {
        retryAfter = r.headers['retry-after'];
        expect(r.body.code).toBe('rate_limited');
      }
    }
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
    expect(statuses).toContain(429);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // another key has its own bucket
    const other = await limited.newMerchant();
    expect((await limited.call('GET', '/v1/companies', { key: other })).status).toBe(200);
  });

  it('refuses introspection when GRAPHQL_INTROSPECTION=false', async () => {
    const r = await limited.gql('{ __schema { types { name } } }', undefined, { key: await limited.newMerchant() });
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors[0].message).toMatch(/introspection/i);
    const open = await t.gql('{ __schema { queryType { name } } }');
    expect(open.body.data.__schema.queryType.name).toBe('Query');
  });
});
