import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { countRows, occupancyOf, Shop } from '../helpers/bookings-fixtures';

let t: TestApp;
let s: Shop;
const clock = new TestClock(Date.parse('2026-03-01T00:00:00Z'));

beforeAll(async () => {
  t = await createTestApp({ clock });
  s = await Shop.open(t);
});
afterAll(async () => t?.close());

const at = (day: number, hour: number, minute = 0) => new Date(Date.UTC(2026, 2, day, hour, minute)).toISOString().replace('.000Z', 'Z');

describe('admin create', () => {
  it('returns the admin Booking with a price snapshot, status by policy and a derived access token', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H', currency: 'EUR' });
    await s.price(sid, 'fixed', 2500);
    const client = (await t.call('POST', `${s.base}/clients`, { body: { email: 'ann@example.com', externalUserID: 'ann' } })).body;
    const r = await s.book({
      serviceID: sid,
      resourceID: rids[0],
      startTime: '2026-03-02T10:00:00+02:00',
      clientID: client.id,
      metaData: { note: 'window seat' },
    });
    expect(r.status).toBe(200);
    const b = r.body;
    expect(b).toMatchObject({
      companyID: s.companyId,
      clientID: client.id,
      serviceID: sid,
      resourceID: rids[0],
      relatedResourceIDs: [],
      startTime: '2026-03-02T08:00:00Z',
      endTime: '2026-03-02T09:00:00Z',
      duration: 'PT1H',
      spots: 1,
      tickets: {},
      price: 2500,
      currency: 'EUR',
      status: 'confirmed',
      bookingPolicy: 'instant',
      type: 'fixed',
      rrule: null,
      recurringID: null,
      clientInitiated: false,
      paymentURL: null,
      pluginData: {},
      metaData: { note: 'window seat' },
      metaDataVersion: 1,
      refundPercent: null,
      createdAt: '2026-03-01T00:00:00Z',
      updatedAt: '2026-03-01T00:00:00Z',
    });
    expect(b.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b.client).toMatchObject({ id: client.id, email: 'ann@example.com' });
    expect(b.service).toMatchObject({ id: sid, type: 'fixed' });
    expect(b.resource).toMatchObject({ id: rids[0] });
    expect(b.statusChanges).toEqual([
      { id: expect.any(String), bookingID: b.id, oldStatus: null, newStatus: 'confirmed', metaData: {}, createdAt: '2026-03-01T00:00:00Z' },
    ]);
    expect(await occupancyOf(t, b.id)).toEqual([
      { resource_id: rids[0], source: 'booking', lower: '2026-03-02T08:00:00Z', upper: '2026-03-02T09:00:00Z' },
    ]);
    // The price is a snapshot: a later price change does not touch it.
    await s.price(sid, 'fixed', 9900, { priority: 5 });
    expect((await s.get(b.id)).body).toMatchObject({ price: 2500, accessToken: b.accessToken, statusChanges: b.statusChanges });
  });

  it('is pending under a manual bookingPolicy; the clientID may be blank', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT30M', bookingPolicy: 'manual' });
    const r = await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(3, 9), clientID: '' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'pending', bookingPolicy: 'manual', clientID: null, client: null, price: 0 });
    expect(r.body.statusChanges.map((c: any) => [c.oldStatus, c.newStatus])).toEqual([[null, 'pending']]);
  });

  it('checks the schedule unless ignoreSchedule, and never skips the overlap check', async () => {
    const sid = await s.service('fixed', { duration: 'PT1H' });
    const rid = await s.resource('Limited');
    await s.link(sid, rid);
    await s.hours(rid, '09:00', '12:00');
    const evening = { serviceID: sid, resourceID: rid, startTime: '2026-03-04T20:00:00+02:00' };
    expect((await s.book(evening)).body.code).toBe('time_unavailable');
    const ok = await s.book({ ...evening, ignoreSchedule: true });
    expect(ok.status).toBe(200);
    const clash = await s.book({ ...evening, startTime: '2026-03-04T20:30:00+02:00', ignoreSchedule: true });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('time_unavailable');
    expect(await countRows(t, 'select count(*) as n from booking where resource_id = ?', [rid])).toBe(1);
  });

  it('lets merchants record past bookings', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const r = await s.book({ serviceID: sid, resourceID: rids[0], startTime: '2026-02-20T10:00:00Z' });
    expect(r.status).toBe(200);
  });

  it('answers 400 for malformed input, with details, and creates nothing', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const base = { serviceID: sid, resourceID: rids[0], startTime: at(5, 10) };
    const cases: [Record<string, unknown>, string][] = [
      [{ resourceID: rids[0], startTime: at(5, 10) }, 'serviceID'],
      [{ serviceID: sid, startTime: at(5, 10) }, 'resourceID'],
      [{ serviceID: sid, resourceID: rids[0] }, 'startTime'],
      [{ ...base, startTime: '2026-03-05T10:00:00' }, 'startTime'],
      [{ ...base, serviceID: 'nope' }, 'serviceID'],
      [{ ...base, clientID: 'nope' }, 'clientID'],
      [{ ...base, duration: 'an hour' }, 'duration'],
      [{ ...base, duration: 'PT2H' }, 'duration'],
      [{ ...base, spots: 3 }, 'spots'],
      [{ ...base, spots: 0 }, 'spots'],
      [{ ...base, tickets: { [sid]: 1 } }, 'tickets'],
      [{ ...base, metaData: [] }, 'metaData'],
      [{ ...base, ignoreSchedule: 'yes' }, 'ignoreSchedule'],
      [{ ...base, repeat: { rrule: 'FREQ=SECONDLY;COUNT=2', timeZone: 'Europe/Riga' } }, 'repeat.rrule'],
      [{ ...base, repeat: { rrule: 'FREQ=DAILY;COUNT=2', timeZone: 'Mars/Base' } }, 'repeat.timeZone'],
    ];
    for (const [body, path] of cases) {
      const r = await s.book(body);
      expect([r.status, r.body.code, r.body.details?.map((d: any) => d.path)]).toEqual([
        400,
        'invalid_request',
        expect.arrayContaining([path]),
      ]);
    }
    expect(await countRows(t, 'select count(*) as n from booking where service_id = ?', [sid])).toBe(0);
  });

  it('answers 404 for records outside the company and 401/403 for the wrong caller', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const other = await Shop.open(t, 'Other shop');
    const foreign = await other.bookable('fixed', { duration: 'PT1H' });
    const unlinked = await s.resource('Unlinked');
    const body = { serviceID: sid, resourceID: rids[0], startTime: at(6, 10) };
    expect((await s.book({ ...body, serviceID: foreign.sid })).status).toBe(404);
    expect((await s.book({ ...body, resourceID: foreign.rids[0] })).status).toBe(404);
    expect((await s.book({ ...body, resourceID: unlinked })).status).toBe(404);
    expect((await s.book({ ...body, clientID: '8b0c3c52-4a1e-4bb2-9a6e-2f1d1c0e9a77' })).status).toBe(404);
    expect((await s.book({ ...body, serviceID: '8b0c3c52-4a1e-4bb2-9a6e-2f1d1c0e9a77' })).status).toBe(404);
    const stranger = await t.newMerchant();
    expect((await s.book(body, { key: stranger })).status).toBe(403);
    const readOnly = await t.keyWith({ [s.companyId]: ['bookings.read'] });
    expect((await s.book(body, { key: readOnly })).status).toBe(403);
    expect((await t.call('POST', `${s.base}/bookings`, { key: null, body })).status).toBe(401);
    expect((await t.call('POST', `/v1/companies/not-a-uuid/bookings`, { body })).status).toBe(400);
    const writer = await t.keyWith({ [s.companyId]: ['bookings.write'] });
    expect((await s.book(body, { key: writer })).status).toBe(200);
  });
});

