import pino from 'pino';
import { createCtx, type Ctx } from '../../src/kernel/context';
import { getClientInCompany, loadClients, upsertGuestClient } from '../../src/modules/client/client.lookup';
import { createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let cid: string;
const base = () => `/v1/companies/${cid}/clients`;
const UNKNOWN = '5b1f3c1e-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await createTestApp();
  cid = (await t.company('Clients Inc')).id;
});
afterAll(async () => t?.close());

let seq = 0;
async function mkClient(body: Record<string, unknown> = {}, companyId = cid) {
  seq++;
  const r = await t.call('POST', `/v1/companies/${companyId}/clients`, {
    body: { email: `user${seq}@example.com`, externalUserID: `ext-${seq}`, ...body },
  });
  if (r.status !== 201) throw new Error(`client creation failed: ${r.status} ${r.text}`);
  return r.body;
}

describe('admin clients over REST', () => {
  it('creates a client and reads it back', async () => {
    const r = await t.call('POST', base(), {
      body: { email: 'Ann.Smith@Example.com', externalUserID: 'u-100', firstName: 'Ann', lastName: 'Smith', metaData: { tier: 'gold' } },
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(String),
      companyID: cid,
      externalUserID: 'u-100',
      email: 'Ann.Smith@Example.com',
      firstName: 'Ann',
      lastName: 'Smith',
      language: null,
      metaData: { tier: 'gold' },
      metaDataVersion: 1,
      state: 'active',
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    const got = await t.call('GET', `${base()}/${r.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(r.body);
  });

  it('requires email and externalUserID and checks the email format', async () => {
    for (const [body, path] of [
      [{ externalUserID: 'x-1' }, 'email'],
      [{ email: 'a@example.com' }, 'externalUserID'],
      [{ email: 'not-an-email', externalUserID: 'x-2' }, 'email'],
      [{ email: 'a@b', externalUserID: 'x-3' }, 'email'],
      [{ email: 'a@example.com', externalUserID: '   ' }, 'externalUserID'],
      [{ email: 'a@example.com', externalUserID: 'x-4', metaData: [1] }, 'metaData'],
    ] as const) {
      const r = await t.call('POST', base(), { body });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid_request');
      expect(JSON.stringify(r.body.details)).toContain(path);
    }
    const wrongType = await t.call('POST', base(), { body: { email: 5, externalUserID: 'x-5' } });
    expect(wrongType.status).toBe(400);
    const list = await t.call('GET', base(), { query: { limit: 100 } });
    expect(list.body.clients.some((c: { externalUserID: string }) => c.externalUserID.startsWith('x-'))).toBe(false);
  });

  it('refuses a duplicate externalUserID in the company with 409, but allows it in another company', async () => {
    await mkClient({ externalUserID: 'dup-1' });
    const again = await t.call('POST', base(), { body: { email: 'other@example.com', externalUserID: 'dup-1' } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
    const other = await t.company('Second');
    const there = await t.call('POST', `/v1/companies/${other.id}/clients`, {
      body: { email: 'other@example.com', externalUserID: 'dup-1' },
    });
    expect(there.status).toBe(201);
  });

  it('updates fields, metadata with versions, and blocks/unblocks', async () => {
    const c = await mkClient({ firstName: 'Bob', metaData: { a: 1 } });
    const r = await t.call('PATCH', `${base()}/${c.id}`, {
      body: { lastName: 'Builder', email: 'bob@example.org', metaDataUpdate: { expectedVersion: 1, path: 'b.c', value: 2 } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      firstName: 'Bob',
      lastName: 'Builder',
      email: 'bob@example.org',
      metaData: { a: 1, b: { c: 2 } },
      metaDataVersion: 2,
    });
    const stale = await t.call('PATCH', `${base()}/${c.id}`, {
      body: { firstName: 'Nope', metaDataUpdate: { expectedVersion: 1, path: 'a', value: 3 } },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    expect((await t.call('GET', `${base()}/${c.id}`)).body.firstName).toBe('Bob');
    const cleared = await t.call('PATCH', `${base()}/${c.id}`, { body: { firstName: null } });
    expect(cleared.body.firstName).toBeNull();
    const blocked = await t.call('PATCH', `${base()}/${c.id}`, { body: { state: 'blocked' } });
    expect(blocked.body.state).toBe('blocked');
    expect((await t.call('PATCH', `${base()}/${c.id}`, { body: { state: 'active' } })).body.state).toBe('active');
  });

  it('validates updates and changes nothing on 400', async () => {
    const c = await mkClient();
    for (const body of [
      { email: 'bad' },
      { email: null },
      { state: 'deleted' },
      { metaDataUpdate: { path: 'a..b', value: 1 } },
      { firstName: 'x'.repeat(300) },
    ]) {
      const r = await t.call('PATCH', `${base()}/${c.id}`, { body });
      expect(r.status).toBe(400);
    }
    expect((await t.call('GET', `${base()}/${c.id}`)).body).toEqual(c);
  });

  it('answers 404 for unknown ids and 400 for malformed ones', async () => {
    expect((await t.call('PATCH', `${base()}/${UNKNOWN}`, { body: { firstName: 'X' } })).status).toBe(404);
    expect((await t.call('GET', `${base()}/${UNKNOWN}`)).status).toBe(404);
    expect((await t.call('GET', `${base()}/nope`)).status).toBe(400);
    expect((await t.call('GET', `/v1/companies/${UNKNOWN}/clients`)).status).toBe(404);
  });
});

describe('listing', () => {
  let company: string;
  beforeAll(async () => {
    company = (await t.company('Lister')).id;
    for (let i = 0; i < 5; i++) await mkClient({}, company);
  });
  it('pages in a stable order with a total', async () => {
    const all = await t.call('GET', `/v1/companies/${company}/clients`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ limit: 100, offset: 0, total: 5 });
    const ids = all.body.clients.map((c: { id: string }) => c.id);
    const p1 = await t.call('GET', `/v1/companies/${company}/clients`, { query: { limit: 2, offset: 0 } });
    const p2 = await t.call('GET', `/v1/companies/${company}/clients`, { query: { limit: 2, offset: 2 } });
    const p3 = await t.call('GET', `/v1/companies/${company}/clients`, { query: { limit: 2, offset: 4 } });
    expect([...p1.body.clients, ...p2.body.clients, ...p3.body.clients].map((c: { id: string }) => c.id)).toEqual(ids);
    expect(p3.body).toMatchObject({ limit: 2, offset: 4, total: 5 });
  });
  it('refuses bad limits and offsets', async () => {
    for (const query of [
      { limit: 0 },
      { limit: 101 },
      { limit: -1 },
      { limit: 'abc' },
      { limit: '1.5' },
      { offset: -1 },
      { offset: 'x' },
    ]) {
      const r = await t.call('GET', `/v1/companies/${company}/clients`, { query });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid_request');
    }
    expect((await t.call('GET', `/v1/companies/${company}/clients`, { query: { limit: 100 } })).status).toBe(200);
  });
  it('costs a constant number of statements', async () => {
    const n = await t.countStatements(() => t.call('GET', `/v1/companies/${company}/clients`));
    expect(n).toBeLessThanOrEqual(5);
  });
});

describe('search', () => {
  let company: string;
  let ann: any;
  let bob: any;
  beforeAll(async () => {
    company = (await t.company('Searcher')).id;
    ann = await mkClient(
      {
        email: 'Ann@Example.com',
        externalUserID: 'ann-1',
        firstName: 'Ann',
        lastName: 'Lee',
        metaData: { note: 'Prefers MORNING slots', tags: ['vip'] },
      },
      company,
    );
    bob = await mkClient(
      { email: 'bob@example.com', externalUserID: 'bob-1', firstName: 'Bob', lastName: 'Annandale', metaData: { city: 'Riga', level: 7 } },
      company,
    );
    await mkClient({ email: 'carl_100%@example.com', externalUserID: 'carl-1', firstName: 'Carl' }, company);
  });
  const search = (query: Record<string, string>) => t.call('GET', `/v1/companies/${company}/clients/search`, { query });
  const ids = (r: { body: { id: string }[] }) => r.body.map((c) => c.id);

  it('matches clientID, email (case-insensitively) and externalUserID exactly', async () => {
    expect(ids(await search({ clientID: ann.id }))).toEqual([ann.id]);
    expect(ids(await search({ email: 'ann@example.com' }))).toEqual([ann.id]);
    expect(ids(await search({ email: 'ann@example' }))).toEqual([]);
    expect(ids(await search({ externalUserID: 'bob-1' }))).toEqual([bob.id]);
    expect(ids(await search({ externalUserID: 'bob' }))).toEqual([]);
    expect(ids(await search({ clientID: ann.id, externalUserID: 'bob-1' }))).toEqual([]);
  });
  it('matches query over names, email and metadata values, case-insensitively', async () => {
    expect(ids(await search({ query: 'ann' }))).toEqual([ann.id, bob.id]);
    expect(ids(await search({ query: 'morning' }))).toEqual([ann.id]);
    expect(ids(await search({ query: 'VIP' }))).toEqual([ann.id]);
    expect(ids(await search({ query: 'riga' }))).toEqual([bob.id]);
    expect(ids(await search({ query: '7' }))).toEqual([bob.id]);
    expect(ids(await search({ query: 'city' }))).toEqual([]);
    expect(ids(await search({ query: '_100%' })).length).toBe(1);
    expect(ids(await search({ query: '%' })).length).toBe(1);
  });
  it('returns everything (capped) without filters and 400 for a malformed clientID', async () => {
    expect((await search({})).body.length).toBe(3);
    expect((await search({ clientID: 'x' })).status).toBe(400);
  });
  it('does not find clients of another company', async () => {
    const r = await t.call('GET', `${base()}/search`, { query: { clientID: ann.id } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
  });
});

describe('isolation', () => {
  it('answers 404 for a client of another company and 403 for another merchant', async () => {
    const c = await mkClient();
    const other = (await t.company('Elsewhere')).id;
    expect((await t.call('GET', `/v1/companies/${other}/clients/${c.id}`)).status).toBe(404);
    expect((await t.call('PATCH', `/v1/companies/${other}/clients/${c.id}`, { body: { firstName: 'Hacked' } })).status).toBe(404);
    const stranger = await t.newMerchant();
    for (const [m, url, body] of [
      ['GET', base(), undefined],
      ['POST', base(), { email: 'a@example.com', externalUserID: 'zz' }],
      ['GET', `${base()}/search`, undefined],
      ['GET', `${base()}/${c.id}`, undefined],
      ['PATCH', `${base()}/${c.id}`, { firstName: 'X' }],
    ] as const) {
      const r = await t.call(m, url, { key: stranger, body });
      expect(r.status).toBe(403);
    }
    expect((await t.call('GET', `${base()}/${c.id}`)).body.firstName).toBe(c.firstName);
  });
  it('needs clients.read to read and clients.write to write', async () => {
    const reader = await t.keyWith({ [cid]: ['clients.read'] });
    expect((await t.call('GET', base(), { key: reader })).status).toBe(200);
    expect((await t.call('GET', `${base()}/search`, { key: reader })).status).toBe(200);
    expect((await t.call('POST', base(), { key: reader, body: { email: 'r@example.com', externalUserID: 'reader-made' } })).status).toBe(
      403,
    );
    const writerElsewhere = await t.keyWith({ [(await t.company('W')).id]: ['clients.*'] });
    expect((await t.call('GET', base(), { key: writerElsewhere })).status).toBe(403);
  });
});

describe('clients over GraphQL', () => {
  const FIELDS = 'id companyID externalUserID email firstName lastName language metaData metaDataVersion state createdAt updatedAt';
  it('creates, updates, lists, gets and searches', async () => {
    const created = await t.gql(`mutation($c: ID!, $i: CreateClientInput!) { createClient(companyID: $c, input: $i) { ${FIELDS} } }`, {
      c: cid,
      i: { email: 'gql@example.com', externalUserID: 'gql-1', firstName: 'Gee', metaData: { k: 'graph' } },
    });
    expect(created.body.errors).toBeUndefined();
    const client = created.body.data.createClient;
    const rest = await t.call('GET', `${base()}/${client.id}`);
    expect(client).toEqual(rest.body);
    const updated = await t.gql(
      `mutation($c: ID!, $id: ID!, $i: UpdateClientInput!) { updateClient(companyID: $c, id: $id, input: $i) { lastName state metaDataVersion } }`,
      {
        c: cid,
        id: client.id,
        i: { lastName: 'Q', state: 'blocked', metaDataUpdate: { expectedVersion: 1, path: 'k', value: 'ql' } },
      },
    );
    expect(updated.body.data.updateClient).toEqual({ lastName: 'Q', state: 'blocked', metaDataVersion: 2 });
    const all = (await t.call('GET', `/v1/companies/${cid}/clients`)).body.clients.map((c: { id: string }) => c.id);
    const pageQ = `query($c: ID!, $a: String) { clients(companyID: $c, first: 2, after: $a) {
      totalCount nodes { id } pageInfo { hasNextPage hasPreviousPage endCursor } } }`;
    const page = (await t.gql(pageQ, { c: cid })).body.data.clients;
    expect(page.nodes.map((c: { id: string }) => c.id)).toEqual(all.slice(0, 2));
    expect(page.totalCount).toBe(all.length);
    expect(page.pageInfo).toMatchObject({ hasNextPage: all.length > 2, hasPreviousPage: false });
    const next = (await t.gql(pageQ, { c: cid, a: page.pageInfo.endCursor })).body.data.clients;
    expect(next.nodes.map((c: { id: string }) => c.id)).toEqual(all.slice(2, 4));
    expect(next.pageInfo.hasPreviousPage).toBe(true);
    // the deprecated offset page, for one version
    const offset = await t.gql(`query($c: ID!) { clients(companyID: $c, limit: 2, offset: 0) { limit offset total clients { id } } }`, {
      c: cid,
    });
    expect(offset.body.data.clients).toMatchObject({ limit: 2, offset: 0, total: all.length });
    const one = await t.gql(`query($c: ID!, $id: ID!) { client(companyID: $c, id: $id) { email } }`, { c: cid, id: client.id });
    expect(one.body.data.client.email).toBe('gql@example.com');
    const searchQ = `query($c: ID!, $a: String) { searchClients(companyID: $c, filter: {query: "QL"}, first: 1, after: $a) {
      totalCount nodes { id } pageInfo { hasNextPage hasPreviousPage endCursor } } }`;
    const found = (await t.gql(searchQ, { c: cid })).body.data.searchClients;
    expect(found).toMatchObject({ totalCount: 1, nodes: [{ id: client.id }], pageInfo: { hasNextPage: false, hasPreviousPage: false } });
    const past = (await t.gql(searchQ, { c: cid, a: found.pageInfo.endCursor })).body.data.searchClients;
    expect(past).toMatchObject({ nodes: [], pageInfo: { hasNextPage: false, hasPreviousPage: true } });
  });
  it('reports validation, conflicts and paging errors with REST codes', async () => {
    const bad = await t.gql(`mutation($c: ID!) { createClient(companyID: $c, input: {email: "nope", externalUserID: "g-2"}) { id } }`, {
      c: cid,
    });
    expect(bad.body.errors[0].extensions.code).toBe('invalid_request');
    const dup = await t.gql(
      `mutation($c: ID!) { createClient(companyID: $c, input: {email: "a@example.com", externalUserID: "gql-1"}) { id } }`,
      { c: cid },
    );
    expect(dup.body.errors[0].extensions.code).toBe('conflict');
    const page = await t.gql(`query($c: ID!) { clients(companyID: $c, first: 101) { totalCount } }`, { c: cid });
    expect(page.body.errors[0].extensions.code).toBe('invalid_request');
    const missing = await t.gql(`query($c: ID!) { client(companyID: $c, id: "${UNKNOWN}") { id } }`, { c: cid });
    expect(missing.body.errors[0].extensions.code).toBe('not_found');
  });
});

describe('lookup API for other contexts', () => {
  let ctx: Ctx;
  let company: string;
  beforeAll(async () => {
    company = (await t.company('Lookups')).id;
  });
  beforeEach(() => {
    ctx = createCtx(t.deps, null, 'test', pino({ level: 'silent' }));
  });

  it('finds a client in its company only', async () => {
    const c = await mkClient({}, company);
    expect((await getClientInCompany(ctx, company, c.id)).id).toBe(c.id);
    await expect(getClientInCompany(ctx, cid, c.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(getClientInCompany(ctx, company, 'bad')).rejects.toMatchObject({ code: 'invalid_request' });
    const map = await loadClients(ctx, company, [c.id, UNKNOWN, 'bad', c.id]);
    expect([...map.keys()]).toEqual([c.id]);
  });

  it('upserts guests by email case-insensitively and never edits an existing client', async () => {
    const first = await upsertGuestClient(ctx, company, { email: 'Guest@Example.com', firstName: 'Gus' });
    expect(first).toMatchObject({
      externalUserId: 'guest:guest@example.com',
      email: 'Guest@Example.com',
      firstName: 'Gus',
      state: 'active',
    });
    const again = await upsertGuestClient(createCtx(t.deps, null, 't2', pino({ level: 'silent' })), company, {
      email: 'GUEST@example.COM',
      firstName: 'Mallory',
    });
    expect(again.id).toBe(first.id);
    expect(again.firstName).toBe('Gus');
    const elsewhere = await upsertGuestClient(ctx, cid, { email: 'guest@example.com' });
    expect(elsewhere.id).not.toBe(first.id);
  });

  it('reuses a registered client with that email, refuses blocked ones and bad input', async () => {
    const reg = await mkClient({ email: 'member@example.com' }, company);
    expect((await upsertGuestClient(ctx, company, { email: 'MEMBER@example.com' })).id).toBe(reg.id);
    await t.call('PATCH', `/v1/companies/${company}/clients/${reg.id}`, { body: { state: 'blocked' } });
    await expect(
      upsertGuestClient(createCtx(t.deps, null, 't3', pino({ level: 'silent' })), company, { email: 'member@example.com' }),
    ).rejects.toMatchObject({ code: 'forbidden' });
    await expect(upsertGuestClient(ctx, company, { email: 'nope' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(upsertGuestClient(ctx, company, {})).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(upsertGuestClient(ctx, company, { email: 'x@example.com', id: 'bad' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('honours a guest id only when it names a client of the company with that email', async () => {
    const a = await mkClient({ email: 'same@example.com' }, company);
    const b = await mkClient({ email: 'SAME@example.com' }, company);
    const other = await mkClient({ email: 'someone@example.com' }, company);
    expect((await upsertGuestClient(ctx, company, { email: 'same@example.com' })).id).toBe(a.id);
    expect((await upsertGuestClient(ctx, company, { email: 'same@example.com', id: b.id })).id).toBe(b.id);
    expect((await upsertGuestClient(ctx, company, { email: 'same@example.com', id: other.id })).id).toBe(a.id);
  });

  it('converges concurrent first requests for one guest on one client', async () => {
    const fresh = () => createCtx(t.deps, null, 'p', pino({ level: 'silent' }));
    const all = await Promise.all(Array.from({ length: 5 }, () => upsertGuestClient(fresh(), company, { email: 'race@example.com' })));
    expect(new Set(all.map((c) => c.id)).size).toBe(1);
  });
});
