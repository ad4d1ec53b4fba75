import { sweepExpiredPayments } from '../../src/modules/payment/payment.api';
import { sweepSubscriptions } from '../../src/modules/subscription/subscription.sweeper';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';
import { complete, configurePayments } from '../helpers/payments-fixtures';
import { SubscriptionFixtures } from '../helpers/subscriptions-fixtures';

/** The client's subscription cart, its checkout through the test provider, purchases, renewals and client isolation. */

const T0 = Date.parse('2026-03-01T10:00:00Z');
const clock = new TestClock(T0);
let t: TestApp;
let shop: Shop;
let f: SubscriptionFixtures;
let token: string;
let otherToken: string;
let widgetKey: string;
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ clock });
  shop = await Shop.open(t, 'Gym', 'Europe/Riga');
  f = new SubscriptionFixtures(t, shop.companyId);
  expect((await configurePayments(t, shop.companyId)).status).toBe(200);
  await f.settings({ currency: 'EUR', taxInclusive: false, taxRate: 21, cartExpiration: 'PT15M' });
  widgetKey = await t.keyWith({ [shop.companyId]: ['client.read', 'client.create'] });
});
afterAll(async () => t?.close());
beforeEach(async () => {
  clock.set(T0);
  n++;
  token = await shop.login(`member${n}@example.com`, t.adminKey);
  otherToken = await shop.login(`other${n}@example.com`, t.adminKey);
});

const base = () => `/v1/companies/${shop.companyId}/plugins/subscription/client`;
const cart = (tok = token) => t.call('GET', `${base()}/cart`, { token: tok });
const add = (items: unknown[], tok = token) => t.call('POST', `${base()}/cart`, { token: tok, body: { items } });
const checkout = (tok = token) => t.call('POST', `${base()}/cart/checkout`, { token: tok });
const txId = (url: string) => url.split('/').pop()!;
async function plan(price: number, extra: Parameters<SubscriptionFixtures['subscription']>[0] = {}): Promise<string> {
  const id = await f.subscription({ title: `Plan ${price}`, limitations: { bookingsCount: 4 }, ...extra });
  await f.price([id], price);
  return id;
}

