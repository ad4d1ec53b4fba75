import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';

/**
 * Lists as Relay connections over HTTP /graphql on the real database: paging forward and
 * backward with cursors, cursors that survive inserts and deletes before them, cursors refused
 * on another list, paging arguments refused, totalCount.
 */

let t: TestApp;
let shop: Shop;
let other: Shop;
const clock = new TestClock(Date.parse('2026-11-23T08:00:00Z'));

beforeAll(async () => {
  t = await createTestApp({ clock, config: { webhookAllowInsecure: true } });
  shop = await Shop.open(t, 'Connections');
  other = await Shop.open(t, 'Elsewhere');
  for (let i = 0; i < 5; i++) await service(shop, `S${i}`, i);
  await service(other, 'Other', 0);
}, 120_000);
afterAll(async () => t?.close());

async function service(s: Shop, name: string, position: number): Promise<string> {
  clock.advance(1000);
  const r = await t.call('POST', `${s.base}/services`, { body: { name, type: 'fixed', position, settings: { duration: 'PT1H' } } });
  if (r.status !== 201) throw new Error(`service: ${r.status} ${r.text}`);
  return r.body.id;
}

interface Page {
  edges: { cursor: string; node: { id: string; name: string } }[];
  nodes: { id: string; name: string }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number;
}

const PAGE =
  'edges { cursor node { id name } } nodes { id name } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount';
const SERVICES = `query($c: ID!, $first: Int, $after: String, $last: Int, $before: String) {
  services(companyID: $c, first: $first, after: $after, last: $last, before: $before) { ${PAGE} }
}`;

async function services(vars: Record<string, unknown>, companyId = shop.companyId): Promise<Page> {
  const r = await t.gql(SERVICES, { c: companyId, ...vars });
  expect(r.body.errors).toBeUndefined();
  const page = r.body.data.services as Page;
  // nodes are the edges' nodes; the page's cursors are its first and last edge's
  expect(page.nodes).toEqual(page.edges.map((e) => e.node));
  expect(page.pageInfo.startCursor).toBe(page.edges[0]?.cursor ?? null);
  expect(page.pageInfo.endCursor).toBe(page.edges.at(-1)?.cursor ?? null);
  return page;
}

const names = (p: Page) => p.nodes.map((n) => n.name);

/** A cursor with its values changed by `f` (its list's tag kept). */
const forge = (cursor: string, f: (values: unknown[]) => unknown[]) =>
  Buffer.from(JSON.stringify(f(JSON.parse(Buffer.from(cursor, 'base64url').toString())))).toString('base64url');

async function refused(query: string, vars: Record<string, unknown>): Promise<{ message: string; extensions: any }> {
  const r = await t.gql(query, vars);
  expect(r.status).toBe(200);
  expect(r.body.errors).toHaveLength(1);
  return r.body.errors[0];
}

