import { LockMode } from '@mikro-orm/core';
import { reportPaid, sweepExpiredPayments } from '../../src/modules/payment/payment.api';
import { PaymentTransaction } from '../../src/modules/payment/payment.entity';
import { sweepSubscriptions } from '../../src/modules/subscription/subscription.sweeper';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { countRows, Shop } from '../helpers/bookings-fixtures';
import { complete, configurePayments } from '../helpers/payments-fixtures';
import { SubscriptionFixtures } from '../helpers/subscriptions-fixtures';
import { systemCtx } from '../../src/kernel/context';
import { inTransaction } from '../../src/kernel/transaction';

/**
 * Cancelling what a payment is for cancels the pending payment with it (payments contract,
 * "Cancelling what a payment is for"): the test checkout of a cancelled payment answers 409,
 * and nothing cancelled is left paid.
 */
const T0 = Date.parse('2026-03-01T00:00:00Z');
const clock = new TestClock(T0);
let t: TestApp;
let shop: Shop;
let sid: string;
let rids: string[];
let token: string;

beforeAll(async () => {
  t = await createTestApp({ clock, config: { webhookAllowInsecure: true } });
  shop = await Shop.open(t, 'Cancel salon', 'UTC');
  ({ sid, rids } = await shop.bookable('fixed', { duration: 'PT1H' }, 2));
  await shop.price(sid, 'fixed', 2500);
  expect(
    (await configurePayments(t, shop.companyId, { success: 'https://shop.example/ok', failure: 'https://shop.example/failed' })).status,
  ).toBe(200);
  // An endpoint listening to payment events, so that the outbox records them.
  const hook = await t.call('POST', `${shop.base}/webhooks`, {
    body: { url: 'http://127.0.0.1:9/hook', eventTypes: ['payment.failed', 'payment.paid', 'payment.refunded'] },
  });
  expect(hook.status).toBe(201);
});
afterAll(async () => t?.close());
beforeEach(async () => {
  clock.set(T0);
  token = await shop.login('payer@example.com', t.adminKey);
});

const rows = async (sql: string, params: unknown[] = []): Promise<any[]> => t.deps.orm.em.fork().getConnection().execute(sql, params);
let hour = 0;
/** A fresh free hour for every booking. */
const nextStart = () => new Date(Date.UTC(2026, 2, 2) + hour++ * 3600_000).toISOString().replace('.000Z', 'Z');
const request = async (startTime: string, resourceID = rids[0]): Promise<any> => {
  const r = await t.call('POST', '/v1/client/bookings', {
    token,
    body: { companyID: shop.companyId, serviceID: sid, resourceID, startTime },
  });
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ status: 'pending', paymentURL: expect.any(String) });
  return r.body;
};
const txOf = (paymentURL: string) => paymentURL.split('/').pop()!;
const transaction = async (id: string) =>
  (await t.call('GET', `/v1/companies/${shop.companyId}/payments`, { query: { ids: id } })).body.transactions[0];
const statusOf = async (id: string) => (await shop.get(id)).body.status;
const paymentEvents = (txId: string) =>
  rows(
    `select type, payload->'data'->>'status' as status from webhook_event where company_id = ? and payload->'data'->>'id' = ? order by occurred_at, type`,
    [shop.companyId, txId],
  );

/** The booking is cancelled, its payment too, and paying it afterwards is refused; the time is free again. */
async function expectCancelledWithPayment(booking: { id: string; paymentURL: string; startTime: string }): Promise<void> {
  const id = txOf(booking.paymentURL);
  expect(await statusOf(booking.id)).toBe('cancelled');
  expect((await transaction(id)).status).toBe('cancelled');
  const paid = await complete(t, id, 'success');
  expect(paid.status).toBe(409);
  expect(paid.body).toMatchObject({ code: 'conflict', message: expect.stringContaining('cancelled') });
  expect((await transaction(id)).status).toBe('cancelled');
  expect(await statusOf(booking.id)).toBe('cancelled');
  expect(await paymentEvents(id)).toEqual([{ type: 'payment.failed', status: 'cancelled' }]);
  const audit = await rows(
    `select action, changes from audit_entry where record_type = 'payment_transaction' and record_id = ? order by created_at, action`,
    [id],
  );
  expect(audit.map((a) => [a.action, a.changes.status])).toEqual([
    ['create', { after: 'pending' }],
    ['status', { before: 'pending', after: 'cancelled' }],
  ]);
  // The time is free again.
  await request(booking.startTime);
}

