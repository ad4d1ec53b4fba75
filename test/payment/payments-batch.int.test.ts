import { sweepExpiredPayments } from '../../src/modules/payment/payment.api';
import { createTestApp, TestClock, type Res, type TestApp } from '../helpers/app';
import { countRows, Shop } from '../helpers/bookings-fixtures';
import { complete, configurePayments } from '../helpers/payments-fixtures';

/** Several client bookings paid with one payment, and refunds through the booking update. */
const T0 = Date.parse('2026-03-01T00:00:00Z');
const clock = new TestClock(T0);
let t: TestApp;
let shop: Shop;
let sid: string;
let rids: string[];
let token: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  shop = await Shop.open(t, 'Batch salon', 'UTC');
  ({ sid, rids } = await shop.bookable('fixed', { duration: 'PT1H' }, 2));
  await shop.price(sid, 'fixed', 2500);
  expect((await configurePayments(t, shop.companyId)).status).toBe(200);
});
afterAll(async () => t?.close());
beforeEach(async () => {
  clock.set(T0);
  token = await shop.login('payer@example.com', t.adminKey);
});

const at = (day: number, hour: number, minute = 0) => new Date(Date.UTC(2026, 2, day, hour, minute)).toISOString().replace('.000Z', 'Z');
const one = (startTime: string, resourceID = rids[0], extra: Record<string, unknown> = {}) => ({
  companyID: shop.companyId,
  serviceID: sid,
  resourceID,
  startTime,
  ...extra,
});
const batch = (
  body: unknown,
  opts: { token?: string | null; key?: string | null; headers?: Record<string, string> } = { token },
): Promise<Res> => t.call('POST', '/v1/client/bookings/batch', { body, ...opts });
const statusOf = async (id: string, s = shop) => (await s.get(id)).body.status;
const transaction = async (id: string, companyId = shop.companyId) =>
  (await t.call('GET', `/v1/companies/${companyId}/payments`, { query: { ids: id } })).body.transactions[0];
const dayList = async (day: number, s = shop) =>
  (await s.list({ from: at(day, 0), to: at(day + 1, 0), includeFailures: 'true' })).body.bookings as {
    id: string;
    startTime: string;
    resourceID: string;
    status: string;
  }[];

describe('a batch paid with the test provider', () => {
  it('writes every booking pending under one transaction and confirms them all once paid', async () => {
    const r = await batch({ bookings: [one(at(2, 9)), one(at(2, 9), rids[1]), one(at(2, 11))] });
    expect(r.status).toBe(200);
    const { bookings, paymentURL, transactionID } = r.body;
    expect(r.body).toMatchObject({ currency: 'EUR', totalAmount: 7500 });
    expect(paymentURL).toBe(`http://localhost:4000/v1/payments/test-checkout/${transactionID}`);
    expect(bookings).toHaveLength(3);
    for (const b of bookings) expect(b).toMatchObject({ status: 'pending', price: 2500, paymentURL, companyID: shop.companyId });
    expect(bookings.map((b: { startTime: string }) => b.startTime)).toEqual([at(2, 9), at(2, 9), at(2, 11)]);

    const ids = bookings.map((b: { id: string }) => b.id);
    const tx = await transaction(transactionID);
    expect(tx).toMatchObject({
      itemID: ids[0],
      itemIDs: ids,
      itemType: 'booking',
      amount: 7500,
      currency: 'EUR',
      status: 'pending',
      perItemAmounts: Object.fromEntries(ids.map((id: string) => [id, 2500])),
    });
    // A pending booking of the batch holds its time.
    expect((await batch({ bookings: [one(at(2, 11))] })).status).toBe(409);

    expect((await complete(t, transactionID, 'success')).status).toBe(200);
    for (const id of ids) expect(await statusOf(id)).toBe('confirmed');
    expect((await transaction(transactionID)).status).toBe('paid');
    expect((await complete(t, transactionID, 'success')).status).toBe(409);
  });

  it.each([['failure'], ['cancel']])('fails every booking when the payment ends with %s and gives the times back', async (outcome) => {
    const day = outcome === 'failure' ? 3 : 4;
    const body = { bookings: [one(at(day, 9)), one(at(day, 9), rids[1])] };
    const r = await batch(body);
    expect(r.status).toBe(200);
    expect((await complete(t, r.body.transactionID, outcome)).status).toBe(200);
    for (const b of r.body.bookings) expect(await statusOf(b.id)).toBe('failed');
    const again = await batch(body);
    expect(again.status).toBe(200);
    expect(again.body.bookings.map((b: { status: string }) => b.status)).toEqual(['pending', 'pending']);
  });

  it('fails every booking when the payment expires', async () => {
    const r = await batch({ bookings: [one(at(5, 9)), one(at(5, 10))] });
    clock.advance(15 * 60_000);
    expect(await sweepExpiredPayments(t.deps)).toBeGreaterThanOrEqual(1);
    for (const b of r.body.bookings) expect(await statusOf(b.id)).toBe('failed');
    token = await shop.login('payer@example.com', t.adminKey);
    expect((await batch({ bookings: [one(at(5, 9)), one(at(5, 10))] })).status).toBe(200);
  });

  it('answers a repeated Idempotency-Key with the first response and books once', async () => {
    const headers = { 'idempotency-key': 'batch-key-1' };
    const body = { bookings: [one(at(6, 9)), one(at(6, 10))] };
    const first = await batch(body, { token, headers });
    expect(first.status).toBe(200);
    const second = await batch(body, { token, headers });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect((await dayList(6)).length).toBe(2);
    expect((await batch({ bookings: [one(at(6, 12))] }, { token, headers })).status).toBe(409);
  });
});

