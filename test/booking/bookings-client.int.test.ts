import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { countRows, occupancyOf, Shop } from '../helpers/bookings-fixtures';
import { complete, configurePayments } from '../helpers/payments-fixtures';
import { purgeIdempotencyKeys } from '../../src/modules/booking/idempotency';
import { systemCtx } from '../../src/kernel/context';

/** The token with its first character changed (always a different character). */
const tamper = (token: string) => `${token[0] === 'A' ? 'B' : 'A'}${token.slice(1)}`;

let t: TestApp;
let s: Shop;
let clientKey: string;
let sid: string;
let rooms: string[];
const clock = new TestClock(Date.parse('2026-03-01T00:00:00Z'));

const at = (day: number, hour: number, minute = 0) => new Date(Date.UTC(2026, 2, day, hour, minute)).toISOString().replace('.000Z', 'Z');
const CLIENT_FIELDS = [
  'accessToken',
  'bookingPolicy',
  'companyID',
  'createdAt',
  'currency',
  'duration',
  'endTime',
  'id',
  'metaData',
  'paymentURL',
  'pluginData',
  'price',
  'relatedResourceIDs',
  'resourceID',
  'serviceID',
  'spots',
  'startTime',
  'status',
  'tickets',
  'type',
];

beforeAll(async () => {
  t = await createTestApp({ clock });
  s = await Shop.open(t, 'Client shop', 'UTC');
  clientKey = await t.keyWith({ [s.companyId]: ['client.create', 'client.read', 'client.login'] });
  sid = await s.service('fixed', { duration: 'PT1H' });
  rooms = [];
  for (const name of ['B room', 'A room']) {
    const rid = await s.resource(name);
    await s.link(sid, rid);
    await s.hours(rid, '08:00', '20:00');
    rooms.push(rid);
  }
  rooms.reverse(); // by name: A room first
});
afterAll(async () => t?.close());
beforeEach(() => clock.set('2026-03-01T00:00:00Z'));

const request = (body: Record<string, unknown>, opts: { token?: string; key?: string | null; headers?: Record<string, string> } = {}) =>
  t.call('POST', '/v1/client/bookings', {
    body: { companyID: s.companyId, serviceID: sid, ...body },
    token: opts.token,
    key: opts.token ? null : opts.key === undefined ? clientKey : opts.key,
    headers: opts.headers,
  });

describe('client requests with a token', () => {
  it('books an offered time and answers the client form', async () => {
    const token = await s.login('kim@example.com', clientKey);
    const r = await request(
      {
        resourceID: rooms[0],
        startTime: at(2, 9),
        spots: 1,
        code: '',
        metaData: { seat: 3 },
        pluginData: { source: 'widget' },
        customPurchaseDescription: 'Kim, Monday',
      },
      { token },
    );
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(CLIENT_FIELDS);
    expect(r.body).toMatchObject({
      companyID: s.companyId,
      serviceID: sid,
      resourceID: rooms[0],
      startTime: at(2, 9),
      endTime: at(2, 10),
      status: 'confirmed',
      metaData: { seat: 3 },
      pluginData: { source: 'widget' },
      paymentURL: null,
    });
    const admin = (await s.get(r.body.id)).body;
    expect(admin).toMatchObject({
      clientInitiated: true,
      customPurchaseDescription: 'Kim, Monday',
      client: { email: 'kim@example.com' },
      accessToken: r.body.accessToken,
    });
  });

  it('assigns the first available linked resource by name when resourceID is left out', async () => {
    const token = await s.login('lou@example.com', clientKey);
    const first = await request({ startTime: at(3, 9) }, { token });
    const second = await request({ startTime: at(3, 9) }, { token });
    const third = await request({ startTime: at(3, 9) }, { token });
    expect([first.body.resourceID, second.body.resourceID]).toEqual([rooms[0], rooms[1]]);
    expect([third.status, third.body.code]).toEqual([409, 'time_unavailable']);
  });

  it('never books past times or outside the schedule (ignoreSchedule is for merchants)', async () => {
    clock.set(at(4, 12));
    const token = await s.login('max@example.com', clientKey);
    expect((await request({ resourceID: rooms[0], startTime: at(4, 10) }, { token })).status).toBe(409);
    expect((await request({ resourceID: rooms[0], startTime: at(4, 21), ignoreSchedule: true }, { token })).status).toBe(409);
    expect((await request({ resourceID: rooms[0], startTime: at(4, 13) }, { token })).status).toBe(200);
  });

  it('refuses unknown codes, bad input and other companies', async () => {
    const token = await s.login('ned@example.com', clientKey);
    const coded = await request({ resourceID: rooms[0], startTime: at(5, 9), code: 'SUMMER10' }, { token });
    expect(coded.status).toBe(400);
    expect(coded.body).toMatchObject({
      code: 'invalid_request',
      message: 'unknown code',
      details: [{ path: 'code', message: 'unknown code' }],
    });
    for (const body of [
      { startTime: 'tomorrow' },
      { startTime: at(5, 9), resourceID: 'x' },
      { startTime: at(5, 9), spots: 'two' },
      { startTime: at(5, 9), pluginData: 'x' },
      { startTime: at(5, 9), serviceID: undefined },
      { startTime: at(5, 9), companyID: 'x' },
    ]) {
      expect((await request(body, { token })).status).toBe(400);
    }
    const elsewhere = await Shop.open(t, 'Elsewhere');
    const r = await t.call('POST', '/v1/client/bookings', {
      token,
      body: { companyID: elsewhere.companyId, serviceID: sid, startTime: at(5, 9) },
    });
    expect(r.status).toBe(403);
    expect(await countRows(t, 'select count(*) as n from booking where start_time = ?', [at(5, 9)])).toBe(0);
  });

  it('refuses a blocked client', async () => {
    const token = await s.login('bad@example.com', clientKey);
    const client = (await t.call('GET', `${s.base}/clients/search`, { query: { email: 'bad@example.com' } })).body[0];
    expect((await t.call('PATCH', `${s.base}/clients/${client.id}`, { body: { state: 'blocked' } })).status).toBe(200);
    expect((await request({ resourceID: rooms[0], startTime: at(5, 11) }, { token })).status).toBe(403);
  });
});

