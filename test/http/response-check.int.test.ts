import type { FastifyInstance } from 'fastify';
import { defineRoutes, S } from '../../src/kernel/rest';
import { createTestApp, type TestApp } from '../helpers/app';
import { createResponseChecker, type CheckedResponse } from '../helpers/response-check';

/**
 * The response check of the test app (test/helpers/response-check.ts) can fail: it reports
 * payloads that drift from their declared schema, undeclared statuses and error bodies that
 * are not the contract's `{code, message, details?}`.
 */

const widget = S.out({ id: S.uuid, name: S.str, createdAt: S.ts, note: S.nstr }, ['note']);
const ID = '0b0c0d0e-0000-4000-8000-000000000001';

describe('the response checker', () => {
  const check = createResponseChecker();
  const res = (status: number, body: unknown, more: Partial<CheckedResponse> = {}): CheckedResponse => ({
    method: 'GET',
    route: '/v1/widgets/:id',
    responseSchemas: { 200: widget, 404: S.error },
    status,
    contentType: 'application/json; charset=utf-8',
    payload: body === undefined ? undefined : JSON.stringify(body),
    ...more,
  });

  it('accepts a body that matches the schema of its status', () => {
    expect(check(res(200, { id: ID, name: 'a', createdAt: '2026-03-01T10:00:00Z' }))).toBeNull();
    expect(check(res(200, { id: ID, name: 'a', createdAt: '2026-03-01T10:00:00.123Z', note: null }))).toBeNull();
    expect(check(res(404, { code: 'not_found', message: 'widget not found' }))).toBeNull();
  });

  it('reports a missing field, an undeclared field, a wrong type and the contract formats, naming route, status and body', () => {
    const problem = check(res(200, { id: ID.toUpperCase(), name: 7, createdAt: '2026-03-01T12:00:00+02:00', extra: true }));
    expect(problem).toContain('GET /v1/widgets/:id answered 200');
    expect(problem).toContain('/id must match format "uuid"');
    expect(problem).toContain('/name must be string');
    expect(problem).toContain('/createdAt must match format "date-time"');
    expect(problem).toContain("must NOT have additional properties 'extra'");
    expect(problem).toContain('body: {"id":"0B0C0D0E');
    expect(check(res(200, { id: ID, createdAt: '2026-03-01T10:00:00Z' }))).toContain("must have required property 'name'");
  });

  it('reports a status the route does not declare', () => {
    expect(check(res(201, { id: ID, name: 'a', createdAt: '2026-03-01T10:00:00Z' }))).toContain(
      'answered 201, a status its route does not declare (declared: 200, 404)',
    );
    expect(check(res(409, { code: 'conflict', message: 'no' }))).toContain('a status its route does not declare');
    // Statuses of the HTTP layer need no declaration, but their body is still the error body.
    expect(check(res(413, { code: 'payload_too_large', message: 'too large' }))).toBeNull();
    expect(check(res(500, { error: 'boom' }))).toContain("is not the contract's error body");
  });

  it('holds every error body to {code, message, details?}, an unknown route included', () => {
    expect(check(res(404, { code: 'not_found' }))).toContain("must have required property 'message'");
    expect(check(res(404, { code: 'not_found', message: 'x', details: [{ path: 'a' }] }))).toContain(
      "/details/0 must have required property 'message'",
    );
    expect(check(res(404, { code: 'not_found', message: 'x', stack: 'at ...' }))).toContain("must NOT have additional properties 'stack'");
    expect(check(res(404, 'not json', { payload: 'not json' }))).toContain('a body that is not JSON');
    const unmatched = { route: undefined, responseSchemas: undefined };
    expect(check(res(404, { code: 'not_found', message: 'no route' }, unmatched))).toBeNull();
    expect(check(res(404, { statusCode: 404, error: 'Not Found' }, unmatched))).toContain('(no route matched) answered 404');
  });

  it('checks a declared empty answer and leaves routes without response schemas alone', () => {
    const del = { method: 'DELETE', responseSchemas: { 204: { type: 'null' } } };
    expect(check(res(204, undefined, del))).toBeNull();
    expect(check(res(204, { deleted: true }, del))).toContain('must be null');
    expect(check(res(200, { anything: 1 }, { route: '/graphql', responseSchemas: undefined }))).toBeNull();
  });
});

