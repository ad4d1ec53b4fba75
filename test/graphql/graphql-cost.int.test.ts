import { getIntrospectionQuery, Kind, parse, print, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { createTestApp, type TestApp } from '../helpers/app';
import { EVERY_DAY, Fixtures } from '../helpers/fixtures';

/** Contract, GraphQL: cost counted as if fragments were written inline; introspection always passes. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

// Refused before execution: errors and no `data` (HTTP 200 under application/json, GraphQL over HTTP).
const refused = (r: { status: number; body: { data?: unknown; errors?: { message: string; extensions: { code: string } }[] } }) => {
  expect(r.body.data).toBeUndefined();
  expect(r.body.errors?.[0]?.extensions.code).toBe('invalid_request');
};

describe('GraphQL query cost', () => {
  it('the standard introspection query passes, with and without a key, in every variant tools send', async () => {
    for (const options of [{}, { descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, inputValueDeprecation: true }]) {
      for (const key of [undefined, null]) {
        const r = await t.gql(getIntrospectionQuery(options), undefined, { key });
        expect(r.body.errors).toBeUndefined();
        expect(r.body.data.__schema.types.length).toBeGreaterThan(50);
      }
    }
  });

  it('counts fragment spreads every time they are used: nested introspection lists are refused written either way', async () => {
    const inline = `{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }`;
    const fragments = `{ __schema { ...S } }
      fragment S on __Schema { types { ...T } }
      fragment T on __Type { fields { type { ...U } } }
      fragment U on __Type { fields { type { fields { name } } } }`;
    refused(await t.gql(inline, undefined, { key: null }));
    refused(await t.gql(fragments, undefined, { key: null }));
  });

  it('aliases of the standard introspection count each time: five pass, six are refused', async () => {
    const aliased = (n: number) => {
      const doc = parse(getIntrospectionQuery());
      const op = doc.definitions[0] as OperationDefinitionNode;
      const schemaField = op.selectionSet.selections[0] as FieldNode;
      const selections = Array.from({ length: n }, (_, i) => ({ ...schemaField, alias: { kind: Kind.NAME as const, value: `s${i}` } }));
      return print({ ...doc, definitions: [{ ...op, selectionSet: { ...op.selectionSet, selections } }, ...doc.definitions.slice(1)] });
    };
    const five = await t.gql(aliased(5), undefined, { key: null });
    expect(five.body.errors).toBeUndefined();
    expect(Object.keys(five.body.data)).toHaveLength(5);
    refused(await t.gql(aliased(6), undefined, { key: null }));
  });

  it('a fragment that doubles at every level stops the evaluation instead of expanding it', async () => {
    const levels = 20;
    const defs = Array.from({ length: levels }, (_, i) =>
      i === levels - 1
        ? `fragment F${i} on __Type { name }`
        : `fragment F${i} on __Type { a: ofType { ...F${i + 1} } b: ofType { ...F${i + 1} } }`,
    ).join('\n');
    refused(await t.gql(`{ __type(name: "Query") { ...F0 } } ${defs}`, undefined, { key: null }));
  });

  it('list fields cost ten times their selection, and aliases add up', async () => {
    const cid = (await t.company('Cost check')).id;
    const ok = await t.gql(`query($c: ID!) { services(companyID: $c) { services { id } } }`, { c: cid });
    expect(ok.body.errors).toBeUndefined();
    const aliases = Array.from(
      { length: 60 },
      (_, i) => `s${i}: services(companyID: $c) { services { id name resources { resources { id name } } } }`,
    ).join(' ');
    refused(await t.gql(`query($c: ID!) { ${aliases} }`, { c: cid }));
  });

  it('an availability field costs by its window and resources, so aliases of long windows are refused', async () => {
    const f = new Fixtures(t, (await t.company('Windows', 'Europe/Riga')).id);
    const sid = await f.service('fixed', { duration: 'PT1H' });
    const rid = await f.resource('Court');
    await f.link(sid, rid);
    await f.hours(rid, [{ daysOfWeek: EVERY_DAY, hours: [{ start: '09:00', end: '12:00' }] }]);
    const field = (i: number, days: number) =>
      `t${i}: availableTimes(companyID: $c, serviceID: $s, input: {from: "2026-03-02T00:00:00Z", to: "${new Date(
        Date.parse('2026-03-02T00:00:00Z') + days * 86_400_000,
      ).toISOString()}"}) { timeZone }`;
    const one = await t.gql(`query($c: ID!, $s: ID!) { ${field(0, 93)} }`, { c: f.companyId, s: sid });
    expect(one.body.errors).toBeUndefined();
    const many = Array.from({ length: 6 }, (_, i) => field(i, 93)).join(' ');
    refused(await t.gql(`query($c: ID!, $s: ID!) { ${many} }`, { c: f.companyId, s: sid }));
    const short = Array.from({ length: 6 }, (_, i) => field(i, 1)).join(' ');
    expect((await t.gql(`query($c: ID!, $s: ID!) { ${short} }`, { c: f.companyId, s: sid })).body.errors).toBeUndefined();
  });
});

describe('extensions.cost', () => {
  const cost = (requested: number | null) => ({ cost: { requested, limit: 5000 } });

  it('every answer reports what its operation costs and the limit', async () => {
    const cid = (await t.company('Cost reported')).id;
    // services: 1 + (services: 1 + 10 × (id: 1)) = 12
    const ok = await t.gql(`query($c: ID!) { services(companyID: $c) { services { id } } }`, { c: cid });
    expect(ok.body.extensions).toEqual(cost(12));
    expect(ok.text.endsWith(`,"extensions":{"cost":{"requested":12,"limit":5000}}}\n`)).toBe(true);
    // an error beside data
    const failing = await t.gql(
      `query($c: ID!) { a: company(id: $c) { id } b: company(id: "00000000-0000-4000-8000-000000000000") { id } }`,
      {
        c: cid,
      },
    );
    expect(failing.body.errors[0].extensions.code).toBe('not_found');
    expect(failing.body.extensions).toEqual(cost(4));
    // a mutation
    const made = await t.gql(`mutation($c: ID!) { createResource(companyID: $c, input: {name: "Court", color: "#123456"}) { id } }`, {
      c: cid,
    });
    expect(made.body.errors).toBeUndefined();
    expect(made.body.extensions).toEqual(cost(2));
  });

  it('a refused operation reports its cost; a document that was never evaluated reports null', async () => {
    const cid = (await t.company('Cost refused')).id;
    const aliases = Array.from(
      { length: 60 },
      (_, i) => `s${i}: services(companyID: $c) { services { id name resources { resources { id } } } }`,
    );
    const tooMuch = await t.gql(`query($c: ID!) { ${aliases.join(' ')} }`, { c: cid });
    refused(tooMuch);
    // 60 × (1 + (1 + 10 × (1 + 1 + (1 + (1 + 10 × 1))))) = 60 × 142
    expect(tooMuch.body.extensions).toEqual(cost(8520));
    for (const r of [
      await t.gql('{ companies { '),
      await t.gql('{ companiez { id } }'),
      await t.gql('{ companies { id } }', undefined, { key: 'not-a-key-0123456789' }),
    ]) {
      expect(r.body.errors).toHaveLength(1);
      expect(r.body.extensions).toEqual(cost(null));
    }
  });

  it('so do the requests Apollo refuses before it reads a document', async () => {
    const query = '{ companies { total } }';
    for (const r of [
      // a GET without a header that passes the CSRF check
      await t.call('GET', '/graphql', { query: { query } }),
      await t.call('GET', '/graphql', { query: { query, variables: '{' }, headers: { 'apollo-require-preflight': 'true' } }),
      await t.call('POST', '/graphql', { body: { query: 5 } }),
      await t.call('POST', '/graphql', { body: { query, variables: 5 } }),
      await t.call('POST', '/graphql', { body: [{ query }] }),
    ]) {
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual([{ message: expect.any(String), extensions: { code: 'invalid_request' } }]);
      expect(r.body.extensions).toEqual(cost(null));
    }
  });
});

describe('with introspection off', () => {
  let closed: TestApp;
  beforeAll(async () => {
    closed = await createTestApp({ config: { graphqlIntrospection: false } });
  });
  afterAll(async () => closed?.close());

  it('validation errors suggest no field names', async () => {
    const r = await closed.gql('{ companiez { id } }');
    expect(r.body.errors[0].extensions.code).toBe('invalid_request');
    expect(r.body.errors[0].message).not.toMatch(/Did you mean/);
    const open = await t.gql('{ companiez { id } }');
    expect(open.body.errors[0].message).toMatch(/Did you mean/);
  });
});