describe('guests', () => {
  it('book with an API key holding client.create and a client object, upserted by email', async () => {
    const r = await request({ resourceID: rooms[0], startTime: at(6, 9), client: { email: 'Guest@Example.com', firstName: 'Gus' } });
    expect(r.status).toBe(200);
    const again = await request({ resourceID: rooms[0], startTime: at(6, 11), client: { email: 'guest@example.com' } });
    const [a, b] = [(await s.get(r.body.id)).body, (await s.get(again.body.id)).body];
    expect(a.clientID).toBeTruthy();
    expect(b.clientID).toBe(a.clientID);
    expect(a.client).toMatchObject({ email: 'Guest@Example.com', firstName: 'Gus' });
  });

  it('need the client object, the client.create permission and credentials', async () => {
    expect((await request({ resourceID: rooms[0], startTime: at(6, 13) })).body).toMatchObject({
      code: 'invalid_request',
      details: [{ path: 'client' }],
    });
    expect((await request({ resourceID: rooms[0], startTime: at(6, 13), client: { email: 'not-an-email' } })).status).toBe(400);
    const readOnly = await t.keyWith({ [s.companyId]: ['client.read'] });
    expect(
      (await request({ resourceID: rooms[0], startTime: at(6, 13), client: { email: 'x@example.com' } }, { key: readOnly })).status,
    ).toBe(403);
    expect((await request({ resourceID: rooms[0], startTime: at(6, 13), client: { email: 'x@example.com' } }, { key: null })).status).toBe(
      401,
    );
    expect(await countRows(t, 'select count(*) as n from booking where start_time = ?', [at(6, 13)])).toBe(0);
  });

  it('read and cancel their booking with its accessToken (header or query)', async () => {
    const r = (await request({ resourceID: rooms[0], startTime: at(7, 9), client: { email: 'tok@example.com' } })).body;
    const plain = await t.call('GET', `/v1/client/bookings/${r.id}`, { key: null, query: { accessToken: r.accessToken } });
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual(r);
    expect((await t.call('GET', `/v1/client/bookings/${r.id}`, { key: null, headers: { 'x-booking-token': r.accessToken } })).status).toBe(
      200,
    );
    expect((await t.call('GET', `/v1/client/bookings/${r.id}`, { key: null, query: { accessToken: tamper(r.accessToken) } })).status).toBe(
      404,
    );
    expect((await t.call('GET', `/v1/client/bookings/${r.id}`, { key: null })).status).toBe(401);
    const other = (await request({ resourceID: rooms[1], startTime: at(7, 9), client: { email: 'tok2@example.com' } })).body;
    expect((await t.call('GET', `/v1/client/bookings/${other.id}`, { key: null, query: { accessToken: r.accessToken } })).status).toBe(404);

    const cancelled = await t.call('POST', `/v1/client/bookings/${r.id}/cancel`, {
      key: null,
      headers: { 'x-booking-token': r.accessToken },
      body: { metaData: { reason: 'ill' } },
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', metaData: { reason: 'ill' } });
    expect(await occupancyOf(t, r.id)).toEqual([]);
    const statusChanges = (await s.get(r.id)).body.statusChanges;
    expect(statusChanges.map((c: any) => c.newStatus)).toEqual(['confirmed', 'cancelled']);
    const twice = await t.call('POST', `/v1/client/bookings/${r.id}/cancel`, { key: null, query: { accessToken: r.accessToken } });
    expect(twice.status).toBe(409);
  });
});

describe('own bookings', () => {
  it('a client lists, reads and cancels only its own bookings', async () => {
    const ann = await s.login('ann.own@example.com', clientKey);
    const bob = await s.login('bob.own@example.com', clientKey);
    const mine: any[] = [];
    for (const h of [12, 10])
      mine.push((await request({ resourceID: rooms[0], startTime: at(8, h), metaData: { a: 1 } }, { token: ann })).body);
    const bobs = (await request({ resourceID: rooms[1], startTime: at(8, 10) }, { token: bob })).body;

    const list = await t.call('GET', '/v1/client/bookings', { token: ann });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ limit: 100, offset: 0, total: 2 });
    expect(list.body.bookings.map((b: any) => b.id)).toEqual([mine[1].id, mine[0].id]);
    expect(Object.keys(list.body.bookings[0]).sort()).toEqual(CLIENT_FIELDS);
    expect(
      (await t.call('GET', '/v1/client/bookings', { token: ann, query: { limit: 1, offset: 1 } })).body.bookings.map((b: any) => b.id),
    ).toEqual([mine[0].id]);
    expect((await t.call('GET', '/v1/client/bookings', { token: ann, query: { limit: 0 } })).status).toBe(400);
    expect((await t.call('GET', '/v1/client/bookings')).status).toBe(401);
    expect((await t.call('GET', '/v1/client/bookings', { key: null })).status).toBe(401);

    expect((await t.call('GET', `/v1/client/bookings/${mine[0].id}`, { token: ann })).status).toBe(200);
    expect((await t.call('GET', `/v1/client/bookings/${bobs.id}`, { token: ann })).status).toBe(404);
    expect((await t.call('POST', `/v1/client/bookings/${bobs.id}/cancel`, { token: ann, body: {} })).status).toBe(404);
    expect((await t.call('GET', `/v1/client/bookings/${bobs.id}`, { token: bob })).body.status).toBe('confirmed');
    expect((await t.call('GET', '/v1/client/bookings/nope', { token: ann })).status).toBe(400);

    const c = await t.call('POST', `/v1/client/bookings/${mine[0].id}/cancel`, { token: ann, body: { metaData: { b: 2 } } });
    expect(c.body).toMatchObject({ status: 'cancelled', metaData: { a: 1, b: 2 } });
    expect((await t.call('POST', `/v1/client/bookings/${mine[1].id}/cancel`, { token: ann })).body.status).toBe('cancelled');
  });
});

