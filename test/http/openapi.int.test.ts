import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import ts from 'typescript';
import { createTestApp, type TestApp } from '../helpers/app';

/** The OpenAPI document as integrators' tools read it: Redocly's recommended rules, swagger-parser, openapi-typescript. */
let t: TestApp;
let doc: any;
let tools: { redocly: string[]; swaggerParser: string; typescript: string };
beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.call('GET', '/v1/openapi.json', { key: null })).body;
  const file = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
  writeFileSync(file, JSON.stringify(doc));
  // The generated TypeScript alone is past the default 1 MiB of output.
  tools = JSON.parse(
    execFileSync(process.execPath, [join(__dirname, '..', 'helpers', 'check-openapi.mjs'), file], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    }),
  );
});
afterAll(async () => t?.close());

describe('the OpenAPI document', () => {
  it('passes Redocly lint (recommended) with no errors, and no warnings but the one the contract paths cause', () => {
    // `payments/providers/{provider}` and `payments/{transaction_id}/refunds` are both contract paths (and the receipt beside them)
    const known = /^warn no-ambiguous-paths: .*payments\/providers\/\{provider\}.*payments\/\{transaction_id\}\/(refunds|receipt)/;
    expect(tools.redocly.filter((p) => !known.test(p))).toEqual([]);
  });

  it('is valid for swagger-parser', () => {
    expect(tools.swaggerParser).toBe('valid');
  });

  it('generates TypeScript with openapi-typescript in which always-sent fields are required', () => {
    expect(tools.typescript).not.toMatch(/^error/);
    const dir = mkdtempSync(join(tmpdir(), 'openapi-ts-'));
    writeFileSync(join(dir, 'api.ts'), tools.typescript);
    // compiles only if the generated booking type has these fields as required (strict: `string | undefined` is no `string`)
    writeFileSync(
      join(dir, 'use.ts'),
      `import type { paths } from './api';
type Booking = paths['/v1/companies/{cid}/bookings/{booking_id}']['get']['responses'][200]['content']['application/json'];
declare const b: Booking;
export const id: string = b.id;
export const status: string = b.status;
export const start: string = b.startTime;
type Times = paths['/v1/companies/{cid}/services/{service_id}/times']['post']['responses'][200]['content']['application/json'];
declare const t: Times;
export const zone: string = t.timeZone;
`,
    );
    const program = ts.createProgram([join(dir, 'use.ts')], { strict: true, noEmit: true, skipLibCheck: true });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });

  it('every operation has an operationId, its security and the error answers', () => {
    const seen = new Set<string>();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const where = `${method.toUpperCase()} ${path}`;
        expect({ where, operationId: typeof op.operationId }).toEqual({ where, operationId: 'string' });
        expect(seen.has(op.operationId)).toBe(false);
        seen.add(op.operationId);
        expect({ where, security: Array.isArray(op.security) }).toEqual({ where, security: true });
        expect({ where, has429: '429' in op.responses }).toEqual({ where, has429: true });
        expect(op.responses['429'].headers?.['Retry-After']).toBeDefined();
      }
    }
    expect(seen.size).toBeGreaterThan(60);
  });

  it('names path parameters as the contract does', () => {
    const names = new Set(Object.keys(doc.paths).flatMap((p) => [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])));
    expect([...names].filter((n) => !/^(cid|[a-z]+(_[a-z]+)*_id|provider|code|entity_type|event|language)$/.test(n))).toEqual([]);
  });

  it('documents the Idempotency-Key header where bookings are created', () => {
    const op = doc.paths['/v1/companies/{cid}/bookings'].post;
    expect(op.parameters.some((p: any) => p.in === 'header' && p.name === 'Idempotency-Key')).toBe(true);
  });
});