/** A throwaway route whose payload drifts on demand. */
function widgetRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: '/v1/test-only/widgets/:id',
      auth: 'none',
      summary: 'Throwaway route',
      operationId: 'getTestWidget',
      params: S.params('id'),
      response: { 200: widget, 404: S.error },
      handler: async (_ctx, req) => {
        const id = (req.params as { id: string }).id;
        if (id === 'drift') return { id: ID, name: 'w', createdAt: '2026-03-01T10:00:00Z', colour: 'red' };
        if (id === 'missing') return { id: ID, createdAt: '2026-03-01T10:00:00Z' };
        return { id: ID, name: 'w', createdAt: '2026-03-01T10:00:00Z' };
      },
    },
  ]);
}

describe('the test app checks every REST response', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ routes: widgetRoutes });
  }, 60_000);
  afterAll(async () => t?.close(), 60_000);

  it('passes a response that matches its schema', async () => {
    expect((await t.call('GET', '/v1/test-only/widgets/ok', { key: null })).status).toBe(200);
  });

  it('fails the call when the payload drifts from the declared schema', async () => {
    await expect(t.call('GET', '/v1/test-only/widgets/drift', { key: null })).rejects.toThrow(
      /response schema drift: GET \/v1\/test-only\/widgets\/:id answered 200; the body does not match the schema declared for 200:[\s\S]*additional properties 'colour'[\s\S]*body: \{"id"/,
    );
    await expect(t.call('GET', '/v1/test-only/widgets/missing', { key: null })).rejects.toThrow(/must have required property 'name'/);
  });

  it('every object with named properties in a published response schema is closed, so an unnamed field is drift', async () => {
    const doc = (await t.call('GET', '/v1/openapi.json', { key: null })).body;
    const open: string[] = [];
    // named records are components, walked where they are referred to (once each)
    const seen = new Set<string>();
    const walk = (schema: unknown, where: string): void => {
      if (!schema || typeof schema !== 'object') return;
      const ref = (schema as { $ref?: string }).$ref;
      if (typeof ref === 'string') {
        if (seen.has(ref)) return;
        seen.add(ref);
        return walk(doc.components.schemas[ref.replace('#/components/schemas/', '')], `${where} ${ref}`);
      }
      const o = schema as Record<string, unknown>;
      if (o.properties && o.additionalProperties !== false) open.push(where);
      for (const [k, v] of Object.entries(o.properties ?? {})) walk(v, `${where}.${k}`);
      walk(o.items, `${where}[]`);
      if (typeof o.additionalProperties === 'object') walk(o.additionalProperties, `${where}{}`);
      for (const key of ['anyOf', 'oneOf', 'allOf']) ((o[key] as unknown[]) ?? []).forEach((v, i) => walk(v, `${where}/${key}/${i}`));
    };
    let schemas = 0;
    for (const [path, ops] of Object.entries(
      doc.paths as Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema: unknown }> }> }>>,
    )) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, r] of Object.entries(op.responses ?? {})) {
          for (const c of Object.values(r.content ?? {})) {
            schemas++;
            walk(c.schema, `${method.toUpperCase()} ${path} ${status}`);
          }
        }
      }
    }
    expect(schemas).toBeGreaterThan(300);
    expect(seen.size).toBeGreaterThan(40);
    expect(open).toEqual([]);
  });

  it('fails close() with the drift of responses sent over a real socket', async () => {
    const other = await createTestApp({ routes: widgetRoutes });
    const base = await other.listen();
    expect((await fetch(`${base}/v1/test-only/widgets/ok`)).status).toBe(200);
    expect((await fetch(`${base}/v1/test-only/widgets/drift`)).status).toBe(200);
    await expect(other.close()).rejects.toThrow(/response schema drift in 1 response\(s\) sent over a socket:\n.*answered 200/);
  }, 60_000);
});
