import { sweepExpiredPayments } from '../../src/modules/payment/payment.api';
import { verifyUrl } from '../helpers/payments-fixtures';
import { signatureFor } from '../helpers/stripe-server';
import {
  deliver,
  nextStart,
  requestBooking,
  returnFrom,
  sql,
  stripeShop,
  stripeWorld,
  transaction,
  type StripeShop,
  type StripeWorld,
} from '../helpers/payments-stripe-fixtures';

/**
 * The `stripe` provider through the real `stripe` library against a local Stripe
 * (payments contract, "The `stripe` provider"): a Checkout Session per transaction, the
 * webhook, the customer's return, the sweeper's reconciliation.
 */
let w: StripeWorld;
let s: StripeShop;

beforeAll(async () => {
  w = await stripeWorld();
  s = await stripeShop(w);
});
afterAll(async () => w?.close());

const cid = () => s.shop.companyId;
const bookingStatus = async (id: string) => (await s.shop.get(id)).body.status;
const sessionOf = async (txId: string) => w.stripe.session((await transaction(w, cid(), txId)).referenceID);
const events = (txId: string) =>
  sql(
    w,
    `select type, payload->'data'->>'status' as status from webhook_event where company_id = ? and payload->'data'->>'id' = ? order by occurred_at, type`,
    [cid(), txId],
  );

