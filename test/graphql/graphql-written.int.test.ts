import {
  getNamedType,
  getNullableType,
  isLeafType,
  isListType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { createTestApp, TestClock, type Res, type TestApp } from '../helpers/app';
import { buildGraphqlSchema } from '../../src/app/graphql';
import { OperationWriter } from '../../src/app/graphql-written';
import { prng } from '../../src/modules/availability/engine/testkit';
import { withErrorsSorted } from '../helpers/graphql-answers';

/**
 * The catalog's queries are executed by the server's writer (app/graphql-written.ts) instead of
 * graphql-js. The answer must be the one graphql-js gives: each operation is sent with the
 * writer on and off (GRAPHQL_DIRECT_ANSWERS, read per request) and both responses must be the
 * same bytes, on random selections (aliases, fragments, directives, repeated fields, nested
 * pages with arguments) and on the errors of each query.
 */
let t: TestApp;
const clock = new TestClock(Date.parse('2026-11-23T08:00:00Z'));
let cid: string;
let otherCid: string;
const ids: { services: string[]; resources: string[] } = { services: [], resources: [] };

async function ok(method: string, url: string, body?: unknown) {
  clock.advance(1250);
  const r = await t.call(method, url, { body });
  if (r.status >= 300) throw new Error(`${method} ${url} failed: ${r.status} ${r.text}`);
  return r.body;
}

beforeAll(async () => {
  t = await createTestApp({ clock });
  cid = (await t.company('Written', 'Europe/Riga')).id;
  otherCid = (await t.company('Other', 'America/New_York')).id;
  const base = `/v1/companies/${cid}`;
  for (let i = 0; i < 5; i++) {
    const r = await ok('POST', `${base}/resources`, {
      name: `Room ${i} "quoted" \u00e9`,
      color: '#12ab5' + i,
      metaData: { floor: i, tags: ['a', i] },
    });
    ids.resources.push(r.id);
  }
  await ok('PATCH', `${base}/resources/${ids.resources[4]}`, { enabled: false });
  const kinds: [string, Record<string, unknown>][] = [
    ['fixed', { duration: 'PT1H', timeInterval: 'PT15M', bufferAfter: 'PT10M', currency: 'EUR', tax: { inclusive: true, rate: 21 } }],
    ['ticket', { duration: 'PT2H', bookingPolicy: 'manual' }],
    ['group', { duration: 'PT45M', availabilityPeriod: 'P30D' }],
    ['flexible', { duration: 'PT30M', bufferBefore: 'PT5M' }],
    ['days', { duration: 'P1D', checkInTime: '14:00', checkOutTime: '11:00' }],
    ['ticket', { duration: 'PT1H' }],
  ];
  for (const [i, [type, settings]] of kinds.entries()) {
    const s = await ok('POST', `${base}/services`, { name: `S${i} ${type}`, type, settings, ...(i % 2 ? { metaData: { n: i } } : {}) });
    ids.services.push(s.id);
    for (let k = 0; k < (i % 3) + 1; k++) await ok('POST', `${base}/services/${s.id}/links`, { resourceID: ids.resources[(i + k) % 5] });
    if (type === 'ticket') {
      await ok('POST', `${base}/services/${s.id}/tickets`, { name: 'Adult' });
      const child = await ok('POST', `${base}/services/${s.id}/tickets`, { name: 'Child' });
      await ok('PATCH', `${base}/services/${s.id}/tickets/${child.id}`, { enabled: i !== 5 });
    }
  }
  await ok('PATCH', `${base}/services/${ids.services[3]}`, { enabled: false });
}, 120_000);
afterAll(async () => t?.close());
afterEach(() => {
  t.deps.config.graphqlDirectAnswers = true;
  jest.restoreAllMocks();
});

/** The operation sent with the writer on and off: the same status, headers and bytes. Returns the answer and whether it was written. */
async function both(query: string, variables: Record<string, unknown>, auth: { key?: string; token?: string } = {}) {
  const written = jest.spyOn(OperationWriter.prototype, 'rootField');
  const send = (): Promise<Res> => t.call('POST', '/graphql', { body: { query, variables }, ...auth });
  t.deps.config.graphqlDirectAnswers = true;
  const a = await send();
  const wrote = written.mock.calls.length > 0;
  t.deps.config.graphqlDirectAnswers = false;
  const b = await send();
  t.deps.config.graphqlDirectAnswers = true;
  written.mockRestore();
  // the same bytes, but for the order of concurrent errors
  expect(a.text.length).toBe(b.text.length);
  expect({ query, variables, status: a.status, text: withErrorsSorted(a.text) }).toEqual({
    query,
    variables,
    status: b.status,
    text: withErrorsSorted(b.text),
  });
  expect(a.headers['content-type']).toBe(b.headers['content-type']);
  return { res: a, wrote };
}

/** Random selections of a schema's object types, with aliases, fragments, directives and page arguments. */
class Selections {
  readonly fragments: string[] = [];
  readonly variables: Record<string, unknown> = { yes: true, no: false, lim: 2, off: 1 };
  private n = 0;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly rnd: () => number,
  ) {}

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rnd() * list.length)];
  }

  private args(field: GraphQLField<unknown, unknown>): string {
    const names = field.args.map((a) => a.name);
    if (!names.includes('first') || this.rnd() < 0.4) return '';
    // cursor paging mostly, the deprecated offsets sometimes
    const all =
      this.rnd() < 0.3
        ? [this.pick(['limit: 1', 'limit: $lim', 'limit: 100', '']), this.pick(['offset: 1', 'offset: $off', '', ''])]
        : [this.pick(['first: 1', 'first: $lim', 'last: 2', 'first: 100', ''])];
    return all.some(Boolean) ? `(${all.filter(Boolean).join(', ')})` : '';
  }

  /** A selection set of `type` (depth: object levels still allowed below). */
  set(type: GraphQLObjectType, depth: number): string {
    const fields = Object.values(type.getFields()).filter((f) => {
      const named = getNamedType(f.type);
      return isLeafType(named) || (isObjectType(named) && depth > 0);
    });
    // relations more often than leaves, so that most operations go a few lists deep
    const chosen = fields.filter((f) => this.rnd() < (isLeafType(getNamedType(f.type)) ? 0.4 : 0.8));
    if (!chosen.length) chosen.push(this.pick(fields.filter((f) => isLeafType(getNamedType(f.type)))));
    const parts: string[] = [];
    if (this.rnd() < 0.3) parts.push(this.rnd() < 0.5 ? '__typename' : `tn${this.n++}: __typename`);
    for (const f of chosen) {
      const named = getNamedType(f.type);
      const lists = isListType(getNullableType(f.type)) ? 1 : 0;
      const sub = isObjectType(named) ? ` { ${this.set(named, depth - 1 - lists)} }` : '';
      const args = isObjectType(named) ? this.args(f) : '';
      const alias = this.rnd() < 0.2 ? `a${this.n++}: ` : '';
      const r = this.rnd();
      const directive = r < 0.1 ? ' @include(if: $yes)' : r < 0.15 ? ' @skip(if: $yes)' : r < 0.2 ? ' @include(if: $no)' : '';
      let text = `${alias}${f.name}${args}${directive}${sub}`;
      if (this.rnd() < 0.15) text = `... on ${type.name} { ${text} }`;
      else if (this.rnd() < 0.1) {
        const name = `F${this.n++}`;
        this.fragments.push(`fragment ${name} on ${type.name} { ${text} }`);
        text = `...${name}`;
      }
      parts.push(text);
      // a field asked twice merges into one key
      if (!alias && !args && this.rnd() < 0.1) parts.push(`${f.name}${sub}`);
    }
    return parts.join(' ');
  }

  document(root: string, rootArgs: string, depth: number): string {
    const field = this.schema.getQueryType()!.getFields()[root];
    const type = getNamedType(field.type) as GraphQLObjectType;
    const body = this.set(type, depth);
    const alias = this.rnd() < 0.3 ? 'r: ' : '';
    const extra = this.rnd() < 0.2 ? ' __typename' : '';
    const text = `{ ${alias}${root}(${rootArgs}) { ${body} }${extra} }\n${this.fragments.join('\n')}`;
    // only the variables used (an unused one is a validation error)
    const defs = ['$c: ID!', '$id: ID!', '$yes: Boolean!', '$no: Boolean!', '$lim: Int', '$off: Int'].filter((d) =>
      new RegExp(`\\${d.slice(0, d.indexOf(':'))}\\b`).test(text),
    );
    return `query(${defs.join(', ')}) ${text}`;
  }
}

