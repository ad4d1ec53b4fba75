import { runAudited, systemScope } from '../../src/kernel/audit';
import { sweepSubscriptions } from '../../src/modules/subscription/subscription.sweeper';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';
import { complete, configurePayments } from '../helpers/payments-fixtures';
import { SubscriptionFixtures } from '../helpers/subscriptions-fixtures';

/**
 * The audit entries of writes made with SQL: subscription contracts (cart, checkout, payment,
 * admin changes, the sweeper), their visit ledger and usages, promo usages moved by a payment,
 * and refresh tokens revoked when a client is blocked.
 */

const T0 = Date.parse('2026-03-02T08:00:00Z');
const clock = new TestClock(T0);
let t: TestApp;
let shop: Shop;
let f: SubscriptionFixtures;

beforeAll(async () => {
  t = await createTestApp({ clock });
  shop = await Shop.open(t, 'Audited gym', 'UTC');
  expect((await configurePayments(t, shop.companyId)).status).toBe(200);
  f = new SubscriptionFixtures(t, shop.companyId);
  await f.settings({ currency: 'EUR', taxInclusive: false, taxRate: 21 });
});
afterAll(async () => t?.close());
beforeEach(() => clock.set(T0));

/** The company's entries, oldest first (of one record when given). */
async function entries(recordID?: string): Promise<any[]> {
  const r = await t.call('GET', `/v1/companies/${shop.companyId}/audit-log`, { query: { ...(recordID ? { recordID } : {}), limit: 100 } });
  expect(r.status).toBe(200);
  return (r.body.items as any[]).reverse();
}

const clientBase = () => `/v1/companies/${shop.companyId}/plugins/subscription/client`;
const adminBase = () => `/v1/companies/${shop.companyId}/plugins/subscription`;
const txId = (url: string) => url.split('/').pop()!;
/** The id of the client a login token belongs to. */
const clientIdOf = async (token: string) => (await t.call('GET', '/v1/client/profile', { token })).body.id as string;