describe('all or nothing', () => {
  it('refuses the whole batch when one booking is unavailable and writes none of them', async () => {
    const taken = await batch({ bookings: [one(at(7, 13))] });
    expect(taken.status).toBe(200);
    const payments = (await t.call('GET', `/v1/companies/${shop.companyId}/payments`)).body.total;

    const r = await batch({ bookings: [one(at(7, 13), rids[1]), one(at(7, 15)), one(at(7, 13))] });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'time_unavailable', details: [{ path: 'bookings[2]', message: expect.any(String) }] });
    expect((await dayList(7)).map((b) => b.id)).toEqual([taken.body.bookings[0].id]);
    expect((await t.call('GET', `/v1/companies/${shop.companyId}/payments`)).body.total).toBe(payments);
  });

  it('lets bookings of one batch conflict with each other', async () => {
    const payments = (await t.call('GET', `/v1/companies/${shop.companyId}/payments`)).body.total;
    // Each passes the availability check alone; the occupancy constraint refuses the second one.
    const r = await batch({ bookings: [one(at(8, 9), rids[1]), one(at(8, 12)), one(at(8, 12))] });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'time_unavailable', details: [{ path: 'bookings[2]' }] });
    expect(await dayList(8)).toEqual([]);
    // The payment started for the batch went with it.
    expect((await t.call('GET', `/v1/companies/${shop.companyId}/payments`)).body.total).toBe(payments);
  });

  it('names the booking whose service or resource is not in the company', async () => {
    const r = await batch({ bookings: [one(at(8, 9)), { ...one(at(8, 10)), serviceID: '00000000-0000-4000-8000-000000000000' }] });
    expect(r.status).toBe(404);
    expect(r.body.details).toEqual([{ path: 'bookings[1]', message: expect.any(String) }]);
    const other = await Shop.open(t, 'Neighbour', 'UTC');
    const foreign = await other.resource('Foreign room');
    const cross = await batch({ bookings: [one(at(8, 9)), one(at(8, 10), foreign)] });
    expect(cross.status).toBe(404);
    expect(cross.body.details).toEqual([{ path: 'bookings[1]', message: expect.any(String) }]);
    // A client token of one company books nothing in another.
    const elsewhere = await batch({ bookings: [{ ...one(at(8, 9)), companyID: other.companyId }] });
    expect(elsewhere.status).toBe(403);
    expect(await dayList(8)).toEqual([]);
  });
});