describe('get and list', () => {
  it("gets one booking; another company's id is 404, a malformed one 400", async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const b = (await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(7, 10) })).body;
    const g = await s.get(b.id);
    expect(g.status).toBe(200);
    expect(g.body).toEqual(b);
    const other = await Shop.open(t, 'Elsewhere');
    expect((await other.get(b.id)).status).toBe(404);
    expect((await s.get('nope')).status).toBe(400);
    expect((await t.call('GET', `${s.base}/bookings/${b.id}`, { key: await t.newMerchant() })).status).toBe(403);
  });

  it('filters, pages in startTime order and lists each referenced record once', async () => {
    const shop = await Shop.open(t, 'List shop');
    const a = await shop.bookable('fixed', { duration: 'PT1H' }, 2);
    const other = await shop.bookable('fixed', { duration: 'PT30M', bookingPolicy: 'manual' });
    const client = (await t.call('POST', `${shop.base}/clients`, { body: { email: 'lee@example.com', externalUserID: 'lee' } })).body;
    const made: any[] = [];
    for (const [svc, rid, start, clientID] of [
      [a.sid, a.rids[0], at(10, 12), client.id],
      [a.sid, a.rids[1], at(10, 9), null],
      [a.sid, a.rids[0], at(10, 9), client.id],
      [other.sid, other.rids[0], at(11, 9), null],
      [a.sid, a.rids[0], at(12, 9), null],
    ] as [string, string, string, string | null][]) {
      made.push((await shop.book({ serviceID: svc, resourceID: rid, startTime: start, ...(clientID ? { clientID } : {}) })).body);
    }
    await shop.patch(made[4].id, { status: 'cancelled' });
    await shop.patch(made[3].id, { status: 'rejected' });

    const all = await shop.list();
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ limit: 100, offset: 0, total: 4 });
    const sameStart = [made[1], made[2]].sort((x, y) => (x.id < y.id ? -1 : 1)).map((x) => x.id);
    expect(all.body.bookings.map((x: any) => x.id)).toEqual([...sameStart, made[0].id, made[4].id]);
    expect(all.body.services.map((x: any) => x.id)).toEqual([a.sid]);
    expect(all.body.resources.map((x: any) => x.id).sort()).toEqual([...a.rids].sort());
    expect(all.body.clients.map((x: any) => x.id)).toEqual([client.id]);
    expect(all.body).toMatchObject({ slots: [], tickets: [], blockedTimes: [] });
    expect(all.body.bookings[0].statusChanges).toHaveLength(1);

    const failures = await shop.list({ includeFailures: true });
    expect(failures.body.total).toBe(5);
    expect(failures.body.services).toHaveLength(2);
    expect((await shop.list({ clientID: client.id })).body.bookings.map((x: any) => x.id).sort()).toEqual([made[0].id, made[2].id].sort());
    expect((await shop.list({ from: at(10, 11), to: at(12, 0) })).body.bookings.map((x: any) => x.id)).toEqual([made[0].id]);
    expect((await shop.list({ resourceIDs: a.rids[1] })).body.bookings.map((x: any) => x.id)).toEqual([made[1].id]);
    expect((await shop.list({ serviceIDs: `${other.sid},${a.sid}`, includeFailures: 'true' })).body.total).toBe(5);
    const page = await shop.list({ limit: 2, offset: 1 });
    expect(page.body).toMatchObject({ limit: 2, offset: 1, total: 4 });
    expect(page.body.bookings.map((x: any) => x.id)).toEqual([sameStart[1], made[0].id]);

    for (const q of [
      { limit: 0 },
      { limit: 101 },
      { offset: -1 },
      { limit: 'x' },
      { from: 'yesterday' },
      { includeFailures: 'maybe' },
      { resourceIDs: 'a,b' },
      { clientID: 'x' },
      { from: at(12, 0), to: at(10, 0) },
    ]) {
      const r = await shop.list(q as never);
      expect([r.status, r.body.code]).toEqual([400, 'invalid_request']);
    }
  });

  it('costs a fixed number of statements whatever the page size', async () => {
    const shop = await Shop.open(t, 'Counting shop');
    const { sid, rids } = await shop.bookable('fixed', { duration: 'PT30M' }, 2);
    const book = (n: number, day: number) =>
      Promise.all(
        Array.from({ length: n }, (_, i) =>
          shop.book({ serviceID: sid, resourceID: rids[i % 2], startTime: at(day, 6 + Math.floor(i / 2)) }),
        ),
      );
    await book(4, 14);
    const small = await t.countStatements(() => shop.list({ to: at(15, 0) }));
    await book(30, 15);
    let listed = 0;
    const large = await t.countStatements(async () => {
      listed = (await shop.list()).body.bookings.length;
    });
    expect(listed).toBe(34);
    expect(large).toBe(small);
    expect(large).toBeLessThanOrEqual(10);
  });
});