describe('cancelling a pending booking cancels its payment', () => {
  it('client cancel (REST)', async () => {
    const b = await request(nextStart());
    const r = await t.call('POST', `/v1/client/bookings/${b.id}/cancel`, { token, body: {} });
    expect(r.status).toBe(200);
    await expectCancelledWithPayment(b);
  });

  it('client cancel with the access token (GraphQL)', async () => {
    const b = await request(nextStart());
    const r = await t.gql(
      `mutation($id: ID!, $a: String) { cancelClientBooking(id: $id, accessToken: $a) { status } }`,
      {
        id: b.id,
        a: b.accessToken,
      },
      { key: null },
    );
    expect(r.body.data.cancelClientBooking).toEqual({ status: 'cancelled' });
    await expectCancelledWithPayment(b);
  });

  it('merchant update to cancelled (REST)', async () => {
    const b = await request(nextStart());
    expect((await shop.patch(b.id, { status: 'cancelled' })).status).toBe(200);
    await expectCancelledWithPayment(b);
  });

  it('merchant update to cancelled (GraphQL)', async () => {
    const b = await request(nextStart());
    const r = await t.gql(
      `mutation($c: ID!, $id: ID!, $i: UpdateBookingInput!) { updateBooking(companyID: $c, id: $id, input: $i) { status } }`,
      { c: shop.companyId, id: b.id, i: { status: 'cancelled' } },
    );
    expect(r.body.data.updateBooking).toEqual({ status: 'cancelled' });
    await expectCancelledWithPayment(b);
  });

  it('a merchant rejecting a pending booking cancels its payment too', async () => {
    const b = await request(nextStart());
    expect((await shop.patch(b.id, { status: 'rejected' })).status).toBe(200);
    expect((await transaction(txOf(b.paymentURL))).status).toBe('cancelled');
    expect((await complete(t, txOf(b.paymentURL), 'success')).status).toBe(409);
    expect(await statusOf(b.id)).toBe('rejected');
  });

  it('a paid booking cancelled afterwards keeps the existing rules (refundPercent refunds)', async () => {
    const b = await request(nextStart());
    expect((await complete(t, txOf(b.paymentURL), 'success')).status).toBe(303);
    expect((await shop.patch(b.id, { status: 'cancelled', refundPercent: 100 })).status).toBe(200);
    expect((await transaction(txOf(b.paymentURL))).status).toBe('refunded');
  });
});

describe('a batch payment', () => {
  const batch = async (n: number): Promise<{ ids: string[]; tx: string }> => {
    const r = await t.call('POST', '/v1/client/bookings/batch', {
      token,
      body: {
        bookings: Array.from({ length: n }, () => ({
          companyID: shop.companyId,
          serviceID: sid,
          resourceID: rids[1],
          startTime: nextStart(),
        })),
      },
    });
    expect(r.status).toBe(200);
    return { ids: r.body.bookings.map((b: { id: string }) => b.id), tx: r.body.transactionID };
  };

  it('is cancelled when its last pending booking is', async () => {
    const { ids, tx } = await batch(2);
    expect((await t.call('POST', `/v1/client/bookings/${ids[0]}/cancel`, { token })).status).toBe(200);
    expect((await transaction(tx)).status).toBe('pending');
    expect((await shop.patch(ids[1], { status: 'cancelled' })).status).toBe(200);
    expect((await transaction(tx)).status).toBe('cancelled');
    expect((await complete(t, tx, 'success')).status).toBe(409);
    expect(await paymentEvents(tx)).toEqual([{ type: 'payment.failed', status: 'cancelled' }]);
  });

  it("paid after one of its bookings was cancelled: the others are confirmed and the cancelled one's share is refunded at once", async () => {
    const { ids, tx } = await batch(3);
    expect((await t.call('POST', `/v1/client/bookings/${ids[1]}/cancel`, { token })).status).toBe(200);
    const paid = await complete(t, tx, 'success');
    expect(paid.status).toBe(303);
    expect(paid.headers.location).toBe('https://shop.example/ok');
    expect(await Promise.all(ids.map(statusOf))).toEqual(['confirmed', 'cancelled', 'confirmed']);
    expect(await transaction(tx)).toMatchObject({ status: 'partially_refunded', amount: 7500 });
    const refunds = await rows('select item_id, amount, status from refund where transaction_id = ?', [tx]);
    expect(refunds).toEqual([{ item_id: ids[1], amount: 2500, status: 'succeeded' }]);
    expect(await paymentEvents(tx)).toEqual([
      { type: 'payment.paid', status: 'paid' },
      { type: 'payment.refunded', status: 'partially_refunded' },
    ]);
  });
});