describe('idempotency', () => {
  it('replays the first answer for the same key and body, and refuses the key for another body', async () => {
    const token = await s.login('idem@example.com', clientKey);
    const headers = { 'idempotency-key': 'order-42' };
    const first = await request({ resourceID: rooms[0], startTime: at(9, 9) }, { token, headers });
    const replay = await request({ resourceID: rooms[0], startTime: at(9, 9) }, { token, headers });
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(await countRows(t, 'select count(*) as n from booking where start_time = ?', [at(9, 9)])).toBe(1);
    const other = await request({ resourceID: rooms[0], startTime: at(9, 11) }, { token, headers });
    expect([other.status, other.body.code]).toEqual([409, 'conflict']);
    // another client cannot replay this client's key into its booking
    const stranger = await s.login('idem2@example.com', clientKey);
    expect((await request({ resourceID: rooms[0], startTime: at(9, 9) }, { token: stranger, headers })).status).toBe(409);
    // a failed attempt stores nothing: the key can be used again
    const failed = await request({ resourceID: rooms[0], startTime: at(9, 9) }, { token, headers: { 'idempotency-key': 'order-43' } });
    expect(failed.body.code).toBe('time_unavailable');
    expect(
      (await request({ resourceID: rooms[0], startTime: at(9, 13) }, { token, headers: { 'idempotency-key': 'order-43' } })).status,
    ).toBe(200);
    expect(
      (await request({ resourceID: rooms[0], startTime: at(9, 15) }, { token, headers: { 'idempotency-key': 'x'.repeat(300) } })).status,
    ).toBe(400);
  });

  it('works for admin creates and expires after 24 hours', async () => {
    const headers = { 'idempotency-key': 'admin-1' };
    const body = { serviceID: sid, resourceID: rooms[1], startTime: at(10, 9) };
    const first = await s.book(body, { headers });
    expect((await s.book(body, { headers })).body).toEqual(first.body);
    expect((await s.book({ ...body, startTime: at(10, 11) }, { headers })).status).toBe(409);
    clock.advance(25 * 3600_000);
    // the hourly purge removes keys past their 24 hours
    expect(await purgeIdempotencyKeys(systemCtx(t.deps, 'system'), new Date(clock.now()))).toBeGreaterThanOrEqual(1);
    expect(await countRows(t, "select count(*) as n from idempotency_key where key = 'admin-1'", [])).toBe(0);
    const fresh = await s.book({ ...body, startTime: at(10, 11) }, { headers });
    expect(fresh.status).toBe(200);
    expect(fresh.body.id).not.toBe(first.body.id);
  });
});

