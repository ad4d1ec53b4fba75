import { createTestApp, TestClock, type Res, type TestApp } from './app';
import { FakeStripe, newWebhookSecret, signatureFor } from './stripe-server';
import { Shop } from './bookings-fixtures';

/**
 * A server whose Stripe library talks to a local Stripe (test/helpers/stripe-server.ts), and a
 * salon that takes payments through the `stripe` provider: its keys, webhook delivery as
 * Stripe signs it, and the customer's return.
 */
export interface StripeWorld {
  t: TestApp;
  stripe: FakeStripe;
  clock: TestClock;
  close(): Promise<void>;
}

export async function stripeWorld(): Promise<StripeWorld> {
  // Near the real time: Stripe's side checks session lifetimes against the same clock.
  const clock = new TestClock(Math.floor(Date.now() / 60_000) * 60_000);
  const stripe = new FakeStripe(() => clock.now());
  const url = await stripe.start();
  const t = await createTestApp({ clock, config: { stripeApiUrl: url, webhookAllowInsecure: true, accessTokenTtlSec: 30 * 86400 } });
  return {
    t,
    stripe,
    clock,
    async close() {
      await t.close();
      await stripe.stop();
    },
  };
}

export interface StripeShop {
  shop: Shop;
  sid: string;
  rids: string[];
  secretKey: string;
  webhookSecret: string;
  token: string;
}

export const SUCCESS = 'https://shop.example/paid?tx={{.ID}}&ref={{.ReferenceID}}';
export const FAILURE = 'https://shop.example/failed?tx={{.ID}}';
export const CANCEL = 'https://shop.example/cancelled?tx={{.ID}}';
export const SIGNING = 'a-signing-secret-of-at-least-32-characters';

/** A salon with a priced service (2500 EUR cents) whose payments go through Stripe. */
export async function stripeShop(w: StripeWorld, name = 'Stripe salon', resources = 2): Promise<StripeShop> {
  const { t, stripe } = w;
  const shop = await Shop.open(t, name, 'UTC');
  const { sid, rids } = await shop.bookable('fixed', { duration: 'PT1H' }, resources);
  await shop.price(sid, 'fixed', 2500);
  const secretKey = stripe.newKey();
  const webhookSecret = newWebhookSecret();
  const s = await t.call('PUT', `${shop.base}/payments/settings`, { body: { preferredProvider: 'stripe' } });
  if (s.status !== 200) throw new Error(`payment settings: ${s.status} ${s.text}`);
  const p = await t.call('PUT', `${shop.base}/payments/providers/stripe`, {
    body: {
      success_redirect_url: SUCCESS,
      failure_redirect_url: FAILURE,
      cancel_redirect_url: CANCEL,
      enable_url_templating: true,
      signing_secret: SIGNING,
      secret_key: secretKey,
      webhook_secret: webhookSecret,
    },
  });
  if (p.status !== 200) throw new Error(`stripe settings: ${p.status} ${p.text}`);
  // An endpoint listening to payment events, so that the outbox records them.
  const hook = await t.call('POST', `${shop.base}/webhooks`, {
    body: { url: 'http://127.0.0.1:9/hook', eventTypes: ['payment.failed', 'payment.paid', 'payment.refunded'] },
  });
  if (hook.status !== 201) throw new Error(`webhook endpoint: ${hook.status} ${hook.text}`);
  const token = await shop.login(`payer-${Math.random().toString(36).slice(2, 8)}@example.com`, t.adminKey);
  return { shop, sid, rids, secretKey, webhookSecret, token };
}

/** Sends `event` to the company's webhook endpoint, signed as Stripe signs it (now, or at `signedAt`). */
export function deliver(
  w: StripeWorld,
  companyId: string,
  event: Record<string, unknown>,
  secret: string,
  opts: { signedAt?: number; t?: TestApp } = {},
): Promise<Res> {
  const payload = JSON.stringify(event);
  const ts = Math.floor((opts.signedAt ?? w.clock.now()) / 1000);
  return (opts.t ?? w.t).call('POST', `/v1/payments/stripe/webhook/${companyId}`, {
    key: null,
    body: payload,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signatureFor(payload, secret, ts) },
  });
}

/** The customer's browser coming back from Stripe Checkout. */
export function returnFrom(w: StripeWorld, transactionId: string, outcome: 'success' | 'cancel', sessionId: string): Promise<Res> {
  return w.t.call('GET', `/v1/payments/stripe/return/${transactionId}`, { key: null, query: { outcome, session_id: sessionId } });
}

let hour = 0;
/** A fresh free hour, days ahead. */
export const nextStart = (w: StripeWorld): string => {
  const day = Math.floor(w.clock.now() / 86400_000) * 86400_000 + 3 * 86400_000;
  return new Date(day + (hour++ % 2000) * 3600_000).toISOString().replace('.000Z', 'Z');
};

/** A client booking with a payment through Stripe. */
export async function requestBooking(w: StripeWorld, s: StripeShop, startTime = nextStart(w), resourceID = s.rids[0]): Promise<any> {
  const r = await w.t.call('POST', '/v1/client/bookings', {
    token: s.token,
    body: { companyID: s.shop.companyId, serviceID: s.sid, resourceID, startTime },
  });
  if (r.status !== 200) throw new Error(`booking: ${r.status} ${r.text}`);
  return r.body;
}

export async function transaction(w: StripeWorld, companyId: string, id: string): Promise<any> {
  const r = await w.t.call('GET', `/v1/companies/${companyId}/payments`, { query: { ids: id } });
  return r.body.transactions[0];
}

export const sql = (w: StripeWorld, text: string, params: unknown[] = []): Promise<any[]> =>
  w.t.deps.orm.em.fork().getConnection().execute(text, params);
