import { createTestApp, TestClock, type Res, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';
import { complete, configurePayments } from '../helpers/payments-fixtures';
import { SubscriptionFixtures } from '../helpers/subscriptions-fixtures';

/**
 * What subscription checkouts, purchases, renewals and gift card purchases answer (the
 * checkout result: price, tax, taxRate, taxInclusive, currency, expiresAt, paymentURL), over
 * REST and GraphQL, and who sells: a company without payment settings sells neither.
 */

const T0 = Date.parse('2026-03-02T08:00:00Z');
const clock = new TestClock(T0);
let t: TestApp;
let shop: Shop;
let closed: Shop;
let f: SubscriptionFixtures;
let g: SubscriptionFixtures;
let widgetKey: string;
let closedWidgetKey: string;
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ clock });
  shop = await Shop.open(t, 'Selling gym', 'Europe/Riga');
  expect((await configurePayments(t, shop.companyId)).status).toBe(200);
  f = new SubscriptionFixtures(t, shop.companyId);
  await f.settings({ currency: 'EUR', taxInclusive: false, taxRate: 21 });
  widgetKey = await t.keyWith({ [shop.companyId]: ['client.read', 'client.create'] });
  // no payment settings: sells nothing
  closed = await Shop.open(t, 'Closed gym', 'Europe/Riga');
  g = new SubscriptionFixtures(t, closed.companyId);
  await g.settings({ currency: 'EUR', taxInclusive: true, taxRate: 21 });
  closedWidgetKey = await t.keyWith({ [closed.companyId]: ['client.read', 'client.create'] });
});
afterAll(async () => t?.close());
beforeEach(() => clock.set(T0));

const subs = (s: Shop) => `/v1/companies/${s.companyId}/plugins/subscription`;
const cards = (s: Shop) => `/v1/companies/${s.companyId}/plugins/giftcards`;
const login = (s: Shop) => s.login(`buyer${++n}@example.com`, t.adminKey);
const timeout = () => t.deps.config.paymentTimeoutSec * 1000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
async function plan(fx: SubscriptionFixtures, price: number): Promise<string> {
  const id = await fx.subscription({ title: `Plan ${price}`, duration: 'P30D', limitations: { bookingsCount: 4 } });
  await fx.price([id], price);
  return id;
}
async function card(s: Shop, body: Record<string, unknown> = {}): Promise<string> {
  const r = await t.call('POST', `${cards(s)}/giftcards`, {
    body: { title: 'Gift 50', amount: 5000, currency: 'EUR', active: true, taxInclusive: true, taxRate: 21, ...body },
  });
  expect(r.status).toBe(201);
  return r.body.id;
}
const CHECKOUT_KEYS = ['price', 'tax', 'taxRate', 'taxInclusive', 'currency', 'expiresAt', 'paymentURL'];

/** A due checkout result: the payment's id, URL and expiry, the price and its tax. */
function expectDue(r: Res, price: number, tax: number, taxRate: number, taxInclusive: boolean) {
  expect(r.status).toBe(200);
  for (const k of CHECKOUT_KEYS) expect(r.body).toHaveProperty(k);
  expect(r.body).toMatchObject({ price, tax, taxRate, taxInclusive, currency: 'EUR', expiresAt: iso(T0 + timeout()) });
  expect(r.body.paymentURL).toMatch(/\/v1\/payments\/test-checkout\/[0-9a-f-]{36}$/);
  expect(r.body.paymentURL.split('/').pop()).toBe(r.body.transactionID);
}

