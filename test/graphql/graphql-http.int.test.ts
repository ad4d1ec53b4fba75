import { createTestApp, type TestApp } from '../helpers/app';

/**
 * Every failure of a request to /graphql is a GraphQL response `{errors: [{message,
 * extensions: {code}}]}`, whichever layer refuses it; the HTTP status follows the
 * GraphQL-over-HTTP specification: the failure's status for `application/graphql-response+json`,
 * 200 for `application/json` unless the request never was a well-formed GraphQL request.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const GQL_RESPONSE = 'application/graphql-response+json';
const QUERY = '{ companies { id } }';

async function post(body: unknown, headers: Record<string, string> = {}, auth: { key?: string | null; token?: string | null } = {}) {
  return t.call('POST', '/graphql', { body, headers, key: auth.key, token: auth.token });
}

function expectGraphqlError(res: { body: any; headers: Record<string, unknown> }, code: string) {
  expect(res.body).toEqual({
    errors: [expect.objectContaining({ message: expect.any(String), extensions: expect.objectContaining({ code }) })],
    extensions: { cost: { requested: null, limit: 5000 } },
  });
  expect(res.body.data).toBeUndefined();
}

describe('credentials', () => {
  it('an invalid API key: 200 with application/json, 401 with application/graphql-response+json', async () => {
    const json = await post({ query: QUERY }, {}, { key: 'not-a-key-0123456789' });
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expectGraphqlError(json, 'unauthorized');

    const strict = await post({ query: QUERY }, { accept: `${GQL_RESPONSE}, application/json;q=0.9` }, { key: 'not-a-key-0123456789' });
    expect(strict.status).toBe(401);
    expect(strict.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
    expectGraphqlError(strict, 'unauthorized');
  });

  it('an invalid bearer token likewise', async () => {
    const json = await post({ query: '{ clientProfile { id } }' }, {}, { token: 'garbage.token.value' });
    expect(json.status).toBe(200);
    expectGraphqlError(json, 'unauthorized');
    const strict = await post({ query: '{ clientProfile { id } }' }, { accept: GQL_RESPONSE }, { token: 'garbage.token.value' });
    expect(strict.status).toBe(401);
    expectGraphqlError(strict, 'unauthorized');
  });

  it('a missing permission is a field error with code forbidden; other root fields still answer', async () => {
    const company = await t.company('Scoped');
    const scoped = await t.keyWith({ [company.id]: ['services.read'] });
    for (const accept of [undefined, GQL_RESPONSE]) {
      const r = await post(
        { query: `{ services(companyID: "${company.id}") { total } bookings(companyID: "${company.id}") { total } }` },
        accept ? { accept } : {},
        { key: scoped },
      );
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({ services: { total: 0 }, bookings: null });
      expect(r.body.errors).toEqual([expect.objectContaining({ path: ['bookings'], extensions: { code: 'forbidden' } })]);
    }
  });
});

describe('partial data', () => {
  it('one failing root field does not null the others', async () => {
    const company = await t.company('Partial');
    const r = await post({
      query: `query { company(id: "${company.id}") { id name } missing: company(id: "5b1f3c1e-0000-4000-8000-000000000000") { id } companies { total companies { id } } }`,
    });
    expect(r.status).toBe(200);
    expect(r.body.data.company).toEqual({ id: company.id, name: 'Partial' });
    expect(r.body.data.missing).toBeNull();
    expect(r.body.data.companies.companies).toContainEqual({ id: company.id });
    expect(r.body.errors).toEqual([expect.objectContaining({ path: ['missing'], extensions: { code: 'not_found' } })]);
  });
});

describe('documents that fail before execution', () => {
  it('a syntax error: 200 with application/json, 400 with application/graphql-response+json', async () => {
    const json = await post({ query: '{ companies { id ' });
    expect(json.status).toBe(200);
    expectGraphqlError(json, 'invalid_request');
    const strict = await post({ query: '{ companies { id ' }, { accept: GQL_RESPONSE });
    expect(strict.status).toBe(400);
    expectGraphqlError(strict, 'invalid_request');
  });

  it('an unknown field likewise', async () => {
    const json = await post({ query: '{ companies { nope } }' });
    expect(json.status).toBe(200);
    expect(json.body.errors[0].extensions.code).toBe('invalid_request');
    const strict = await post({ query: '{ companies { nope } }' }, { accept: GQL_RESPONSE });
    expect(strict.status).toBe(400);
  });

  it('an automatic persisted query whose hash is not that of its text likewise', async () => {
    const body = { query: QUERY, extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } };
    const json = await post(body);
    expect(json.status).toBe(200);
    expectGraphqlError(json, 'invalid_request');
    expect(json.body.errors[0].message).toBe('provided sha does not match query');
    const strict = await post(body, { accept: GQL_RESPONSE });
    expect(strict.status).toBe(400);
    expectGraphqlError(strict, 'invalid_request');
  });
});

describe('requests that never were GraphQL requests keep their 4xx status', () => {
  it('a body that is not JSON: 400', async () => {
    for (const accept of [undefined, GQL_RESPONSE]) {
      const r = await t.call('POST', '/graphql', { body: '{"query": ', headers: accept ? { accept } : {} });
      expect(r.status).toBe(400);
      expectGraphqlError(r, 'invalid_request');
    }
  });

  it('a body above 1 MiB: 413', async () => {
    const r = await post({ query: QUERY, variables: { pad: 'x'.repeat(1024 * 1024 + 10) } });
    expect(r.status).toBe(413);
    expectGraphqlError(r, 'payload_too_large');
  });

  it('another content type: 415', async () => {
    const r = await t.call('POST', '/graphql', { body: 'query=x', headers: { 'content-type': 'text/plain' } });
    expect(r.status).toBe(415);
    expectGraphqlError(r, 'unsupported_media_type');
  });

  it('a method GraphQL is not served on: 405 with Allow', async () => {
    const r = await t.call('PUT', '/graphql', { body: { query: QUERY } });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('GET, POST');
    expectGraphqlError(r, 'invalid_request');
  });

  it('a NUL character in a variable is a request error like any other (200 / 400)', async () => {
    const query = 'mutation($i: CreateCompanyInput!) { createCompany(input: $i) { id } }';
    const variables = { i: { name: 'a\u0000b', timeZone: 'Europe/Riga' } };
    const json = await post({ query, variables });
    expect(json.status).toBe(200);
    expectGraphqlError(json, 'invalid_request');
    const strict = await post({ query, variables }, { accept: GQL_RESPONSE });
    expect(strict.status).toBe(400);
  });
});

describe('rate limiting', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ config: { rateLimitPerSecond: 1, rateLimitBurst: 2 } });
  });
  afterAll(async () => limited?.close());

  it('answers rate_limited as a GraphQL error with Retry-After (200 / 429)', async () => {
    const key = await limited.newMerchant();
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push(await limited.call('POST', '/graphql', { key, body: { query: QUERY }, headers: i % 2 ? { accept: GQL_RESPONSE } : {} }));
    const limitedJson = answers.find((r) => r.body.errors?.[0]?.extensions?.code === 'rate_limited' && r.status === 200);
    const limitedStrict = answers.find((r) => r.status === 429);
    expect(limitedJson).toBeDefined();
    expect(limitedStrict).toBeDefined();
    for (const r of [limitedJson!, limitedStrict!]) {
      expectGraphqlError(r, 'rate_limited');
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
  });
});
