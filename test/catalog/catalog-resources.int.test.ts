import { createTestApp, type TestApp } from '../helpers/app';

/** Resources and service-resource links: CRUD, validation, metadata and tenancy. */

let t: TestApp;
let cid: string;
let base: string;
let otherCid: string;
const UNKNOWN = '5b1f3c1e-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await createTestApp();
  cid = (await t.company('Resources Co')).id;
  base = `/v1/companies/${cid}`;
  otherCid = (await t.company('Sister Co')).id;
});
afterAll(async () => t?.close());

async function post(url: string, body: unknown) {
  const r = await t.call('POST', url, { body });
  if (r.status !== 201) throw new Error(`POST ${url} failed: ${r.status} ${r.text}`);
  return r.body;
}
const resource = (name: string, company = cid) => post(`/v1/companies/${company}/resources`, { name, color: '#336699' });
const service = (name: string, company = cid) => post(`/v1/companies/${company}/services`, { name, type: 'flexible' });
const count = async (url: string) => (await t.call('GET', url)).body.length;

describe('resources', () => {
  it('creates, lists by name and reads resources', async () => {
    const r = await t.call('POST', `${base}/resources`, { body: { name: 'Zoe', color: '#ff0000', metaData: { seniority: 3 } } });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(String),
      companyID: cid,
      name: 'Zoe',
      color: '#FF0000',
      metaData: { seniority: 3 },
      metaDataVersion: 1,
      relatedResourceIDs: [],
      disabledAt: null,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    const adam = await resource('Adam');
    const room = await post(`${base}/resources`, { name: 'Room 1', color: '#000000', relatedResourceIDs: [adam.id] });
    expect(room.relatedResourceIDs).toEqual([adam.id]);
    const names = (await t.call('GET', `${base}/resources`)).body.map((x: { name: string }) => x.name);
    expect(names).toEqual(['Adam', 'Room 1', 'Zoe']);
    expect((await t.call('GET', `${base}/resources/${r.body.id}`)).body).toEqual(r.body);
  });

  it('refuses bad resources and stores nothing', async () => {
    const foreign = await resource('Foreign', otherCid);
    const before = await count(`${base}/resources`);
    const cases: [unknown, string][] = [
      [{ name: 'No color' }, 'color'],
      [{ color: '#123456' }, 'name'],
      [{ name: 'X', color: 'blue' }, 'color'],
      [{ name: 'X', color: '#1234567' }, 'color'],
      [{ name: 'X', color: '#123456', relatedResourceIDs: ['nope'] }, 'relatedResourceIDs[0]'],
      [{ name: 'X', color: '#123456', relatedResourceIDs: [foreign.id] }, 'relatedResourceIDs[0]'],
      [{ name: 'X', color: '#123456', relatedResourceIDs: [UNKNOWN] }, 'relatedResourceIDs[0]'],
      [{ name: 'X', color: '#123456', metaData: [1, 2] }, 'metaData'],
    ];
    for (const [body, path] of cases) {
      const r = await t.call('POST', `${base}/resources`, { body });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid_request');
      expect(r.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect(await count(`${base}/resources`)).toBe(before);
  });

  it('updates name, color and related resources; leaving out enabled enables it', async () => {
    const r = await resource('Chair');
    const other = await resource('Mirror');
    const off = await t.call('PATCH', `${base}/resources/${r.id}`, { body: { enabled: false, name: 'Chair A', color: '#00aa00' } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ name: 'Chair A', color: '#00AA00' });
    expect(off.body.disabledAt).toMatch(/Z$/);
    const still = await t.call('PATCH', `${base}/resources/${r.id}`, { body: { enabled: false } });
    expect(still.body.disabledAt).toBe(off.body.disabledAt);
    const on = await t.call('PATCH', `${base}/resources/${r.id}`, { body: { relatedResourceIDs: [other.id] } });
    expect(on.body).toMatchObject({ disabledAt: null, relatedResourceIDs: [other.id], name: 'Chair A' });
    const cleared = await t.call('PATCH', `${base}/resources/${r.id}`, { body: { relatedResourceIDs: null } });
    expect(cleared.body.relatedResourceIDs).toEqual([]);
  });

  it('refuses related ids that are not other resources of the company and changes nothing', async () => {
    const r = await resource('Desk');
    const foreign = await resource('Desk elsewhere', otherCid);
    const off = (await t.call('PATCH', `${base}/resources/${r.id}`, { body: { enabled: false } })).body;
    for (const ids of [[r.id], [foreign.id], ['x'], [UNKNOWN]]) {
      const res = await t.call('PATCH', `${base}/resources/${r.id}`, { body: { relatedResourceIDs: ids, name: 'Changed' } });
      expect(res.status).toBe(400);
      expect(res.body.details[0].path).toBe('relatedResourceIDs[0]');
    }
    for (const body of [{ name: '' }, { color: 'teal' }, { enabled: 1 }])
      expect((await t.call('PATCH', `${base}/resources/${r.id}`, { body })).status).toBe(400);
    expect((await t.call('GET', `${base}/resources/${r.id}`)).body).toEqual(off);
  });

  it('applies metaDataUpdate and refuses a stale version', async () => {
    const r = await post(`${base}/resources`, { name: 'Van', color: '#ffffff', metaData: { plate: 'AB-1' } });
    const ok = await t.call('PATCH', `${base}/resources/${r.id}`, {
      body: { metaDataUpdate: { expectedVersion: 1, path: 'seats', value: 8 } },
    });
    expect(ok.body).toMatchObject({ metaData: { plate: 'AB-1', seats: 8 }, metaDataVersion: 2 });
    const stale = await t.call('PATCH', `${base}/resources/${r.id}`, {
      body: { name: 'Bus', metaDataUpdate: { expectedVersion: 1, path: '', value: {} } },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    expect((await t.call('GET', `${base}/resources/${r.id}`)).body).toMatchObject({
      name: 'Van',
      metaData: { plate: 'AB-1', seats: 8 },
      metaDataVersion: 2,
    });
  });

  it('keeps tenants apart', async () => {
    const r = await resource('Private');
    const stranger = await t.newMerchant();
    for (const [method, url, body] of [
      ['GET', `${base}/resources`, undefined],
      ['POST', `${base}/resources`, { name: 'X', color: '#000000' }],
      ['GET', `${base}/resources/${r.id}`, undefined],
      ['PATCH', `${base}/resources/${r.id}`, { name: 'Stolen' }],
      ['GET', `${base}/resources/${r.id}/links`, undefined],
    ] as const) {
      expect((await t.call(method, url, { key: stranger, body })).status).toBe(403);
    }
    const sister = `/v1/companies/${otherCid}`;
    expect((await t.call('GET', `${sister}/resources/${r.id}`)).status).toBe(404);
    expect((await t.call('PATCH', `${sister}/resources/${r.id}`, { body: { name: 'Moved' } })).status).toBe(404);
    expect((await t.call('GET', `${sister}/resources/${r.id}/links`)).status).toBe(404);
    expect((await t.call('GET', `${base}/resources/${UNKNOWN}`)).status).toBe(404);
    expect((await t.call('GET', `${base}/resources/12345`)).status).toBe(400);
    expect((await t.call('GET', `${base}/resources/${r.id}`)).body.name).toBe('Private');
    const reader = await t.keyWith({ [cid]: ['resources.read'] });
    expect((await t.call('GET', `${base}/resources`, { key: reader })).status).toBe(200);
    expect((await t.call('POST', `${base}/resources`, { key: reader, body: { name: 'X', color: '#000000' } })).status).toBe(403);
  });
});

describe('service-resource links', () => {
  it('links with all/any strategies, lists both directions and updates', async () => {
    const svc = await service('Consultation');
    const [doc, nurse, roomA, roomB] = await Promise.all(['Doctor', 'Nurse', 'Room A', 'Room B'].map((n) => resource(n)));
    const link = await t.call('POST', `${base}/services/${svc.id}/links`, {
      body: { resourceID: doc.id, relatedResourceIDs: { all: [nurse.id], any: [roomA.id, roomB.id] } },
    });
    expect(link.status).toBe(201);
    expect(link.body).toEqual({
      id: expect.any(String),
      serviceID: svc.id,
      resourceID: doc.id,
      relatedResourceIDs: { all: [nurse.id], any: [roomA.id, roomB.id] },
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    const plain = await t.call('POST', `${base}/services/${svc.id}/links`, {
      body: { resourceID: nurse.id, relatedResourceIDs: [roomA.id] },
    });
    expect(plain.body.relatedResourceIDs).toEqual({ all: [roomA.id], any: [] });
    const bare = await t.call('POST', `${base}/services/${svc.id}/links`, { body: { resourceID: roomB.id } });
    expect(bare.body.relatedResourceIDs).toEqual({ all: [], any: [] });

    const byService = (await t.call('GET', `${base}/services/${svc.id}/links`)).body;
    expect(byService.links.map((l: { id: string }) => l.id).sort()).toEqual([link.body.id, plain.body.id, bare.body.id].sort());
    expect(byService.resources.map((r: { name: string }) => r.name)).toEqual(['Doctor', 'Nurse', 'Room B']);
    expect(byService.resources[0]).toEqual(doc);

    const other = await service('Check-up');
    await post(`${base}/services/${other.id}/links`, { resourceID: doc.id });
    const byResource = (await t.call('GET', `${base}/resources/${doc.id}/links`)).body;
    expect(byResource.links).toHaveLength(2);
    expect(byResource.services.map((s: { name: string }) => s.name)).toEqual(['Consultation', 'Check-up']);
    expect(byResource.services[0]).toEqual(svc);

    const upd = await t.call('PATCH', `${base}/services/${svc.id}/links/${link.body.id}`, {
      body: { relatedResourceIDs: { any: [nurse.id] } },
    });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ id: link.body.id, relatedResourceIDs: { all: [], any: [nurse.id] } });
    expect(
      (await t.call('PATCH', `${base}/services/${svc.id}/links/${link.body.id}`, { body: { relatedResourceIDs: [roomA.id] } })).body
        .relatedResourceIDs,
    ).toEqual({ all: [roomA.id], any: [] });
  });

  it('refuses a duplicate link with 409', async () => {
    const svc = await service('Duplicate');
    const r = await resource('Solo');
    await post(`${base}/services/${svc.id}/links`, { resourceID: r.id });
    const dup = await t.call('POST', `${base}/services/${svc.id}/links`, { body: { resourceID: r.id, relatedResourceIDs: [] } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('conflict');
    expect((await t.call('GET', `${base}/services/${svc.id}/links`)).body.links).toHaveLength(1);
  });

  it('refuses bad links and creates nothing', async () => {
    const svc = await service('Strict');
    const r = await resource('Target');
    const mate = await resource('Mate');
    const foreign = await resource('Foreign mate', otherCid);
    const url = `${base}/services/${svc.id}/links`;
    const bad: [unknown, number, string?][] = [
      [{}, 400],
      [{ resourceID: 'abc' }, 400, 'resourceID'],
      [{ resourceID: UNKNOWN }, 404],
      [{ resourceID: foreign.id }, 404],
      [{ resourceID: r.id, relatedResourceIDs: [r.id] }, 400, 'relatedResourceIDs.all[0]'],
      [{ resourceID: r.id, relatedResourceIDs: { any: [foreign.id] } }, 400, 'relatedResourceIDs.any[0]'],
      [{ resourceID: r.id, relatedResourceIDs: { all: [UNKNOWN] } }, 400, 'relatedResourceIDs.all[0]'],
      [{ resourceID: r.id, relatedResourceIDs: { some: [mate.id] } }, 400, 'relatedResourceIDs.some'],
      [{ resourceID: r.id, relatedResourceIDs: { all: [mate.id], any: [mate.id] } }, 400, 'relatedResourceIDs.any[0]'],
      [{ resourceID: r.id, relatedResourceIDs: 'all' }, 400],
    ];
    for (const [body, status, path] of bad) {
      const res = await t.call('POST', url, { body });
      expect([body, res.status]).toEqual([body, status]);
      if (path) expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect((await t.call('GET', url)).body.links).toEqual([]);
    const link = await post(url, { resourceID: r.id, relatedResourceIDs: [mate.id] });
    for (const relatedResourceIDs of [[r.id], [foreign.id], { all: ['x'] }]) {
      expect((await t.call('PATCH', `${url}/${link.id}`, { body: { relatedResourceIDs } })).status).toBe(400);
    }
    expect((await t.call('GET', url)).body.links).toEqual([link]);
  });

  it('finds links only under their own service and company', async () => {
    const svc = await service('Owner');
    const sibling = await service('Sibling');
    const r = await resource('Linked');
    const link = await post(`${base}/services/${svc.id}/links`, { resourceID: r.id });
    const body = { relatedResourceIDs: [] };
    expect((await t.call('PATCH', `${base}/services/${sibling.id}/links/${link.id}`, { body })).status).toBe(404);
    expect((await t.call('PATCH', `${base}/services/${svc.id}/links/${UNKNOWN}`, { body })).status).toBe(404);
    expect((await t.call('PATCH', `${base}/services/${svc.id}/links/bad-id`, { body })).status).toBe(400);
    const sister = `/v1/companies/${otherCid}`;
    expect((await t.call('GET', `${sister}/services/${svc.id}/links`)).status).toBe(404);
    expect((await t.call('POST', `${sister}/services/${svc.id}/links`, { body: { resourceID: r.id } })).status).toBe(404);
    expect((await t.call('PATCH', `${sister}/services/${svc.id}/links/${link.id}`, { body })).status).toBe(404);
    const sisterService = await service('Sister service', otherCid);
    expect((await t.call('POST', `${sister}/services/${sisterService.id}/links`, { body: { resourceID: r.id } })).status).toBe(404);
    const stranger = await t.newMerchant();
    expect((await t.call('GET', `${base}/services/${svc.id}/links`, { key: stranger })).status).toBe(403);
    expect((await t.call('POST', `${base}/services/${svc.id}/links`, { key: stranger, body: { resourceID: r.id } })).status).toBe(403);
    expect((await t.call('PATCH', `${base}/services/${svc.id}/links/${link.id}`, { key: stranger, body })).status).toBe(403);
    expect((await t.call('GET', `${base}/services/${svc.id}/links`)).body.links).toEqual([link]);
  });
});

describe('resources and links over GraphQL', () => {
  it('creates, updates and lists through the same services', async () => {
    const created = await t.gql(
      `mutation($c: ID!) { createResource(companyID: $c, input: { name: "Bay 1", color: "#0a0b0c", metaData: { lift: true } }) { id name color metaData } }`,
      { c: cid },
    );
    expect(created.body.errors).toBeUndefined();
    const r = created.body.data.createResource;
    expect(r).toMatchObject({ name: 'Bay 1', color: '#0A0B0C', metaData: { lift: true } });
    const mate = await resource('Bay helper');
    const svc = await service('Tyre change');
    const link = await t.gql(
      `mutation($c: ID!, $s: ID!, $r: ID!, $m: ID!) { createServiceResourceLink(companyID: $c, serviceID: $s, input: { resourceID: $r, relatedResourceIDs: { any: [$m] } }) { id serviceID resourceID relatedResourceIDs { all any } } }`,
      { c: cid, s: svc.id, r: r.id, m: mate.id },
    );
    expect(link.body.data.createServiceResourceLink).toMatchObject({
      serviceID: svc.id,
      resourceID: r.id,
      relatedResourceIDs: { all: [], any: [mate.id] },
    });
    const dup = await t.gql(
      `mutation($c: ID!, $s: ID!, $r: ID!) { createServiceResourceLink(companyID: $c, serviceID: $s, input: { resourceID: $r }) { id } }`,
      { c: cid, s: svc.id, r: r.id },
    );
    expect(dup.body.errors[0].extensions.code).toBe('conflict');
    const linkId = link.body.data.createServiceResourceLink.id;
    const upd = await t.gql(
      `mutation($c: ID!, $s: ID!, $l: ID!, $m: ID!) { updateServiceResourceLink(companyID: $c, serviceID: $s, id: $l, input: { relatedResourceIDs: { all: [$m] } }) { relatedResourceIDs { all any } } }`,
      { c: cid, s: svc.id, l: linkId, m: mate.id },
    );
    expect(upd.body.data.updateServiceResourceLink.relatedResourceIDs).toEqual({ all: [mate.id], any: [] });
    const self = await t.gql(
      `mutation($c: ID!, $s: ID!, $l: ID!, $m: ID!) { updateServiceResourceLink(companyID: $c, serviceID: $s, id: $l, input: { relatedResourceIDs: { all: [$m] } }) { id } }`,
      { c: cid, s: svc.id, l: linkId, m: r.id },
    );
    expect(self.body.errors[0].extensions.code).toBe('invalid_request');

    const q = await t.gql(
      `query($c: ID!, $s: ID!, $r: ID!) {
      serviceLinks(companyID: $c, serviceID: $s) { links { id } resources { id name } }
      resourceLinks(companyID: $c, resourceID: $r) { links { id } services { id name } }
      resource(companyID: $c, id: $r) { id services { services { id } } }
      service(companyID: $c, id: $s) { resources { resources { id } } links { links { id } } }
    }`,
      { c: cid, s: svc.id, r: r.id },
    );
    expect(q.body.errors).toBeUndefined();
    expect(q.body.data.serviceLinks).toEqual({ links: [{ id: linkId }], resources: [{ id: r.id, name: 'Bay 1' }] });
    expect(q.body.data.resourceLinks).toEqual({ links: [{ id: linkId }], services: [{ id: svc.id, name: 'Tyre change' }] });
    expect(q.body.data.resource.services.services).toEqual([{ id: svc.id }]);
    expect(q.body.data.service).toEqual({ resources: { resources: [{ id: r.id }] }, links: { links: [{ id: linkId }] } });

    const off = await t.gql(
      `mutation($c: ID!, $r: ID!) { updateResource(companyID: $c, id: $r, input: { enabled: false, metaDataUpdate: { expectedVersion: 1, path: "lift", value: false } }) { disabledAt metaData metaDataVersion } }`,
      { c: cid, r: r.id },
    );
    expect(off.body.data.updateResource).toMatchObject({ metaData: { lift: false }, metaDataVersion: 2, disabledAt: expect.any(String) });
    const on = await t.gql(
      `mutation($c: ID!, $r: ID!) { updateResource(companyID: $c, id: $r, input: { name: "Bay one" }) { name disabledAt } }`,
      { c: cid, r: r.id },
    );
    expect(on.body.data.updateResource).toEqual({ name: 'Bay one', disabledAt: null });
    const list = await t.gql(`query($c: ID!) { resources(companyID: $c) { resources { name } } }`, { c: cid });
    expect(list.body.data.resources.resources.map((x: { name: string }) => x.name)).toContain('Bay one');
    const foreign = await t.gql(`query($c: ID!, $r: ID!) { resource(companyID: $c, id: $r) { id } }`, { c: otherCid, r: r.id });
    expect(foreign.body.errors[0].extensions.code).toBe('not_found');
  });
});