describe('payments', () => {
  it('a priced request is pending with a paymentURL until paid; a failed payment releases the time', async () => {
    const shop = await Shop.open(t, 'Paying shop', 'UTC');
    const key = await t.keyWith({ [shop.companyId]: ['client.create'] });
    const { sid: paid, rids } = await shop.bookable('fixed', { duration: 'PT1H', tax: { inclusive: true, rate: 21 } });
    await shop.price(paid, 'fixed', 4000);
    const body = (start: string, email: string) => ({
      body: { companyID: shop.companyId, serviceID: paid, resourceID: rids[0], startTime: start, client: { email } },
      key,
    });
    const noSettings = await t.call('POST', '/v1/client/bookings', body(at(11, 9), 'p0@example.com'));
    expect(noSettings.body).toMatchObject({ status: 'confirmed', paymentURL: null, price: 4000 });

    expect((await configurePayments(t, shop.companyId)).status).toBe(200);
    const r = await t.call('POST', '/v1/client/bookings', body(at(11, 11), 'p1@example.com'));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'pending', price: 4000 });
    expect(r.body.paymentURL).toMatch(/^https?:\/\//);
    const tx = (await t.call('GET', `${shop.base}/payments`, { query: { itemIDs: r.body.id } })).body.transactions[0];
    expect(tx).toMatchObject({ amount: 4000, itemIDs: [r.body.id], perItemAmounts: { [r.body.id]: 4000 }, status: 'pending' });
    expect([200, 303]).toContain((await complete(t, tx.id, 'success', true)).status);
    const confirmed = (await shop.get(r.body.id)).body;
    expect(confirmed.status).toBe('confirmed');
    expect(confirmed.statusChanges.map((c: any) => c.newStatus)).toEqual(['pending', 'confirmed']);

    const f = await t.call('POST', '/v1/client/bookings', body(at(11, 13), 'p2@example.com'));
    const ftx = (await t.call('GET', `${shop.base}/payments`, { query: { itemIDs: f.body.id } })).body.transactions[0];
    await complete(t, ftx.id, 'failure', true);
    expect((await shop.get(f.body.id)).body.status).toBe('failed');
    expect(await occupancyOf(t, f.body.id)).toEqual([]);
    expect((await shop.list()).body.bookings.map((b: any) => b.id)).not.toContain(f.body.id);
  });
});

