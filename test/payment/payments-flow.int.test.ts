import { sweepExpiredPayments } from '../../src/modules/payment/payment.api';
import { createTestApp, TestClock, type Res, type TestApp } from '../helpers/app';
import { countRows, Shop } from '../helpers/bookings-fixtures';
import { complete, configurePayments, pathOf, SECRET, verifyUrl } from '../helpers/payments-fixtures';

/** Client booking -> payment URL -> checkout -> signed redirect -> verify -> booking settled, through HTTP. */
const T0 = Date.parse('2026-03-01T00:00:00Z');
const clock = new TestClock(T0);
let t: TestApp;
let shop: Shop;
let sid: string;
let rid: string;
let token: string;

const SUCCESS = 'https://shop.example/booked/{{.ItemID}}?tx={{.ID}}&amount={{.Amount}}&currency={{.Currency}}&type={{.ItemType}}';
const FAILURE = 'https://shop.example/failed?tx={{.ID}}&item={{.ItemID}}';
const CANCEL = 'https://shop.example/cancelled?tx={{.ID}}';

beforeAll(async () => {
  t = await createTestApp({ clock });
  shop = await Shop.open(t, 'Flow salon', 'UTC');
  ({
    sid,
    rids: [rid],
  } = await shop.bookable('fixed', { duration: 'PT1H' }));
  await shop.price(sid, 'fixed', 2500);
  expect(
    (await configurePayments(t, shop.companyId, { success: SUCCESS, failure: FAILURE, cancel: CANCEL, templating: true, secret: SECRET }))
      .status,
  ).toBe(200);
});
afterAll(async () => t?.close());
beforeEach(async () => {
  clock.set(T0);
  token = await shop.login('payer@example.com', t.adminKey);
});

const request = (startTime: string, companyId = shop.companyId, service = sid, resource = rid): Promise<Res> =>
  t.call('POST', '/v1/client/bookings', {
    token,
    body: { companyID: companyId, serviceID: service, resourceID: resource, startTime, spots: 1 },
  });
const clientBooking = async (id: string) => (await shop.get(id)).body;
const transactionOf = async (bookingId: string) =>
  (await t.call('GET', `/v1/companies/${shop.companyId}/payments`, { query: { itemIDs: bookingId } })).body.transactions[0];
const txId = (paymentURL: string) => paymentURL.split('/').pop()!;

describe('the checkout page of a booking', () => {
  it("shows the booking's time in the company's time zone", async () => {
    const riga = await Shop.open(t, 'Riga salon', 'Europe/Riga');
    const { sid: rigaService, rids } = await riga.bookable('fixed', { duration: 'PT1H' });
    await riga.price(rigaService, 'fixed', 2500);
    await configurePayments(t, riga.companyId);
    const rigaToken = await riga.login('riga@example.com', t.adminKey);
    const booked = await t.call('POST', '/v1/client/bookings', {
      token: rigaToken,
      body: { companyID: riga.companyId, serviceID: rigaService, resourceID: rids[0], startTime: '2026-03-02T09:00:00Z' },
    });
    expect(booked.status).toBe(200);
    const page = await t.call('GET', pathOf(booked.body.paymentURL), { key: null });
    expect(page.text).toContain('Mon, 2 Mar 2026, 11:00 (Europe/Riga)');
  });
});