describe('audit entries of subscription contracts', () => {
  it('records a cart checkout paid through the provider, its allocation, and a booking using the code, without the code', async () => {
    const token = await shop.login('member@example.com', t.adminKey);
    const sid = await f.subscription({ title: 'Ten visits', limitations: { bookingsCount: 10 } });
    await f.price([sid], 1000);
    const added = await t.call('POST', `${clientBase()}/cart`, { token, body: { items: [{ subscriptionID: sid }] } });
    expect(added.status).toBe(200);
    const id = added.body.items[0].id as string;
    const paying = await t.call('POST', `${clientBase()}/cart/checkout`, { token, headers: { 'x-request-id': 'req-checkout-1' } });
    expect(paying.status).toBe(200);
    clock.advance(60_000);
    expect((await complete(t, txId(paying.body.paymentURL), 'success')).status).toBeLessThan(400);

    const contract = await entries(id);
    expect(contract.map((e) => e.action)).toEqual(['create', 'update', 'update', 'status']);
    expect(contract[0]).toMatchObject({
      actor: { type: 'client' },
      recordType: 'subscription_contract',
      changes: { status: { after: 'pending_payment' }, inCart: { after: true }, price: { after: 1000 } },
    });
    // checkout: the tax, then the payment link, in the client's request
    expect(contract[1]).toMatchObject({
      actor: { type: 'client' },
      requestID: 'req-checkout-1',
      changes: { taxAmount: { before: 0, after: 210 }, inCart: { before: true, after: false } },
    });
    expect(contract[2]).toMatchObject({
      requestID: 'req-checkout-1',
      changes: { paymentTransactionId: { before: null, after: paying.body.transactionID }, pendingExpiresAt: { after: null } },
    });
    // the provider's notification settles it: no credentials, the system
    expect(contract[3]).toMatchObject({
      actor: { type: 'system', id: 'public' },
      changes: { status: { before: 'pending_payment', after: 'active' }, activeFrom: { before: null, after: '2026-03-02T08:01:00.000Z' } },
    });

    const ledger = (await entries()).filter((e) => e.recordType === 'subscription_visit' && e.changes.contractId?.after === id);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      action: 'create',
      actor: { type: 'system', id: 'public' },
      changes: { transactionType: { after: 'ALLOCATION' }, amount: { after: 10 } },
    });

    // a booking with the contract's code: a usage (reserved, then used as the booking is confirmed) and a USAGE entry
    const code = (await f.contractRow(id)).code as string;
    const { sid: service, rids } = await shop.bookable('fixed', { duration: 'PT1H', currency: 'EUR' });
    await shop.price(service, 'fixed', 2500);
    const booked = await t.call('POST', '/v1/client/bookings', {
      token,
      headers: { 'x-request-id': 'req-book-1' },
      body: { companyID: shop.companyId, serviceID: service, resourceID: rids[0], startTime: '2026-03-03T10:00:00Z', code },
    });
    expect([booked.status, booked.body.status]).toEqual([200, 'confirmed']);
    const all = await entries();
    const usage = all.filter((e) => e.recordType === 'subscription_usage' && e.requestID === 'req-book-1');
    expect(usage.map((e) => [e.action, e.changes.status])).toEqual([
      ['create', { after: 'reserved' }],
      ['status', { before: 'reserved', after: 'used' }],
    ]);
    expect(usage[0].changes).toMatchObject({ contractId: { after: id }, bookingId: { after: booked.body.id } });
    const taken = all.find((e) => e.recordType === 'subscription_visit' && e.requestID === 'req-book-1');
    expect(taken).toMatchObject({
      action: 'create',
      actor: { type: 'client' },
      changes: { transactionType: { after: 'USAGE' }, amount: { after: -1 }, usageId: { after: usage[0].recordID } },
    });

    // the code spends the contract: it is in no entry
    expect(JSON.stringify(all)).not.toContain(code);
    expect(contract[0].changes).not.toHaveProperty('code');
  });

  it('records an admin create and update, and the expiry the sweeper makes as the system', async () => {
    const sid = await f.subscription({ title: 'Day pass', duration: 'P1D', limitations: { bookingsCount: 2 } });
    const clientID = await clientIdOf(await shop.login('admin-made@example.com', t.adminKey));
    const created = await t.call('POST', `${adminBase()}/list/${sid}/contracts`, { body: { clientID } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const updated = await t.call('PATCH', `${adminBase()}/contracts/${id}`, { body: { duration: 'P2D' } });
    expect(updated.status).toBe(200);

    clock.advance(3 * 86_400_000);
    const swept = await runAudited(systemScope('subscription', t.deps.clock), () => sweepSubscriptions(t.deps));
    expect(swept.expired).toBeGreaterThanOrEqual(1);

    const contract = await entries(id);
    expect(contract.map((e) => [e.action, e.actor.type])).toEqual([
      ['create', 'api_key'],
      ['update', 'api_key'],
      ['status', 'system'],
    ]);
    expect(contract[0].changes).toMatchObject({ status: { after: 'active' }, clientId: { after: clientID } });
    expect(contract[0].changes).not.toHaveProperty('code');
    expect(contract[1].changes).toMatchObject({
      duration: { before: 'P1D', after: 'P2D' },
      expiresAt: { before: '2026-03-03T08:00:00.000Z', after: '2026-03-04T08:00:00.000Z' },
    });
    expect(contract[2]).toMatchObject({
      actor: { type: 'system', id: 'subscription' },
      requestID: null,
      changes: { status: { before: 'active', after: 'expired' } },
    });
    const ledger = (await entries()).filter((e) => e.recordType === 'subscription_visit' && e.changes.contractId?.after === id);
    expect(ledger.map((e) => [e.changes.transactionType.after, e.changes.amount.after, e.actor.type])).toEqual([
      ['ALLOCATION', 2, 'api_key'],
      ['EXPIRATION', -2, 'system'],
    ]);
  });

  it('records a cart item that lapses as the system, and one taken out of the cart by the client', async () => {
    const token = await shop.login('lapsing@example.com', t.adminKey);
    const sid = await f.subscription({ title: 'Lapsing' });
    await f.price([sid], 500);
    const added = await t.call('POST', `${clientBase()}/cart`, {
      token,
      body: { items: [{ subscriptionID: sid }, { subscriptionID: sid }] },
    });
    const [kept, removed] = added.body.items.map((i: any) => i.id as string);
    expect((await t.call('DELETE', `${clientBase()}/cart/${removed}`, { token })).status).toBe(200);
    clock.advance(16 * 60_000);
    await runAudited(systemScope('subscription', t.deps.clock), () => sweepSubscriptions(t.deps));
    const cancelled = { status: { before: 'pending_payment', after: 'cancelled' }, inCart: { before: true, after: false } };
    expect((await entries(removed)).map((e) => [e.action, e.actor.type, e.changes])).toEqual([
      ['create', 'client', expect.anything()],
      ['status', 'client', { ...cancelled, cancelledAt: { before: null, after: '2026-03-02T08:00:00.000Z' } }],
    ]);
    expect((await entries(kept)).map((e) => [e.action, e.actor.id, e.changes])).toEqual([
      ['create', expect.any(String), expect.anything()],
      ['status', 'subscription', { ...cancelled, cancelledAt: { before: null, after: '2026-03-02T08:16:00.000Z' } }],
    ]);
  });
});