const ROOTS: [string, string, 'services' | 'resources' | null][] = [
  ['services', 'companyID: $c', null],
  ['resources', 'companyID: $c', null],
  ['service', 'companyID: $c, id: $id', 'services'],
  ['resource', 'companyID: $c, id: $id', 'resources'],
  ['clientServices', 'companyID: $c', null],
  ['clientResources', 'companyID: $c', null],
  ['clientService', 'companyID: $c, id: $id', 'services'],
  ['clientResource', 'companyID: $c, id: $id', 'resources'],
];

describe('random selections', () => {
  it('answers 160 random operations with the bytes graphql-js gives', async () => {
    const schema = buildGraphqlSchema();
    const rnd = prng(20261126).next;
    let written = 0;
    let answered = 0;
    let bytes = 0;
    for (let i = 0; i < 160; i++) {
      const [root, args, idsOf] = ROOTS[i % ROOTS.length];
      const s = new Selections(schema, rnd);
      const query = s.document(root, args, 2 + (i % 4));
      const id = idsOf ? ids[idsOf][Math.floor(rnd() * ids[idsOf].length)] : ids.services[0];
      const { res, wrote } = await both(query, { ...s.variables, c: cid, id });
      if (wrote) written++;
      if (res.body.data && !res.body.errors) answered++;
      bytes += res.text.length;
    }
    // most answers have data (a disabled record is a client form's not_found), and are written
    expect(answered).toBeGreaterThan(140);
    expect(written).toBeGreaterThan(140);
    expect(bytes / 160).toBeGreaterThan(400);
  }, 120_000);
});