/** What a provider's webhook or return does: report the payment on the locked transaction, in one database transaction. */
const providerReportsPaid = (id: string) =>
  inTransaction(systemCtx(t.deps, 'system'), async (trx) => {
    const tx = await trx.em.findOneOrFail(PaymentTransaction, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    return reportPaid(trx, tx, new Date(clock.now()));
  });
const refundsOf = (id: string) =>
  rows('select item_id, amount, status from refund where transaction_id = ? order by amount, item_id', [id]);

// The test checkout answers 409 for a transaction that is no longer pending (contract), so a
// late payment can only come from a real provider: reported here as the settlement code is called.
describe('a payment reported for a transaction that is no longer pending', () => {
  it('of a cancelled booking is refunded in full at once, once', async () => {
    const b = await request(nextStart());
    const id = txOf(b.paymentURL);
    expect((await t.call('POST', `/v1/client/bookings/${b.id}/cancel`, { token })).status).toBe(200);
    expect(await providerReportsPaid(id)).toBe('refunded');
    expect(await transaction(id)).toMatchObject({ status: 'refunded', amount: 2500 });
    expect(await refundsOf(id)).toEqual([{ item_id: b.id, amount: 2500, status: 'succeeded' }]);
    expect(await statusOf(b.id)).toBe('cancelled');
    expect(await paymentEvents(id)).toEqual([
      { type: 'payment.failed', status: 'cancelled' },
      { type: 'payment.refunded', status: 'refunded' },
    ]);
    // A repeated report changes nothing.
    expect(await providerReportsPaid(id)).toBe('repeated');
    expect(await refundsOf(id)).toHaveLength(1);
  });

  it('of an expired payment is refunded in full, the booking stays failed', async () => {
    const b = await request(nextStart());
    const id = txOf(b.paymentURL);
    clock.advance(t.deps.config.paymentTimeoutSec * 1000);
    expect(await sweepExpiredPayments(t.deps)).toBeGreaterThanOrEqual(1);
    expect((await transaction(id)).status).toBe('failed');
    expect(await providerReportsPaid(id)).toBe('refunded');
    expect((await transaction(id)).status).toBe('refunded');
    expect(await refundsOf(id)).toEqual([{ item_id: b.id, amount: 2500, status: 'succeeded' }]);
    expect(await statusOf(b.id)).toBe('failed');
  });

  it('of a batch refunds every booking its share', async () => {
    const r = await t.call('POST', '/v1/client/bookings/batch', {
      token,
      body: {
        bookings: [nextStart(), nextStart()].map((startTime) => ({
          companyID: shop.companyId,
          serviceID: sid,
          resourceID: rids[1],
          startTime,
        })),
      },
    });
    const ids = r.body.bookings.map((x: { id: string }) => x.id);
    for (const id of ids) expect((await t.call('POST', `/v1/client/bookings/${id}/cancel`, { token })).status).toBe(200);
    expect(await providerReportsPaid(r.body.transactionID)).toBe('refunded');
    expect(await refundsOf(r.body.transactionID)).toEqual(
      ids
        .map((id: string) => ({ item_id: id, amount: 2500, status: 'succeeded' }))
        .sort((a: any, b: any) => a.item_id.localeCompare(b.item_id)),
    );
    expect((await transaction(r.body.transactionID)).status).toBe('refunded');
  });

  it('of a paid transaction is a repeat and changes nothing', async () => {
    const b = await request(nextStart());
    const id = txOf(b.paymentURL);
    expect((await complete(t, id, 'success')).status).toBe(303);
    expect(await providerReportsPaid(id)).toBe('repeated');
    expect((await transaction(id)).status).toBe('paid');
    expect(await refundsOf(id)).toEqual([]);
  });

  it('still pending while its booking was given up some other way: the checkout refunds it and leads to the failure redirect', async () => {
    const b = await request(nextStart());
    const id = txOf(b.paymentURL);
    // A booking that ended without its payment being cancelled with it (no path of the API does that).
    await rows(`update booking set status = 'cancelled' where id = ?`, [b.id]);
    const paid = await complete(t, id, 'success');
    expect(paid.status).toBe(303);
    expect(paid.headers.location).toBe('https://shop.example/failed');
    expect((await transaction(id)).status).toBe('refunded');
    expect(await refundsOf(id)).toEqual([{ item_id: b.id, amount: 2500, status: 'succeeded' }]);
    expect(await paymentEvents(id)).toEqual([
      { type: 'payment.failed', status: 'cancelled' },
      { type: 'payment.refunded', status: 'refunded' },
    ]);
  });
});

describe('subscription contracts', () => {
  let f: SubscriptionFixtures;
  let plan: string;
  beforeAll(async () => {
    f = new SubscriptionFixtures(t, shop.companyId);
    await f.settings({ currency: 'EUR', taxInclusive: true, taxRate: 0, cartExpiration: 'PT15M' });
    plan = await f.subscription({ title: 'Monthly', duration: 'P30D', limitations: { bookingsCount: 4 } });
    await f.price([plan], 3000);
  });
  const sub = (path: string) => `/v1/companies/${shop.companyId}/plugins/subscription${path}`;
  const purchase = async (): Promise<{ id: string; tx: string }> => {
    const r = await t.call('POST', sub('/client/purchases'), { token, body: { items: [{ subscriptionID: plan }] } });
    expect(r.status).toBe(200);
    return { id: r.body.items[0].id, tx: txOf(r.body.paymentURL) };
  };

  it('a merchant cancelling a pending contract cancels its payment', async () => {
    const { id, tx } = await purchase();
    const r = await t.call('PATCH', sub(`/contracts/${id}`), { body: { status: 'cancelled' } });
    expect(r.status).toBe(200);
    expect((await transaction(tx)).status).toBe('cancelled');
    expect((await complete(t, tx, 'success')).status).toBe(409);
    expect((await f.contractRow(id)).status).toBe('cancelled');
    expect(await paymentEvents(tx)).toEqual([{ type: 'payment.failed', status: 'cancelled' }]);
  });

  it('the sweeper lapsing a pending contract cancels its payment', async () => {
    const { id, tx } = await purchase();
    // A checked-out contract waits for its payment's own expiry; one that still had a deadline of its own lapses with it.
    await rows('update subscription_contract set pending_expires_at = ?::timestamptz where id = ?', [
      new Date(T0 + 60_000).toISOString(),
      id,
    ]);
    expect((await sweepSubscriptions(t.deps, new Date(T0 + 60_000))).lapsed).toBe(1);
    expect((await f.contractRow(id)).status).toBe('cancelled');
    expect((await transaction(tx)).status).toBe('cancelled');
    expect((await complete(t, tx, 'success')).status).toBe(409);
  });

  it('a merchant cancelling an active contract cancels its pending renewal payment', async () => {
    const { id, tx } = await purchase();
    expect((await complete(t, tx, 'success')).status).toBe(303);
    const renewal = await t.call('POST', sub('/client/purchases/renew'), { token, body: { ids: [id] } });
    expect(renewal.status).toBe(200);
    const renewalTx = txOf(renewal.body.paymentURL);
    expect((await t.call('PATCH', sub(`/contracts/${id}`), { body: { status: 'cancelled' } })).status).toBe(200);
    expect((await transaction(renewalTx)).status).toBe('cancelled');
    expect((await complete(t, renewalTx, 'success')).status).toBe(409);
    expect(
      await countRows(t, 'select count(*) as n from subscription_contract where id = ? and renewal_transaction_id is null', [id]),
    ).toBe(1);
  });
});