describe('a booking paid through Stripe Checkout', () => {
  it('answers the session URL; the session carries the transaction exactly', async () => {
    const before = w.stripe.calls('POST', '/v1/checkout/sessions').length;
    const b = await requestBooking(w, s);
    expect(b.status).toBe('pending');
    const txId =
      b.paymentTransactionID ?? (await sql(w, 'select payment_transaction_id from booking where id = ?', [b.id]))[0].payment_transaction_id;
    const tx = await transaction(w, cid(), txId);
    const session = w.stripe.session(tx.referenceID);
    expect(b.paymentURL).toBe(session.url);
    expect(tx).toMatchObject({ providerType: 'stripe', status: 'pending', amount: 2500, currency: 'EUR' });
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: 2500,
      currency: 'eur',
      client_reference_id: tx.id,
      metadata: { transactionID: tx.id, companyID: cid() },
      customer_email: expect.stringContaining('@example.com'),
    });
    expect(session.line_items).toEqual([
      { name: expect.stringContaining('fixed service'), unit_amount: 2500, quantity: 1, currency: 'eur' },
    ]);
    expect(session.success_url).toBe(
      `${w.t.deps.config.publicUrl}/v1/payments/stripe/return/${tx.id}?outcome=success&session_id={CHECKOUT_SESSION_ID}`,
    );
    expect(session.cancel_url).toContain('outcome=cancel&session_id={CHECKOUT_SESSION_ID}');
    // The hold follows the session: at least 30 minutes (Stripe's minimum), on both sides.
    expect(session.expires_at * 1000).toBe(Date.parse(tx.expiresAt));
    expect(session.expires_at - session.created).toBeGreaterThanOrEqual(30 * 60);
    const calls = w.stripe.calls('POST', '/v1/checkout/sessions').slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0].headers['idempotency-key']).toBe(tx.id);
    expect(calls[0].headers.authorization).toBe(`Bearer ${s.secretKey}`);
    expect(calls[0].headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(calls[0].params.line_items[0].price_data.unit_amount).toBe('2500');
  });

  it('is confirmed by a signed checkout.session.completed; repeats change nothing', async () => {
    const b = await requestBooking(w, s);
    const txId = (await sql(w, 'select payment_transaction_id from booking where id = ?', [b.id]))[0].payment_transaction_id;
    const session = await sessionOf(txId);
    w.stripe.pay(session.id);
    const event = w.stripe.sessionEvent('checkout.session.completed', session.id);
    const r = await deliver(w, cid(), event, s.webhookSecret);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ received: true });
    expect(await bookingStatus(b.id)).toBe('confirmed');
    expect((await transaction(w, cid(), txId)).status).toBe('paid');
    expect((await deliver(w, cid(), event, s.webhookSecret)).status).toBe(200);
    // The same payment in another event (async_payment_succeeded after completed) is a repeat too.
    expect(
      (await deliver(w, cid(), w.stripe.sessionEvent('checkout.session.async_payment_succeeded', session.id), s.webhookSecret)).status,
    ).toBe(200);
    expect(await events(txId)).toEqual([{ type: 'payment.paid', status: 'paid' }]);
    const audit = await sql(
      w,
      `select action, changes from audit_entry where record_type = 'payment_transaction' and record_id = ? order by created_at, action`,
      [txId],
    );
    expect(audit.map((a) => [a.action, a.changes.status])).toEqual([
      ['create', { after: 'pending' }],
      ['status', { before: 'pending', after: 'paid' }],
    ]);
    // The customer's return afterwards reads the session and goes to the success redirect, signed now.
    const back = await returnFrom(w, txId, 'success', session.id);
    expect(back.status).toBe(303);
    const location = back.headers.location as string;
    expect(location).toMatch(new RegExp(`^https://shop\\.example/paid\\?tx=${txId}&ref=${session.id}&ts=\\d+&sig=[0-9a-f]{64}$`));
    expect((await verifyUrl(w.t, cid(), location)).body).toEqual({ valid: true });
  });

  it('is confirmed by the return before any webhook, and the webhook afterwards is a repeat', async () => {
    const b = await requestBooking(w, s);
    const txId = (await sql(w, 'select payment_transaction_id from booking where id = ?', [b.id]))[0].payment_transaction_id;
    const session = await sessionOf(txId);
    w.stripe.pay(session.id);
    const back = await returnFrom(w, txId, 'success', session.id);
    expect(back.status).toBe(303);
    expect(back.headers.location).toContain('https://shop.example/paid?');
    expect(await bookingStatus(b.id)).toBe('confirmed');
    expect((await deliver(w, cid(), w.stripe.sessionEvent('checkout.session.completed', session.id), s.webhookSecret)).status).toBe(200);
    expect(await events(txId)).toEqual([{ type: 'payment.paid', status: 'paid' }]);
  });

  it('the return needs the session id: another one is 404, bad input 400, nothing changes', async () => {
    const b = await requestBooking(w, s);
    const txId = (await sql(w, 'select payment_transaction_id from booking where id = ?', [b.id]))[0].payment_transaction_id;
    expect((await returnFrom(w, txId, 'success', 'cs_test_other')).status).toBe(404);
    expect((await returnFrom(w, txId, 'bogus' as never, 'cs_test_other')).status).toBe(400);
    expect(
      (await w.t.call('GET', `/v1/payments/stripe/return/not-a-uuid`, { key: null, query: { outcome: 'success', session_id: 'x' } }))
        .status,
    ).toBe(400);
    expect(await bookingStatus(b.id)).toBe('pending');
  });

  it('cancel at Stripe: the session is expired there, the booking cancelled with its payment, the time free', async () => {
    const start = nextStart(w);
    const b = await requestBooking(w, s, start);
    const txId = (await sql(w, 'select payment_transaction_id from booking where id = ?', [b.id]))[0].payment_transaction_id;
    const session = await sessionOf(txId);
    const back = await returnFrom(w, txId, 'cancel', session.id);
    expect(back.status).toBe(303);
    expect(back.headers.location).toContain('https://shop.example/cancelled?');
    expect(session.status).toBe('expired');
    expect((await transaction(w, cid(), txId)).status).toBe('cancelled');
    expect(await bookingStatus(b.id)).toBe('failed');
    await requestBooking(w, s, start);
  });
});

