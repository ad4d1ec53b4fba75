import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createOrm } from '../../src/db/orm';
import { allEntities } from '../../src/app/registry';
import { buildServer } from '../../src/app/server';
import { signatureFor } from '../helpers/stripe-server';
import { SubscriptionFixtures } from '../helpers/subscriptions-fixtures';
import {
  deliver,
  nextStart,
  requestBooking,
  sql,
  stripeShop,
  stripeWorld,
  transaction,
  type StripeShop,
  type StripeWorld,
} from '../helpers/payments-stripe-fixtures';

/**
 * Everything that is paid goes through Stripe when the company prefers it (batches, gift cards,
 * subscriptions), refunds reach Stripe however they arise, and two servers on one database
 * apply one event once.
 */
let w: StripeWorld;
let s: StripeShop;

beforeAll(async () => {
  w = await stripeWorld();
  s = await stripeShop(w);
});
afterAll(async () => w?.close());

const cid = () => s.shop.companyId;
const txOfBooking = async (id: string): Promise<string> =>
  (await sql(w, 'select payment_transaction_id from booking where id = ?', [id]))[0].payment_transaction_id;

/** Pays the transaction's session and delivers checkout.session.completed. */
async function pay(txId: string, shop: StripeShop = s): Promise<string> {
  const session = w.stripe.session((await transaction(w, shop.shop.companyId, txId)).referenceID);
  w.stripe.pay(session.id);
  const r = await deliver(w, shop.shop.companyId, w.stripe.sessionEvent('checkout.session.completed', session.id), shop.webhookSecret);
  expect(r.status).toBe(200);
  return session.id;
}

