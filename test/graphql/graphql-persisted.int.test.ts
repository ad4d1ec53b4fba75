import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getIntrospectionQuery } from 'graphql';
import { ConfigError, loadConfig } from '../../src/config/env';
import { createTestApp, type TestApp } from '../helpers/app';
import { EVERY_DAY, Fixtures } from '../helpers/fixtures';
import { liveClient, subscribed, wsUrl } from '../helpers/live-client';

/**
 * GRAPHQL_PERSISTED_ONLY: the server runs only the operations of its manifest (the file Apollo's
 * persisted-query tooling writes), sent by hash (APQ's `extensions.persistedQuery`) or as the
 * same text; anything else is refused before it runs, with a GraphQL error that says why.
 */

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const COMPANIES = 'query Companies { companies { total } }';
const CREATE_RESOURCE =
  'mutation CreateResource($c: ID!, $name: String!) { createResource(companyID: $c, input: {name: $name, color: "#123456"}) { id name } }';
const INTROSPECTION = getIntrospectionQuery();
const BOOKINGS = 'subscription Bookings($c: ID!) { bookingChanged(companyID: $c) { type } }';
const operations = [
  { id: sha256(BOOKINGS), name: 'Bookings', type: 'subscription', body: BOOKINGS },
  { id: sha256(COMPANIES), name: 'Companies', type: 'query', body: COMPANIES },
  { id: sha256(CREATE_RESOURCE), name: 'CreateResource', type: 'mutation', body: CREATE_RESOURCE },
  { id: sha256(INTROSPECTION), name: 'IntrospectionQuery', type: 'query', body: INTROSPECTION },
];

const dir = mkdtempSync(join(tmpdir(), 'persisted-'));
const manifest = join(dir, 'persisted-query-manifest.json');
writeFileSync(manifest, JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 1, operations }));

let t: TestApp;
let cid: string;
beforeAll(async () => {
  t = await createTestApp({ changeFeed: true, config: { graphqlPersistedOnly: true, graphqlPersistedManifest: manifest } });
  // created over REST: GraphQL runs only the manifest's operations
  cid = (await t.company('Persisted')).id;
});
afterAll(async () => t?.close());

const byHash = (hash: string, variables?: Record<string, unknown>) =>
  t.call('POST', '/graphql', { body: { variables, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } } });
const byText = (query: string, variables?: Record<string, unknown>, headers?: Record<string, string>) =>
  t.call('POST', '/graphql', { body: { query, variables }, headers });
const resources = async () => (await t.call('GET', `/v1/companies/${cid}/resources`)).body.length as number;

describe('GRAPHQL_PERSISTED_ONLY', () => {
  it("runs the manifest's operations by hash and by their text", async () => {
    const hashed = await byHash(operations[1].id);
    expect(hashed.status).toBe(200);
    expect(hashed.body.errors).toBeUndefined();
    expect(hashed.body.data.companies.total).toBeGreaterThan(0);
    expect(hashed.body.extensions.cost).toEqual({ requested: 2, limit: 5000 });
    const text = await byText(COMPANIES);
    expect(text.text).toBe(hashed.text);
    const made = await byHash(operations[2].id, { c: cid, name: 'Court' });
    expect(made.body.errors).toBeUndefined();
    expect(made.body.data.createResource.name).toBe('Court');
    // GET, as Apollo Client sends persisted queries
    const get = await t.call('GET', '/graphql', {
      query: { extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: operations[1].id } }) },
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(get.body.data.companies.total).toBeGreaterThan(0);
  });

  it('refuses any other document before it runs, and says why', async () => {
    const before = await resources();
    for (const query of [
      // the same operation written otherwise
      'query Companies { companies { total } } ',
      `mutation($c: ID!) { createResource(companyID: $c, input: {name: "Sneaked in", color: "#123456"}) { id } }`,
      // invalid documents are refused the same way, naming nothing of the schema
      '{ companiez { id } }',
      '{ companies { ',
    ]) {
      for (const accept of ['application/json', 'application/graphql-response+json']) {
        const r = await byText(query, { c: cid }, { accept });
        expect(r.status).toBe(accept === 'application/json' ? 200 : 403);
        expect(r.body.data).toBeUndefined();
        expect(r.body.errors).toEqual([
          {
            message: expect.stringMatching(/only the operations of its persisted-operation manifest/),
            extensions: { code: 'forbidden' },
          },
        ]);
        expect(r.body.extensions.cost.limit).toBe(5000);
      }
    }
    expect(await resources()).toBe(before);
  });

  it('an unknown hash is not found, and sending its text does not register it', async () => {
    const other = '{ companies { total } }';
    const notFound = await byHash(sha256(other));
    expect(notFound.body.errors[0].message).toBe('PersistedQueryNotFound');
    // APQ's registration (hash and text together) is refused like any other text
    const register = await t.call('POST', '/graphql', {
      body: { query: other, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(other) } } },
    });
    expect(register.body.errors[0].extensions.code).toBe('forbidden');
    expect((await byHash(sha256(other))).body.errors[0].message).toBe('PersistedQueryNotFound');
  });

  it('keeps introspection off, even for a listed introspection query', async () => {
    const r = await byHash(operations[3].id);
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors[0].message).toMatch(/introspection/i);
  });
});

describe('GRAPHQL_PERSISTED_ONLY over WebSocket', () => {
  it('runs a listed subscription by id or text, and refuses any other', async () => {
    const url = wsUrl(await t.listen());
    const c = liveClient(url, { 'x-api-key': t.adminKey });
    try {
      const metrics = async () => (await t.call('GET', '/metrics')).text;
      const other = c.subscribe('subscription($c: ID!) { bookingChanged(companyID: $c) { type booking { id } } }', { c: cid });
      expect(await other.ended).toEqual({
        error: [{ message: expect.stringMatching(/persisted-operation manifest/), extensions: { code: 'forbidden' } }],
      });
      const byId = c.subscribe('', { c: cid }, { extensions: { persistedQuery: { version: 1, sha256Hash: operations[0].id } } });
      const byTextToo = await subscribed(c, metrics, BOOKINGS, { c: cid }, 2);
      const f = new Fixtures(t, cid);
      const sid = await f.service('fixed', { duration: 'PT1H' });
      const rid = await f.resource('Room');
      await f.link(sid, rid);
      await f.hours(rid, [{ daysOfWeek: EVERY_DAY, hours: [{ start: '00:00', end: '24:00' }] }]);
      expect(
        (
          await t.call('POST', `/v1/companies/${cid}/bookings`, {
            body: { serviceID: sid, resourceID: rid, startTime: '2031-01-01T10:00:00Z' },
          })
        ).status,
      ).toBe(200);
      expect((await byId.take()).data).toEqual({ bookingChanged: { type: 'created' } });
      expect((await byTextToo.take()).data).toEqual({ bookingChanged: { type: 'created' } });
    } finally {
      await c.dispose();
    }
  });
});

describe('configuration', () => {
  it('GRAPHQL_PERSISTED_ONLY needs a manifest', () => {
    expect(() => loadConfig({ GRAPHQL_PERSISTED_ONLY: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ GRAPHQL_PERSISTED_ONLY: 'yes', GRAPHQL_PERSISTED_MANIFEST: manifest })).toThrow(ConfigError);
    const config = loadConfig({ GRAPHQL_PERSISTED_ONLY: 'true', GRAPHQL_PERSISTED_MANIFEST: manifest });
    expect(config.graphqlPersistedOnly).toBe(true);
    expect(config.graphqlPersistedManifest).toBe(manifest);
    expect(loadConfig({}).graphqlPersistedOnly).toBe(false);
  });
});