describe('GraphQL client operations', () => {
  it('requestBooking, clientBookings, clientBooking by accessToken and cancelClientBooking', async () => {
    const token = await s.login('gql@example.com', clientKey);
    const req = await t.gql(
      `mutation($i: RequestBookingInput!) { requestBooking(input: $i) { id status accessToken resourceID } }`,
      { i: { companyID: s.companyId, serviceID: sid, startTime: at(12, 9) } },
      { token },
    );
    expect(req.body.errors).toBeUndefined();
    const b = req.body.data.requestBooking;
    expect(b).toMatchObject({ status: 'confirmed', resourceID: rooms[0] });
    const mine = await t.gql(`{ clientBookings { total bookings { id } } }`, {}, { token });
    expect(mine.body.data.clientBookings).toEqual({ total: 1, bookings: [{ id: b.id }] });
    const anonymous = await t.gql(
      `query($id: ID!, $tok: String) { clientBooking(id: $id, accessToken: $tok) { id status } }`,
      { id: b.id, tok: b.accessToken },
      { key: null },
    );
    expect(anonymous.body.data.clientBooking).toEqual({ id: b.id, status: 'confirmed' });
    const denied = await t.gql(`query($id: ID!) { clientBooking(id: $id) { id } }`, { id: b.id }, { key: null });
    expect(denied.body.errors[0].extensions.code).toBe('unauthorized');
    const cancelled = await t.gql(
      `mutation($id: ID!) { cancelClientBooking(id: $id, input: { metaData: { why: "plans" } }) { status metaData } }`,
      { id: b.id },
      { token },
    );
    expect(cancelled.body.data.cancelClientBooking).toEqual({ status: 'cancelled', metaData: { why: 'plans' } });
    const guest = await t.gql(
      `mutation($i: RequestBookingInput!) { requestBooking(input: $i) { status } }`,
      { i: { companyID: s.companyId, serviceID: sid, startTime: at(12, 11), client: { email: 'gg@example.com' } } },
      { key: clientKey },
    );
    expect(guest.body.data.requestBooking.status).toBe('confirmed');
  });
});

describe('robustness', () => {
  it('answers 4xx, never 500, whatever a client sends', async () => {
    const token = await s.login('fuzz@example.com', clientKey);
    const values: unknown[] = [
      null,
      true,
      0,
      -1,
      1.5,
      1e308,
      '',
      'x',
      '2026-03-13T09:00:00Z',
      [],
      [1],
      {},
      { a: 1 },
      'P1D',
      'PT0S',
      '00000000-0000-0000-0000-000000000000',
      rooms[0],
      sid,
    ];
    const fields = [
      'companyID',
      'serviceID',
      'resourceID',
      'startTime',
      'duration',
      'spots',
      'tickets',
      'client',
      'code',
      'metaData',
      'pluginData',
      'customPurchaseDescription',
    ];
    let i = 0;
    for (const field of fields) {
      for (const value of values) {
        const body: Record<string, unknown> = { companyID: s.companyId, serviceID: sid, startTime: at(13, 9 + (i++ % 8)), [field]: value };
        const r = await t.call('POST', '/v1/client/bookings', { token, body });
        expect(r.status).toBeLessThan(500);
        const g = await t.call('POST', '/v1/client/bookings', {
          key: clientKey,
          body: { ...body, client: field === 'client' ? value : { email: 'f@example.com', [field]: value } },
        });
        expect(g.status).toBeLessThan(500);
      }
    }
    for (const body of ['{', '[]', 'null', '"x"', JSON.stringify({ metaData: { deep: 'x'.repeat(70_000) } })]) {
      expect((await t.call('POST', '/v1/client/bookings', { token, body })).status).toBeLessThan(500);
      expect((await t.call('POST', `${s.base}/bookings`, { body })).status).toBeLessThan(500);
    }
    const { sid: adminSid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const target = (await s.book({ serviceID: adminSid, resourceID: rids[0], startTime: at(14, 9) })).body.id;
    for (const field of [
      'clientID',
      'duration',
      'ignoreSchedule',
      'metaData',
      'repeat',
      'resourceID',
      'serviceID',
      'spots',
      'startTime',
      'tickets',
    ]) {
      for (const value of values) {
        expect((await s.book({ serviceID: adminSid, resourceID: rids[0], startTime: at(14, 12), [field]: value })).status).toBeLessThan(
          500,
        );
      }
    }
    for (const field of ['resourceID', 'startTime', 'ignoreSchedule', 'recalculatePrice', 'recurringUpdateStrategy']) {
      for (const value of values) {
        expect((await s.move(target, { resourceID: rids[0], startTime: at(14, 15), [field]: value })).status).toBeLessThan(500);
      }
    }
    for (const field of ['duration', 'price', 'refundPercent', 'resourceID', 'spots', 'startTime', 'status', 'metaDataUpdate']) {
      for (const value of values) {
        expect(
          (await t.call('PATCH', `${s.base}/bookings/00000000-0000-4000-8000-000000000000`, { body: { [field]: value } })).status,
        ).toBeLessThan(500);
        expect((await s.patch(target, { [field]: value })).status).toBeLessThan(500);
      }
    }
  });
});