describe('refunds through Stripe', () => {
  it('partial then full through the refund route, each with its own idempotency key; a retried request refunds once', async () => {
    const b = await requestBooking(w, s);
    const txId = await txOfBooking(b.id);
    const sessionId = await pay(txId);
    const pi = w.stripe.session(sessionId).payment_intent;
    const before = w.stripe.calls('POST', '/v1/refunds').length;
    const url = `/v1/companies/${cid()}/payments/${txId}/refunds`;
    const part = await w.t.call('POST', url, { body: { itemID: b.id, amount: 1000 }, headers: { 'idempotency-key': 'refund-one' } });
    expect(part.status).toBe(201);
    expect(part.body).toMatchObject({ amount: 1000, status: 'succeeded', providerRefundID: expect.stringMatching(/^re_/) });
    expect((await transaction(w, cid(), txId)).status).toBe('partially_refunded');
    const again = await w.t.call('POST', url, { body: { itemID: b.id, amount: 1000 }, headers: { 'idempotency-key': 'refund-one' } });
    expect(again.body.ID).toBe(part.body.ID);
    const rest = await w.t.call('POST', url, { body: { itemID: b.id, percent: 60 } });
    expect(rest.status).toBe(201);
    expect(rest.body.amount).toBe(1500);
    expect((await transaction(w, cid(), txId)).status).toBe('refunded');
    const calls = w.stripe.calls('POST', '/v1/refunds').slice(before);
    expect(calls.map((c) => [c.params.payment_intent, c.params.amount])).toEqual([
      [pi, '1000'],
      [pi, '1500'],
    ]);
    const keys = calls.map((c) => c.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(2);
    expect(keys[1]).toBe(`refund-${rest.body.ID}`);
    expect(calls[0].params.metadata).toMatchObject({ transactionID: txId, companyID: cid(), refundID: part.body.ID });
  });

  it('the booking update with refundPercent refunds at Stripe', async () => {
    const b = await requestBooking(w, s);
    const txId = await txOfBooking(b.id);
    await pay(txId);
    const before = w.stripe.calls('POST', '/v1/refunds').length;
    expect((await s.shop.patch(b.id, { refundPercent: 40 })).status).toBe(200);
    const calls = w.stripe.calls('POST', '/v1/refunds').slice(before);
    expect(calls.map((c) => c.params.amount)).toEqual(['1000']);
    expect((await s.shop.patch(b.id, { refundPercent: 40 })).status).toBe(200);
    expect(w.stripe.calls('POST', '/v1/refunds').length).toBe(before + 1);
  });

  it('a refund Stripe refuses is recorded failed; a Stripe that cannot be reached is 503 and records nothing', async () => {
    const b = await requestBooking(w, s);
    const txId = await txOfBooking(b.id);
    await pay(txId);
    const url = `/v1/companies/${cid()}/payments/${txId}/refunds`;
    w.stripe.fail((r) => r.path === '/v1/refunds', 503, 2);
    const down = await w.t.call('POST', url, { body: { itemID: b.id, amount: 500 } });
    expect(down.status).toBe(503);
    expect((await sql(w, 'select count(*)::int as n from refund where transaction_id = ?', [txId]))[0].n).toBe(0);
    expect((await transaction(w, cid(), txId)).status).toBe('paid');
    // Stripe refuses: the charge cannot be refunded (here: Stripe no longer sees it paid).
    const session = w.stripe.session((await transaction(w, cid(), txId)).referenceID);
    session.payment_status = 'unpaid';
    const refused = await w.t.call('POST', url, { body: { itemID: b.id, amount: 500 } });
    session.payment_status = 'paid';
    expect(refused.status).toBe(201);
    expect(refused.body).toMatchObject({ status: 'failed', providerRefundID: null, amount: 500 });
    expect((await transaction(w, cid(), txId)).status).toBe('paid');
    // Nothing was refunded, so the whole amount can still be.
    expect((await w.t.call('POST', url, { body: { itemID: b.id, percent: 100 } })).body.status).toBe('succeeded');
  });

  it('a late payment whose refunds were cut short by an unreachable Stripe, reported again, refunds each booking once', async () => {
    const r = await w.t.call('POST', '/v1/client/bookings/batch', {
      token: s.token,
      body: {
        bookings: [
          { companyID: cid(), serviceID: s.sid, resourceID: s.rids[0], startTime: nextStart(w) },
          { companyID: cid(), serviceID: s.sid, resourceID: s.rids[1], startTime: nextStart(w) },
        ],
      },
    });
    expect(r.status).toBe(200);
    const ids: string[] = r.body.bookings.map((x: { id: string }) => x.id);
    const txId = await txOfBooking(ids[0]);
    const session = w.stripe.session((await transaction(w, cid(), txId)).referenceID);
    for (const id of ids)
      expect((await w.t.call('POST', `/v1/client/bookings/${id}/cancel`, { token: s.token, body: {} })).status).toBe(200);
    expect((await transaction(w, cid(), txId)).status).toBe('cancelled');
    w.stripe.pay(session.id);
    // The first booking's refund is made at Stripe; the second's cannot be, and the report is rolled back.
    w.stripe.fail((req) => req.path === '/v1/refunds' && req.params.metadata?.itemID === ids[1], 503, 2);
    const event = w.stripe.sessionEvent('checkout.session.completed', session.id);
    expect((await deliver(w, cid(), event, s.webhookSecret)).status).toBe(503);
    expect((await transaction(w, cid(), txId)).status).toBe('cancelled');
    expect((await deliver(w, cid(), event, s.webhookSecret)).status).toBe(200);
    expect((await transaction(w, cid(), txId)).status).toBe('refunded');
    const atStripe = [...w.stripe.refunds.values()].filter((x) => x.payment_intent === session.payment_intent);
    expect(atStripe.map((x) => x.amount)).toEqual([2500, 2500]);
    const records = await sql(w, 'select item_id, amount, status from refund where transaction_id = ? order by item_id', [txId]);
    expect(records).toEqual([...ids].sort().map((id) => ({ item_id: id, amount: 2500, status: 'succeeded' })));
  });

  it('refund.updated and charge.refunded move the refund records; another company’s refund is 400', async () => {
    w.stripe.refundStatus = 'pending';
    try {
      const b = await requestBooking(w, s);
      const txId = await txOfBooking(b.id);
      await pay(txId);
      const r = await w.t.call('POST', `/v1/companies/${cid()}/payments/${txId}/refunds`, { body: { itemID: b.id, amount: 700 } });
      expect(r.body.status).toBe('pending');
      const refund = w.stripe.refunds.get(r.body.providerRefundID)!;
      refund.status = 'succeeded';
      expect((await deliver(w, cid(), w.stripe.event('refund.updated', { ...refund }), s.webhookSecret)).status).toBe(200);
      expect((await sql(w, 'select status from refund where id = ?', [r.body.ID]))[0].status).toBe('succeeded');

      const r2 = await w.t.call('POST', `/v1/companies/${cid()}/payments/${txId}/refunds`, { body: { itemID: b.id, amount: 300 } });
      const refund2 = w.stripe.refunds.get(r2.body.providerRefundID)!;
      refund2.status = 'failed';
      const other = await stripeShop(w, 'Refund neighbour', 1);
      const charge = { id: refund2.charge, object: 'charge', payment_intent: refund2.payment_intent, refunds: { data: [{ ...refund2 }] } };
      expect((await deliver(w, other.shop.companyId, w.stripe.event('charge.refunded', charge), other.webhookSecret)).status).toBe(400);
      expect((await sql(w, 'select status from refund where id = ?', [r2.body.ID]))[0].status).toBe('pending');
      expect((await deliver(w, cid(), w.stripe.event('charge.refunded', charge), s.webhookSecret)).status).toBe(200);
      expect((await sql(w, 'select status from refund where id = ?', [r2.body.ID]))[0].status).toBe('failed');
      // The failed 300 may be refunded again.
      expect((await sql(w, 'select refunded_amount from payment_transaction where id = ?', [txId]))[0].refunded_amount).toBe(700);
    } finally {
      w.stripe.refundStatus = 'succeeded';
    }
  });
});

describe('every kind of payment', () => {
  it('a batch: one session, one line item per booking, all confirmed by one event', async () => {
    const [a, b] = [nextStart(w), nextStart(w)];
    const r = await w.t.call('POST', '/v1/client/bookings/batch', {
      token: s.token,
      body: {
        bookings: [
          { companyID: cid(), serviceID: s.sid, resourceID: s.rids[0], startTime: a },
          { companyID: cid(), serviceID: s.sid, resourceID: s.rids[1], startTime: b },
        ],
      },
    });
    expect(r.status).toBe(200);
    const ids: string[] = r.body.bookings.map((x: { id: string }) => x.id);
    const txId = await txOfBooking(ids[0]);
    const tx = await transaction(w, cid(), txId);
    const session = w.stripe.session(tx.referenceID);
    expect(r.body.bookings[0].paymentURL).toBe(session.url);
    expect(session.line_items.map((l) => l.unit_amount)).toEqual([2500, 2500]);
    expect(session.amount_total).toBe(5000);
    await pay(txId);
    for (const id of ids) expect((await s.shop.get(id)).body.status).toBe('confirmed');
  });

  it('a gift card purchase', async () => {
    const card = await w.t.call('POST', `/v1/companies/${cid()}/plugins/giftcards/giftcards`, {
      body: { title: 'Gift 50', amount: 5000, currency: 'EUR', active: true, taxInclusive: true, taxRate: 21 },
    });
    expect(card.status).toBe(201);
    const r = await w.t.call('POST', `/v1/companies/${cid()}/plugins/giftcards/client/orders`, {
      token: s.token,
      body: { giftCardID: card.body.id },
    });
    expect(r.status).toBe(200);
    const session = w.stripe.session((await transaction(w, cid(), r.body.transactionID)).referenceID);
    expect(r.body.paymentURL).toBe(session.url);
    expect(session.line_items).toEqual([{ name: 'Gift 50', unit_amount: 5000, quantity: 1, currency: 'eur' }]);
    await pay(r.body.transactionID);
    expect((await transaction(w, cid(), r.body.transactionID)).status).toBe('paid');
    const contract = (await sql(w, 'select status from gift_card_contract where id = ?', [r.body.item.id]))[0];
    expect(contract.status).toBe('active');
  });

  it('a subscription purchase', async () => {
    const f = new SubscriptionFixtures(w.t, cid());
    await f.settings({ currency: 'EUR', taxInclusive: true, taxRate: 21 });
    const sub = await f.subscription({ title: 'Gold', duration: 'P30D', limitations: { bookingsCount: 4 } });
    await f.price([sub], 3900);
    const r = await w.t.call('POST', `/v1/companies/${cid()}/plugins/subscription/client/purchases`, {
      token: s.token,
      body: { items: [{ subscriptionID: sub }] },
    });
    expect(r.status).toBe(200);
    const session = w.stripe.session((await transaction(w, cid(), r.body.transactionID)).referenceID);
    expect(r.body.paymentURL).toBe(session.url);
    expect(session.amount_total).toBe(3900);
    await pay(r.body.transactionID);
    expect((await f.contractRow(r.body.items[0].id)).status).toBe('active');
  });
});

describe('two servers on one database', () => {
  let second: FastifyInstance;
  let orm: MikroORM;
  beforeAll(async () => {
    orm = await createOrm(w.t.deps.orm.config.getClientUrl(), { entities: allEntities(), poolMax: 10 });
    second = await buildServer({ ...w.t.deps, orm }, { logger: false });
    await second.ready();
  });
  afterAll(async () => {
    await second?.close();
    await orm?.close(true);
  });

  it('receiving the same event at once apply it once', async () => {
    const [one, two] = await Promise.all([w.t.listen(), second.listen({ port: 0, host: '127.0.0.1' })]);
    const secondUrl = `http://127.0.0.1:${(second.server.address() as AddressInfo).port}`;
    expect(two).toContain('127.0.0.1');
    for (let round = 0; round < 5; round++) {
      const b = await requestBooking(w, s);
      const txId = await txOfBooking(b.id);
      const session = w.stripe.session((await transaction(w, cid(), txId)).referenceID);
      w.stripe.pay(session.id);
      const payload = JSON.stringify(w.stripe.sessionEvent('checkout.session.completed', session.id));
      const headers = {
        'content-type': 'application/json',
        'stripe-signature': signatureFor(payload, s.webhookSecret, Math.floor(w.clock.now() / 1000)),
      };
      const answers = await Promise.all(
        [one, secondUrl, one, secondUrl].map((base) =>
          fetch(`${base}/v1/payments/stripe/webhook/${cid()}`, { method: 'POST', headers, body: payload }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect((await s.shop.get(b.id)).body.status).toBe('confirmed');
      const paid = await sql(
        w,
        `select count(*)::int as n from webhook_event where company_id = ? and type = 'payment.paid' and payload->'data'->>'id' = ?`,
        [cid(), txId],
      );
      expect(paid[0].n).toBe(1);
      const statusRows = await sql(w, `select count(*)::int as n from audit_entry where record_id = ? and action = 'status'`, [txId]);
      expect(statusRows[0].n).toBe(1);
    }
  });
});