describe('subscription checkout result', () => {
  it('cart checkout: {items, price, tax, taxRate, taxInclusive, currency, expiresAt, paymentURL}', async () => {
    const token = await login(shop);
    const a = await plan(f, 1000);
    const b = await plan(f, 250);
    expect(
      (await t.call('POST', `${subs(shop)}/client/cart`, { token, body: { items: [{ subscriptionID: a }, { subscriptionID: b }] } }))
        .status,
    ).toBe(200);
    const r = await t.call('POST', `${subs(shop)}/client/cart/checkout`, { token });
    // 1000 + 210 and 250 + 53 (21 % added, per line)
    expectDue(r, 1513, 263, 21, false);
    expect(r.body.total).toBe(1513); // deprecated alias of price
    expect(r.body.items.map((i: { status: string }) => i.status)).toEqual(['pending_payment', 'pending_payment']);
    expect(r.body.item).toEqual(r.body.items[0]);
    const tx = (await t.call('GET', `/v1/companies/${shop.companyId}/payments`, { query: { ids: r.body.transactionID } })).body
      .transactions[0];
    expect(tx).toMatchObject({ amount: r.body.price, currency: 'EUR', taxRate: 21, taxInclusive: false });
  });

  it('purchase as a guest and renewal answer the same shape; nothing due: no paymentURL, no expiresAt', async () => {
    const priced = await plan(f, 1000);
    const bought = await t.call('POST', `${subs(shop)}/client/purchases`, {
      key: widgetKey,
      body: { client: { email: `guest${++n}@example.com` }, items: [{ subscriptionID: priced }] },
    });
    expectDue(bought, 1210, 210, 21, false);
    expect(bought.body.items).toHaveLength(1);
    expect(bought.body.item.id).toBe(bought.body.items[0].id);

    const token = await login(shop);
    const free = await t.call('POST', `${subs(shop)}/client/purchases`, { token, body: { items: [{ subscriptionID: await plan(f, 0) }] } });
    expect(free.status).toBe(200);
    expect(free.body).toMatchObject({
      price: 0,
      tax: 0,
      taxRate: 21,
      taxInclusive: false,
      currency: 'EUR',
      expiresAt: null,
      paymentURL: null,
      transactionID: null,
    });
    expect(free.body.items[0].status).toBe('active');

    const mine = await t.call('POST', `${subs(shop)}/client/purchases`, { token, body: { items: [{ subscriptionID: priced }] } });
    expect((await complete(t, mine.body.transactionID, 'success')).status).toBeLessThan(400);
    clock.advance(60_000);
    const renewed = await t.call('POST', `${subs(shop)}/client/purchases/renew`, { token, body: { ids: [mine.body.items[0].id] } });
    expect(renewed.status).toBe(200);
    expect(renewed.body).toMatchObject({ price: 1210, tax: 210, taxRate: 21, taxInclusive: false, currency: 'EUR' });
    expect(renewed.body.expiresAt).toBe(iso(T0 + 60_000 + timeout()));
    expect(renewed.body.paymentURL).toMatch(/test-checkout/);
  });

  it('GraphQL answers the same fields', async () => {
    const token = await login(shop);
    const s = await plan(f, 1000);
    const r = await t.gql(
      `mutation($c: ID!, $s: ID!) { purchaseSubscriptions(companyID: $c, input: {items: [{subscriptionID: $s}]}) {
         price tax taxRate taxInclusive currency expiresAt paymentURL transactionID total item { id } items { id status } } }`,
      { c: shop.companyId, s },
      { token },
    );
    expect(r.body.errors).toBeUndefined();
    const out = r.body.data.purchaseSubscriptions;
    expect(out).toMatchObject({ price: 1210, tax: 210, taxRate: 21, taxInclusive: false, currency: 'EUR', total: 1210 });
    expect(out.expiresAt).toBe(iso(T0 + timeout()));
    expect(out.item.id).toBe(out.items[0].id);
    expect(out.paymentURL.split('/').pop()).toBe(out.transactionID);
  });
});

describe('gift card purchase result', () => {
  it('answers {item: contract, price, tax, taxRate, taxInclusive, currency, expiresAt, paymentURL}', async () => {
    const token = await login(shop);
    const id = await card(shop, { taxInclusive: true, taxRate: 21 });
    const r = await t.call('POST', `${cards(shop)}/client/orders`, { token, body: { giftCardID: id, metaData: { to: 'Mum' } } });
    // 5000 includes 21 %: 5000 * 21 / 121 = 867.77
    expectDue(r, 5000, 868, 21, true);
    expect(r.body.item).toMatchObject({
      giftCardId: id,
      status: 'pending_payment',
      code: null,
      amount: 5000,
      balance: 5000,
      expiresAt: null,
      giftCardName: 'Gift 50',
      metaData: { to: 'Mum' },
      paymentURL: r.body.paymentURL,
    });
    const tx = (await t.call('GET', `/v1/companies/${shop.companyId}/payments`, { query: { ids: r.body.transactionID } })).body
      .transactions[0];
    expect(tx).toMatchObject({ amount: 5000, itemID: r.body.item.id, taxRate: 21, taxInclusive: true });
    const read = await t.call('GET', `${cards(shop)}/client/orders/${r.body.item.id}`, { token });
    expect(read.body).toEqual(r.body.item);

    const gql = await t.gql(
      `mutation($c: ID!, $g: ID!) { purchaseGiftCard(companyID: $c, input: {giftCardID: $g}) {
         price tax taxRate taxInclusive currency expiresAt paymentURL transactionID item { id status giftCardName paymentURL } } }`,
      { c: shop.companyId, g: id },
      { key: null, token },
    );
    expect(gql.body.errors).toBeUndefined();
    const out = gql.body.data.purchaseGiftCard;
    expect(out).toMatchObject({ price: 5000, tax: 868, taxRate: 21, taxInclusive: true, currency: 'EUR', expiresAt: iso(T0 + timeout()) });
    expect(out.item).toMatchObject({ status: 'pending_payment', giftCardName: 'Gift 50', paymentURL: out.paymentURL });
  });
});