describe('batch validation', () => {
  it('refuses an empty, missing, oversized or malformed list', async () => {
    expect((await batch({ bookings: [] })).body).toMatchObject({ code: 'invalid_request', details: [{ path: 'bookings' }] });
    expect((await batch({})).status).toBe(400);
    expect((await batch({ bookings: Array.from({ length: 51 }, (_, i) => one(at(20, 0, i))) })).body).toMatchObject({
      code: 'invalid_request',
      details: [{ path: 'bookings' }],
    });
    const bad = await batch({ bookings: [one(at(9, 9)), one('tomorrow'), one(at(9, 11), rids[0], { spots: 0 })] });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(['bookings[1].startTime', 'bookings[2].spots']);
    const code = await batch({ bookings: [one(at(9, 9)), one(at(9, 10), rids[0], { code: 'SPRING' })] });
    expect(code.body).toMatchObject({ code: 'invalid_request', details: [{ path: 'bookings[1].code' }] });
    expect(await dayList(9)).toEqual([]);
  });

  it('refuses bookings of different companies', async () => {
    const other = await Shop.open(t, 'Other salon', 'UTC');
    const r = await batch({ bookings: [one(at(9, 9)), { ...one(at(9, 10)), companyID: other.companyId }] });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([{ path: 'bookings[1].companyID', message: expect.any(String) }]);
    expect(await dayList(9)).toEqual([]);
  });

  it('refuses priced bookings in different currencies or with different taxes', async () => {
    const usd = await shop.service('fixed', { duration: 'PT1H', currency: 'USD' }, 'Dollar service');
    const taxed = await shop.service('fixed', { duration: 'PT1H', tax: { inclusive: true, rate: 12 } }, 'Taxed service');
    for (const s of [usd, taxed]) {
      await shop.link(s, rids[1]);
      await shop.price(s, 'fixed', 1000);
    }
    const mixed = await batch({ bookings: [one(at(10, 9)), { ...one(at(10, 9), rids[1]), serviceID: usd }] });
    expect(mixed.status).toBe(400);
    expect(mixed.body.details).toEqual([{ path: 'bookings[1]', message: expect.stringContaining('USD') }]);
    const taxes = await batch({ bookings: [one(at(10, 9)), { ...one(at(10, 9), rids[1]), serviceID: taxed }] });
    expect(taxes.status).toBe(400);
    expect(taxes.body.details).toEqual([{ path: 'bookings[1]', message: expect.any(String) }]);
    expect(await dayList(10)).toEqual([]);
  });
});

describe('guests and companies without payments', () => {
  it('books for a guest with an API key holding client.create', async () => {
    const key = await t.keyWith({ [shop.companyId]: ['client.create'] });
    const r = await batch(
      { client: { email: 'Batch.Guest@example.com', firstName: 'Bea' }, bookings: [one(at(11, 9)), one(at(11, 10))] },
      { key },
    );
    expect(r.status).toBe(200);
    const admin = (await shop.get(r.body.bookings[1].id)).body;
    expect(admin).toMatchObject({
      status: 'pending',
      clientInitiated: true,
      client: { email: 'Batch.Guest@example.com', firstName: 'Bea' },
    });
    expect((await transaction(r.body.transactionID)).email).toBe('Batch.Guest@example.com');

    // The guest may also come with the first booking; another guest on a later one is refused.
    const onFirst = await batch(
      { bookings: [one(at(11, 12), rids[0], { client: { email: 'batch.guest@example.com' } }), one(at(11, 13))] },
      { key },
    );
    expect(onFirst.status).toBe(200);
    expect((await shop.get(onFirst.body.bookings[0].id)).body.clientID).toBe(admin.clientID);
    const two = await batch(
      { client: { email: 'a@example.com' }, bookings: [one(at(11, 15)), one(at(11, 16), rids[0], { client: { email: 'b@example.com' } })] },
      { key },
    );
    expect(two.body).toMatchObject({ code: 'invalid_request', details: [{ path: 'bookings[1].client' }] });

    expect((await batch({ bookings: [one(at(11, 15))] }, { key })).body).toMatchObject({
      code: 'invalid_request',
      details: [{ path: 'client' }],
    });
    const readOnly = await t.keyWith({ [shop.companyId]: ['client.read'] });
    expect((await batch({ client: { email: 'x@example.com' }, bookings: [one(at(11, 15))] }, { key: readOnly })).status).toBe(403);
    expect((await batch({ client: { email: 'x@example.com' }, bookings: [one(at(11, 15))] }, { key: null })).status).toBe(401);
    const stranger = await t.newMerchant();
    expect((await batch({ client: { email: 'x@example.com' }, bookings: [one(at(11, 15))] }, { key: stranger })).status).toBe(403);
    expect((await dayList(11)).length).toBe(4);
  });

  it('confirms the bookings without a payment when the company takes none', async () => {
    const free = await Shop.open(t, 'No payments', 'UTC');
    const {
      sid: s,
      rids: [r1],
    } = await free.bookable('fixed', { duration: 'PT1H' });
    await free.price(s, 'fixed', 1000);
    const b = (start: string) => ({ companyID: free.companyId, serviceID: s, resourceID: r1, startTime: start });
    const r = await batch({ client: { email: 'walkin@example.com' }, bookings: [b(at(12, 9)), b(at(12, 10))] }, { key: t.adminKey });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ paymentURL: null, transactionID: null, totalAmount: 2000, currency: 'EUR' });
    expect(r.body.bookings.map((x: { status: string; paymentURL: string | null }) => [x.status, x.paymentURL])).toEqual([
      ['confirmed', null],
      ['confirmed', null],
    ]);
    expect((await t.call('GET', `/v1/companies/${free.companyId}/payments`)).body.total).toBe(0);
  });

  it('is the GraphQL mutation requestBookings', async () => {
    const q = `mutation($i: RequestBookingsInput!) { requestBookings(input: $i) { totalAmount currency paymentURL transactionID bookings { id status paymentURL } } }`;
    const r = await t.gql(q, { i: { bookings: [one(at(13, 9)), one(at(13, 10))] } }, { token });
    expect(r.body.errors).toBeUndefined();
    const got = r.body.data.requestBookings;
    expect(got).toMatchObject({ totalAmount: 5000, currency: 'EUR', transactionID: expect.any(String) });
    expect(got.bookings.map((b: { status: string }) => b.status)).toEqual(['pending', 'pending']);
    const conflict = await t.gql(q, { i: { bookings: [one(at(13, 11)), one(at(13, 9))] } }, { token });
    expect(conflict.body.errors[0].extensions).toMatchObject({ code: 'time_unavailable', details: [{ path: 'bookings[1]' }] });
  });
});