describe('update', () => {
  it('updates metadata with a version check, price, refundPercent and status', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const b = (await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(16, 10), metaData: { a: 1 } })).body;
    const r = await s.patch(b.id, { metaDataUpdate: { expectedVersion: 1, path: 'b.c', value: 2 }, price: 1999, refundPercent: 50 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      metaData: { a: 1, b: { c: 2 } },
      metaDataVersion: 2,
      price: 1999,
      refundPercent: 50,
      status: 'confirmed',
    });
    expect((await s.patch(b.id, { metaDataUpdate: { expectedVersion: 1, path: 'a', value: 3 } })).body.code).toBe('version_conflict');
    for (const body of [
      { refundPercent: 101 },
      { refundPercent: -1 },
      { price: -5 },
      { status: 'done' },
      { spots: 2 },
      { startTime: 'soon' },
      { resourceID: 'x' },
      { duration: 'PT0S' },
    ]) {
      const bad = await s.patch(b.id, body);
      expect([bad.status, bad.body.code]).toEqual([400, 'invalid_request']);
    }
    expect((await s.get(b.id)).body).toMatchObject({ metaDataVersion: 2, price: 1999, refundPercent: 50 });
    expect((await s.patch('8b0c3c52-4a1e-4bb2-9a6e-2f1d1c0e9a77', { price: 1 })).status).toBe(404);
  });

  it('moves through the allowed statuses, appends statusChanges and refuses the rest with 409', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H', bookingPolicy: 'manual' });
    const b = (await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(17, 10) })).body;
    expect((await s.patch(b.id, { status: 'finished' })).status).toBe(409);
    expect((await s.patch(b.id, { status: 'confirmed' })).body.status).toBe('confirmed');
    expect((await s.patch(b.id, { status: 'pending' })).body.code).toBe('conflict');
    expect((await s.patch(b.id, { status: 'finished' })).body.status).toBe('finished');
    expect((await s.patch(b.id, { status: 'no_show' })).body.status).toBe('no_show');
    const last = await s.patch(b.id, { status: 'finished' });
    expect(last.body.statusChanges.map((c: any) => `${c.oldStatus}->${c.newStatus}`)).toEqual([
      'null->pending',
      'pending->confirmed',
      'confirmed->finished',
      'finished->no_show',
      'no_show->finished',
    ]);
    expect((await s.patch(b.id, { status: 'cancelled' })).status).toBe(409);
    // finished does not hold the time any more
    expect(await occupancyOf(t, b.id)).toEqual([]);
  });

  it('releases the time on cancel, so it can be booked again', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const body = { serviceID: sid, resourceID: rids[0], startTime: at(18, 10) };
    const b = (await s.book(body)).body;
    expect((await s.book(body)).status).toBe(409);
    expect((await s.patch(b.id, { status: 'cancelled' })).body.status).toBe('cancelled');
    expect((await s.book(body)).status).toBe(200);
    expect((await s.patch(b.id, { status: 'confirmed' })).status).toBe(409);
  });

  it('re-takes the time when it changes; a conflict changes nothing', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' }, 2);
    const first = (await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(19, 8) })).body;
    const second = (await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(19, 10) })).body;
    const clash = await s.patch(second.id, { startTime: at(19, 8, 30) });
    expect([clash.status, clash.body.code]).toEqual([409, 'time_unavailable']);
    expect((await s.get(second.id)).body).toMatchObject({ startTime: at(19, 10), updatedAt: second.updatedAt });
    expect(await occupancyOf(t, second.id)).toEqual([{ resource_id: rids[0], source: 'booking', lower: at(19, 10), upper: at(19, 11) }]);
    const moved = await s.patch(second.id, { startTime: at(19, 9), resourceID: rids[1] });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ startTime: at(19, 9), endTime: at(19, 10), resourceID: rids[1] });
    expect(await occupancyOf(t, second.id)).toEqual([{ resource_id: rids[1], source: 'booking', lower: at(19, 9), upper: at(19, 10) }]);
    expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(19, 10) })).status).toBe(200);
    expect(first.status).toBe('confirmed');
  });
});