describe('audit entries of other SQL writes', () => {
  it('records promo usages a payment moves: used when paid; released (the use given back) when it fails', async () => {
    const { sid, rids } = await shop.bookable('fixed', { duration: 'PT1H', currency: 'EUR' });
    await shop.price(sid, 'fixed', 2500);
    const promo = await t.call('POST', `${shop.base}/plugins/promocodes/codes`, {
      body: { code: 'AUDITED', discountType: 'amount', discountAmount: 500 },
    });
    expect(promo.status).toBe(201);
    const bookWith = async (email: string, startTime: string) => {
      const token = await shop.login(email, t.adminKey);
      const r = await t.call('POST', '/v1/client/bookings', {
        token,
        body: { companyID: shop.companyId, serviceID: sid, resourceID: rids[0], startTime, code: 'AUDITED' },
      });
      expect([r.status, r.body.status, r.body.price]).toEqual([200, 'pending', 2000]);
      return r.body;
    };
    const paid = await bookWith('promo-paid@example.com', '2026-03-04T10:00:00Z');
    const failed = await bookWith('promo-failed@example.com', '2026-03-04T12:00:00Z');
    expect((await complete(t, txId(paid.paymentURL), 'success')).status).toBeLessThan(400);
    expect((await complete(t, txId(failed.paymentURL), 'failure')).status).toBeLessThan(400);

    const all = await entries();
    const usages = all.filter((e) => e.recordType === 'promo_usage');
    const usageOf = (bookingId: string) =>
      usages.find((e) => e.action === 'create' && e.changes.reservationId?.after === bookingId)!.recordID;
    const moves = (usageId: string) => usages.filter((e) => e.recordID === usageId && e.action === 'status');
    expect(moves(usageOf(paid.id))).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ type: 'system' }),
        changes: { status: { before: 'reserved', after: 'used' } },
      }),
    ]);
    expect(moves(usageOf(failed.id)).map((e) => e.changes)).toEqual([{ status: { before: 'reserved', after: 'released' } }]);
    const counts = all
      .filter((e) => e.recordType === 'promo_code' && e.recordID === promo.body.id && e.action === 'update')
      .map((e) => e.changes.currentUsageCount);
    expect(counts).toEqual([
      { before: 0, after: 1 },
      { before: 1, after: 2 },
      { before: 2, after: 1 },
    ]);
  });

  it('records the refresh tokens revoked when a client is blocked, their hashes masked', async () => {
    const id = await clientIdOf(await shop.login('blocked@example.com', t.adminKey));
    const blocked = await t.call('PATCH', `/v1/companies/${shop.companyId}/clients/${id}`, { body: { state: 'blocked' } });
    expect(blocked.status).toBe(200);
    const tokens = (await entries()).filter((e) => e.recordType === 'client_refresh_token' && e.changes.clientId?.after === id);
    expect(tokens).toHaveLength(1);
    expect(tokens[0].changes.tokenHash).toEqual({ after: '[masked]' });
    const revoked = await entries(tokens[0].recordID);
    expect(revoked.map((e) => [e.action, e.actor.type, e.changes])).toEqual([
      ['create', 'api_key', expect.anything()],
      ['update', 'api_key', { revokedAt: { before: null, after: '2026-03-02T08:00:00.000Z' } }],
    ]);
  });
});
