import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { printGraphqlSchema } from '../../src/app/graphql';
import { createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe("request validators (compiled at a route's first request)", () => {
  it("every route's schemas compile, and a route validates its input before and after", async () => {
    const before = await t.call('POST', '/v1/companies', { body: { name: 42 } });
    expect(before.status).toBe(400);
    expect(t.app.compileValidators()).toBeGreaterThan(100);
    expect(t.app.compileValidators()).toBe(0);
    const after = await t.call('POST', '/v1/companies', { body: { name: 42 } });
    expect(after.status).toBe(400);
    expect(after.body).toEqual(before.body);
  });

  it('a schema Ajv refuses is found by compiling them all, not left for its first request', async () => {
    const broken = await createTestApp({
      routes: (app) => app.post('/v1/broken-schema', { schema: { body: { type: 'nonsense' } } }, async () => ({})),
    });
    try {
      expect(() => broken.app.compileValidators()).toThrow(/schema is invalid/);
    } finally {
      await broken.close();
    }
  });
});

describe('schema and OpenAPI', () => {
  it('schema.graphql is up to date (run `npm run schema` after changing GraphQL types)', () => {
    const onDisk = readFileSync(join(__dirname, '..', '..', 'schema.graphql'), 'utf8');
    expect(onDisk).toBe(printGraphqlSchema());
  });

  it('the OpenAPI document lists every REST route', async () => {
    const doc = (await t.call('GET', '/v1/openapi.json', { key: null })).body;
    expect(doc.openapi).toBe('3.1.0');
    const listed = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) listed.add(`${method.toUpperCase()} ${path}`);
    }
    const registered = (t.app as unknown as { registeredRoutes: { method: string; url: string }[] }).registeredRoutes;
    // a path parameter with a closed set of values may be listed once per value (`providers/stripe`)
    const listedAs = (route: string) => new RegExp(`^${route.replace(/\{(\w+)\}/g, (_, name: string) => `(\\{${name}\\}|[a-z_]+)`)}$`);
    const missing = registered
      .filter((r) => r.url.startsWith('/v1/') && r.url !== '/v1/openapi.json')
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`)
      .filter((r) => !listed.has(r) && ![...listed].some((l) => listedAs(r).test(l)));
    expect(missing).toEqual([]);
    expect(listed.size).toBeGreaterThanOrEqual(6);
  });
});
