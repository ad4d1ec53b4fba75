import { createTestApp, TestClock, type TestApp } from '../helpers/app';

/** Services: CRUD, settings, validation, metadata and tenancy, over REST and GraphQL. */

let t: TestApp;
// Each write happens a second after the previous one, so creation order is a stable sort key.
const clock = new TestClock(Date.parse('2026-11-23T08:00:00Z'));
let cid: string;
let base: string;
const UNKNOWN = '5b1f3c1e-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await createTestApp({ clock });
  cid = (await t.company('Catalog Co')).id;
  base = `/v1/companies/${cid}`;
});
afterAll(async () => t?.close());

const fixedBody = { name: 'Haircut', type: 'fixed', color: '#aa00ff', settings: { duration: 'PT60M', currency: 'EUR' } };

async function create(body: Record<string, unknown>, url = `${base}/services`) {
  clock.advance(1000);
  const r = await t.call('POST', url, { body });
  if (r.status !== 201) throw new Error(`service creation failed: ${r.status} ${r.text}`);
  return r.body;
}

describe('services over REST', () => {
  it('creates services of all six types in the admin form', async () => {
    const fixed = await t.call('POST', `${base}/services`, { body: { ...fixedBody, metaData: { tier: 'gold' } } });
    expect(fixed.status).toBe(201);
    expect(fixed.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      companyID: cid,
      name: 'Haircut',
      type: 'fixed',
      color: '#AA00FF',
      metaData: { tier: 'gold' },
      metaDataVersion: 1,
      position: expect.any(Number),
      settings: {
        availabilityPeriod: null,
        bookingPolicy: 'instant',
        bufferBefore: null,
        bufferAfter: null,
        checkInTime: null,
        checkOutTime: null,
        currency: 'EUR',
        duration: 'PT1H',
        timeInterval: null,
        tax: null,
      },
      disabledAt: null,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    const bodies = [
      { name: 'Rental', type: 'flexible', settings: { timeInterval: 'PT30M', bufferBefore: 'PT0S', bufferAfter: 'PT10M' } },
      { name: 'Yoga', type: 'group', settings: { bookingPolicy: 'manual', availabilityPeriod: 'P30D' } },
      { name: 'Concert', type: 'ticket', settings: { tax: { inclusive: true, rate: 21 } } },
      { name: 'Cabin', type: 'days', settings: { duration: 'P2D', checkInTime: '14:00', checkOutTime: '11:00' } },
      { name: 'Scooter', type: 'sharable', settings: { duration: 'PT15M', currency: 'USD' } },
    ];
    for (const b of bodies) {
      const r = await t.call('POST', `${base}/services`, { body: b });
      expect(r.status).toBe(201);
      expect(r.body.type).toBe(b.type);
      expect(r.body.color).toBeNull();
    }
    const list = (await t.call('GET', `${base}/services`)).body;
    expect(list.map((s: { type: string }) => s.type)).toEqual(['fixed', 'flexible', 'group', 'ticket', 'days', 'sharable']);
    const byName = Object.fromEntries(list.map((s: { name: string }) => [s.name, s]));
    expect(byName.Rental.settings).toMatchObject({ timeInterval: 'PT30M', bufferBefore: 'PT0S', bufferAfter: 'PT10M' });
    expect(byName.Yoga.settings).toMatchObject({ bookingPolicy: 'manual', availabilityPeriod: 'P30D' });
    expect(byName.Concert.settings.tax).toEqual({ inclusive: true, rate: 21 });
    expect(byName.Cabin.settings).toMatchObject({ duration: 'P2D', checkInTime: '14:00', checkOutTime: '11:00' });
    expect(byName.Scooter.settings.currency).toBe('USD');
    expect((await t.call('GET', `${base}/services/${fixed.body.id}`)).body).toEqual(fixed.body);
  });

  it('lists by position, then creation', async () => {
    const other = (await t.company('Ordering')).id;
    const url = `/v1/companies/${other}/services`;
    const a = await create({ name: 'A', type: 'flexible' }, url);
    const b = await create({ name: 'B', type: 'flexible' }, url);
    const c = await create({ name: 'C', type: 'flexible', position: 0 }, url);
    expect([a.position, b.position, c.position]).toEqual([0, 1, 0]);
    const names = async () => (await t.call('GET', url)).body.map((s: { name: string }) => s.name);
    expect(await names()).toEqual(['A', 'C', 'B']);
    expect((await t.call('PATCH', `${url}/${a.id}`, { body: { position: 5 } })).body.position).toBe(5);
    expect(await names()).toEqual(['C', 'B', 'A']);
  });

  it.each([
    ['type', { name: 'X', type: 'hourly' }],
    ['type', { name: 'X' }],
    ['name', { name: '  ', type: 'flexible' }],
    ['color', { name: 'X', type: 'flexible', color: 'red' }],
    ['color', { name: 'X', type: 'flexible', color: '#12345' }],
    ['settings.duration', { name: 'X', type: 'flexible', settings: { duration: '1 hour' } }],
    ['settings.timeInterval', { name: 'X', type: 'flexible', settings: { timeInterval: 'PT' } }],
    ['settings.availabilityPeriod', { name: 'X', type: 'flexible', settings: { availabilityPeriod: 'PT0S' } }],
    ['settings.bufferBefore', { name: 'X', type: 'flexible', settings: { bufferBefore: '-PT5M' } }],
    ['settings.checkInTime', { name: 'X', type: 'days', settings: { duration: 'P1D', checkInTime: '24:00' } }],
    ['settings.checkOutTime', { name: 'X', type: 'days', settings: { duration: 'P1D', checkOutTime: '9:00' } }],
    ['settings.currency', { name: 'X', type: 'flexible', settings: { currency: 'EURO' } }],
    ['settings.currency', { name: 'X', type: 'flexible', settings: { currency: 'eur' } }],
    ['settings.currency', { name: 'X', type: 'flexible', settings: { currency: 'XQZ' } }],
    ['settings.bookingPolicy', { name: 'X', type: 'flexible', settings: { bookingPolicy: 'later' } }],
    ['settings.tax.rate', { name: 'X', type: 'flexible', settings: { tax: { inclusive: true, rate: 101 } } }],
    ['settings.tax.rate', { name: 'X', type: 'flexible', settings: { tax: { inclusive: true } } }],
    ['settings.duration', { name: 'X', type: 'fixed' }],
    ['settings.duration', { name: 'X', type: 'fixed', settings: { duration: 'PT0S' } }],
    ['settings.duration', { name: 'X', type: 'days', settings: { duration: 'PT36H' } }],
    ['metaData', { name: 'X', type: 'flexible', metaData: { big: 'x'.repeat(70 * 1024) } }],
  ])('refuses a service with a bad %s and stores nothing', async (path, body) => {
    const before = (await t.call('GET', `${base}/services`)).body.length;
    const r = await t.call('POST', `${base}/services`, { body });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
    expect(r.body.details.map((d: { path: string }) => d.path.replace(/^body\./, ''))).toContain(path);
    expect((await t.call('GET', `${base}/services`)).body.length).toBe(before);
  });

  it('answers 400 for wrong JSON types and reports every problem at once', async () => {
    expect((await t.call('POST', `${base}/services`, { body: { name: 5, type: 'fixed' } })).status).toBe(400);
    expect((await t.call('POST', `${base}/services`, { body: { name: 'X', type: 'fixed', settings: 'PT1H' } })).status).toBe(400);
    const r = await t.call('POST', `${base}/services`, {
      body: { name: 'X', type: 'fixed', color: 'blue', settings: { duration: 'soon', checkInTime: '7pm' } },
    });
    expect(r.status).toBe(400);
    expect(r.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['color', 'settings.checkInTime', 'settings.duration']);
  });

  it('updates name, color, position and enabled', async () => {
    const s = await create(fixedBody);
    const r = await t.call('PATCH', `${base}/services/${s.id}`, {
      body: { name: 'Long haircut', color: '#00ff00', position: 3, enabled: false },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'Long haircut', color: '#00FF00', position: 3, type: 'fixed', settings: s.settings });
    expect(r.body.disabledAt).toMatch(/Z$/);
    const again = await t.call('PATCH', `${base}/services/${s.id}`, { body: { enabled: false } });
    expect(again.body.disabledAt).toBe(r.body.disabledAt);
    const on = await t.call('PATCH', `${base}/services/${s.id}`, { body: { enabled: true } });
    expect(on.body.disabledAt).toBeNull();
    expect(on.body.name).toBe('Long haircut');
    const untouched = await t.call('PATCH', `${base}/services/${s.id}`, { body: {} });
    expect(untouched.status).toBe(200);
    expect(untouched.body).toMatchObject({ name: 'Long haircut', disabledAt: null });
  });

  it('keeps the type fixed after creation', async () => {
    const s = await create(fixedBody);
    const r = await t.call('PATCH', `${base}/services/${s.id}`, { body: { type: 'flexible', name: 'Changed' } });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([{ path: 'type', message: expect.any(String) }]);
    const got = (await t.call('GET', `${base}/services/${s.id}`)).body;
    expect(got).toMatchObject({ type: 'fixed', name: 'Haircut' });
    expect((await t.call('PATCH', `${base}/services/${s.id}`, { body: { type: 'fixed' } })).status).toBe(200);
  });

  it('refuses bad update fields and changes nothing', async () => {
    const s = await create(fixedBody);
    for (const body of [
      { name: '' },
      { color: 'green' },
      { enabled: 'yes' },
      { position: 1.5 },
      { position: 2147483648 },
      { metaDataUpdate: { path: 'a..b', value: 1 } },
    ]) {
      const r = await t.call('PATCH', `${base}/services/${s.id}`, { body });
      expect(r.status).toBe(400);
    }
    expect((await t.call('GET', `${base}/services/${s.id}`)).body).toEqual(s);
  });

  it('applies metaDataUpdate with versions and refuses a stale one', async () => {
    const s = await create({ ...fixedBody, metaData: { a: 1 } });
    const r1 = await t.call('PATCH', `${base}/services/${s.id}`, {
      body: { metaDataUpdate: { expectedVersion: 1, path: 'b.c', value: 'x' } },
    });
    expect(r1.status).toBe(200);
    expect(r1.body.metaData).toEqual({ a: 1, b: { c: 'x' } });
    expect(r1.body.metaDataVersion).toBe(2);
    const stale = await t.call('PATCH', `${base}/services/${s.id}`, {
      body: { name: 'Renamed', metaDataUpdate: { expectedVersion: 1, path: 'a', value: null } },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    const got = (await t.call('GET', `${base}/services/${s.id}`)).body;
    expect(got).toMatchObject({ name: 'Haircut', metaData: { a: 1, b: { c: 'x' } }, metaDataVersion: 2 });
    const r2 = await t.call('PATCH', `${base}/services/${s.id}`, { body: { metaDataUpdate: { path: 'a', value: null } } });
    expect(r2.body).toMatchObject({ metaData: { b: { c: 'x' } }, metaDataVersion: 3 });
  });
});

describe('service settings', () => {
  it('changes only the settings sent and clears with null', async () => {
    const s = await create({ ...fixedBody, settings: { duration: 'PT1H', currency: 'EUR', tax: { inclusive: false, rate: 21 } } });
    const url = `${base}/services/${s.id}/settings`;
    const r = await t.call('PATCH', url, { body: { bufferBefore: 'PT15M', timeInterval: 'PT90M' } });
    expect(r.status).toBe(200);
    expect(r.body.settings).toEqual({ ...s.settings, bufferBefore: 'PT15M', timeInterval: 'PT1H30M' });
    const cleared = await t.call('PATCH', url, { body: { currency: null, tax: { rate: 9 }, bookingPolicy: 'manual' } });
    expect(cleared.body.settings).toMatchObject({
      currency: null,
      tax: { inclusive: false, rate: 9 },
      bookingPolicy: 'manual',
      bufferBefore: 'PT15M',
      duration: 'PT1H',
    });
    const back = await t.call('PATCH', url, { body: { bookingPolicy: null, tax: null } });
    expect(back.body.settings).toMatchObject({ bookingPolicy: 'instant', tax: null });
  });

  it('keeps a fixed service’s duration and a days service’s whole days', async () => {
    const s = await create(fixedBody);
    const url = `${base}/services/${s.id}/settings`;
    for (const body of [{ duration: null }, { duration: 'PT0S' }, { duration: 'bad' }]) {
      const r = await t.call('PATCH', url, { body: { ...body, currency: 'USD' } });
      expect(r.status).toBe(400);
      expect(r.body.details[0].path).toBe('duration');
    }
    expect((await t.call('GET', `${base}/services/${s.id}`)).body.settings).toEqual(s.settings);
    const d = await create({ name: 'Stay', type: 'days' });
    expect(d.settings.duration).toBeNull();
    const bad = await t.call('PATCH', `${base}/services/${d.id}/settings`, { body: { duration: 'P1DT2H' } });
    expect(bad.status).toBe(400);
    expect((await t.call('PATCH', `${base}/services/${d.id}/settings`, { body: { duration: 'P1W' } })).body.settings.duration).toBe('P7D');
  });

  it.each([
    [{ availabilityPeriod: 'P' }, 'availabilityPeriod'],
    [{ bufferAfter: 'PT5X' }, 'bufferAfter'],
    [{ checkInTime: '12:60' }, 'checkInTime'],
    [{ currency: 'ABC' }, 'currency'],
    [{ tax: { inclusive: 'yes', rate: 5 } }, 'tax.inclusive'],
    [{ tax: { rate: -1 } }, 'tax.rate'],
    [{ bookingPolicy: 'auto' }, 'bookingPolicy'],
  ])('refuses %j and changes nothing', async (body, path) => {
    const s = await create({ name: 'Tour', type: 'group', settings: { currency: 'EUR' } });
    const r = await t.call('PATCH', `${base}/services/${s.id}/settings`, { body });
    expect(r.status).toBe(400);
    expect(r.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect((await t.call('GET', `${base}/services/${s.id}`)).body).toEqual(s);
  });
});

describe('service ids and tenancy', () => {
  it('answers 404 for unknown ids and 400 for malformed ones', async () => {
    expect((await t.call('GET', `${base}/services/${UNKNOWN}`)).status).toBe(404);
    expect((await t.call('PATCH', `${base}/services/${UNKNOWN}`, { body: { name: 'x' } })).status).toBe(404);
    expect((await t.call('PATCH', `${base}/services/${UNKNOWN}/settings`, { body: {} })).status).toBe(404);
    const bad = await t.call('GET', `${base}/services/not-a-uuid`);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_request');
    expect((await t.call('GET', `/v1/companies/${UNKNOWN}/services`)).status).toBe(404);
  });

  it('refuses another merchant with 403 and hides another company’s service with 404', async () => {
    const s = await create(fixedBody);
    const stranger = await t.newMerchant();
    for (const [method, url, body] of [
      ['GET', `${base}/services`, undefined],
      ['POST', `${base}/services`, fixedBody],
      ['GET', `${base}/services/${s.id}`, undefined],
      ['PATCH', `${base}/services/${s.id}`, { name: 'Mine now' }],
      ['PATCH', `${base}/services/${s.id}/settings`, { currency: 'USD' }],
    ] as const) {
      const r = await t.call(method, url, { key: stranger, body });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('forbidden');
    }
    const b = (await t.company('Sister company')).id;
    expect((await t.call('GET', `/v1/companies/${b}/services/${s.id}`)).status).toBe(404);
    expect((await t.call('PATCH', `/v1/companies/${b}/services/${s.id}`, { body: { name: 'Moved' } })).status).toBe(404);
    expect((await t.call('PATCH', `/v1/companies/${b}/services/${s.id}/settings`, { body: { currency: 'USD' } })).status).toBe(404);
    expect((await t.call('GET', `/v1/companies/${b}/services`)).body).toEqual([]);
    expect((await t.call('GET', `${base}/services/${s.id}`)).body).toEqual(s);
  });

  it('needs services.read to read and services.write to write', async () => {
    const reader = await t.keyWith({ [cid]: ['services.read'] });
    expect((await t.call('GET', `${base}/services`, { key: reader })).status).toBe(200);
    expect((await t.call('POST', `${base}/services`, { key: reader, body: fixedBody })).status).toBe(403);
    const other = await t.keyWith({ [cid]: ['resources.read'] });
    expect((await t.call('GET', `${base}/services`, { key: other })).status).toBe(403);
    expect((await t.call('GET', `${base}/services`, { key: null })).status).toBe(401);
  });
});

describe('services over GraphQL', () => {
  const fields =
    'id companyID name type color position metaData metaDataVersion disabledAt settings { duration currency bookingPolicy bufferBefore checkInTime tax { inclusive rate } }';

  it('creates, reads and updates through the same rules', async () => {
    const created = await t.gql(`mutation($c: ID!, $i: CreateServiceInput!) { createService(companyID: $c, input: $i) { ${fields} } }`, {
      c: cid,
      i: { name: 'Massage', type: 'fixed', color: '#112233', settings: { duration: 'PT45M', tax: { inclusive: true, rate: 5.5 } } },
    });
    expect(created.body.errors).toBeUndefined();
    const s = created.body.data.createService;
    expect(s).toMatchObject({
      companyID: cid,
      type: 'fixed',
      color: '#112233',
      settings: { duration: 'PT45M', bookingPolicy: 'instant', tax: { inclusive: true, rate: 5.5 } },
    });
    const rest = (await t.call('GET', `${base}/services/${s.id}`)).body;
    expect(rest.settings.duration).toBe('PT45M');

    const upd = await t.gql(
      `mutation($c: ID!, $id: ID!) { updateService(companyID: $c, id: $id, input: { name: "Deep massage", enabled: false, metaDataUpdate: { expectedVersion: 1, path: "room", value: 4 } }) { ${fields} } }`,
      { c: cid, id: s.id },
    );
    expect(upd.body.data.updateService).toMatchObject({ name: 'Deep massage', metaData: { room: 4 }, metaDataVersion: 2 });
    expect(upd.body.data.updateService.disabledAt).toEqual(expect.any(String));

    const st = await t.gql(
      `mutation($c: ID!, $id: ID!) { updateServiceSettings(companyID: $c, id: $id, input: { bufferBefore: "PT10M", currency: "SEK" }) { ${fields} } }`,
      { c: cid, id: s.id },
    );
    expect(st.body.data.updateServiceSettings.settings).toMatchObject({ duration: 'PT45M', bufferBefore: 'PT10M', currency: 'SEK' });

    const one = await t.gql(
      `query($c: ID!, $id: ID!) { service(companyID: $c, id: $id) { id name } services(companyID: $c) { services { id } } }`,
      {
        c: cid,
        id: s.id,
      },
    );
    expect(one.body.data.service.name).toBe('Deep massage');
    expect(one.body.data.services.services.map((x: { id: string }) => x.id)).toContain(s.id);
  });

  it('reports validation, conflicts and tenancy with the REST codes', async () => {
    const bad = await t.gql(`mutation($c: ID!) { createService(companyID: $c, input: { name: "X", type: fixed }) { id } }`, { c: cid });
    expect(bad.body.errors[0].extensions).toMatchObject({
      code: 'invalid_request',
      details: [{ path: 'settings.duration', message: expect.any(String) }],
    });
    const badType = await t.gql(`mutation($c: ID!) { createService(companyID: $c, input: { name: "X", type: weekly }) { id } }`, {
      c: cid,
    });
    expect(badType.body.errors[0].extensions.code).toBe('invalid_request');
    const s = await create(fixedBody);
    const keep = await t.gql(
      `mutation($c: ID!, $id: ID!) { updateServiceSettings(companyID: $c, id: $id, input: { duration: null }) { id } }`,
      { c: cid, id: s.id },
    );
    expect(keep.body.errors[0].extensions.code).toBe('invalid_request');
    const stale = await t.gql(
      `mutation($c: ID!, $id: ID!) { updateService(companyID: $c, id: $id, input: { metaDataUpdate: { expectedVersion: 7, path: "x", value: 1 } }) { id } }`,
      { c: cid, id: s.id },
    );
    expect(stale.body.errors[0].extensions.code).toBe('version_conflict');
    const stranger = await t.newMerchant();
    const denied = await t.gql(`query($c: ID!) { services(companyID: $c) { total } }`, { c: cid }, { key: stranger });
    expect(denied.body.errors[0].extensions.code).toBe('forbidden');
    const b = (await t.company('GraphQL sister')).id;
    const hidden = await t.gql(`query($c: ID!, $id: ID!) { service(companyID: $c, id: $id) { id } }`, { c: b, id: s.id });
    expect(hidden.body.errors[0].extensions.code).toBe('not_found');
    expect((await t.call('GET', `${base}/services/${s.id}`)).body).toEqual(s);
  });
});