describe('services(companyID:, first: 2)', () => {
  it('pages forward to the end with cursors', async () => {
    const p1 = await services({ first: 2 });
    expect(names(p1)).toEqual(['S0', 'S1']);
    expect(p1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(p1.totalCount).toBe(5);
    const p2 = await services({ first: 2, after: p1.pageInfo.endCursor });
    expect(names(p2)).toEqual(['S2', 'S3']);
    expect(p2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const p3 = await services({ first: 2, after: p2.pageInfo.endCursor });
    expect(names(p3)).toEqual(['S4']);
    expect(p3.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const end = await services({ first: 2, after: p3.pageInfo.endCursor });
    expect(end.nodes).toEqual([]);
    expect(end.pageInfo).toMatchObject({ hasNextPage: false, startCursor: null, endCursor: null });
    // an edge's cursor is where the next page starts
    expect(names(await services({ first: 1, after: p2.edges[0].cursor }))).toEqual(['S3']);
  });

  it('pages backward with last/before', async () => {
    const p1 = await services({ last: 2 });
    expect(names(p1)).toEqual(['S3', 'S4']);
    expect(p1.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const p2 = await services({ last: 2, before: p1.pageInfo.startCursor });
    expect(names(p2)).toEqual(['S1', 'S2']);
    expect(p2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const p3 = await services({ last: 2, before: p2.pageInfo.startCursor });
    expect(names(p3)).toEqual(['S0']);
    expect(p3.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  });

  it('defaults to the first 100 and keeps the deprecated offset page for one version', async () => {
    expect(names(await services({}))).toEqual(['S0', 'S1', 'S2', 'S3', 'S4']);
    const r = await t.gql(
      'query($c: ID!) { services(companyID: $c, limit: 2, offset: 1) { total limit offset services { name } nodes { name } } }',
      {
        c: shop.companyId,
      },
    );
    expect(r.body.data.services).toEqual({
      total: 5,
      limit: 2,
      offset: 1,
      services: [{ name: 'S1' }, { name: 'S2' }],
      nodes: [{ name: 'S1' }, { name: 'S2' }],
    });
  });
});

describe('stable cursors', () => {
  it('a service inserted before the cursor does not shift the next page', async () => {
    const s = await Shop.open(t, 'Inserts');
    for (let i = 0; i < 4; i++) await service(s, `S${i}`, i * 10);
    const p1 = await services({ first: 2 }, s.companyId);
    expect(names(p1)).toEqual(['S0', 'S1']);
    await service(s, 'early', 5); // between S0 and S1, before the cursor
    const p2 = await services({ first: 2, after: p1.pageInfo.endCursor }, s.companyId);
    expect(names(p2)).toEqual(['S2', 'S3']);
    expect(p2.totalCount).toBe(5);
    const back = await services({ last: 2, before: p2.pageInfo.startCursor }, s.companyId);
    expect(names(back)).toEqual(['early', 'S1']);
  });

  it('bookings page by keyset: an earlier booking inserted does not shift the next page, backward paging meets it', async () => {
    const s = await Shop.open(t, 'Booked');
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H', currency: 'EUR' });
    const at = (h: number) => `2026-12-01T${String(h).padStart(2, '0')}:00:00Z`;
    for (const h of [10, 12, 14, 16, 18])
      expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(h) })).status).toBe(200);
    const q = `query($c: ID!, $first: Int, $after: String, $last: Int, $before: String) {
      bookings(companyID: $c, first: $first, after: $after, last: $last, before: $before) {
        edges { cursor node { startTime } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount services { id }
      }
    }`;
    const page = async (vars: Record<string, unknown>) => {
      const r = await t.gql(q, { c: s.companyId, ...vars });
      expect(r.body.errors).toBeUndefined();
      return r.body.data.bookings;
    };
    const starts = (p: any) => p.edges.map((e: any) => e.node.startTime);
    const p1 = await page({ first: 2 });
    expect(starts(p1)).toEqual([at(10), at(12)]);
    expect(p1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(p1.totalCount).toBe(5);
    expect(p1.services).toEqual([{ id: sid }]);
    expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(8) })).status).toBe(200);
    const p2 = await page({ first: 2, after: p1.pageInfo.endCursor });
    expect(starts(p2)).toEqual([at(14), at(16)]);
    expect(p2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const p3 = await page({ first: 2, after: p2.pageInfo.endCursor });
    expect(starts(p3)).toEqual([at(18)]);
    expect(p3.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(p3.totalCount).toBe(6);
    const b1 = await page({ last: 2, before: p2.pageInfo.startCursor });
    expect(starts(b1)).toEqual([at(10), at(12)]);
    expect(b1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const b2 = await page({ last: 2, before: b1.pageInfo.startCursor });
    expect(starts(b2)).toEqual([at(8)]);
    expect(b2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  });

  it('a deleted row at the cursor still lets paging continue (SQL list and list in memory)', async () => {
    const s = await Shop.open(t, 'Deletes');
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      clock.advance(1000);
      const r = await t.call('POST', `${s.base}/webhooks`, { body: { url: `http://127.0.0.1:9/h${i}`, eventTypes: ['booking.created'] } });
      expect(r.status).toBe(201);
      ids.push(r.body.id);
    }
    const q = `query($c: ID!, $after: String) { webhooks(companyID: $c, first: 2, after: $after) {
      nodes { id } pageInfo { endCursor hasNextPage hasPreviousPage } totalCount } }`;
    const p1 = (await t.gql(q, { c: s.companyId })).body.data.webhooks;
    expect(p1.nodes.map((n: any) => n.id)).toEqual(ids.slice(0, 2));
    expect((await t.call('DELETE', `${s.base}/webhooks/${ids[1]}`)).status).toBe(204);
    const p2 = (await t.gql(q, { c: s.companyId, after: p1.pageInfo.endCursor })).body.data.webhooks;
    expect(p2.nodes.map((n: any) => n.id)).toEqual(ids.slice(2));
    expect(p2.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(p2.totalCount).toBe(3);
    // backward from a cursor whose row is deleted too
    const bq = `query($c: ID!, $before: String) { webhooks(companyID: $c, last: 2, before: $before) {
      nodes { id } pageInfo { startCursor hasNextPage hasPreviousPage } totalCount } }`;
    const p2start = (await t.gql(bq, { c: s.companyId })).body.data.webhooks.pageInfo.startCursor;
    expect((await t.call('DELETE', `${s.base}/webhooks/${ids[2]}`)).status).toBe(204);
    const b1 = (await t.gql(bq, { c: s.companyId, before: p2start })).body.data.webhooks;
    expect(b1.nodes.map((n: any) => n.id)).toEqual([ids[0]]);
    expect(b1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(b1.totalCount).toBe(2);

    // working hours rules, paged in memory, in the order they are chosen (highest priority first)
    const rid = await s.resource('Room');
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      const body = { priority: i, workingHours: [{ daysOfWeek: 127, hours: [{ start: '08:00', end: '17:00' }] }] };
      expect((await t.call('POST', `${s.base}/resources/${rid}/working-hours`, { body })).status).toBe(201);
    }
    const wq = `query($c: ID!, $r: ID!, $after: String) { workingHours(companyID: $c, resourceID: $r, first: 1, after: $after) {
      nodes { id } pageInfo { endCursor hasNextPage } } }`;
    const all = (
      await t.gql(`query($c: ID!, $r: ID!) { workingHours(companyID: $c, resourceID: $r) { nodes { id } } }`, { c: s.companyId, r: rid })
    ).body.data.workingHours.nodes.map((n: any) => n.id);
    expect(all).toHaveLength(3);
    const w1 = (await t.gql(wq, { c: s.companyId, r: rid })).body.data.workingHours;
    expect(w1.nodes.map((n: any) => n.id)).toEqual([all[0]]);
    const del = await t.gql('mutation($c: ID!, $r: ID!, $ids: [ID!]) { deleteWorkingHours(companyID: $c, resourceID: $r, ids: $ids) }', {
      c: s.companyId,
      r: rid,
      ids: [all[0]],
    });
    expect(del.body.errors).toBeUndefined();
    const w2 = (await t.gql(wq, { c: s.companyId, r: rid, after: w1.pageInfo.endCursor })).body.data.workingHours;
    expect(w2.nodes.map((n: any) => n.id)).toEqual([all[1]]);
    expect(w2.pageInfo.hasNextPage).toBe(true);
  });
});

describe('link lists', () => {
  it('serviceLinks pages its links by cursor, with the resources of the page', async () => {
    const s = await Shop.open(t, 'Links');
    const sid = await service(s, 'Linked', 0);
    const rids: string[] = [];
    for (const name of ['Bay 1', 'Bay 2', 'Bay 3']) {
      clock.advance(1000);
      const rid = await s.resource(name);
      await s.link(sid, rid);
      rids.push(rid);
    }
    const q = `query($c: ID!, $s: ID!, $after: String) { serviceLinks(companyID: $c, serviceID: $s, first: 2, after: $after) {
      nodes { resourceID } resources { id } pageInfo { hasNextPage endCursor } totalCount } }`;
    const p1 = (await t.gql(q, { c: s.companyId, s: sid })).body.data.serviceLinks;
    expect(p1.nodes.map((l: any) => l.resourceID)).toEqual(rids.slice(0, 2));
    expect(p1.resources.map((r: any) => r.id)).toEqual(rids.slice(0, 2));
    expect(p1).toMatchObject({ totalCount: 3, pageInfo: { hasNextPage: true } });
    const p2 = (await t.gql(q, { c: s.companyId, s: sid, after: p1.pageInfo.endCursor })).body.data.serviceLinks;
    expect(p2.nodes.map((l: any) => l.resourceID)).toEqual([rids[2]]);
    expect(p2.resources.map((r: any) => r.id)).toEqual([rids[2]]);
  });
});

describe('refused', () => {
  it('a cursor of another list: another company, another field, other filters, or not a cursor', async () => {
    const own = (await services({ first: 1 })).pageInfo.endCursor!;
    const elsewhere = (await services({ first: 1 }, other.companyId)).pageInfo.endCursor;
    const nested = (
      await t.gql('query($c: ID!) { company(id: $c) { services(first: 1) { pageInfo { endCursor } } } }', { c: shop.companyId })
    ).body.data.company.services.pageInfo.endCursor;
    const bq =
      'query($c: ID!, $f: BookingFilter, $after: String) { bookings(companyID: $c, filter: $f, first: 1, after: $after) { pageInfo { endCursor } } }';
    const booked = await Shop.open(t, 'Filters');
    const { sid, rids } = await booked.bookable('fixed', { duration: 'PT1H', currency: 'EUR' });
    await booked.book({ serviceID: sid, resourceID: rids[0], startTime: '2026-12-02T10:00:00Z' });
    const filtered = (await t.gql(bq, { c: booked.companyId, f: { serviceIDs: [sid] } })).body.data.bookings.pageInfo.endCursor;
    expect(typeof filtered).toBe('string');
    // the same filter accepts it
    expect((await t.gql(bq, { c: booked.companyId, f: { serviceIDs: [sid] }, after: filtered })).body.errors).toBeUndefined();

    const cases: [string, Record<string, unknown>][] = [
      [SERVICES, { c: shop.companyId, after: elsewhere }],
      [SERVICES, { c: other.companyId, before: own }],
      [SERVICES, { c: shop.companyId, after: nested }],
      [bq, { c: booked.companyId, after: filtered }],
      [bq, { c: booked.companyId, f: { serviceIDs: [rids[0]] }, after: filtered }],
      [SERVICES, { c: shop.companyId, after: 'not-a-cursor' }],
      [SERVICES, { c: shop.companyId, after: Buffer.from('["x",1,2]').toString('base64url') }],
      [SERVICES, { c: shop.companyId, after: own + '%' }],
      // the list's own tag with values the database would choke on
      [bq, { c: booked.companyId, f: { serviceIDs: [sid] }, after: forge(filtered, (v) => [v[0], v[1], 'not-a-uuid']) }],
      [bq, { c: booked.companyId, f: { serviceIDs: [sid] }, after: forge(filtered, (v) => [v[0], 'tomorrow', v[2]]) }],
      [SERVICES, { c: shop.companyId, after: forge(own, (v) => [v[0], '1; drop table service', v[2], v[3]]) }],
    ];
    for (const [query, vars] of cases) {
      const e = await refused(query, vars);
      expect(e.extensions.code).toBe('invalid_request');
      expect(e.extensions.details[0].message).toBe('invalid_cursor');
      expect(e.message).toMatch(/invalid_cursor/);
    }
  });

  it('bad first/last', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ first: 0 }, 'first'],
      [{ first: 101 }, 'first'],
      [{ first: -1 }, 'first'],
      [{ last: 0 }, 'last'],
      [{ last: 1000 }, 'last'],
      [{ first: 1, last: 1 }, 'last'],
    ];
    for (const [vars, path] of cases) {
      const e = await refused(SERVICES, { c: shop.companyId, ...vars });
      expect([e.extensions.code, e.extensions.details[0].path]).toEqual(['invalid_request', path]);
    }
    const mixed = await refused('query($c: ID!) { services(companyID: $c, first: 1, offset: 1) { totalCount } }', { c: shop.companyId });
    expect(mixed.extensions.code).toBe('invalid_request');
  });
});

describe('statements', () => {
  it('a page of bookings is one statement after authentication; totalCount one more, only when selected', async () => {
    const q = (fields: string) => `query($c: ID!) { bookings(companyID: $c, first: 2) { ${fields} } }`;
    await t.gql(q('totalCount'), { c: shop.companyId }); // warm the company cache
    const plain = await t.countStatements(() => t.gql(q('nodes { id }'), { c: shop.companyId }));
    const counted = await t.countStatements(() => t.gql(q('nodes { id } totalCount'), { c: shop.companyId }));
    expect(counted).toBe(plain + 1);
  });
});