describe('paying a client booking with the test provider', () => {
  it('confirms the booking after a successful payment with a verifiable signed redirect', async () => {
    const booked = await request('2026-03-02T09:00:00Z');
    expect(booked.status).toBe(200);
    expect(booked.body).toMatchObject({ status: 'pending', price: 2500, currency: 'EUR' });
    expect(booked.body.paymentURL).toMatch(/^http:\/\/localhost:4000\/v1\/payments\/test-checkout\/[0-9a-f-]{36}$/);
    const tx = await transactionOf(booked.body.id);
    expect(tx).toMatchObject({
      id: txId(booked.body.paymentURL),
      itemID: booked.body.id,
      itemIDs: [booked.body.id],
      itemType: 'booking',
      amount: 2500,
      status: 'pending',
      providerType: 'test',
      perItemAmounts: { [booked.body.id]: 2500 },
      email: 'payer@example.com',
    });
    expect(tx.userID).toEqual(expect.any(String));

    const page = await t.call('GET', pathOf(booked.body.paymentURL), { key: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain('25.00 EUR');
    expect(page.text).toContain('Mon, 2 Mar 2026, 09:00 (UTC)');

    clock.advance(60_000);
    const done = await complete(t, tx.id, 'success');
    expect(done.status).toBe(303);
    const location = done.headers.location as string;
    expect(location).toMatch(
      new RegExp(
        `^https://shop\\.example/booked/${booked.body.id}\\?tx=${tx.id}&amount=2500&currency=EUR&type=booking&ts=${(T0 + 60_000) / 1000}&sig=[0-9a-f]{64}$`,
      ),
    );
    expect((await verifyUrl(t, shop.companyId, location)).body).toEqual({ valid: true });

    expect((await clientBooking(booked.body.id)).status).toBe('confirmed');
    expect((await transactionOf(booked.body.id)).status).toBe('paid');
    const client = await t.call('GET', '/v1/client/payments', { token });
    expect(client.body.transactions.map((x: { id: string }) => x.id)).toContain(tx.id);
  });

  it.each([
    ['failure', 'failed', FAILURE],
    ['cancel', 'cancelled', CANCEL],
  ])('fails the booking when the payment ends with %s and releases its time', async (outcome, txStatus, template) => {
    const start = outcome === 'failure' ? '2026-03-02T11:00:00Z' : '2026-03-02T13:00:00Z';
    const booked = await request(start);
    expect(booked.status).toBe(200);
    // The pending booking holds its time.
    expect((await request(start)).status).toBe(409);
    const done = await complete(t, txId(booked.body.paymentURL), outcome);
    expect(done.status).toBe(303);
    expect(done.headers.location).toMatch(new RegExp(`^${template.split('?')[0].replace(/\./g, '\\.')}\\?tx=`));
    expect((await verifyUrl(t, shop.companyId, done.headers.location as string)).body).toEqual({ valid: true });
    expect((await clientBooking(booked.body.id)).status).toBe('failed');
    expect((await transactionOf(booked.body.id)).status).toBe(txStatus);
    const again = await request(start);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('pending');
  });

  it('fails the booking when the payment expires and releases its time', async () => {
    const start = '2026-03-02T15:00:00Z';
    const booked = await request(start);
    const timeout = t.deps.config.paymentTimeoutSec * 1000;
    expect(await sweepExpiredPayments(t.deps, new Date(T0 + timeout - 1000))).toBe(0);
    expect((await clientBooking(booked.body.id)).status).toBe('pending');
    clock.set(T0 + timeout);
    expect(await sweepExpiredPayments(t.deps, new Date(clock.now()))).toBeGreaterThanOrEqual(1);
    expect((await clientBooking(booked.body.id)).status).toBe('failed');
    expect((await transactionOf(booked.body.id)).status).toBe('failed');
    expect((await complete(t, txId(booked.body.paymentURL), 'success')).status).toBe(409);
    token = await shop.login('payer@example.com', t.adminKey);
    expect((await request(start)).status).toBe(200);
  });

  it('refunds a paid booking by percent through its transaction', async () => {
    const booked = await request('2026-03-02T17:00:00Z');
    const tx = txId(booked.body.paymentURL);
    await complete(t, tx, 'success');
    const r = await t.call('POST', `/v1/companies/${shop.companyId}/payments/${tx}/refunds`, {
      body: { itemID: booked.body.id, percent: 30 },
    });
    expect(r.status).toBe(201);
    expect(r.body.amount).toBe(750);
    expect((await t.call('GET', `/v1/refunds/${booked.body.id}`)).body.ID).toBe(r.body.ID);
    expect((await transactionOf(booked.body.id)).status).toBe('partially_refunded');
  });
});

describe('payment URL creation refused inside the booking request', () => {
  async function salon(name: string): Promise<{ shop: Shop; sid: string; rid: string; token: string }> {
    const s = await Shop.open(t, name, 'UTC');
    const { sid: service, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    await s.price(service, 'fixed', 1000);
    return { shop: s, sid: service, rid: rids[0], token: await s.login('payer@example.com', t.adminKey) };
  }
  const bookingsOf = (companyId: string) => countRows(t, 'select count(*) as n from booking where company_id = ?', [companyId]);
  const paymentsOf = (companyId: string) => countRows(t, 'select count(*) as n from payment_transaction where company_id = ?', [companyId]);

  it('creates the booking when the final redirect URL is 2000 characters, refuses 2001 and creates nothing', async () => {
    const s = await salon('Long redirect');
    const head = 'https://shop.example/r?tx={{.ID}}&p=';
    const pad = (n: number) => head + 'a'.repeat(n - (head.length - '{{.ID}}'.length + 36 + '&ts='.length + 10 + '&sig='.length + 64));
    const book = (start: string) =>
      t.call('POST', '/v1/client/bookings', {
        token: s.token,
        body: { companyID: s.shop.companyId, serviceID: s.sid, resourceID: s.rid, startTime: start, spots: 1 },
      });

    await configurePayments(t, s.shop.companyId, { success: pad(2001), templating: true, secret: SECRET });
    const refused = await book('2026-03-03T09:00:00Z');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('2001 characters long');
    expect(await bookingsOf(s.shop.companyId)).toBe(0);
    expect(await paymentsOf(s.shop.companyId)).toBe(0);

    await configurePayments(t, s.shop.companyId, { success: pad(2000), templating: true, secret: SECRET });
    const ok = await book('2026-03-03T09:00:00Z');
    expect(ok.status).toBe(200);
    const done = await complete(t, txId(ok.body.paymentURL), 'success');
    expect((done.headers.location as string).length).toBe(2000);
  });

  it('refuses a provider that is not available here (settings saved before it was refused) with 409, and creates nothing', async () => {
    const s = await salon('Klix salon');
    await configurePayments(t, s.shop.companyId, { success: 'https://shop.example/{{.ID}}', templating: true, secret: SECRET });
    await t.deps.orm.em
      .fork()
      .getConnection()
      .execute(`update payment_settings set preferred_provider = 'klix' where company_id = ?`, [s.shop.companyId]);
    const r = await t.call('POST', '/v1/client/bookings', {
      token: s.token,
      body: { companyID: s.shop.companyId, serviceID: s.sid, resourceID: s.rid, startTime: '2026-03-03T10:00:00Z', spots: 1 },
    });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('payment provider klix is not available on this installation'),
    });
    expect(await bookingsOf(s.shop.companyId)).toBe(0);
  });

  it('refuses stripe without a secret key with 409, and creates nothing', async () => {
    const s = await salon('Stripe salon');
    await configurePayments(t, s.shop.companyId, {
      provider: 'stripe',
      success: 'https://shop.example/{{.ID}}',
      templating: true,
      secret: SECRET,
    });
    const r = await t.call('POST', '/v1/client/bookings', {
      token: s.token,
      body: { companyID: s.shop.companyId, serviceID: s.sid, resourceID: s.rid, startTime: '2026-03-03T10:00:00Z', spots: 1 },
    });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'conflict', message: expect.stringContaining('stripe is not set up for this company') });
    expect(await bookingsOf(s.shop.companyId)).toBe(0);
  });

  it('takes no payment for a company without payment settings', async () => {
    const s = await salon('Cash only');
    const r = await t.call('POST', '/v1/client/bookings', {
      token: s.token,
      body: { companyID: s.shop.companyId, serviceID: s.sid, resourceID: s.rid, startTime: '2026-03-03T11:00:00Z', spots: 1 },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'confirmed', paymentURL: null });
    expect(await paymentsOf(s.shop.companyId)).toBe(0);
  });
});
