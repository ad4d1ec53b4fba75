import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import ts from 'typescript';
import createClient from 'openapi-fetch';
import { getNamedType, isEnumType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import { buildGraphqlSchema } from '../../src/app/graphql';
import { graphqlTwin } from '../../src/app/openapi';
import { createTestApp, type TestApp } from '../helpers/app';

/** The OpenAPI document as integrators' tools read it: Redocly's recommended rules, swagger-parser, openapi-typescript. */
let t: TestApp;
let doc: any;
let graphql: GraphQLSchema;
let tools: { redocly: string[]; swaggerParser: string; typescript: string };
let generated: string;
beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.call('GET', '/v1/openapi.json', { key: null })).body;
  graphql = buildGraphqlSchema();
  const file = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
  writeFileSync(file, JSON.stringify(doc));
  // The generated TypeScript alone is past the default 1 MiB of output.
  tools = JSON.parse(
    execFileSync(process.execPath, [join(__dirname, '..', 'helpers', 'check-openapi.mjs'), file], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    }),
  );
  generated = mkdtempSync(join(tmpdir(), 'openapi-ts-'));
  writeFileSync(join(generated, 'api.ts'), tools.typescript);
});
afterAll(async () => t?.close());

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const operations = (): { where: string; op: any }[] =>
  Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    Object.entries<any>(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
  );

/** A component schema by its `$ref`. */
const resolve = (schema: any): any => {
  if (typeof schema?.$ref !== 'string') return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const found = doc.components?.schemas?.[name];
  if (!found) throw new Error(`unresolved ${schema.$ref}`);
  return found;
};