describe('webhook', () => {
  it('refuses a bad or missing signature (400), an unknown company (404), and changes nothing', async () => {
    const b = await requestBooking(w, s);
    const txId = (await sql(w, 'select payment_transaction_id from booking where id = ?', [b.id]))[0].payment_transaction_id;
    const session = await sessionOf(txId);
    w.stripe.pay(session.id);
    const event = w.stripe.sessionEvent('checkout.session.completed', session.id);
    const wrong = await deliver(w, cid(), event, 'whsec_someoneelsesecretvalue');
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('invalid_request');
    const old = await deliver(w, cid(), event, s.webhookSecret, { signedAt: w.clock.now() - 301_000 });
    expect(old.status).toBe(400);
    const unsigned = await w.t.call('POST', `/v1/payments/stripe/webhook/${cid()}`, { key: null, body: JSON.stringify(event) });
    expect(unsigned.status).toBe(400);
    const tampered = JSON.stringify({ ...event, id: 'evt_tampered' });
    const sig = signatureFor(JSON.stringify(event), s.webhookSecret, Math.floor(w.clock.now() / 1000));
    const t2 = await w.t.call('POST', `/v1/payments/stripe/webhook/${cid()}`, {
      key: null,
      body: tampered,
      headers: { 'stripe-signature': sig },
    });
    expect(t2.status).toBe(400);
    expect((await deliver(w, '00000000-0000-4000-8000-000000000000', event, s.webhookSecret)).status).toBe(404);
    expect(
      (await w.t.call('POST', `/v1/payments/stripe/webhook/nope`, { key: null, body: 'x', headers: { 'content-type': 'text/plain' } }))
        .status,
    ).toBe(400);
    expect(await bookingStatus(b.id)).toBe('pending');
    // The genuine event still applies (refused deliveries did not record its id).
    expect((await deliver(w, cid(), event, s.webhookSecret)).status).toBe(200);
    expect(await bookingStatus(b.id)).toBe('confirmed');
  });

  it('an event signed for one company naming another company’s transaction is 400 and changes nothing', async () => {
    const other = await stripeShop(w, 'Other salon', 1);
    const b = await requestBooking(w, s);
    const txId = (await sql(w, 'select payment_transaction_id from booking where id = ?', [b.id]))[0].payment_transaction_id;
    const session = await sessionOf(txId);
    w.stripe.pay(session.id);
    const event = w.stripe.sessionEvent('checkout.session.completed', session.id);
    const r = await deliver(w, other.shop.companyId, event, other.webhookSecret);
    expect(r.status).toBe(400);
    // Without the company in the metadata, the transaction itself tells.
    const bare = { ...event, id: 'evt_bare', data: { object: { ...(event.data as any).object, metadata: { transactionID: txId } } } };
    expect((await deliver(w, other.shop.companyId, bare, other.webhookSecret)).status).toBe(400);
    expect(await bookingStatus(b.id)).toBe('pending');
    expect((await sql(w, 'select count(*)::int as n from stripe_event where company_id = ?', [other.shop.companyId]))[0].n).toBe(0);
  });

  it('other event types: 200, no change', async () => {
    const r = await deliver(w, cid(), w.stripe.event('customer.created', { id: 'cus_1', object: 'customer' }), s.webhookSecret);
    expect(r.status).toBe(200);
  });

  it('checkout.session.expired cancels the booking and frees its time', async () => {
    const start = nextStart(w);
    const b = await requestBooking(w, s, start);
    const txId = (await sql(w, 'select payment_transaction_id from booking where id = ?', [b.id]))[0].payment_transaction_id;
    const session = await sessionOf(txId);
    w.stripe.expire(session.id);
    expect((await deliver(w, cid(), w.stripe.sessionEvent('checkout.session.expired', session.id), s.webhookSecret)).status).toBe(200);
    expect((await transaction(w, cid(), txId)).status).toBe('cancelled');
    expect(await bookingStatus(b.id)).toBe('failed');
    expect(await events(txId)).toEqual([{ type: 'payment.failed', status: 'cancelled' }]);
    // Nothing left to close at Stripe.
    expect((await sql(w, 'select checkout_close_at from payment_transaction where id = ?', [txId]))[0].checkout_close_at).toBeNull();
    await requestBooking(w, s, start);
  });

  it('an asynchronous payment: completed unpaid waits, async_payment_failed fails it; another succeeds', async () => {
    const b = await requestBooking(w, s);
    const txId = (await sql(w, 'select payment_transaction_id from booking where id = ?', [b.id]))[0].payment_transaction_id;
    const session = await sessionOf(txId);
    w.stripe.pay(session.id, { async: true });
    expect((await deliver(w, cid(), w.stripe.sessionEvent('checkout.session.completed', session.id), s.webhookSecret)).status).toBe(200);
    expect(await bookingStatus(b.id)).toBe('pending');
    const back = await returnFrom(w, txId, 'success', session.id);
    expect(back.headers.location).toContain('https://shop.example/paid?');
    expect(
      (await deliver(w, cid(), w.stripe.sessionEvent('checkout.session.async_payment_failed', session.id), s.webhookSecret)).status,
    ).toBe(200);
    expect((await transaction(w, cid(), txId)).status).toBe('failed');
    expect(await bookingStatus(b.id)).toBe('failed');

    const b2 = await requestBooking(w, s);
    const tx2 = (await sql(w, 'select payment_transaction_id from booking where id = ?', [b2.id]))[0].payment_transaction_id;
    const s2 = await sessionOf(tx2);
    w.stripe.pay(s2.id, { async: true });
    w.stripe.settleAsync(s2.id, true);
    expect(
      (await deliver(w, cid(), w.stripe.sessionEvent('checkout.session.async_payment_succeeded', s2.id), s.webhookSecret)).status,
    ).toBe(200);
    expect(await bookingStatus(b2.id)).toBe('confirmed');
  });

  it('events out of order: expired after completed changes nothing', async () => {
    const b = await requestBooking(w, s);
    const txId = (await sql(w, 'select payment_transaction_id from booking where id = ?', [b.id]))[0].payment_transaction_id;
    const session = await sessionOf(txId);
    w.stripe.pay(session.id);
    const completed = w.stripe.sessionEvent('checkout.session.completed', session.id);
    const expired = w.stripe.event('checkout.session.expired', { ...w.stripe.sessionJson(session), status: 'expired' });
    expect((await deliver(w, cid(), completed, s.webhookSecret)).status).toBe(200);
    expect((await deliver(w, cid(), expired, s.webhookSecret)).status).toBe(200);
    expect((await transaction(w, cid(), txId)).status).toBe('paid');
    expect(await bookingStatus(b.id)).toBe('confirmed');
  });

  it('a payment that arrives after the booking was cancelled is refunded in full at Stripe', async () => {
    const b = await requestBooking(w, s);
    const txId = (await sql(w, 'select payment_transaction_id from booking where id = ?', [b.id]))[0].payment_transaction_id;
    const session = await sessionOf(txId);
    expect((await w.t.call('POST', `/v1/client/bookings/${b.id}/cancel`, { token: s.token, body: {} })).status).toBe(200);
    expect((await transaction(w, cid(), txId)).status).toBe('cancelled');
    // The customer pays before the session is expired at Stripe.
    w.stripe.pay(session.id);
    const before = w.stripe.calls('POST', '/v1/refunds').length;
    expect((await deliver(w, cid(), w.stripe.sessionEvent('checkout.session.completed', session.id), s.webhookSecret)).status).toBe(200);
    const tx = await transaction(w, cid(), txId);
    expect(tx.status).toBe('refunded');
    const refunds = w.stripe.calls('POST', '/v1/refunds').slice(before);
    expect(refunds).toHaveLength(1);
    expect(refunds[0].params).toMatchObject({ payment_intent: session.payment_intent, amount: '2500' });
    expect(refunds[0].headers['idempotency-key']).toMatch(/^refund-[0-9a-f-]{36}$/);
    const record = (await sql(w, 'select * from refund where transaction_id = ?', [txId]))[0];
    expect(record).toMatchObject({ amount: 2500, status: 'succeeded', provider_refund_id: expect.stringMatching(/^re_/) });
    expect(refunds[0].headers['idempotency-key']).toBe(`refund-${record.id}`);
    expect(await bookingStatus(b.id)).toBe('cancelled');
    // The return leads to the failure redirect.
    expect((await returnFrom(w, txId, 'success', session.id)).headers.location).toContain('https://shop.example/failed?');
    // The sweeper has no session left to expire (it is complete).
    await sweepExpiredPayments(w.t.deps);
    expect((await sql(w, 'select checkout_close_at from payment_transaction where id = ?', [txId]))[0].checkout_close_at).toBeNull();
  });
});