describe('subscription cart', () => {
  it('adds pending_payment contracts that hold capacity until cartExpiration, and removes items', async () => {
    const s = await plan(1000);
    const r = await add([{ subscriptionID: s, metaData: { note: 'first' } }, { subscriptionID: s }]);
    expect(r.status).toBe(200);
    expect(r.body.expiresAt).toBe('2026-03-01T10:15:00Z');
    expect(r.body.items).toHaveLength(2);
    // items added together have one creation time; the cart lists them oldest first, then by id
    const noted = r.body.items.find((i: any) => i.metaData.note === 'first');
    expect(noted).toMatchObject({
      status: 'pending_payment',
      subscriptionID: s,
      price: 1000,
      currency: 'EUR',
      metaData: { note: 'first' },
    });
    clock.advance(60_000);
    const more = await add([{ subscriptionID: s }]);
    expect(more.body.items).toHaveLength(3);
    expect(more.body.expiresAt).toBe('2026-03-01T10:15:00Z'); // the earliest item's expiry
    const removed = await t.call('DELETE', `${base()}/cart/${r.body.items[0].id}`, { token });
    expect(removed.status).toBe(200);
    expect(removed.body.items.map((i: any) => i.id)).not.toContain(r.body.items[0].id);
    expect((await f.contractRow(r.body.items[0].id)).status).toBe('cancelled');
    // the removed item is not a purchase
    expect((await t.call('GET', `${base()}/purchases/${r.body.items[0].id}`, { token })).status).toBe(404);
  });

  it.each([
    ['no items', {}, 'items'],
    ['an empty list', { items: [] }, 'items'],
    ['a malformed subscription id', { items: [{ subscriptionID: 'nope' }] }, 'items[0].subscriptionID'],
    [
      'metadata that is not an object',
      { items: [{ subscriptionID: '00000000-0000-4000-8000-000000000000', metaData: [1] }] },
      'items.0.metaData',
    ],
  ])('refuses %s with 400 and adds nothing', async (_name, body, path) => {
    const r = await t.call('POST', `${base()}/cart`, { token, body });
    expect([r.status, r.body.code]).toEqual([400, 'invalid_request']);
    expect(r.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect((await cart()).body.items).toEqual([]);
  });

  it('refuses unknown (404), archived and unpriced subscriptions (400), all or nothing', async () => {
    const s = await plan(1000);
    expect((await add([{ subscriptionID: s }, { subscriptionID: '00000000-0000-4000-8000-000000000000' }])).status).toBe(404);
    const archived = await plan(1000, { archived: true });
    const unpriced = await f.subscription({});
    for (const id of [archived, unpriced]) {
      const r = await add([{ subscriptionID: s }, { subscriptionID: id }]);
      expect([r.status, r.body.details[0].path]).toEqual([400, 'items[1].subscriptionID']);
    }
    expect((await cart()).body.items).toEqual([]);
  });

  it('caps active + pending contracts by the capacity rule (409, nothing added), and an expired cart gives capacity back', async () => {
    const s = await plan(1000);
    await f.capacity([s], 2);
    expect((await add([{ subscriptionID: s }])).status).toBe(200);
    const over = await add([{ subscriptionID: s }, { subscriptionID: s }], otherToken);
    expect([over.status, over.body.code]).toEqual([409, 'conflict']);
    expect((await cart(otherToken)).body.items).toEqual([]);
    expect((await add([{ subscriptionID: s }], otherToken)).status).toBe(200);
    expect((await add([{ subscriptionID: s }], otherToken)).status).toBe(409);
    // 15 minutes later the items lapse: gone from the cart at once, cancelled by the sweeper, capacity free again
    clock.advance(15 * 60_000);
    token = await shop.login(`member${n}@example.com`, t.adminKey);
    otherToken = await shop.login(`other${n}@example.com`, t.adminKey);
    expect((await cart()).body).toEqual({ expiresAt: null, items: [] });
    expect((await sweepSubscriptions(t.deps)).lapsed).toBeGreaterThanOrEqual(2);
    expect((await add([{ subscriptionID: s }, { subscriptionID: s }], otherToken)).status).toBe(200);
  });
});

describe('checkout', () => {
  it('pays every cart item with one transaction, tax added (exclusive), and activates them with their first allocation', async () => {
    const a = await plan(1000, { duration: 'P30D' });
    const b = await plan(250, { duration: 'P1M' });
    await add([{ subscriptionID: a }, { subscriptionID: b }]);
    const r = await checkout();
    expect(r.status).toBe(200);
    // 1000 + 21% = 1210; 250 + 52.5 -> 53 = 303
    expect(r.body).toMatchObject({ total: 1513, tax: 263, currency: 'EUR' });
    expect(r.body.paymentURL).toMatch(/test-checkout/);
    expect(r.body.items.map((i: any) => i.status)).toEqual(['pending_payment', 'pending_payment']);
    expect((await cart()).body.items).toEqual([]);
    const tx = (await t.call('GET', `/v1/companies/${shop.companyId}/payments`, { query: { ids: r.body.transactionID } })).body
      .transactions[0];
    expect(tx).toMatchObject({ amount: 1513, itemType: 'subscription', taxInclusive: false, taxRate: 21 });
    expect(tx.itemIDs).toEqual(r.body.items.map((i: any) => i.id));
    clock.advance(60_000);
    expect((await complete(t, txId(r.body.paymentURL), 'success')).status).toBeLessThan(400);
    const [first, second] = [a, b].map((sid) => r.body.items.find((i: any) => i.subscriptionID === sid).id);
    const bought = (await t.call('GET', `${base()}/purchases/${first}`, { token })).body;
    expect(bought).toMatchObject({
      status: 'active',
      activeFrom: '2026-03-01T10:01:00Z',
      expiresAt: '2026-03-31T09:01:00Z',
      paymentURL: null,
    });
    // P1M is a calendar month in the company's zone
    expect((await t.call('GET', `${base()}/purchases/${second}`, { token })).body.expiresAt).toBe('2026-04-01T09:01:00Z');
    expect(await f.ledger(first)).toEqual([{ amount: 4, type: 'ALLOCATION', periodStart: '2026-03-01T10:01:00.000Z' }]);
    expect((await t.call('GET', `${base()}/purchases`, { token })).body.map((c: any) => c.id).sort()).toEqual([first, second].sort());
  });

  it('takes the tax out of the price when inclusive', async () => {
    await f.settings({ currency: 'EUR', taxInclusive: true, taxRate: 21 });
    try {
      const s = await plan(1000);
      await add([{ subscriptionID: s }, { subscriptionID: s }]);
      const r = await checkout();
      // 1000 * 21 / 121 = 173.55 -> 174 per line
      expect(r.body).toMatchObject({ total: 2000, tax: 348 });
    } finally {
      await f.settings({ currency: 'EUR', taxInclusive: false, taxRate: 21 });
    }
  });

  it.each(['failure', 'cancel'])('cancels every item when the payment ends with %s, and the capacity comes back', async (outcome) => {
    const s = await plan(500);
    await f.capacity([s], 2);
    await add([{ subscriptionID: s }, { subscriptionID: s }]);
    const r = await checkout();
    expect((await add([{ subscriptionID: s }], otherToken)).status).toBe(409);
    await complete(t, txId(r.body.paymentURL), outcome);
    for (const item of r.body.items) expect((await f.contractRow(item.id)).status).toBe('cancelled');
    expect((await add([{ subscriptionID: s }], otherToken)).status).toBe(200);
  });

  it('cancels every item when the payment expires (payment sweeper)', async () => {
    const s = await plan(500);
    await add([{ subscriptionID: s }, { subscriptionID: s }]);
    const r = await checkout();
    clock.advance(16 * 60_000);
    // checked-out items wait for their payment, not for the cart expiry
    await sweepSubscriptions(t.deps);
    expect((await f.contractRow(r.body.items[0].id)).status).toBe('pending_payment');
    expect(await sweepExpiredPayments(t.deps)).toBeGreaterThanOrEqual(1);
    for (const item of r.body.items) expect((await f.contractRow(item.id)).status).toBe('cancelled');
  });

  it('activates a free cart at once, without a payment', async () => {
    const s = await plan(0);
    await add([{ subscriptionID: s }]);
    const r = await checkout();
    expect(r.body).toMatchObject({ total: 0, tax: 0, paymentURL: null, transactionID: null });
    expect(r.body.items[0].status).toBe('active');
  });

  it('an empty cart is 409', async () => {
    const r = await checkout();
    expect([r.status, r.body.code]).toEqual([409, 'conflict']);
  });
});

describe('purchases', () => {
  it('buys in one step with a client token, or as a guest with an API key', async () => {
    const s = await plan(1000);
    const mine = await t.call('POST', `${base()}/purchases`, { token, body: { items: [{ subscriptionID: s }] } });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ total: 1210, tax: 210, currency: 'EUR' });
    expect((await cart()).body.items).toEqual([]);
    const guest = await t.call('POST', `${base()}/purchases`, {
      key: widgetKey,
      body: { client: { email: `guest${n}@example.com` }, items: [{ subscriptionID: s }] },
    });
    expect(guest.status).toBe(200);
    expect(guest.body.items[0].clientID).not.toBe(mine.body.items[0].clientID);
    const noGuest = await t.call('POST', `${base()}/purchases`, { key: widgetKey, body: { items: [{ subscriptionID: s }] } });
    expect([noGuest.status, noGuest.body.details[0].path]).toEqual([400, 'client']);
  });

  it("another client's cart item, contract and purchase answer 404", async () => {
    const s = await plan(0);
    const bought = (await t.call('POST', `${base()}/purchases`, { token, body: { items: [{ subscriptionID: s }] } })).body.items[0];
    const inCart = (await add([{ subscriptionID: await plan(100) }])).body.items[0];
    expect((await t.call('GET', `${base()}/purchases/${bought.id}`, { token: otherToken })).status).toBe(404);
    expect((await t.call('DELETE', `${base()}/cart/${inCart.id}`, { token: otherToken })).status).toBe(404);
    expect((await t.call('POST', `${base()}/purchases/renew`, { token: otherToken, body: { ids: [bought.id] } })).status).toBe(404);
    expect((await t.call('GET', `${base()}/purchases`, { token: otherToken })).body).toEqual([]);
    expect((await cart(otherToken)).body.items).toEqual([]);
    // another company's token
    const elsewhere = await Shop.open(t, 'Elsewhere');
    const foreign = await elsewhere.login(`x${n}@example.com`, t.adminKey);
    expect((await t.call('GET', `${base()}/purchases/${bought.id}`, { token: foreign })).status).toBe(403);
    expect(
      (await t.call('GET', `/v1/companies/${elsewhere.companyId}/plugins/subscription/client/purchases/${bought.id}`, { token: foreign }))
        .status,
    ).toBe(404);
  });

  it('renews for one more duration once the renewal is paid; partial renewals on request', async () => {
    const s = await plan(1000, { duration: 'P30D' });
    const a = (await t.call('POST', `${base()}/purchases`, { token, body: { items: [{ subscriptionID: s }] } })).body;
    await complete(t, a.transactionID, 'success');
    const id = a.items[0].id;
    const cancelled = (await t.call('POST', `${base()}/purchases`, { token, body: { items: [{ subscriptionID: s }] } })).body;
    await complete(t, cancelled.transactionID, 'cancel');
    const strict = await t.call('POST', `${base()}/purchases/renew`, { token, body: { ids: [id, cancelled.items[0].id] } });
    expect([strict.status, strict.body.details[0].path]).toEqual([409, 'ids[1]']);
    const r = await t.call('POST', `${base()}/purchases/renew`, {
      token,
      body: { ids: [id, cancelled.items[0].id], allowPartialRenewal: true },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ total: 1210, tax: 210 });
    expect(r.body.items.map((i: any) => i.id)).toEqual([id]);
    const tx = (await t.call('GET', `/v1/companies/${shop.companyId}/payments`, { query: { ids: r.body.transactionID } })).body
      .transactions[0];
    expect(tx.itemType).toBe('subscription_renewal');
    // a second renewal waits for the first one's payment
    expect((await t.call('POST', `${base()}/purchases/renew`, { token, body: { ids: [id] } })).status).toBe(409);
    await complete(t, r.body.transactionID, 'success');
    // P30D are calendar days in the company's zone (Europe/Riga moves to summer time on 29 March)
    expect((await t.call('GET', `${base()}/purchases/${id}`, { token })).body.expiresAt).toBe('2026-04-30T09:00:00Z');
  });
});