/** Every schema of the document with a path naming it: components, request bodies, responses, parameters. */
function everySchema(visit: (schema: any, where: string) => void): void {
  const walk = (s: any, where: string): void => {
    if (!s || typeof s !== 'object') return;
    visit(s, where);
    for (const [k, v] of Object.entries<any>(s.properties ?? {})) walk(v, `${where}.${k}`);
    if (s.items) walk(s.items, `${where}[]`);
    if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${where}{}`);
    for (const key of ['anyOf', 'oneOf', 'allOf']) ((s[key] as unknown[]) ?? []).forEach((v, i) => walk(v, `${where}/${key}/${i}`));
  };
  for (const [name, s] of Object.entries<any>(doc.components?.schemas ?? {})) walk(s, name);
  for (const { where, op } of operations()) {
    for (const [type, c] of Object.entries<any>(op.requestBody?.content ?? {})) walk(c.schema, `${where} body ${type}`);
    for (const [status, r] of Object.entries<any>(op.responses ?? {}))
      for (const [type, c] of Object.entries<any>(r.content ?? {})) walk(c.schema, `${where} ${status} ${type}`);
  }
}

/** The values a schema allows when it is a closed set (of strings, or an array of them), null aside. */
function enumOf(schema: any): unknown[] | undefined {
  const s = resolve(schema);
  if (!s) return undefined;
  if (Array.isArray(s.enum)) return s.enum.filter((v: unknown) => v !== null);
  if (s.items) return enumOf(s.items);
  const alternatives = (s.anyOf ?? s.oneOf ?? []).filter((a: any) => a.type !== 'null');
  if (alternatives.length === 1) return enumOf(alternatives[0]);
  return undefined;
}

describe('the OpenAPI document', () => {
  it('passes Redocly lint (recommended) with no error and no warning', () => {
    expect(tools.redocly).toEqual([]);
  });

  it('is valid for swagger-parser', () => {
    expect(tools.swaggerParser).toBe('valid');
  });

  it('generates TypeScript with openapi-typescript in which always-sent fields are required', () => {
    expect(tools.typescript).not.toMatch(/^error/);
    // compiles only if the generated booking type has these fields as required (strict: `string | undefined` is no `string`)
    writeFileSync(
      join(generated, 'use.ts'),
      `import type { components, paths } from './api';
type Booking = paths['/v1/companies/{cid}/bookings/{booking_id}']['get']['responses'][200]['content']['application/json'];
declare const b: Booking;
export const id: string = b.id;
export const status: string = b.status;
export const start: string = b.startTime;
type Times = paths['/v1/companies/{cid}/services/{service_id}/times']['post']['responses'][200]['content']['application/json'];
declare const t: Times;
export const zone: string = t.timeZone;
// the named record is the type of the answer, and its closed sets are unions
declare const named: components['schemas']['Booking'];
export const same: Booking = named;
export const statuses: 'pending' | 'confirmed' | 'cancelled' | 'rejected' | 'failed' | 'finished' | 'no_show' = named.status;
declare const input: components['schemas']['CreateBookingInput'];
export const serviceID: string = input.serviceID;
`,
    );
    expect(compile(join(generated, 'use.ts'))).toEqual([]);
  });

  it('names every record and input in components.schemas, as GraphQL names them, and the operations refer to them', () => {
    const schemas = doc.components?.schemas ?? {};
    const records = [
      'Company',
      'ApiKey',
      'Client',
      'Service',
      'ServiceSettings',
      'Resource',
      'Ticket',
      'ServiceResourceLink',
      'WorkingHoursRule',
      'ClosingPeriod',
      'CapacityRule',
      'Slot',
      'PriceRule',
      'Discount',
      'AvailableTimes',
      'AvailableDates',
      'Booking',
      'ClientBooking',
      'BookingPage',
      'BookingStatusChange',
      'BlockedTime',
      'TokenPair',
      'PaymentTransaction',
      'Refund',
      'PaymentSettings',
      'PaymentProviderSettings',
      'PdfTemplate',
      'PromoCode',
      'PromoUsage',
      'GiftCard',
      'GiftCardContract',
      'GiftCardUsage',
      'Subscription',
      'SubscriptionContract',
      'WebhookEndpoint',
      'WebhookDelivery',
      'AuditEntry',
      'CalendarFeed',
      'NotificationSettings',
      'NotificationTemplate',
      'NotificationMessage',
    ];
    const inputs = [
      'CreateCompanyInput',
      'CreateApiKeyInput',
      'CreateClientInput',
      'UpdateClientInput',
      'CreateServiceInput',
      'UpdateServiceInput',
      'CreateResourceInput',
      'CreateBookingInput',
      'UpdateBookingInput',
      'MoveBookingInput',
      'RequestBookingInput',
      'RequestBookingsInput',
      'CreatePromoCodeInput',
      'CreateGiftCardInput',
      'CreateSubscriptionInput',
      'CreateWebhookEndpointInput',
      'CreateRefundInput',
    ];
    expect([...records, ...inputs].filter((n) => !schemas[n])).toEqual([]);
    // Every name is a GraphQL type's, but for the few shapes only REST has; a REST offset page
    // (`BookingPage`) is the offset form of the GraphQL connection of the same records.
    const restOnly = new Set(['Error']);
    expect(Object.keys(schemas).filter((n) => !graphqlTwin(graphql, n) && !restOnly.has(n))).toEqual([]);
    expect(schemas.BookingPage.properties.total.description).toBe('Number of records matching, over all pages.');
    const media = (op: any, status: string) => op.responses[status].content['application/json'].schema;
    expect(media(doc.paths['/v1/companies/{cid}/bookings/{booking_id}'].get, '200')).toEqual(
      expect.objectContaining({ $ref: '#/components/schemas/Booking' }),
    );
    expect(doc.paths['/v1/companies/{cid}/bookings'].post.requestBody.content['application/json'].schema).toEqual(
      expect.objectContaining({ $ref: '#/components/schemas/CreateBookingInput' }),
    );
    expect(resolve(schemas.BookingPage.properties.bookings.items)).toBe(schemas.Booking);
  });

  it('describes every property and every parameter', () => {
    const bare: string[] = [];
    everySchema((s, where) => {
      for (const [k, v] of Object.entries<any>(s.properties ?? {})) if (!v.description) bare.push(`${where}.${k}`);
    });
    for (const { where, op } of operations())
      for (const p of op.parameters ?? []) if (!p.description) bare.push(`${where} ${p.in} parameter ${p.name}`);
    expect(bare).toEqual([]);
  });

  it('gives the GraphQL description of a field to the property of the same record', () => {
    const booking = doc.components.schemas.Booking;
    const fields = (graphql.getType('Booking') as any).getFields();
    expect(booking.properties.status.description).toBe(fields.status.description);
    expect(booking.properties.startTime.description).toBe(fields.startTime.description);
    expect(booking.description).toBe(graphql.getType('Booking')!.description);
  });

  it('lists the values of every closed set, as GraphQL does, in requests and answers', () => {
    const schemas = doc.components.schemas;
    // every field GraphQL types as an enum is an enum of the same values in the record of the same name; an
    // input may take fewer (a contract is created active or pending_payment, never expired)
    const differ: string[] = [];
    for (const [name, schema] of Object.entries<any>(schemas)) {
      const type = graphql.getType(name);
      if (!type || !(isObjectType(type) || isInputObjectType(type) || isInterfaceType(type))) continue;
      for (const [field, def] of Object.entries(type.getFields())) {
        const named = getNamedType(def.type);
        if (!isEnumType(named) || !schema.properties?.[field]) continue;
        const values = named.getValues().map((v) => v.value);
        const listed = enumOf(schema.properties[field]) ?? [];
        const fits = isInputObjectType(type)
          ? listed.length > 0 && listed.every((v) => values.includes(v))
          : JSON.stringify([...listed].sort()) === JSON.stringify([...values].sort());
        if (!fits) differ.push(`${name}.${field}: ${JSON.stringify(listed)} is not ${named.name} ${JSON.stringify(values)}`);
      }
    }
    expect(differ).toEqual([]);
    // the statuses, types, permissions and events of the contract
    const closed = [
      'Booking.status',
      'ClientBooking.status',
      'Booking.type',
      'BookingStatusChange.newStatus',
      'UpdateBookingInput.status',
      'Service.type',
      'CreateServiceInput.type',
      'PaymentTransaction.status',
      'PaymentTransaction.providerType',
      'Refund.status',
      'GiftCardContract.status',
      'GiftCardUsage.status',
      'SubscriptionContract.status',
      'PromoUsage.status',
      'WebhookDelivery.status',
      'WebhookEndpoint.eventTypes',
      'CreateWebhookEndpointInput.eventTypes',
      'ApiKey.state',
      'CreateApiKeyInput.permissions',
      'NotificationMessage.status',
      'NotificationMessage.event',
      'PdfTemplate.entityType',
    ];
    const open = closed.filter((path) => {
      const [name, field] = path.split('.');
      const property = schemas[name]?.properties?.[field];
      if (!property) return true;
      const s = resolve(property);
      // a map of lists (permissions by company) is closed when its lists are
      return !(enumOf(s) ?? enumOf(s.additionalProperties))?.length;
    });
    expect(open).toEqual([]);
  });

  it('every operation has a short camelCase operationId of its own, one tag of its context, its security and the error answers', () => {
    const seen = new Set<string>();
    const tags = new Map<string, string>((doc.tags ?? []).map((tag: any) => [tag.name, tag.description]));
    const wrong: string[] = [];
    for (const { where, op } of operations()) {
      if (!/^[a-z][a-zA-Z0-9]*$/.test(op.operationId ?? '') || op.operationId.length > 40)
        wrong.push(`${where}: operationId ${op.operationId}`);
      if (seen.has(op.operationId)) wrong.push(`${where}: operationId ${op.operationId} twice`);
      seen.add(op.operationId);
      if (op.tags?.length !== 1 || !tags.get(op.tags[0])) wrong.push(`${where}: tags ${JSON.stringify(op.tags)}`);
      if (!Array.isArray(op.security)) wrong.push(`${where}: no security`);
      if (!op.responses['429']?.headers?.['Retry-After']) wrong.push(`${where}: no 429 with Retry-After`);
    }
    expect(wrong).toEqual([]);
    expect(seen.size).toBeGreaterThan(60);
    expect([...tags.keys()]).toEqual(expect.arrayContaining(['booking', 'catalog', 'payment', 'subscription', 'giftcard']));
    expect(doc.paths['/v1/companies/{cid}/bookings'].post.operationId).toBe('createBooking');
    expect(doc.paths['/v1/companies/{cid}/bookings'].get.operationId).toBe('listBookings');
    expect(doc.paths['/v1/companies/{cid}/bookings/{booking_id}'].get.operationId).toBe('getBooking');
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

describe('a client generated from the document', () => {
  it('type-checks against the generated types and calls the server', async () => {
    writeFileSync(
      join(generated, 'client.ts'),
      `import createClient from 'openapi-fetch';
import type { components, paths } from './api';
const client = createClient<paths>({ baseUrl: 'http://localhost' });
export async function make(name: string): Promise<components['schemas']['Company'] | undefined> {
  const created = await client.POST('/v1/companies', { body: { name, timeZone: 'Europe/Riga' } });
  if (!created.data) return undefined;
  const read = await client.GET('/v1/companies/{cid}', { params: { path: { cid: created.data.id } } });
  return read.data;
}
`,
    );
    expect(compile(join(generated, 'client.ts'))).toEqual([]);

    // the same calls, made at run time against the server
    const baseUrl = await t.listen();
    const client = createClient<any>({ baseUrl, headers: { 'X-API-Key': t.adminKey } });
    const created = await client.POST('/v1/companies', { body: { name: 'Generated', timeZone: 'Europe/Riga' } });
    expect(created.response.status).toBe(201);
    const read = await client.GET('/v1/companies/{cid}', { params: { path: { cid: created.data.id } } });
    expect(read.response.status).toBe(200);
    expect(read.data).toEqual(created.data);
    // and the answer is the one the REST tests see
    expect((await t.call('GET', `/v1/companies/${created.data.id}`)).text).toBe(JSON.stringify(read.data));
  });
});

/** TypeScript's complaints about a file (strict), with openapi-fetch resolved from this project. */
function compile(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    target: ts.ScriptTarget.ES2022,
    baseUrl: join(__dirname, '..', '..'),
    paths: { 'openapi-fetch': ['node_modules/openapi-fetch'] },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}