describe('refunds through the booking update', () => {
  const refunds = (bookingId: string) => countRows(t, 'select count(*) as n from refund where item_id = ?', [bookingId]);
  const refunded = (bookingId: string) =>
    countRows(t, "select coalesce(sum(amount), 0) as n from refund where item_id = ? and status = 'succeeded'", [bookingId]);
  async function paidBatch(day: number): Promise<{ ids: string[]; tx: string }> {
    const r = await batch({ bookings: [one(at(day, 9)), one(at(day, 9), rids[1])] });
    expect(r.status).toBe(200);
    expect((await complete(t, r.body.transactionID, 'success')).status).toBe(200);
    return { ids: r.body.bookings.map((b: { id: string }) => b.id), tx: r.body.transactionID };
  }

  it('refunds half of a paid booking once, however often the update is repeated', async () => {
    const {
      ids: [id, other],
      tx,
    } = await paidBatch(14);
    const r = await shop.patch(id, { refundPercent: 50 });
    expect(r.status).toBe(200);
    expect(r.body.refundPercent).toBe(50);
    const refund = await t.call('GET', `/v1/refunds/${id}`);
    expect(refund.status).toBe(200);
    expect(refund.body).toMatchObject({
      itemID: id,
      transactionID: tx,
      amount: 1250,
      currency: 'EUR',
      status: 'succeeded',
      idempotencyKey: `booking:${id}:refund:50`,
    });

    expect((await shop.patch(id, { refundPercent: 50 })).status).toBe(200);
    expect(await refunds(id)).toBe(1);
    expect((await transaction(tx)).status).toBe('partially_refunded');
    // Raising the share refunds only what is missing; lowering it or 0 takes nothing back.
    expect((await shop.patch(id, { refundPercent: 80 })).status).toBe(200);
    expect(await refunded(id)).toBe(2000);
    for (const p of [30, 0]) {
      const lower = await shop.patch(id, { refundPercent: p });
      expect(lower.body.refundPercent).toBe(p);
    }
    expect(await refunds(id)).toBe(2);
    expect(await refunds(other)).toBe(0);
  });

  it('only stores the percent of a booking without a paid payment', async () => {
    const pending = (await batch({ bookings: [one(at(15, 9))] })).body.bookings[0];
    const r = await shop.patch(pending.id, { refundPercent: 40 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ refundPercent: 40, status: 'pending' });
    expect((await t.call('GET', `/v1/refunds/${pending.id}`)).status).toBe(404);
  });

  it('never refunds more than was paid under concurrent updates', async () => {
    const {
      ids: [id],
      tx,
    } = await paidBatch(16);
    const base = await t.listen();
    // Real parallel HTTP requests: the row locks decide the order.
    const statuses = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const res = await fetch(`${base}${shop.base}/bookings/${id}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', 'x-api-key': shop.key },
          body: JSON.stringify({ refundPercent: 100 }),
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    for (const status of statuses) expect([200, 409]).toContain(status);
    expect(statuses).toContain(200);
    expect(await refunded(id)).toBe(2500);
    expect(await refunds(id)).toBe(1);
    expect((await transaction(tx)).status).toBe('partially_refunded');
    expect((await shop.get(id)).body.refundPercent).toBe(100);
  });
});