describe('the sweeper', () => {
  it('expires the Checkout Session of a cancelled booking at Stripe, retrying after a failure', async () => {
    const b = await requestBooking(w, s);
    const txId = (await sql(w, 'select payment_transaction_id from booking where id = ?', [b.id]))[0].payment_transaction_id;
    const session = await sessionOf(txId);
    expect((await s.shop.patch(b.id, { status: 'cancelled' })).status).toBe(200);
    w.stripe.fail((r) => r.path === `/v1/checkout/sessions/${session.id}/expire`, 500, 2);
    await sweepExpiredPayments(w.t.deps);
    expect(session.status).toBe('open');
    expect((await sql(w, 'select checkout_close_at from payment_transaction where id = ?', [txId]))[0].checkout_close_at).not.toBeNull();
    w.clock.advance(61_000);
    await sweepExpiredPayments(w.t.deps);
    expect(session.status).toBe('expired');
    expect((await sql(w, 'select checkout_close_at from payment_transaction where id = ?', [txId]))[0].checkout_close_at).toBeNull();
  });

  it('reconciles before expiring: a paid session whose webhook was lost confirms; an unpaid one expires', async () => {
    const paid = await requestBooking(w, s);
    const unpaid = await requestBooking(w, s);
    const txPaid = (await sql(w, 'select payment_transaction_id from booking where id = ?', [paid.id]))[0].payment_transaction_id;
    const txUnpaid = (await sql(w, 'select payment_transaction_id from booking where id = ?', [unpaid.id]))[0].payment_transaction_id;
    w.stripe.pay((await sessionOf(txPaid)).id);
    const unpaidSession = await sessionOf(txUnpaid);
    const expiresAt = Date.parse((await transaction(w, cid(), txPaid)).expiresAt);
    const ids = [(await sessionOf(txPaid)).id, unpaidSession.id];
    const reads = () => w.stripe.requests.filter((r) => r.method === 'GET' && ids.some((id) => r.path.endsWith(id))).length;
    // Before the expiry nothing is read.
    await sweepExpiredPayments(w.t.deps);
    expect(reads()).toBe(0);
    w.clock.set(expiresAt + 1000);
    await sweepExpiredPayments(w.t.deps);
    expect((await transaction(w, cid(), txPaid)).status).toBe('paid');
    expect(await bookingStatus(paid.id)).toBe('confirmed');
    // Stripe had not expired the open session yet: the sweeper expired it there, then the transaction.
    expect(unpaidSession.status).toBe('expired');
    expect((await transaction(w, cid(), txUnpaid)).status).toBe('failed');
    expect(await bookingStatus(unpaid.id)).toBe('failed');
    // Each session was read once.
    expect(reads()).toBe(2);
  });

  it('keeps a pending payment whose session cannot be read, and settles it once Stripe answers', async () => {
    const b = await requestBooking(w, s);
    const txId = (await sql(w, 'select payment_transaction_id from booking where id = ?', [b.id]))[0].payment_transaction_id;
    const session = await sessionOf(txId);
    w.stripe.pay(session.id);
    w.clock.set(Date.parse((await transaction(w, cid(), txId)).expiresAt) + 1000);
    w.stripe.fail((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${session.id}`, 503, 2);
    await sweepExpiredPayments(w.t.deps);
    expect((await transaction(w, cid(), txId)).status).toBe('pending');
    w.clock.advance(61_000);
    await sweepExpiredPayments(w.t.deps);
    expect((await transaction(w, cid(), txId)).status).toBe('paid');
    expect(await bookingStatus(b.id)).toBe('confirmed');
  });
});

describe('stripe provider settings', () => {
  const url = () => `/v1/companies/${cid()}/payments/providers/stripe`;

  it('keep secret_key and webhook_secret write-only and encrypted; GET answers only that they are set', async () => {
    const got = await w.t.call('GET', url());
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ secret_key_set: true, webhook_secret_set: true, signing_secret_set: true });
    expect(got.text).not.toContain(s.secretKey);
    expect(got.text).not.toContain(s.webhookSecret);
    const row = (await sql(w, `select * from payment_provider_settings where company_id = ? and provider = 'stripe'`, [cid()]))[0];
    expect(JSON.stringify(row)).not.toContain(s.secretKey.slice(8));
    expect(row.secret_key_enc).toMatch(/^v1:/);
    const audit = await sql(w, `select changes::text as c from audit_entry where record_type = 'payment_provider_settings'`);
    expect(audit.map((a) => a.c).join()).not.toContain(s.secretKey.slice(8));
    const g = await w.t.gql(
      'query($c: ID!) { paymentProviderSettings(companyID: $c, provider: stripe) { secret_key_set webhook_secret_set } }',
      {
        c: cid(),
      },
    );
    expect(g.body.data.paymentProviderSettings).toEqual({ secret_key_set: true, webhook_secret_set: true });
  });

  it.each([
    [{ secret_key: 'pk_test_abcdefghijkl' }, 'secret_key'],
    [{ secret_key: 'sk_prod_abcdefghijkl' }, 'secret_key'],
    [{ secret_key: 12 }, 'secret_key'],
    [{ webhook_secret: 'secret_abcdefghijkl' }, 'webhook_secret'],
  ])('refuse a key of the wrong form %j (400, never echoed, nothing changes)', async (body, path) => {
    const other = await w.t.company('Form check');
    const r = await w.t.call('PUT', `/v1/companies/${other.id}/payments/providers/stripe`, { body });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([{ path, message: expect.any(String) }]);
    expect(r.text).not.toContain(String(Object.values(body)[0]));
    expect((await w.t.call('GET', `/v1/companies/${other.id}/payments/providers/stripe`)).status).toBe(404);
  });

  it('are stripe-only; null removes them; GraphQL stores them too', async () => {
    const other = await w.t.company('Keys');
    const onTest = await w.t.call('PUT', `/v1/companies/${other.id}/payments/providers/test`, { body: { secret_key: s.secretKey } });
    expect(onTest.status).toBe(400);
    const g = await w.t.gql(
      `mutation($c: ID!, $k: String) { updatePaymentProviderSettings(companyID: $c, provider: stripe, input: {secret_key: $k, webhook_secret: "whsec_abcdefghijklmnop"}) { secret_key_set webhook_secret_set } }`,
      { c: other.id, k: 'sk_live_abcdefghijklmnop' },
    );
    expect(g.body.data.updatePaymentProviderSettings).toEqual({ secret_key_set: true, webhook_secret_set: true });
    const kept = await w.t.call('PUT', `/v1/companies/${other.id}/payments/providers/stripe`, { body: { webhook_secret: null } });
    expect(kept.body).toMatchObject({ secret_key_set: true, webhook_secret_set: false });
  });
});
