import { Webhook } from 'standardwebhooks';
import { deliverDue } from '../../src/modules/webhook/delivery';
import { sweepSubscriptions } from '../../src/modules/subscription/subscription.sweeper';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { WebhookReceiver } from '../helpers/webhook-receiver';
import { Shop } from '../helpers/bookings-fixtures';
import { complete, configurePayments } from '../helpers/payments-fixtures';
import { SubscriptionFixtures } from '../helpers/subscriptions-fixtures';

/** Subscription contracts cause webhook events: purchased, activated (paid), renewed, expired. */

const T0 = Date.parse('2026-03-01T10:00:00Z');
const clock = new TestClock(T0);
let t: TestApp;
let rx: WebhookReceiver;
let shop: Shop;
let f: SubscriptionFixtures;

beforeAll(async () => {
  t = await createTestApp({ clock, config: { webhookAllowInsecure: true, webhookTimeoutMs: 2000 } });
  rx = new WebhookReceiver(() => clock.now());
  await rx.start();
  shop = await Shop.open(t, 'Gym', 'Europe/Riga');
  f = new SubscriptionFixtures(t, shop.companyId);
  expect((await configurePayments(t, shop.companyId)).status).toBe(200);
  await f.settings({ currency: 'EUR' });
});
afterAll(async () => {
  await rx?.stop();
  await t?.close();
});

const base = () => `/v1/companies/${shop.companyId}/plugins/subscription/client`;
const deliver = () => deliverDue(t.deps, { random: () => 0.5 });

it('a purchase, its payment, a paid renewal and the expiry each deliver their event with the contract JSON, signed', async () => {
  const hook = await t.call('POST', `${shop.base}/webhooks`, {
    key: shop.key,
    body: { url: rx.url, eventTypes: ['subscription.purchased', 'subscription.activated', 'subscription.renewed', 'subscription.expired'] },
  });
  expect(hook.status).toBe(201);
  const s = await f.subscription({ duration: 'P30D', limitations: { bookingsCount: 4 } });
  await f.price([s], 1500);
  const token = await shop.login('member@example.com', t.adminKey);
  const bought = await t.call('POST', `${base()}/purchases`, { token, body: { items: [{ subscriptionID: s }] } });
  expect(bought.status).toBe(200);
  const id = bought.body.items[0].id;
  expect((await complete(t, bought.body.transactionID, 'success')).status).toBeLessThan(400);
  const renewal = await t.call('POST', `${base()}/purchases/renew`, { token, body: { ids: [id] } });
  expect(renewal.status).toBe(200);
  expect((await complete(t, renewal.body.transactionID, 'success')).status).toBeLessThan(400);
  // a purchase nobody pays causes `purchased` only
  const unpaid = await t.call('POST', `${base()}/purchases`, { token, body: { items: [{ subscriptionID: s }] } });
  expect(unpaid.status).toBe(200);
  clock.set('2026-05-15T00:00:00Z'); // past the renewed end (60 days after purchase)
  expect((await sweepSubscriptions(t.deps)).expired).toBe(1);

  expect(await deliver()).toBe(5);
  const seen = rx.received.map((r) => `${r.json.type} ${r.json.data.id} ${r.json.data.status}`);
  expect(seen.sort()).toEqual(
    [
      `subscription.purchased ${id} pending_payment`,
      `subscription.activated ${id} active`,
      `subscription.renewed ${id} active`,
      `subscription.expired ${id} expired`,
      `subscription.purchased ${unpaid.body.items[0].id} pending_payment`,
    ].sort(),
  );
  const renewed = rx.received.find((r) => r.json.type === 'subscription.renewed')!.json.data;
  const admin = await t.call('GET', `/v1/companies/${shop.companyId}/plugins/subscription/contracts/${id}`, { key: shop.key });
  expect(renewed).toMatchObject({ id, subscriptionID: s, code: admin.body.code, expiresAt: '2026-04-30T09:00:00Z' });
  for (const r of rx.received) {
    const realNow = Date.now;
    Date.now = () => r.at;
    try {
      expect(new Webhook(hook.body.secret).verify(r.body, r.headers as Record<string, string>)).toMatchObject({ id: r.json.id });
    } finally {
      Date.now = realNow;
    }
  }
});
