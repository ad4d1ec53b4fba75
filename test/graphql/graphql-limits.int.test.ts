import { performance } from 'node:perf_hooks';
import { getIntrospectionQuery } from 'graphql';
import { createTestApp, type TestApp } from '../helpers/app';
import { MAX_DOCUMENT_CHARS, MAX_TOKENS } from '../../src/app/graphql-limits';

/**
 * A GraphQL document is limited in size and tokens before it is validated: an oversized one,
 * sent without credentials, is refused in milliseconds with a GraphQL error, while the standard
 * introspection query still passes.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const GRAPHQL_RESPONSE = 'application/graphql-response+json';

async function timed(query: string, accept = GRAPHQL_RESPONSE) {
  const started = performance.now();
  const r = await t.call('POST', '/graphql', { key: null, body: { query }, headers: { accept } });
  return { r, ms: performance.now() - started };
}

/** Sends `query` a few times; the fastest answer (a busy machine adds its own pauses to one). */
async function fastest(query: string) {
  let best = await timed(query);
  for (let i = 0; i < 2; i++) {
    const next = await timed(query);
    if (next.ms < best.ms) best = next;
  }
  return best;
}

it('a 1 MB document of many tokens, without credentials, is refused in milliseconds', async () => {
  const query = `{ ${'__typename '.repeat(90_000)}}`; // 990,003 characters, 90,002 tokens
  expect(query.length).toBeGreaterThan(980_000);
  const { r, ms } = await fastest(query);
  expect(r.status).toBe(400);
  expect(r.body).toEqual({
    errors: [{ message: `the GraphQL document is longer than ${MAX_DOCUMENT_CHARS} characters`, extensions: { code: 'invalid_request' } }],
    extensions: { cost: { requested: null, limit: 5000 } },
  });
  // Measured: 5-10 ms here, body parsing included (1.1 s before documents were limited).
  expect(ms).toBeLessThan(250);
});

it('a document within the size limit but of more tokens than allowed is refused while it is parsed', async () => {
  const query = `{ ${'a '.repeat(45_000)}}`; // 90,003 characters
  expect(query.length).toBeLessThan(MAX_DOCUMENT_CHARS);
  const { r, ms } = await fastest(query);
  expect(r.status).toBe(400);
  expect(r.body.data).toBeUndefined();
  expect(r.body.errors).toHaveLength(1);
  expect(r.body.errors[0].extensions).toEqual({ code: 'invalid_request' });
  expect(r.body.errors[0].message).toMatch(new RegExp(`Document contains more (?:than|that) ${MAX_TOKENS} tokens`));
  expect(ms).toBeLessThan(250);
  // application/json (the default) answers 200 with the same errors, as for any document that does not parse.
  const plain = await timed(query, 'application/json');
  expect(plain.r.status).toBe(200);
  expect(plain.r.body.errors[0].extensions.code).toBe('invalid_request');
});

it('GET is limited the same way', async () => {
  const r = await t.call('GET', '/graphql', {
    key: null,
    query: { query: `{ ${'a '.repeat(MAX_TOKENS)}}` },
    headers: { accept: GRAPHQL_RESPONSE, 'apollo-require-preflight': 'true' },
  });
  expect(r.status).toBe(400);
  expect(r.body.errors[0].message).toMatch(/tokens/);
});

it('a document of the largest allowed number of tokens parses (and is then validated as usual)', async () => {
  const n = Math.floor((MAX_TOKENS - 3) / 3);
  const aliases = Array.from({ length: n }, (_, i) => `f${i}: __typename`).join(' ');
  const filler = ' __typename'.repeat(MAX_TOKENS - 2 - 3 * n); // braces, n aliases of 3 tokens, then exactly MAX_TOKENS
  const r = (await timed(`{ ${aliases}${filler} }`)).r;
  expect(r.status).toBe(200);
  expect(r.body.errors).toBeUndefined();
  expect(Object.keys(r.body.data)).toHaveLength(n + (MAX_TOKENS - 2 - 3 * n ? 1 : 0));
  expect(r.body.data.f0).toBe('Query');
  const over = (await timed(`{ ${aliases}${filler} __typename }`)).r;
  expect(over.body.errors[0].message).toMatch(/tokens/);
});

it('the standard introspection query, with every optional part, still passes without credentials', async () => {
  const query = getIntrospectionQuery({
    descriptions: true,
    specifiedByUrl: true,
    directiveIsRepeatable: true,
    inputValueDeprecation: true,
    schemaDescription: true,
  });
  const r = (await timed(query)).r;
  expect(r.status).toBe(200);
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data.__schema.queryType.name).toBe('Query');
});