describe('GraphQL', () => {
  it('creates, reads, lists, updates and moves bookings with the REST field names', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' }, 2);
    const fields =
      'id status startTime endTime duration price currency accessToken relatedResourceIDs clientInitiated statusChanges { oldStatus newStatus } service { id name } resource { id } client { id }';
    const created = await t.gql(`mutation($c: ID!, $i: CreateBookingInput!) { createBooking(companyID: $c, input: $i) { ${fields} } }`, {
      c: s.companyId,
      i: { serviceID: sid, resourceID: rids[0], startTime: at(20, 9), metaData: { via: 'gql' } },
    });
    expect(created.body.errors).toBeUndefined();
    const b = created.body.data.createBooking;
    expect(Date.parse(b.startTime)).toBe(Date.parse(at(20, 9)));
    expect(Date.parse(b.endTime)).toBe(Date.parse(at(20, 10)));
    expect(b).toMatchObject({
      status: 'confirmed',
      duration: 'PT1H',
      clientInitiated: false,
      service: { id: sid },
      resource: { id: rids[0] },
      client: null,
    });
    const again = await t.gql(`mutation($c: ID!, $i: CreateBookingInput!) { createBooking(companyID: $c, input: $i) { id } }`, {
      c: s.companyId,
      i: { serviceID: sid, resourceID: rids[0], startTime: at(20, 9) },
    });
    expect(again.body.errors[0].extensions.code).toBe('time_unavailable');
    const one = await t.gql(`query($c: ID!, $id: ID!) { booking(companyID: $c, id: $id) { id accessToken } }`, {
      c: s.companyId,
      id: b.id,
    });
    expect(one.body.data.booking).toEqual({ id: b.id, accessToken: b.accessToken });
    const page = await t.gql(
      `query($c: ID!, $f: BookingFilter) { bookings(companyID: $c, filter: $f, limit: 10) { total limit offset bookings { id service { id } } services { id } resources { id } clients { id } slots { id } tickets { id } blockedTimes { id } } }`,
      { c: s.companyId, f: { serviceIDs: [sid] } },
    );
    expect(page.body.data.bookings).toMatchObject({
      total: 1,
      limit: 10,
      offset: 0,
      bookings: [{ id: b.id, service: { id: sid } }],
      services: [{ id: sid }],
    });
    const updated = await t.gql(
      `mutation($c: ID!, $id: ID!, $i: UpdateBookingInput!) { updateBooking(companyID: $c, id: $id, input: $i) { status price } }`,
      { c: s.companyId, id: b.id, i: { price: 10 } },
    );
    expect(updated.body.data.updateBooking).toEqual({ status: 'confirmed', price: 10 });
    const moved = await t.gql(
      `mutation($c: ID!, $id: ID!, $i: MoveBookingInput!) { moveBooking(companyID: $c, id: $id, input: $i) { resourceID startTime } }`,
      { c: s.companyId, id: b.id, i: { resourceID: rids[1], startTime: at(20, 12) } },
    );
    expect(moved.body.data.moveBooking.resourceID).toBe(rids[1]);
    expect(Date.parse(moved.body.data.moveBooking.startTime)).toBe(Date.parse(at(20, 12)));
    const bad = await t.gql(
      `mutation($c: ID!, $id: ID!, $i: UpdateBookingInput!) { updateBooking(companyID: $c, id: $id, input: $i) { status } }`,
      { c: s.companyId, id: b.id, i: { status: 'pending' } },
    );
    expect(bad.body.errors[0].extensions.code).toBe('conflict');
  });

  it('resolves Booking.client, service and resource through loaders: a fixed number of statements per page', async () => {
    const shop = await Shop.open(t, 'Loader shop');
    const { sid, rids } = await shop.bookable('fixed', { duration: 'PT30M' }, 3);
    const clients: string[] = [];
    for (const n of [1, 2, 3])
      clients.push(
        (await t.call('POST', `${shop.base}/clients`, { body: { email: `c${n}@example.com`, externalUserID: `c${n}` } })).body.id,
      );
    const book = async (n: number, day: number) => {
      for (let i = 0; i < n; i++)
        await shop.book({ serviceID: sid, resourceID: rids[i % 3], startTime: at(day, 6 + Math.floor(i / 3)), clientID: clients[i % 3] });
    };
    const query = `query($c: ID!, $f: BookingFilter) { bookings(companyID: $c, filter: $f) { total bookings { id client { email } service { name } resource { name } } } }`;
    await book(3, 21);
    let first: any;
    const small = await t.countStatements(async () => {
      first = await t.gql(query, { c: shop.companyId, f: { to: at(22, 0) } });
    });
    expect(first.body.data.bookings.bookings.every((b: any) => b.client && b.service && b.resource)).toBe(true);
    await book(24, 22);
    let all: any;
    const large = await t.countStatements(async () => {
      all = await t.gql(query, { c: shop.companyId });
    });
    expect(all.body.data.bookings.total).toBe(27);
    expect(large).toBe(small);
  });
});