describe('errors and refusals', () => {
  const ALL = `query($c: ID!) { services(companyID: $c) { totalCount nodes { id name resources { totalCount edges { cursor node { id } } } tickets { nodes { name } } } } }`;

  it('gives the same answer for every error', async () => {
    await both(ALL, { c: otherCid }); // the admin key's own company, empty
    await both(`query($c: ID!) { services(companyID: $c, limit: 0) { total } }`, { c: cid });
    await both(`query($c: ID!) { services(companyID: $c, first: 0) { totalCount } }`, { c: cid });
    await both(`query($c: ID!) { services(companyID: $c, after: "bm90IGEgY3Vyc29y") { totalCount } }`, { c: cid });
    await both(`query($c: ID!, $id: ID!) { service(companyID: $c, id: $id) { id } }`, {
      c: cid,
      id: '00000000-0000-4000-8000-000000000000',
    });
    await both(`query($c: ID!, $id: ID!) { clientService(companyID: $c, id: $id) { id } }`, { c: cid, id: ids.services[3] });
    // two failing fields beside a list: their errors in whichever order they happen
    const two = await both(
      `query($c: ID!, $id: ID!) { a: service(companyID: $c, id: $id) { id } services(companyID: $c) { total } b: resource(companyID: $c, id: $id) { id } }`,
      { c: cid, id: '00000000-0000-4000-8000-000000000000' },
    );
    expect(two.res.body.errors).toHaveLength(2);
    expect(two.wrote).toBe(true);
    await both(`query($c: ID!) { services(companyID: $c) { services { resources(limit: 101) { total } } } }`, { c: cid });
    await both(`query($c: ID!) { services(companyID: $c) { nodes { resources(first: 1, last: 1) { totalCount } } } }`, { c: cid });
    await both(`query($c: ID!) { clientServices(companyID: $c) { total } }`, { c: cid }, { key: await t.newMerchant() });
    const servicesOnly = await t.keyWith({ [cid]: ['services.read'] });
    // the nested resources need resources.read: the page holds null there, with an error each
    const nested = await both(ALL, { c: cid }, { key: servicesOnly });
    expect(nested.res.body.errors?.[0]?.extensions?.code).toBe('forbidden');
    expect(nested.wrote).toBe(true);
    const noClient = await t.keyWith({ [cid]: ['services.read'] });
    const refused = await both(`query($c: ID!) { clientServices(companyID: $c) { total } }`, { c: cid }, { key: noClient });
    expect(refused.res.body.errors?.[0]?.extensions?.code).toBe('forbidden');
  });

  it('writes the client list for a client token as REST answers it', async () => {
    const loginKey = await t.keyWith({ '*': ['client.login'] });
    const login = await t.call('POST', '/v1/client/auth/login', {
      key: loginKey,
      body: { companyID: cid, email: 'guest@example.com', externalUserID: 'guest-1' },
    });
    const token = login.body.accessToken as string;
    const q = `query($c: ID!) { clientServices(companyID: $c) { services { id companyID name type color settings { availabilityPeriod bookingPolicy bufferBefore bufferAfter checkInTime checkOutTime currency duration timeInterval tax { inclusive rate } } timeZone resources { id companyID name color createdAt updatedAt } tickets { id name } createdAt updatedAt } } }`;
    const { res, wrote } = await both(q, { c: cid }, { token });
    expect(wrote).toBe(true);
    expect(res.body.extensions).toEqual({ cost: { requested: expect.any(Number), limit: 5000 } });
    const rest = await t.call('GET', `/v1/client/companies/${cid}/services`, { token });
    expect(res.body.data.clientServices.services).toEqual(rest.body);
  });

  it('leaves other operations to graphql-js', async () => {
    const mixed = await both(`query($c: ID!) { services(companyID: $c) { total } company(id: $c) { id } }`, { c: cid });
    expect(mixed.wrote).toBe(false);
    const proto = await both(`query($c: ID!) { services(companyID: $c) { __proto__: total } }`, { c: cid });
    expect(proto.wrote).toBe(false);
    const introspection = await both(`query($c: ID!) { services(companyID: $c) { total } __schema { queryType { name } } }`, { c: cid });
    expect(introspection.wrote).toBe(false);
  });

  it('keeps the statements of a list constant', async () => {
    const q = `query($c: ID!) { services(companyID: $c) { nodes { id links { nodes { id } } resources { nodes { id services { nodes { id } } } } tickets { nodes { id } } } } }`;
    await t.gql(q, { c: cid });
    const written = await t.countStatements(() => t.gql(q, { c: cid }));
    t.deps.config.graphqlDirectAnswers = false;
    const executed = await t.countStatements(() => t.gql(q, { c: cid }));
    expect(written).toBe(executed);
    expect(written).toBeLessThanOrEqual(6);
  });

  it('a failing root field beside a list costs no statement more than each field alone', async () => {
    const big = (await t.company('Fifty services')).id;
    for (let i = 0; i < 50; i++)
      await ok('POST', `/v1/companies/${big}/services`, { name: `Service ${i}`, type: 'fixed', settings: { duration: 'PT1H' } });
    const list = `services(companyID: $c, limit: 50) { services { id name resources { resources { id } } } }`;
    const unknown = `service(companyID: $c, id: "00000000-0000-4000-8000-000000000000") { id }`;
    const count = (q: string) => t.countStatements(() => t.gql(q, { c: big }));
    await count(`query($c: ID!) { ${list} }`);
    const alone = await count(`query($c: ID!) { ${list} }`);
    const missing = await count(`query($c: ID!) { ${unknown} }`);
    const r = await t.gql(`query($c: ID!) { ${list} ${unknown} }`, { c: big });
    expect(r.body.data.services.services).toHaveLength(50);
    expect(r.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['not_found']);
    const together = await count(`query($c: ID!) { ${list} ${unknown} }`);
    // the company is read once per request: together at most both apart
    expect(together).toBeLessThanOrEqual(alone + missing);
    t.deps.config.graphqlDirectAnswers = false;
    expect(together).toBe(await count(`query($c: ID!) { ${list} ${unknown} }`));
  });
});