describe('who sells', () => {
  const noPayments = (r: Res) => {
    expect([r.status, r.body.code]).toEqual([409, 'conflict']);
    expect(r.body.message).toMatch(/takes no payments/);
  };
  const contractsOf = async (companyId: string, table: string) =>
    Number(
      (
        (await t.deps.orm.em.fork().getConnection().execute(`select count(*) as n from ${table} where company_id = ?`, [companyId])) as {
          n: string;
        }[]
      )[0].n,
    );
  const transactions = () => contractsOf(closed.companyId, 'payment_transaction');

  it('a company without payment settings sells no subscriptions, priced or free (purchase, cart checkout, renewal)', async () => {
    const token = await login(closed);
    const priced = await plan(g, 1000);
    const free = await plan(g, 0);
    const before = await contractsOf(closed.companyId, 'subscription_contract');
    for (const subscriptionID of [priced, free]) {
      noPayments(await t.call('POST', `${subs(closed)}/client/purchases`, { token, body: { items: [{ subscriptionID }] } }));
      noPayments(
        await t.call('POST', `${subs(closed)}/client/purchases`, {
          key: closedWidgetKey,
          body: { client: { email: `guest${++n}@example.com` }, items: [{ subscriptionID }] },
        }),
      );
    }
    expect(await contractsOf(closed.companyId, 'subscription_contract')).toBe(before);
    expect((await t.call('POST', `${subs(closed)}/client/cart`, { token, body: { items: [{ subscriptionID: free }] } })).status).toBe(200);
    noPayments(await t.call('POST', `${subs(closed)}/client/cart/checkout`, { token }));
    const cart = await t.call('GET', `${subs(closed)}/client/cart`, { token });
    expect(cart.body.items.map((i: { status: string }) => i.status)).toEqual(['pending_payment']);

    // merchant-made contracts are unaffected; renewing one is a sale
    const clientId = (await t.call('GET', '/v1/client/profile', { token })).body.id;
    const made = await t.call('POST', `${subs(closed)}/list/${priced}/contracts`, { body: { clientID: clientId } });
    expect([made.status, made.body.status]).toEqual([201, 'active']);
    const pending = await t.call('POST', `${subs(closed)}/list/${priced}/contracts`, {
      body: { clientID: clientId, status: 'pending_payment' },
    });
    expect([pending.status, pending.body.status]).toEqual([201, 'pending_payment']);
    noPayments(await t.call('POST', `${subs(closed)}/client/purchases/renew`, { token, body: { ids: [made.body.id] } }));
    expect((await t.call('GET', `${subs(closed)}/contracts/${made.body.id}`)).body).toMatchObject({
      status: 'active',
      expiresAt: made.body.expiresAt,
    });
    const gql = await t.gql(
      `mutation($c: ID!, $s: ID!) { purchaseSubscriptions(companyID: $c, input: {items: [{subscriptionID: $s}]}) { price } }`,
      { c: closed.companyId, s: free },
      { token },
    );
    expect(gql.body.errors[0].extensions.code).toBe('conflict');
    expect(await transactions()).toBe(0);
  });

  it('a company without payment settings sells no gift cards, but issues them', async () => {
    const token = await login(closed);
    const id = await card(closed);
    noPayments(await t.call('POST', `${cards(closed)}/client/orders`, { token, body: { giftCardID: id } }));
    noPayments(
      await t.call('POST', `${cards(closed)}/client/orders`, {
        key: closedWidgetKey,
        body: { client: { email: `guest${++n}@example.com` }, giftCardID: id },
      }),
    );
    expect(await contractsOf(closed.companyId, 'gift_card_contract')).toBe(0);
    const issued = await t.call('POST', `${cards(closed)}/contracts`, { body: { giftCardID: id } });
    expect([issued.status, issued.body.status]).toEqual([201, 'active']);
    expect(await transactions()).toBe(0);
  });
});
