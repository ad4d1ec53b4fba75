import 'reflect-metadata';
import { buildSchema } from 'graphql';
import { S } from '../kernel/rest';
import { describeRouteSchema, finishDocument } from './openapi';

const graphql = buildSchema(`
  """A thing booked."""
  type Booking {
    """Where it stands."""
    status: String!
    """When it starts."""
    startTime: String!
  }
  type Query { booking: Booking }
`);

const booking = S.named(
  'Booking',
  S.out({ status: S.oneOf(['pending', 'confirmed']), startTime: { ...S.str, description: 'Its own text.' } }),
);
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const documentOf = (paths: Record<string, unknown>) => ({ openapi: '3.1.0', paths, components: {} });

describe('describeRouteSchema', () => {
  it('gives the properties of a named schema the descriptions of the GraphQL fields, keeping its own', () => {
    const out = describeRouteSchema({ response: { 200: booking } }, graphql) as any;
    expect(out.response[200].properties.status.description).toBe('Where it stands.');
    expect(out.response[200].properties.startTime.description).toBe('Its own text.');
    // the route's schema itself is left as it was
    expect((booking.properties as any).status.description).toBeUndefined();
  });

  it('lists the values a service checks as an enum, and describes shared parameters', () => {
    const out = describeRouteSchema(
      { params: S.params('cid'), querystring: S.object({ limit: S.str, kind: S.choice(['a', 'b'], true) }) },
      graphql,
    ) as any;
    expect(out.querystring.properties.kind).toEqual({ type: ['string', 'null'], enum: ['a', 'b', null] });
    expect(out.querystring.properties.limit.description).toMatch(/Page size/);
    expect(out.params.properties.cid.description).toBe('The company addressed.');
  });
});

describe('finishDocument', () => {
  it('lists a named schema once in components, with its GraphQL description, and refers to it', () => {
    const paths = {
      '/a': { get: { operationId: 'a', responses: { 200: { description: 'Default Response', ...json(booking) } } } },
      '/b': { get: { operationId: 'b', responses: { 200: { description: 'Default Response', ...json(S.array(booking)) } } } },
    };
    const doc = finishDocument(documentOf(paths), graphql) as any;
    expect(doc.components.schemas.Booking).toEqual({ ...booking, title: undefined, description: 'A thing booked.' });
    expect(doc.paths['/a'].get.responses[200]).toEqual({
      description: 'A thing booked.',
      ...json({ $ref: '#/components/schemas/Booking' }),
    });
    expect(doc.paths['/b'].get.responses[200].content['application/json'].schema.items).toEqual({ $ref: '#/components/schemas/Booking' });
  });

  it('refers to a nullable named schema as it or null, with the description of the place beside it', () => {
    const tax = S.nullable(S.named('Tax', S.out({ rate: S.num })));
    const paths = { '/a': { get: { operationId: 'a', responses: { 200: json(S.out({ tax: { ...tax, description: 'The tax.' } })) } } } };
    const doc = finishDocument(documentOf(paths), graphql) as any;
    expect(doc.paths['/a'].get.responses[200].content['application/json'].schema.properties.tax).toEqual({
      anyOf: [{ $ref: '#/components/schemas/Tax' }, { type: 'null' }],
      description: 'The tax.',
    });
    expect(doc.components.schemas.Tax.type).toBe('object');
  });

  it('refuses two different schemas under one name', () => {
    const other = S.named('Booking', S.out({ status: S.str }));
    const paths = {
      '/a': { get: { operationId: 'a', responses: { 200: json(booking) } } },
      '/b': { get: { operationId: 'b', responses: { 200: json(other) } } },
    };
    expect(() => finishDocument(documentOf(paths), graphql)).toThrow(/two different schemas are named Booking/);
  });

  it('lists a path that one URL could share with another once per value of its closed parameter', () => {
    const provider = { in: 'path', name: 'provider', required: true, schema: { type: 'string', enum: ['stripe', 'test'] } };
    const cid = { in: 'path', name: 'cid', required: true, schema: { type: 'string' } };
    const paths = {
      '/c/{cid}/payments/providers/{provider}': {
        get: { operationId: 'getProviderSettings', summary: 'Get provider settings', parameters: [cid, provider], responses: {} },
      },
      '/c/{cid}/payments/{transaction_id}/refunds': { post: { operationId: 'createRefund', parameters: [cid], responses: {} } },
    };
    const doc = finishDocument(documentOf(paths), graphql) as any;
    expect(Object.keys(doc.paths)).toEqual([
      '/c/{cid}/payments/providers/stripe',
      '/c/{cid}/payments/providers/test',
      '/c/{cid}/payments/{transaction_id}/refunds',
    ]);
    expect(doc.paths['/c/{cid}/payments/providers/stripe'].get).toMatchObject({
      operationId: 'getProviderSettingsStripe',
      summary: 'Get provider settings (stripe)',
      parameters: [cid],
    });
  });
});
