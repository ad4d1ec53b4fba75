import { readPdf } from '../../src/modules/document/testkit';
import { sweepExpiredPayments } from '../../src/modules/payment/payment.api';
import { createTestApp, TestClock, type Res, type TestApp } from '../helpers/app';
import { countRows, Shop } from '../helpers/bookings-fixtures';
import { complete, configurePayments } from '../helpers/payments-fixtures';

/** Gift cards through HTTP: definitions, contracts, usages and balances, purchases with payment, and cards on bookings. */

const T0 = Date.parse('2026-03-01T00:00:00Z');
const clock = new TestClock(T0);
let t: TestApp;
let shop: Shop;
let sid: string;
let rid: string;
let token: string;
let widgetKey: string;
let hour = 0;
const CODE = /^[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}-[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}-[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}$/;

beforeAll(async () => {
  t = await createTestApp({ clock });
  shop = await Shop.open(t, 'Gift salon', 'UTC');
  ({
    sid,
    rids: [rid],
  } = await shop.bookable('fixed', { duration: 'PT1H', currency: 'EUR' }));
  await shop.price(sid, 'fixed', 2500);
  expect((await configurePayments(t, shop.companyId)).status).toBe(200);
  widgetKey = await t.keyWith({ [shop.companyId]: ['client.read', 'client.create'] });
});
afterAll(async () => t?.close());
beforeEach(async () => {
  clock.set(T0);
  token = await shop.login('gina@example.com', t.adminKey);
});

const base = (companyId = shop.companyId) => `/v1/companies/${companyId}/plugins/giftcards`;
async function card(body: Record<string, unknown> = {}, companyId = shop.companyId): Promise<any> {
  const r = await t.call('POST', `${base(companyId)}/giftcards`, {
    body: { title: 'Gift 50', amount: 5000, currency: 'EUR', validityDuration: 'P365D', ...body },
  });
  if (r.status !== 201) throw new Error(`card: ${r.status} ${r.text}`);
  return r.body;
}
async function issue(cardId: string, body: Record<string, unknown> = {}, companyId = shop.companyId): Promise<any> {
  const r = await t.call('POST', `${base(companyId)}/contracts`, { body: { giftCardID: cardId, ...body } });
  if (r.status !== 201) throw new Error(`contract: ${r.status} ${r.text}`);
  return r.body;
}
const search = (body: Record<string, unknown>) => t.call('POST', `${base()}/contracts/search`, { body });
const contract = async (id: string) => (await search({ ids: [id] })).body.items[0];
const use = (contractId: string, body: Record<string, unknown>) => t.call('POST', `${base()}/contracts/${contractId}/usages`, { body });
const usages = async (contractId: string) => (await t.call('GET', `${base()}/contracts/${contractId}/usages`)).body;
const nextStart = () => new Date(Date.parse('2026-03-02T00:00:00Z') + hour++ * 3_600_000).toISOString().replace('.000Z', 'Z');
const request = (code: string | undefined, opts: { token?: string; start?: string } = {}): Promise<Res> =>
  t.call('POST', '/v1/client/bookings', {
    token: opts.token ?? token,
    body: {
      companyID: shop.companyId,
      serviceID: sid,
      resourceID: rid,
      startTime: opts.start ?? nextStart(),
      spots: 1,
      ...(code ? { code } : {}),
    },
  });
const txId = (paymentURL: string) => paymentURL.split('/').pop()!;
const transaction = async (id: string) =>
  (await t.call('GET', `/v1/companies/${shop.companyId}/payments`, { query: { ids: id } })).body.transactions[0];

