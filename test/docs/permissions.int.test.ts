import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { PERMISSIONS } from '../../src/kernel/permissions';
import { permissionsSection, PERMISSIONS_PAGE, readOperations, renderPermissionsPage } from '../../scripts/docs-permissions';
import type { Operation } from '../../scripts/permission-reading';
import { createTestApp, type TestApp } from '../helpers/app';

/**
 * docs/permissions.md says what the code checks: its generated part is what
 * `npm run docs:permissions` writes today, the reading behind it finds every route the server
 * serves and every root field of the schema, and the server itself refuses each operation the
 * page lists under a permission to a key that lacks it (403 naming it) and lets a key holding
 * only it past the check.
 */

const ROOT = join(__dirname, '..', '..');
const ops = readOperations(ROOT);
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

let t: TestApp;
let cid: string;
let schema: GraphQLSchema;
const keys = new Map<string, { without: string; only: string }>();

beforeAll(async () => {
  t = await createTestApp();
  cid = (await t.company('Permission checks')).id;
  schema = buildClientSchema((await t.gql<IntrospectionQuery>(getIntrospectionQuery())).body.data);
});
afterAll(async () => t?.close());

/** A key holding every permission of the company but `p`, and one holding only `p`. */
async function keysFor(p: string) {
  let k = keys.get(p);
  if (!k) {
    const global = p === 'companies.write' ? '*' : cid;
    k = {
      without: await t.keyWith({ [global]: PERMISSIONS.filter((x) => x !== p) }),
      only: await t.keyWith({ [global]: [p] }),
    };
    keys.set(p, k);
  }
  return k;
}

describe('docs/permissions.md', () => {
  it('is what npm run docs:permissions writes from the code today', () => {
    const page = readFileSync(join(ROOT, PERMISSIONS_PAGE), 'utf8');
    const fresh = renderPermissionsPage(page, permissionsSection(ops, PERMISSIONS));
    if (fresh !== page) throw new Error(`${PERMISSIONS_PAGE} differs from what the code checks: run npm run docs:permissions`);
  });

  it('covers every route the server serves and every root field of the schema', () => {
    // the routes as registered (the OpenAPI document spells some paths out per value of a parameter)
    const registered = (t.app as unknown as { registeredRoutes: { method: string; url: string }[] }).registeredRoutes;
    const served = registered
      .filter((r) => r.url.startsWith('/v1/') && r.url !== '/v1/openapi.json')
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    const read = ops.filter((o) => o.kind === 'rest').map((o) => o.name);
    expect([...new Set(read)].sort()).toEqual([...new Set(served)].sort());

    const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap((type) =>
      type ? Object.keys(type.getFields()).map((f) => `${type.name}.${f}`) : [],
    );
    const fields = ops.filter((o) => o.kind === 'graphql').map((o) => o.name);
    expect(fields.filter((f) => /^(Query|Mutation|SubscriptionRoot)\./.test(f)).sort()).toEqual(roots.sort());
    for (const f of fields) {
      const [type, field] = f.split('.');
      const named = schema.getType(type);
      expect({ f, exists: isObjectType(named) && field in named.getFields() }).toEqual({ f, exists: true });
    }
  });

  it('every permission the code checks can be granted, and the page names every one', () => {
    const checked = new Set(ops.flatMap((o) => [...o.perms.keys()]));
    for (const p of checked) expect(PERMISSIONS).toContain(p);
    const page = readFileSync(join(ROOT, PERMISSIONS_PAGE), 'utf8');
    for (const p of PERMISSIONS) expect(page).toContain(`### \`${p}\``);
  });
});

/** Operations the page lists under exactly one permission, checked against a key (not the client interface). */
const single = (kind: Operation['kind']) =>
  ops.filter((o) => o.kind === kind && o.perms.size === 1 && !o.computed && [...o.perms.values()][0] === 'key');

describe('the server agrees with the page', () => {
  it('each GET route listed under one permission refuses a key without it (403 naming it) and lets a key with only it past', async () => {
    // routes across companies (the company list filters by companies.read, a refund is looked up
    // in every company the key may read) answer what the key may see rather than refuse
    const routes = single('rest').filter((o) => o.name.startsWith('GET ') && o.auth === 'key' && o.name.includes('{cid}'));
    expect(routes.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    for (const o of routes) {
      const p = [...o.perms.keys()][0];
      const url = o.name
        .slice(4)
        .replace('{cid}', cid)
        .replace(/\{[a-z_]+\}/g, UNKNOWN_ID);
      const { without, only } = await keysFor(p);
      const refused = await t.call('GET', url, { key: without });
      // a request the route's schema refuses (a required query parameter) never reaches the check
      if (refused.status === 400) continue;
      if (refused.status !== 403 || !String(refused.body?.message).includes(p))
        wrong.push(`${o.name} without ${p}: ${refused.status} ${refused.text}`);
      const allowed = await t.call('GET', url, { key: only });
      if (allowed.status === 403) wrong.push(`${o.name} with only ${p}: 403 ${allowed.text}`);
    }
    expect(wrong).toEqual([]);
  });

  it('each root query listed under one permission does the same in GraphQL', async () => {
    const queries = single('graphql').filter((o) => o.name.startsWith('Query.'));
    const argValue = (name: string) => (name === 'companyID' ? cid : UNKNOWN_ID);
    const wrong: string[] = [];
    let tried = 0;
    for (const o of queries) {
      const field = schema.getQueryType()!.getFields()[o.name.slice(6)] as GraphQLField<unknown, unknown>;
      const required = field.args.filter((a) => isNonNullType(a.type));
      // only fields whose required arguments are ids can be called without inventing input
      if (required.some((a) => getNamedType(a.type).name !== 'ID') || !required.some((a) => a.name === 'companyID')) continue;
      tried++;
      const args = required.map((a) => `${a.name}: "${argValue(a.name)}"`).join(', ');
      const selection = isObjectType(getNamedType(field.type)) ? ' { __typename }' : '';
      const query = `{ ${field.name}${args ? `(${args})` : ''}${selection} }`;
      const p = [...o.perms.keys()][0];
      const { without, only } = await keysFor(p);
      const refused = (await t.gql(query, {}, { key: without })).body.errors?.[0];
      if (refused?.extensions?.code !== 'forbidden' || !String(refused.message).includes(p))
        wrong.push(`${o.name} without ${p}: ${JSON.stringify(refused)}`);
      const allowed = (await t.gql(query, {}, { key: only })).body.errors?.[0];
      if (allowed?.extensions?.code === 'forbidden') wrong.push(`${o.name} with only ${p}: ${JSON.stringify(allowed)}`);
    }
    expect(tried).toBeGreaterThan(25);
    expect(wrong).toEqual([]);
  });
});
