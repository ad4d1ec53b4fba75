import { createTestApp, TestClock, type TestApp } from '../helpers/app';

/** GraphQL relations of the catalog: results, tenancy, and a constant statement count per list. */

let t: TestApp;
// Each write happens a second after the previous one, so creation order is a stable sort key.
const clock = new TestClock(Date.parse('2026-11-23T08:00:00Z'));
let small: string;
let large: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  small = await seed('Five services', 5);
  large = await seed('Fifty services', 50);
}, 120_000);
afterAll(async () => t?.close());

async function ok(method: string, url: string, body?: unknown) {
  clock.advance(1000);
  const r = await t.call(method, url, { body });
  if (r.status >= 300) throw new Error(`${method} ${url} failed: ${r.status} ${r.text}`);
  return r.body;
}

/** A company with `n` ticket services, each linked to two of four resources and holding two tickets. */
async function seed(name: string, n: number): Promise<string> {
  const cid = (await t.company(name)).id;
  const base = `/v1/companies/${cid}`;
  const resources: { id: string }[] = [];
  for (let i = 0; i < 4; i++) resources.push(await ok('POST', `${base}/resources`, { name: `R${i}`, color: '#123456' }));
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const s = await ok('POST', `${base}/services`, { name: `S${String(i).padStart(2, '0')}`, type: 'ticket', position: i });
      await ok('POST', `${base}/services/${s.id}/links`, { resourceID: resources[i % 4].id });
      await ok('POST', `${base}/services/${s.id}/links`, { resourceID: resources[(i + 1) % 4].id });
      await ok('POST', `${base}/services/${s.id}/tickets`, { name: 'Adult' });
      await ok('POST', `${base}/services/${s.id}/tickets`, { name: 'Child' });
    }),
  );
  return cid;
}

const SERVICES =
  'query($c: ID!) { services(companyID: $c) { totalCount nodes { id resources { nodes { id } } tickets { edges { cursor node { id } } } } } }';

describe('statement counts', () => {
  it('lists services with resources and tickets in the same few statements for 5 and 50 services', async () => {
    let smallResult: any;
    let largeResult: any;
    const n5 = await t.countStatements(async () => {
      smallResult = await t.gql(SERVICES, { c: small });
    });
    const n50 = await t.countStatements(async () => {
      largeResult = await t.gql(SERVICES, { c: large });
    });
    expect(smallResult.body.errors).toBeUndefined();
    expect(largeResult.body.errors).toBeUndefined();
    expect(smallResult.body.data.services.nodes).toHaveLength(5);
    expect(largeResult.body.data.services.nodes).toHaveLength(50);
    for (const s of largeResult.body.data.services.nodes) {
      expect(s.resources.nodes).toHaveLength(2);
      expect(s.tickets.edges).toHaveLength(2);
    }
    // API key, services, resources through the links, tickets (the company row is cached).
    expect(n50).toBe(n5);
    expect(n50).toBeLessThanOrEqual(4);
  });

  it('keeps deeper relations and the company entry point constant too', async () => {
    const q = `query($c: ID!) {
      company(id: $c) {
        services(first: 50) { nodes { id links { nodes { id } } resources { nodes { id services { nodes { id } } } } tickets { nodes { id } } } }
        resources { nodes { id services { nodes { id } } } }
      }
    }`;
    const n5 = await t.countStatements(() => t.gql(q, { c: small }));
    let result: any;
    const n50 = await t.countStatements(async () => {
      result = await t.gql(q, { c: large });
    });
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.company.services.nodes).toHaveLength(50);
    expect(result.body.data.company.resources.nodes).toHaveLength(4);
    expect(result.body.data.company.services.nodes[0].resources.nodes[0].services.nodes.length).toBeGreaterThan(0);
    expect(n50).toBe(n5);
  });

  it('serves the client lists in a constant number of statements', async () => {
    const keyFor = async (cid: string) => t.keyWith({ [cid]: ['client.read'] });
    const [k5, k50] = [await keyFor(small), await keyFor(large)];
    const count = async (cid: string, key: string, what: string) => {
      let res: any;
      const n = await t.countStatements(async () => {
        res = await t.call('GET', `/v1/client/companies/${cid}/${what}`, { key });
      });
      expect(res.status).toBe(200);
      return n;
    };
    expect(await count(large, k50, 'services')).toBe(await count(small, k5, 'services'));
    expect(await count(large, k50, 'resources')).toBe(await count(small, k5, 'resources'));
  });
});