describe('gift card definitions', () => {
  it('creates, lists, updates with versioned metadata and archives', async () => {
    const created = await t.call('POST', `${base()}/giftcards`, {
      body: {
        title: 'Spa day',
        amount: 10000,
        currency: 'EUR',
        taxInclusive: true,
        taxRate: 21,
        validityDuration: 'P1Y',
        availableFrom: '2026-01-01T00:00:00Z',
        metaData: { color: 'gold' },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: 'Spa day',
      amount: 10000,
      currency: 'EUR',
      active: true,
      taxInclusive: true,
      taxRate: 21,
      validityDuration: 'P365D',
      availableFrom: '2026-01-01T00:00:00Z',
      availableTo: null,
      archivedAt: null,
      metaData: { color: 'gold' },
      metaDataVersion: 1,
    });
    const id = created.body.id;
    expect((await t.call('GET', `${base()}/giftcards`)).body.map((g: { id: string }) => g.id)).toContain(id);
    const updated = await t.call('PATCH', `${base()}/giftcards/${id}`, {
      body: { amount: 12000, validityDuration: null, metaDataUpdate: { expectedVersion: 1, path: 'color', value: 'silver' } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ amount: 12000, validityDuration: null, metaData: { color: 'silver' }, metaDataVersion: 2 });
    const stale = await t.call('PATCH', `${base()}/giftcards/${id}`, {
      body: { metaDataUpdate: { expectedVersion: 1, path: 'x', value: 1 } },
    });
    expect([stale.status, stale.body.code]).toEqual([409, 'version_conflict']);
    const archived = await t.call('POST', `${base()}/giftcards/${id}/archive`, { body: { archived: true } });
    expect([archived.status, archived.body.archivedAt]).toEqual([200, '2026-03-01T00:00:00Z']);
    expect((await t.call('POST', `${base()}/giftcards/${id}/archive`, { body: { archived: false } })).body.archivedAt).toBeNull();
  });

  it.each([
    ['no title', { title: undefined }, 'title'],
    ['no amount', { amount: undefined }, 'amount'],
    ['a zero amount', { amount: 0 }, 'amount'],
    ['a fractional amount', { amount: 10.5 }, 'amount'],
    ['no currency', { currency: undefined }, 'currency'],
    ['an unknown currency', { currency: 'EURO' }, 'currency'],
    ['a bad validity', { validityDuration: 'one year' }, 'validityDuration'],
    ['a zero validity', { validityDuration: 'PT0S' }, 'validityDuration'],
    ['a tax rate above 100', { taxRate: 101 }, 'taxRate'],
    ['availableTo before availableFrom', { availableFrom: '2026-05-01T00:00:00Z', availableTo: '2026-04-01T00:00:00Z' }, 'availableTo'],
  ])('refuses %s with 400 and creates nothing', async (_name, body, path) => {
    const before = await countRows(t, 'select count(*) as n from gift_card where company_id = ?', [shop.companyId]);
    const r = await t.call('POST', `${base()}/giftcards`, { body: { title: 'X', amount: 100, currency: 'EUR', ...body } });
    expect([r.status, r.body.code]).toEqual([400, 'invalid_request']);
    expect(r.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await countRows(t, 'select count(*) as n from gift_card where company_id = ?', [shop.companyId])).toBe(before);
  });
});

describe('gift card contracts', () => {
  it('issues an active card with an unguessable, easy-to-type code, valid for validityDuration', async () => {
    const g = await card({ validityDuration: 'P30D' });
    const client = (await t.call('GET', '/v1/client/profile', { token })).body;
    const c = await issue(g.id, { clientId: client.id, metaData: { note: 'birthday' } });
    expect(c).toMatchObject({
      giftCardId: g.id,
      clientId: client.id,
      companyId: shop.companyId,
      amount: 5000,
      currency: 'EUR',
      balance: 5000,
      status: 'active',
      expiresAt: '2026-03-31T00:00:00Z',
      validUntil: '2026-03-31T00:00:00Z',
      metaData: { note: 'birthday' },
    });
    expect(c.code).toMatch(CODE);
    const forever = await issue((await card({ validityDuration: null })).id);
    expect(forever.expiresAt).toBeNull();
    expect(forever.code).not.toBe(c.code);
  });

  it('refuses archived cards, unknown cards and clients, and another initial status', async () => {
    const g = await card();
    await t.call('POST', `${base()}/giftcards/${g.id}/archive`, { body: {} });
    const archived = await t.call('POST', `${base()}/contracts`, { body: { giftCardID: g.id } });
    expect([archived.status, archived.body.code]).toEqual([400, 'invalid_request']);
    const unknown = await t.call('POST', `${base()}/contracts`, { body: { giftCardID: '00000000-0000-4000-8000-000000000000' } });
    expect(unknown.status).toBe(404);
    const live = await card();
    const noClient = await t.call('POST', `${base()}/contracts`, {
      body: { giftCardID: live.id, clientId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(noClient.status).toBe(404);
    const pending = await t.call('POST', `${base()}/contracts`, { body: { giftCardID: live.id, status: 'pending_payment' } });
    expect(pending.status).toBe(400);
  });

  it('searches with every filter', async () => {
    const other = await Shop.open(t, 'Search shop', 'UTC');
    const s = (body: Record<string, unknown>) => t.call('POST', `${base(other.companyId)}/contracts/search`, { body });
    const a = await card({ validityDuration: 'P10D' }, other.companyId);
    const b = await card({ amount: 1000, validityDuration: null }, other.companyId);
    const ann = (
      await t.call('POST', `/v1/companies/${other.companyId}/clients`, { body: { email: 'ann@example.com', externalUserID: 'ann' } })
    ).body;
    const c1 = await issue(a.id, { clientId: ann.id }, other.companyId);
    clock.advance(3_600_000);
    const c2 = await issue(b.id, {}, other.companyId);
    clock.advance(3_600_000);
    const c3 = await issue(a.id, {}, other.companyId);
    await t.call('POST', `${base(other.companyId)}/contracts/${c2.id}/usages`, { body: { amount: 1000 } });
    const ids = async (body: Record<string, unknown>) => {
      const r = await s(body);
      expect(r.status).toBe(200);
      return r.body.items.map((x: { id: string }) => x.id);
    };
    expect(await ids({})).toEqual([c1.id, c2.id, c3.id]);
    expect(await ids({ ids: [c3.id, c1.id] })).toEqual([c1.id, c3.id]);
    expect(await ids({ clientIds: [ann.id] })).toEqual([c1.id]);
    expect(await ids({ giftCardIds: [a.id] })).toEqual([c1.id, c3.id]);
    expect(await ids({ code: c2.code.toLowerCase().replace(/-/g, '') })).toEqual([c2.id]);
    expect(await ids({ code: 'nothing' })).toEqual([]);
    expect(await ids({ status: 'redeemed' })).toEqual([c2.id]);
    expect(await ids({ status: ['active', 'redeemed'] })).toEqual([c1.id, c2.id, c3.id]);
    expect(await ids({ fromDate: '2026-03-01T01:00:00Z' })).toEqual([c2.id, c3.id]);
    expect(await ids({ toDate: '2026-03-01T01:00:00Z' })).toEqual([c1.id]);
    expect(await ids({ fromDate: '2026-03-01T00:30:00Z', toDate: '2026-03-01T01:30:00+00:00' })).toEqual([c2.id]);
    const paged = await s({ limit: 2, offset: 1 });
    expect(paged.body).toMatchObject({ limit: 2, offset: 1, total: 3 });
    expect(paged.body.items.map((x: { id: string }) => x.id)).toEqual([c2.id, c3.id]);
    // Ten days after c1 was issued, it shows expired (c3 one hour later).
    clock.set(T0 + 10 * 86_400_000);
    expect(await ids({ status: 'expired' })).toEqual([c1.id]);
    expect((await s({ ids: [c1.id] })).body.items[0].status).toBe('expired');
    for (const bad of [
      { status: 'lost' },
      { ids: ['nope'] },
      { limit: 101 },
      { fromDate: 'yesterday' },
      { fromDate: '2026-03-02T00:00:00Z', toDate: '2026-03-01T00:00:00Z' },
    ])
      expect((await s(bad)).status).toBe(400);
  });
});

describe('gift card usages and balances', () => {
  it('takes usages from the balance, redeems at zero, and refuses more than the balance with 409 changing nothing', async () => {
    const c = await issue((await card({ amount: 10000 })).id);
    const first = await use(c.id, { amount: 3000, reservationId: '11111111-1111-4111-8111-111111111111', metaData: { till: 2 } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      purchaseId: c.id,
      giftCardId: c.giftCardId,
      amount: 3000,
      currency: 'EUR',
      status: 'used',
      reservationId: '11111111-1111-4111-8111-111111111111',
      metaData: { till: 2 },
    });
    expect((await contract(c.id)).balance).toBe(7000);
    const tooMuch = await use(c.id, { amount: 7001 });
    expect([tooMuch.status, tooMuch.body.code]).toEqual([409, 'insufficient_balance']);
    expect((await contract(c.id)).balance).toBe(7000);
    expect(await usages(c.id)).toHaveLength(1);
    expect((await use(c.id, { amount: 7000 })).status).toBe(201);
    expect(await contract(c.id)).toMatchObject({ balance: 0, status: 'redeemed' });
    const empty = await use(c.id, { amount: 1 });
    expect([empty.status, empty.body.code]).toEqual([409, 'insufficient_balance']);
    for (const bad of [{}, { amount: 0 }, { amount: -5 }, { amount: 1.5 }, { amount: 1, reservationId: 'x' }])
      expect((await use(c.id, bad)).status).toBe(400);
  });

  it('updates a usage: a new amount moves the difference, cancelling gives it back, with versioned metadata', async () => {
    const c = await issue((await card({ amount: 5000 })).id);
    const u = (await use(c.id, { amount: 2000 })).body;
    const patch = (body: Record<string, unknown>) => t.call('PATCH', `${base()}/contracts/${c.id}/usages/${u.id}`, { body });
    const grown = await patch({ amount: 3500, reservationID: '22222222-2222-4222-8222-222222222222' });
    expect([grown.status, grown.body.amount, grown.body.reservationId]).toEqual([200, 3500, '22222222-2222-4222-8222-222222222222']);
    expect((await contract(c.id)).balance).toBe(1500);
    const over = await patch({ amount: 5001 });
    expect([over.status, over.body.code]).toEqual([409, 'insufficient_balance']);
    expect((await contract(c.id)).balance).toBe(1500);
    expect((await patch({ amount: 5000 })).status).toBe(200);
    expect(await contract(c.id)).toMatchObject({ balance: 0, status: 'redeemed' });
    const cancelled = await patch({ status: 'cancelled', metaDataUpdate: { expectedVersion: 1, path: 'why', value: 'refund' } });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', metaData: { why: 'refund' }, metaDataVersion: 2 });
    expect(await contract(c.id)).toMatchObject({ balance: 5000, status: 'active' });
    const stale = await patch({ metaDataUpdate: { expectedVersion: 1, path: 'x', value: 1 } });
    expect([stale.status, stale.body.code]).toEqual([409, 'version_conflict']);
    expect((await patch({ status: 'used' })).status).toBe(200);
    expect((await contract(c.id)).balance).toBe(0);
    expect((await patch({ status: 'gone' })).status).toBe(400);
    const missing = await t.call('PATCH', `${base()}/contracts/${c.id}/usages/00000000-0000-4000-8000-000000000000`, {
      body: { amount: 1 },
    });
    expect(missing.status).toBe(404);
  });

  it('refuses usages of an expired card (409 conflict)', async () => {
    const c = await issue((await card({ validityDuration: 'P1D' })).id);
    clock.advance(86_400_000);
    const r = await use(c.id, { amount: 100 });
    expect([r.status, r.body.code]).toEqual([409, 'conflict']);
    expect((await contract(c.id)).status).toBe('expired');
  });
});

describe('buying a gift card', () => {
  it('sells a card through the test provider: pending_payment with a payment URL, active once paid', async () => {
    const g = await card({ taxInclusive: true, taxRate: 21, validityDuration: 'P90D' });
    const list = await t.call('GET', `${base()}/client/giftcards`, { key: widgetKey });
    expect(list.status).toBe(200);
    expect(list.body.map((x: { id: string }) => x.id)).toContain(g.id);
    const order = await t.call('POST', `${base()}/client/orders`, { token, body: { giftCardID: g.id, metaData: { to: 'Mum' } } });
    expect(order.status).toBe(200);
    // the checkout result: the contract in `item`, the price with the tax it includes, the payment
    const bought = { body: order.body.item };
    expect(order.body).toMatchObject({ price: 5000, tax: 868, taxRate: 21, taxInclusive: true, currency: 'EUR' });
    expect(order.body.paymentURL).toBe(bought.body.paymentURL);
    expect(bought.body).toMatchObject({
      giftCardId: g.id,
      status: 'pending_payment',
      code: null,
      balance: 5000,
      expiresAt: null,
      giftCardName: 'Gift 50',
      usages: [],
      metaData: { to: 'Mum' },
    });
    expect(bought.body.paymentURL).toMatch(/\/v1\/payments\/test-checkout\/[0-9a-f-]{36}$/);
    const tx = await transaction(txId(bought.body.paymentURL));
    expect(tx).toMatchObject({
      itemType: 'gift_card',
      pluginNamespace: 'giftcards',
      itemID: bought.body.id,
      itemIDs: [bought.body.id],
      amount: 5000,
      currency: 'EUR',
      taxInclusive: true,
      taxRate: 21,
      purchaseName: 'Gift 50',
      email: 'gina@example.com',
      status: 'pending',
    });
    expect((await contract(bought.body.id)).status).toBe('pending_payment');
    // Unpaid: the card cannot pay anything.
    expect((await use(bought.body.id, { amount: 1 })).body.code).toBe('conflict');

    clock.advance(60_000);
    expect((await complete(t, tx.id, 'success')).status).toBe(200);
    const mine = await t.call('GET', `${base()}/client/orders/${bought.body.id}`, { token });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ status: 'active', paymentURL: null, expiresAt: '2026-05-30T00:01:00Z' });
    expect(mine.body.code).toMatch(CODE);
    expect((await transaction(tx.id)).status).toBe('paid');
  });

  it.each(['failure', 'cancel'])('cancels the purchase when the payment ends with %s', async (outcome) => {
    const g = await card();
    const bought = { body: (await t.call('POST', `${base()}/client/orders`, { token, body: { giftCardID: g.id } })).body.item };
    await complete(t, txId(bought.body.paymentURL), outcome);
    expect((await contract(bought.body.id)).status).toBe('cancelled');
    expect((await t.call('GET', `${base()}/client/orders/${bought.body.id}`, { token })).body).toMatchObject({
      status: 'cancelled',
      code: null,
    });
  });

  it('cancels the purchase when the payment expires', async () => {
    const g = await card();
    const bought = { body: (await t.call('POST', `${base()}/client/orders`, { token, body: { giftCardID: g.id } })).body.item };
    clock.advance(t.deps.config.paymentTimeoutSec * 1000);
    expect(await sweepExpiredPayments(t.deps)).toBeGreaterThanOrEqual(1);
    expect((await contract(bought.body.id)).status).toBe('cancelled');
  });

  it('sells to a guest with a widget key; the client lists and gets only its own orders', async () => {
    const g = await card();
    const guest = await t.call('POST', `${base()}/client/orders`, {
      key: widgetKey,
      body: { giftCardID: g.id, client: { email: 'guest@example.com' } },
    });
    expect(guest.status).toBe(200);
    guest.body = guest.body.item;
    expect(guest.body.clientId).toEqual(expect.any(String));
    const noGuest = await t.call('POST', `${base()}/client/orders`, { key: widgetKey, body: { giftCardID: g.id } });
    expect(noGuest.status).toBe(400);
    const mine = { body: (await t.call('POST', `${base()}/client/orders`, { token, body: { giftCardID: g.id } })).body.item };
    const list = await t.call('GET', `${base()}/client/orders`, { token });
    expect(list.status).toBe(200);
    const ids = list.body.map((x: { id: string }) => x.id);
    expect(ids).toContain(mine.body.id);
    expect(ids).not.toContain(guest.body.id);
    expect(list.body.every((x: { clientId: string }) => x.clientId === mine.body.clientId)).toBe(true);
    expect((await t.call('GET', `${base()}/client/orders/${guest.body.id}`, { token })).status).toBe(404);
    expect((await t.call('GET', `${base()}/client/orders`, { key: widgetKey })).status).toBe(401);
  });

  it('refuses cards that are not on sale, and companies that take no payments', async () => {
    const inactive = await card({ active: false });
    const later = await card({ availableFrom: '2026-04-01T00:00:00Z' });
    for (const g of [inactive, later]) {
      const r = await t.call('POST', `${base()}/client/orders`, { token, body: { giftCardID: g.id } });
      expect([r.status, r.body.code]).toEqual([400, 'invalid_request']);
    }
    const offered = (await t.call('GET', `${base()}/client/giftcards`, { key: widgetKey })).body.map((x: { id: string }) => x.id);
    expect(offered).not.toContain(inactive.id);
    expect(offered).not.toContain(later.id);
    const unpaid = await Shop.open(t, 'No payments', 'UTC');
    const g = await card({}, unpaid.companyId);
    const r = await t.call('POST', `${base(unpaid.companyId)}/client/orders`, {
      body: { giftCardID: g.id, client: { email: 'x@example.com' } },
    });
    expect([r.status, r.body.code]).toEqual([409, 'conflict']);
    expect(await countRows(t, 'select count(*) as n from gift_card_contract where company_id = ?', [unpaid.companyId])).toBe(0);
  });
});

describe('gift cards on bookings', () => {
  it('pays the price up to the balance; the rest goes through the normal payment', async () => {
    const c = await issue((await card({ amount: 1000 })).id);
    const booked = await request(c.code.toLowerCase().replace(/-/g, ' '));
    expect(booked.status).toBe(200);
    expect(booked.body).toMatchObject({ status: 'pending', price: 2500 });
    const tx = await transaction(txId(booked.body.paymentURL));
    expect(tx).toMatchObject({ amount: 1500, perItemAmounts: { [booked.body.id]: 1500 } });
    expect(await contract(c.id)).toMatchObject({ balance: 0, status: 'redeemed' });
    expect(await usages(c.id)).toMatchObject([{ amount: 1000, status: 'used', reservationId: booked.body.id }]);
    await complete(t, tx.id, 'success');
    expect((await shop.get(booked.body.id)).body.status).toBe('confirmed');
    expect((await usages(c.id))[0].status).toBe('used');
  });

  it('confirms a booking the card pays in full, without a payment', async () => {
    const c = await issue((await card({ amount: 10000 })).id);
    const booked = await request(c.code);
    expect(booked.body).toMatchObject({ status: 'confirmed', price: 2500, paymentURL: null });
    expect((await contract(c.id)).balance).toBe(7500);
    // The client cancels: the usage is cancelled and the balance comes back.
    const cancelled = await t.call('POST', `/v1/client/bookings/${booked.body.id}/cancel`, { token });
    expect(cancelled.status).toBe(200);
    expect((await contract(c.id)).balance).toBe(10000);
    expect((await usages(c.id))[0].status).toBe('cancelled');
  });

  it.each(['failure', 'cancel'])('gives the balance back when the payment ends with %s', async (outcome) => {
    const c = await issue((await card({ amount: 1000 })).id);
    const booked = await request(c.code);
    await complete(t, txId(booked.body.paymentURL), outcome);
    expect((await shop.get(booked.body.id)).body.status).toBe('failed');
    expect(await contract(c.id)).toMatchObject({ balance: 1000, status: 'active' });
    expect((await usages(c.id))[0].status).toBe('cancelled');
  });

  it('gives the balance back when the payment expires', async () => {
    const c = await issue((await card({ amount: 1000 })).id);
    const booked = await request(c.code);
    expect((await contract(c.id)).status).toBe('redeemed');
    clock.advance(t.deps.config.paymentTimeoutSec * 1000);
    await sweepExpiredPayments(t.deps);
    expect((await shop.get(booked.body.id)).body.status).toBe('failed');
    expect(await contract(c.id)).toMatchObject({ balance: 1000, status: 'active' });
  });

  it('refuses expired, redeemed, unpaid and foreign-currency cards, and books nothing', async () => {
    const expired = await issue((await card({ validityDuration: 'PT1H' })).id);
    const redeemed = await issue((await card({ amount: 100 })).id);
    await use(redeemed.id, { amount: 100 });
    const dollars = await issue((await card({ currency: 'USD' })).id);
    const g = await card();
    const unpaid = (await t.call('POST', `${base()}/client/orders`, { token, body: { giftCardID: g.id } })).body.item;
    const unpaidCode = (await contract(unpaid.id)).code;
    clock.advance(3_600_000);
    token = await shop.login('gina@example.com', t.adminKey);
    const before = await countRows(t, 'select count(*) as n from booking where company_id = ?', [shop.companyId]);
    const cases: [string, number, string, string][] = [
      [expired.code, 400, 'invalid_request', 'the gift card has expired'],
      [redeemed.code, 409, 'insufficient_balance', 'the gift card has no balance left'],
      [dollars.code, 400, 'invalid_request', 'the gift card is in USD, the booking in EUR'],
      [unpaidCode, 400, 'invalid_request', 'the gift card is not paid yet'],
    ];
    for (const [code, status, errorCode, message] of cases) {
      const r = await request(code);
      expect([r.status, r.body.code, r.body.message]).toEqual([status, errorCode, message]);
    }
    expect(await countRows(t, 'select count(*) as n from booking where company_id = ?', [shop.companyId])).toBe(before);
  });

  it('validates a card for a client booking before it is requested', async () => {
    const c = await issue((await card({ amount: 1000 })).id);
    const r = await t.call('POST', `/v1/client/codes/${c.code}/validate`, {
      token,
      body: { companyID: shop.companyId, serviceID: sid, resourceID: rid, startTime: '2026-03-25T10:00:00Z', spots: 1 },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ canApply: true, pluginNameSpace: 'giftcards', price: 1500 });
    expect(r.body.pluginResponse).toMatchObject({ giftCardContractID: c.id, balance: 1000, amountCovered: 1000, balanceAfter: 0 });
    expect((await contract(c.id)).balance).toBe(1000);
  });
});

describe('a promo code and a gift card together', () => {
  const promo = async (body: Record<string, unknown>) => {
    const r = await t.call('POST', `/v1/companies/${shop.companyId}/plugins/promocodes/codes`, { body });
    expect(r.status).toBe(201);
    return r.body;
  };

  it('on one booking: the discount first, then the card, then the payment for the rest', async () => {
    const p = await promo({ code: 'TOGETHER20', discountType: 'percent', discountPercent: 20 });
    const c = await issue((await card({ amount: 1200 })).id);
    const booked = await request(`${c.code}, together20`);
    expect(booked.status).toBe(200);
    // 2500 - 20 % = 2000; the card pays 1200; 800 are paid through the provider.
    expect(booked.body).toMatchObject({ status: 'pending', price: 2000 });
    const tx = await transaction(txId(booked.body.paymentURL));
    expect(tx.amount).toBe(800);
    expect((await contract(c.id)).balance).toBe(0);
    const promoUsages = (await t.call('GET', `/v1/companies/${shop.companyId}/plugins/promocodes/codes/${p.id}/usages`)).body;
    expect(promoUsages).toMatchObject([{ status: 'reserved', discountAmount: 500, reservationID: booked.body.id }]);
    await complete(t, tx.id, 'failure');
    expect((await contract(c.id)).balance).toBe(1200);
    expect((await t.call('GET', `/v1/companies/${shop.companyId}/plugins/promocodes/codes/${p.id}/usages`)).body[0].status).toBe(
      'released',
    );
    const two = await request(`${c.code},${(await issue((await card()).id)).code}`);
    expect([two.status, two.body.message]).toEqual([400, 'at most one giftcards code per booking']);
  });

  it('in a batch on the same service: one booking with the promo code, one with the card, one payment for the remainder', async () => {
    const p = await promo({ code: 'BATCH500', discountType: 'amount', discountAmount: 500 });
    const c = await issue((await card({ amount: 1000 })).id);
    const r = await t.call('POST', '/v1/client/bookings/batch', {
      token,
      body: {
        bookings: [
          { companyID: shop.companyId, serviceID: sid, resourceID: rid, startTime: nextStart(), code: p.code },
          { companyID: shop.companyId, serviceID: sid, resourceID: rid, startTime: nextStart(), code: c.code },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.bookings.map((b: { price: number; status: string }) => [b.price, b.status])).toEqual([
      [2000, 'pending'],
      [2500, 'pending'],
    ]);
    // 2000 + (2500 - 1000)
    expect(r.body.totalAmount).toBe(3500);
    const tx = await transaction(r.body.transactionID);
    expect(tx).toMatchObject({ amount: 3500, perItemAmounts: { [r.body.bookings[0].id]: 2000, [r.body.bookings[1].id]: 1500 } });
    await complete(t, tx.id, 'success');
    expect((await contract(c.id)).balance).toBe(0);
    expect((await t.call('GET', `/v1/companies/${shop.companyId}/plugins/promocodes/codes/${p.id}/usages`)).body[0].status).toBe('used');
  });
});

describe('tenant isolation', () => {
  it("is 404 for another company's card, contract and usage ids; another company's code is unknown", async () => {
    const rival = await Shop.open(t, 'Rival gifts', 'UTC');
    const theirCard = await card({}, rival.companyId);
    const theirContract = await issue(theirCard.id, {}, rival.companyId);
    const theirUsage = (await t.call('POST', `${base(rival.companyId)}/contracts/${theirContract.id}/usages`, { body: { amount: 10 } }))
      .body;
    const mine = await issue((await card()).id);
    expect((await t.call('PATCH', `${base()}/giftcards/${theirCard.id}`, { body: { title: 'x' } })).status).toBe(404);
    expect((await t.call('POST', `${base()}/giftcards/${theirCard.id}/archive`, { body: {} })).status).toBe(404);
    expect((await t.call('POST', `${base()}/contracts`, { body: { giftCardID: theirCard.id } })).status).toBe(404);
    expect((await t.call('GET', `${base()}/contracts/${theirContract.id}/usages`)).status).toBe(404);
    expect((await use(theirContract.id, { amount: 1 })).status).toBe(404);
    expect((await t.call('PATCH', `${base()}/contracts/${theirContract.id}/usages/${theirUsage.id}`, { body: { amount: 1 } })).status).toBe(
      404,
    );
    expect((await t.call('PATCH', `${base()}/contracts/${mine.id}/usages/${theirUsage.id}`, { body: { amount: 1 } })).status).toBe(404);
    expect((await search({ ids: [theirContract.id] })).body.total).toBe(0);
    expect((await request(theirContract.code)).body.message).toBe('unknown code');
    expect((await t.call('GET', `${base(rival.companyId)}/client/orders`, { token })).status).toBe(403);
    const foreign = await t.newMerchant();
    expect((await t.call('GET', `${base()}/giftcards`, { key: foreign })).status).toBe(403);
    const reader = await t.keyWith({ [shop.companyId]: ['giftcards.read'] });
    expect((await t.call('GET', `${base()}/giftcards`, { key: reader })).status).toBe(200);
    expect((await use(mine.id, { amount: 1 })).status).toBe(201);
    expect((await t.call('POST', `${base()}/contracts/${mine.id}/usages`, { key: reader, body: { amount: 1 } })).status).toBe(403);
  });
});

describe('GraphQL', () => {
  it('manages cards, contracts and usages, and sells a card, with typed enums', async () => {
    const created = await t.gql(
      `mutation($cid: ID!) { createGiftCard(companyID: $cid, input: {title: "GQL card", amount: 3000, currency: "EUR", validityDuration: "P30D"}) { id validityDuration } }`,
      { cid: shop.companyId },
    );
    expect(created.body.errors).toBeUndefined();
    const g = created.body.data.createGiftCard;
    expect(g.validityDuration).toBe('P30D');
    const issued = await t.gql(
      `mutation($cid: ID!, $g: ID!) { createGiftCardContract(companyID: $cid, input: {giftCardID: $g}) { id code status balance } }`,
      { cid: shop.companyId, g: g.id },
    );
    const c = issued.body.data.createGiftCardContract;
    expect(c).toMatchObject({ status: 'active', balance: 3000 });
    const used = await t.gql(
      `mutation($cid: ID!, $c: ID!) { createGiftCardUsage(companyID: $cid, contractID: $c, input: {amount: 3000}) { id status } }`,
      { cid: shop.companyId, c: c.id },
    );
    expect(used.body.data.createGiftCardUsage.status).toBe('used');
    const over = await t.gql(
      `mutation($cid: ID!, $c: ID!) { createGiftCardUsage(companyID: $cid, contractID: $c, input: {amount: 1}) { id } }`,
      { cid: shop.companyId, c: c.id },
    );
    expect(over.body.errors[0].extensions.code).toBe('insufficient_balance');
    const found = await t.gql(
      `query($cid: ID!, $c: ID!) { giftCardContracts(companyID: $cid, filter: {ids: [$c], status: [redeemed]}) { total giftCardContracts { id status balance } } }`,
      { cid: shop.companyId, c: c.id },
    );
    expect(found.body.data.giftCardContracts).toEqual({ total: 1, giftCardContracts: [{ id: c.id, status: 'redeemed', balance: 0 }] });
    const page = await t.gql(
      `query($cid: ID!, $c: ID!) { giftCardUsages(companyID: $cid, contractID: $c) { total giftCardUsages { amount } } }`,
      {
        cid: shop.companyId,
        c: c.id,
      },
    );
    expect(page.body.data.giftCardUsages).toEqual({ total: 1, giftCardUsages: [{ amount: 3000 }] });
    const bought = await t.gql(
      `mutation($cid: ID!, $g: ID!) { purchaseGiftCard(companyID: $cid, input: {giftCardID: $g}) { paymentURL item { id status code paymentURL giftCardName } } }`,
      { cid: shop.companyId, g: g.id },
      { key: null, token },
    );
    expect(bought.body.data.purchaseGiftCard.item).toMatchObject({ status: 'pending_payment', code: null, giftCardName: 'GQL card' });
    const orders = await t.gql(
      `query($cid: ID!) { clientGiftCardOrders(companyID: $cid) { total giftCardContracts { id } } }`,
      { cid: shop.companyId },
      {
        key: null,
        token,
      },
    );
    expect(orders.body.data.clientGiftCardOrders.giftCardContracts.map((x: { id: string }) => x.id)).toContain(
      bought.body.data.purchaseGiftCard.item.id,
    );
    const offered = await t.gql(
      `query($cid: ID!) { clientGiftCards(companyID: $cid) { total giftCards { id } } }`,
      { cid: shop.companyId },
      { key: widgetKey },
    );
    expect(offered.body.data.clientGiftCards.giftCards.map((x: { id: string }) => x.id)).toContain(g.id);
  });
});

describe('vouchers', () => {
  it("prints a purchase's voucher with its code, title, amount and expiry, and nothing for another company", async () => {
    const g = await card({ title: 'Spa diena Ķemeros' });
    const c = await issue(g.id);
    const r = await t.call('GET', `/v1/companies/${shop.companyId}/pdf-templates/gift_card/${g.id}/items/${c.id}/pdf`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    const strs = (await readPdf(r.raw)).pages[0].items.map((i) => i.str);
    for (const s of [c.code, 'Spa diena Ķemeros', '50.00 EUR']) expect(strs).toContain(s);
    // the purchase belongs to this gift card only, and to this company only
    const other = await card();
    expect((await t.call('GET', `/v1/companies/${shop.companyId}/pdf-templates/gift_card/${other.id}/items/${c.id}/pdf`)).status).toBe(404);
    const sister = (await t.company('Sister salon')).id;
    expect((await t.call('GET', `/v1/companies/${sister}/pdf-templates/gift_card/${g.id}/items/${c.id}/pdf`)).status).toBe(404);
    // GraphQL hands out the same URL
    const q = await t.gql(
      `query($c: ID!, $i: [ID!]) { giftCardContracts(companyID: $c, filter: { ids: $i }) { giftCardContracts { pdfUrl } } }`,
      { c: shop.companyId, i: [c.id] },
    );
    expect(q.body.data?.giftCardContracts?.giftCardContracts?.[0]?.pdfUrl).toBe(
      `${t.deps.config.publicUrl}/v1/companies/${shop.companyId}/pdf-templates/gift_card/${g.id}/items/${c.id}/pdf`,
    );
  });
});