describe('GraphQL', () => {
  it('adds to the cart, checks out and lists purchases like REST', async () => {
    const s = await plan(1000);
    const added = await t.gql(
      `mutation($c: ID!, $s: ID!) { addToSubscriptionCart(companyID: $c, items: [{subscriptionID: $s, metaData: {via: "gql"}}]) {
         expiresAt items { id status price metaData limitations { bookingsCount } } } }`,
      { c: shop.companyId, s },
      { token },
    );
    expect(added.body.errors).toBeUndefined();
    expect(added.body.data.addToSubscriptionCart).toMatchObject({
      expiresAt: '2026-03-01T10:15:00Z',
      items: [{ status: 'pending_payment', price: 1000, metaData: { via: 'gql' }, limitations: { bookingsCount: 4 } }],
    });
    const paid = await t.gql(
      `mutation($c: ID!) { checkoutSubscriptionCart(companyID: $c) { total tax currency paymentURL transactionID items { id } } }`,
      { c: shop.companyId },
      { token },
    );
    expect(paid.body.data.checkoutSubscriptionCart).toMatchObject({ total: 1210, tax: 210, currency: 'EUR' });
    const empty = await t.gql(`mutation($c: ID!) { checkoutSubscriptionCart(companyID: $c) { total } }`, { c: shop.companyId }, { token });
    expect(empty.body.errors[0].extensions.code).toBe('conflict');
    const page = await t.gql(
      `query($c: ID!) { subscriptionPurchases(companyID: $c, limit: 10) { total limit offset subscriptionContracts { id status } } }`,
      { c: shop.companyId },
      { token },
    );
    expect(page.body.data.subscriptionPurchases).toMatchObject({ total: 1, limit: 10, offset: 0 });
    const other = await t.gql(
      `query($c: ID!, $id: ID!) { subscriptionPurchase(companyID: $c, id: $id) { id } }`,
      { c: shop.companyId, id: paid.body.data.checkoutSubscriptionCart.items[0].id },
      { token: otherToken },
    );
    expect(other.body.errors[0].extensions.code).toBe('not_found');
  });
});