describe('nested fields', () => {
  it('resolves each relation to the right records', async () => {
    const r = await t.gql(
      `query($c: ID!) { services(companyID: $c) { services { name resources { resources { name } } tickets { tickets { name } } links { links { resourceID } } } } }`,
      {
        c: small,
      },
    );
    const s0 = r.body.data.services.services[0];
    expect(s0).toEqual({
      name: 'S00',
      resources: { resources: [{ name: 'R0' }, { name: 'R1' }] },
      tickets: { tickets: [{ name: 'Adult' }, { name: 'Child' }] },
      links: { links: [{ resourceID: expect.any(String) }, { resourceID: expect.any(String) }] },
    });
    const res = await t.gql(`query($c: ID!) { resources(companyID: $c) { resources { name services { services { name } } } } }`, {
      c: small,
    });
    expect(res.body.data.resources.resources[0]).toEqual({
      name: 'R0',
      services: { services: [{ name: 'S00' }, { name: 'S03' }, { name: 'S04' }] },
    });
    // A nested list is paged like any other.
    const paged = await t.gql(
      `query($c: ID!) { resources(companyID: $c, limit: 1) { total resources { name services(limit: 2, offset: 1) { total limit offset services { name } } } } }`,
      { c: small },
    );
    expect(paged.body.data.resources).toEqual({
      total: 4,
      resources: [{ name: 'R0', services: { total: 3, limit: 2, offset: 1, services: [{ name: 'S03' }, { name: 'S04' }] } }],
    });
  });

  it('answers each nested record as REST answers it, field for field (the relations read plain rows)', async () => {
    const cid = (await t.company('Records')).id;
    const base = `/v1/companies/${cid}`;
    const main = await ok('POST', `${base}/resources`, { name: 'Main', color: '#123456', metaData: { floor: 2, tags: ['a', 'é'] } });
    const side = await ok('POST', `${base}/resources`, { name: 'Side', color: '#abcdef', relatedResourceIDs: [main.id] });
    const svc = await ok('POST', `${base}/services`, {
      name: 'Class',
      type: 'ticket',
      color: '#654321',
      metaData: { level: 'x' },
      settings: { duration: 'PT1H', bufferAfter: 'PT15M', currency: 'EUR', tax: { inclusive: true, rate: 21 } },
    });
    await ok('POST', `${base}/services/${svc.id}/links`, { resourceID: main.id, relatedResourceIDs: { all: [side.id], any: [] } });
    await ok('POST', `${base}/services/${svc.id}/links`, { resourceID: side.id });
    await ok('POST', `${base}/services/${svc.id}/tickets`, { name: 'Adult', metaData: { age: 18 } });
    await ok('POST', `${base}/services/${svc.id}/tickets`, { name: 'Child', enabled: false });
    // timestamps with microseconds, as SQL writes them
    const sql = (text: string, params: unknown[]) => t.deps.orm.em.fork().getConnection().execute(text, params);
    await sql(`update resource set disabled_at = now(), updated_at = now() where id = ?`, [side.id]);
    await sql(`update service set disabled_at = '2026-11-27 03:37:49.123456+00' where id = ?`, [svc.id]);

    const S = `fragment S on Service { id companyID name type color metaData metaDataVersion position disabledAt createdAt updatedAt
      settings { availabilityPeriod bookingPolicy bufferAfter bufferBefore checkInTime checkOutTime currency duration timeInterval tax { inclusive rate } } }`;
    const R =
      'fragment R on Resource { id companyID name color metaData metaDataVersion relatedResourceIDs disabledAt createdAt updatedAt }';
    const T = 'fragment T on Ticket { id serviceID name enabled metaData metaDataVersion createdAt updatedAt }';
    const L = 'fragment L on ServiceResourceLink { id serviceID resourceID relatedResourceIDs { all any } createdAt updatedAt }';
    const byService = await t.gql(
      `query($c: ID!) { services(companyID: $c) { services { ...S resources { resources { ...R } } tickets { tickets { ...T } } links { links { ...L } } } } } ${S} ${R} ${T} ${L}`,
      { c: cid },
    );
    const byCompany = await t.gql(
      `query($c: ID!) { company(id: $c) { services { services { ...S } } resources { resources { ...R services { services { ...S } } } } } } ${S} ${R}`,
      { c: cid },
    );
    expect(byService.body.errors).toBeUndefined();
    expect(byCompany.body.errors).toBeUndefined();
    const [service] = byService.body.data.services.services;
    const { resources } = byCompany.body.data.company;
    const rest = async (url: string) => (await t.call('GET', `${base}${url}`)).body;
    const without = (o: Record<string, unknown>, ...keys: string[]) =>
      Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
    const restService = await rest(`/services/${svc.id}`);
    expect(restService.disabledAt).toBe('2026-11-27T03:37:49.123Z');
    expect(without(service, 'resources', 'tickets', 'links')).toEqual(restService);
    expect(byCompany.body.data.company.services.services).toEqual([restService]);
    expect(service.tickets.tickets).toEqual(await rest(`/services/${svc.id}/tickets`));
    expect(service.links.links).toEqual((await rest(`/services/${svc.id}/links`)).links);
    const restResources = [await rest(`/resources/${main.id}`), await rest(`/resources/${side.id}`)];
    expect(service.resources.resources).toEqual(restResources);
    expect(resources.resources.map((x: Record<string, unknown>) => without(x, 'services'))).toEqual(restResources);
    expect(resources.resources[1].services.services).toEqual([restService]);
  });

  it('checks the nested area’s permission and the company’s owner', async () => {
    const servicesOnly = await t.keyWith({ [small]: ['services.read'] });
    const r = await t.gql(
      `query($c: ID!) { services(companyID: $c) { services { id tickets { total } resources { total } } } }`,
      { c: small },
      { key: servicesOnly },
    );
    expect(r.body.errors[0].extensions.code).toBe('forbidden');
    expect(r.body.errors[0].path).toEqual(['services', 'services', 0, 'resources']);
    const stranger = await t.newMerchant();
    const denied = await t.gql(`query($c: ID!) { company(id: $c) { services { total } } }`, { c: small }, { key: stranger });
    expect(denied.body.errors[0].extensions.code).toBe('forbidden');
    const mine = await t.gql(`query { companies { companies { id services { total } } } }`);
    const counts = Object.fromEntries(
      mine.body.data.companies.companies.map((c: { id: string; services: { total: number } }) => [c.id, c.services.total]),
    );
    expect(counts).toMatchObject({ [small]: 5, [large]: 50 });
  });
});
