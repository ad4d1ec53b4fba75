import { Webhook } from 'standardwebhooks';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { WebhookReceiver } from '../helpers/webhook-receiver';
import { Shop } from '../helpers/bookings-fixtures';
import { complete, configurePayments, startTestPayment } from '../helpers/payments-fixtures';
import { deliverDue } from '../../src/modules/webhook/delivery';
import { sweepExpiredPayments } from '../../src/modules/payment/payment.api';
import { MAX_ATTEMPTS } from '../../src/modules/webhook/retry-schedule';

/** Webhooks: endpoints over REST and GraphQL, the outbox written with the changes, and signed delivery with retries. */

let t: TestApp;
let clock: TestClock;
let rx: WebhookReceiver;
let shop: Shop;
let svc: { sid: string; rids: string[] };

const HALF = () => 0.5; // no jitter: the schedule's own delays
const deliver = () => deliverDue(t.deps, { random: HALF });
const rows = async (sql: string, params: unknown[] = []) => t.deps.orm.em.fork().getConnection().execute(sql, params);

beforeAll(async () => {
  clock = new TestClock(Date.parse('2031-03-03T09:00:00Z'));
  t = await createTestApp({ clock, config: { webhookAllowInsecure: true, webhookTimeoutMs: 400 } });
  rx = new WebhookReceiver(() => clock.now());
  await rx.start();
  shop = await Shop.open(t, 'Hooked', 'UTC');
  svc = await shop.bookable('fixed', { duration: 'PT30M' }, 2);
});
afterAll(async () => {
  await rx?.stop();
  await t?.close();
});
beforeEach(async () => {
  // Each case starts without endpoints (and so without deliveries) of earlier ones.
  await rows('delete from webhook_endpoint');
  rx.received.length = 0;
  rx.plan = [];
  rx.fallback = { status: 200, body: 'ok' };
});

let slot = 0;
/** A fresh free start time for each booking. */
const nextStart = () => new Date(Date.parse('2031-04-01T06:00:00Z') + slot++ * 3600_000).toISOString();

async function endpoint(s: Shop, eventTypes: string[], url = rx.url): Promise<{ id: string; secret: string }> {
  const r = await t.call('POST', `${s.base}/webhooks`, { key: s.key, body: { url, eventTypes, description: 'test' } });
  expect(r.status).toBe(201);
  return r.body;
}

async function book(s = shop, resource = svc.rids[0]): Promise<any> {
  const r = await s.book({ serviceID: svc.sid, resourceID: resource, startTime: nextStart() });
  expect(r.status).toBe(200);
  return r.body;
}

/**
 * Verifies a received request with the standardwebhooks package as its receiver did when it
 * arrived: the library checks the timestamp against `Date.now()`, so that reads the receiver's
 * clock at arrival (the test clock, moved along with the server's).
 */
function verified(secret: string, i = rx.received.length - 1): any {
  const r = rx.received[i];
  const realNow = Date.now;
  Date.now = () => r.at;
  try {
    return new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
  } finally {
    Date.now = realNow;
  }
}

describe('endpoints', () => {
  it('create shows the secret once; get and list never return it; it is stored encrypted', async () => {
    const created = await endpoint(shop, ['booking.created']);
    expect(created).toMatchObject({ enabled: true, description: 'test', eventTypes: ['booking.created'], url: rx.url });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const n = Buffer.from(created.secret.slice(6), 'base64').length;
    expect(n >= 24 && n <= 32).toBe(true);
    const one = await t.call('GET', `${shop.base}/webhooks/${created.id}`);
    const list = await t.call('GET', `${shop.base}/webhooks`);
    const gql = await t.gql(
      `query($c: ID!, $id: ID!) { webhook(companyID: $c, id: $id) { id url } webhooks(companyID: $c) { total webhooks { id } } }`,
      {
        c: shop.companyId,
        id: created.id,
      },
    );
    for (const text of [one.text, list.text, JSON.stringify(gql.body)]) {
      expect(text).not.toContain(created.secret);
      expect(text).not.toContain(created.secret.slice(6));
      expect(text).not.toMatch(/secret/i);
    }
    expect(one.body.id).toBe(created.id);
    expect(list.body).toMatchObject({ limit: 100, offset: 0 });
    expect(list.body.items.map((e: any) => e.id)).toContain(created.id);
    const [stored] = await rows('select secret_enc from webhook_endpoint where id = ?', [created.id]);
    expect(stored.secret_enc).toMatch(/^v1:/);
    expect(stored.secret_enc).not.toContain(created.secret.slice(6));

    const rotated = await t.call('POST', `${shop.base}/webhooks/${created.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(Object.keys(rotated.body)).toEqual(['secret']);
    expect(rotated.body.secret).not.toBe(created.secret);
    await t.call('DELETE', `${shop.base}/webhooks/${created.id}`).then((r) => expect(r.status).toBe(204));
    expect((await t.call('GET', `${shop.base}/webhooks/${created.id}`)).status).toBe(404);
  });

  it('refuses URLs that are not https (http only to loopback with the development flag) and unknown event types, changing nothing', async () => {
    const before = (await t.call('GET', `${shop.base}/webhooks`)).body.total;
    const bad: [unknown, unknown][] = [
      ['http://example.com/hooks', ['booking.created']],
      ['ftp://127.0.0.1/hooks', ['booking.created']],
      ['https://user:pw@example.com/', ['booking.created']],
      ['not a url', ['booking.created']],
      ['https://example.com/hooks', []],
      ['https://example.com/hooks', ['booking.created', 'booking.exploded']],
      ['https://example.com/hooks', 'booking.created'],
      [42, ['booking.created']],
    ];
    for (const [url, eventTypes] of bad) {
      const r = await t.call('POST', `${shop.base}/webhooks`, { body: { url, eventTypes } });
      expect([r.status, r.body.code]).toEqual([400, 'invalid_request']);
    }
    expect((await t.call('GET', `${shop.base}/webhooks`)).body.total).toBe(before);

    const strict = await createTestApp({ config: { webhookAllowInsecure: false } });
    try {
      const c = await strict.company('Strict', 'UTC');
      const r = await strict.call('POST', `/v1/companies/${c.id}/webhooks`, {
        body: { url: 'http://127.0.0.1:9/h', eventTypes: ['booking.created'] },
      });
      expect([r.status, r.body.details[0].path]).toEqual([400, 'url']);
      const ok = await strict.call('POST', `/v1/companies/${c.id}/webhooks`, {
        body: { url: 'https://hooks.example.com/in', eventTypes: ['booking.created'] },
      });
      expect(ok.status).toBe(201);
    } finally {
      await strict.close();
    }
    const e = await endpoint(shop, ['booking.created'], 'https://hooks.example.com/a');
    const patch = await t.call('PATCH', `${shop.base}/webhooks/${e.id}`, { body: { url: 'http://example.com/b' } });
    expect(patch.status).toBe(400);
    expect((await t.call('GET', `${shop.base}/webhooks/${e.id}`)).body.url).toBe('https://hooks.example.com/a');
    await t.call('DELETE', `${shop.base}/webhooks/${e.id}`);
  });

  it('keeps companies apart: another company answers 404, another merchant 403, and read keys cannot write', async () => {
    const e = await endpoint(shop, ['booking.created'], 'https://hooks.example.com/iso');
    const other = await Shop.open(t, 'Other', 'UTC');
    for (const [m, p] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/rotate-secret'],
      ['GET', '/deliveries'],
    ]) {
      const r = await t.call(m, `${other.base}/webhooks/${e.id}${p}`, { body: m === 'PATCH' ? { enabled: false } : undefined });
      expect([m, p, r.status]).toEqual([m, p, 404]);
    }
    expect((await t.call('GET', `${other.base}/webhooks`)).body.total).toBe(0);
    const stranger = await t.newMerchant();
    expect((await t.call('GET', `${shop.base}/webhooks`, { key: stranger })).status).toBe(403);
    const reader = await t.keyWith({ [shop.companyId]: ['webhooks.read'] });
    expect((await t.call('GET', `${shop.base}/webhooks/${e.id}`, { key: reader })).status).toBe(200);
    expect((await t.call('PATCH', `${shop.base}/webhooks/${e.id}`, { key: reader, body: { enabled: false } })).status).toBe(403);
    const noRead = await t.keyWith({ [shop.companyId]: ['bookings.read'] });
    expect((await t.call('GET', `${shop.base}/webhooks`, { key: noRead })).status).toBe(403);
    expect((await t.call('GET', `${shop.base}/webhooks/${e.id}`)).body.enabled).toBe(true);
    await t.call('DELETE', `${shop.base}/webhooks/${e.id}`);
  });

  it('GraphQL creates, updates, rotates and deletes like REST', async () => {
    const created = await t.gql(
      `mutation($c: ID!) { createWebhookEndpoint(companyID: $c, input: {url: "${rx.url}", eventTypes: ["booking.cancelled"]}) { id secret enabled eventTypes } }`,
      { c: shop.companyId },
    );
    const e = created.body.data.createWebhookEndpoint;
    expect(e.secret).toMatch(/^whsec_/);
    const upd = await t.gql(
      `mutation($c: ID!, $id: ID!) { updateWebhookEndpoint(companyID: $c, id: $id, input: {enabled: false, eventTypes: ["booking.moved"]}) { enabled eventTypes description } }`,
      { c: shop.companyId, id: e.id },
    );
    expect(upd.body.data.updateWebhookEndpoint).toEqual({ enabled: false, eventTypes: ['booking.moved'], description: null });
    const bad = await t.gql(
      `mutation($c: ID!) { createWebhookEndpoint(companyID: $c, input: {url: "http://example.com", eventTypes: ["booking.created"]}) { id } }`,
      {
        c: shop.companyId,
      },
    );
    expect(bad.body.errors[0].extensions.code).toBe('invalid_request');
    const rot = await t.gql(`mutation($c: ID!, $id: ID!) { rotateWebhookSecret(companyID: $c, id: $id) { secret } }`, {
      c: shop.companyId,
      id: e.id,
    });
    expect(rot.body.data.rotateWebhookSecret.secret).toMatch(/^whsec_/);
    const del = await t.gql(`mutation($c: ID!, $id: ID!) { deleteWebhookEndpoint(companyID: $c, id: $id) }`, {
      c: shop.companyId,
      id: e.id,
    });
    expect(del.body.data.deleteWebhookEndpoint).toBe(true);
  });
});

describe('delivery', () => {
  it('posts the booking JSON signed per Standard Webhooks, verified by the standardwebhooks package', async () => {
    const e = await endpoint(shop, ['booking.created', 'booking.cancelled', 'booking.moved']);
    const b = await book();
    expect(await deliver()).toBe(1);
    expect(rx.received).toHaveLength(1);
    const body = verified(e.secret);
    const got = rx.received[0];
    expect(got.headers['webhook-id']).toBe(body.id);
    expect(got.headers['content-type']).toBe('application/json');
    expect(Number(got.headers['webhook-timestamp'])).toBe(Math.floor(clock.now() / 1000));
    expect(body).toMatchObject({ type: 'booking.created', occurredAt: new Date(clock.now()).toISOString() });
    const rest = (await shop.get(b.id)).body;
    expect(body.data).toEqual({ ...rest, client: null, service: null, resource: null });
    // A receiver holding another secret, or an altered body, fails verification.
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(got.body, got.headers as any)).toThrow();
    expect(() => new Webhook(e.secret).verify(got.body.replace(b.id, b.id.replace(/.$/, '0')), got.headers as any)).toThrow();

    // Status changes and moves are events of their own; a type nobody listens to is not recorded.
    await shop.patch(b.id, { startTime: nextStart() }).then((r) => expect(r.status).toBe(200));
    await shop.patch(b.id, { status: 'cancelled' }).then((r) => expect(r.status).toBe(200));
    expect(await deliver()).toBe(2);
    const types = rx.received.slice(1).map((r) => r.json.type);
    expect(types.sort()).toEqual(['booking.cancelled', 'booking.moved']);
    const cancelled = rx.received.find((r) => r.json.type === 'booking.cancelled')!.json;
    expect(cancelled.data.status).toBe('cancelled');
    expect(cancelled.data.statusChanges.map((s: any) => s.newStatus)).toEqual(['confirmed', 'cancelled']);

    const log = await t.call('GET', `${shop.base}/webhooks/${e.id}/deliveries`, { query: { limit: 2 } });
    expect(log.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(log.body.items[0].attempts[0]).toMatchObject({
      attempt: 1,
      succeeded: true,
      responseStatus: 200,
      responseExcerpt: 'ok',
      error: null,
    });
    expect(log.body.items.every((d: any) => d.status === 'succeeded' && d.nextAttemptAt === null)).toBe(true);
    await t.call('DELETE', `${shop.base}/webhooks/${e.id}`);
  });

  it('retries after a 500 and a time-out on the backoff schedule, with the same webhook-id, and records every attempt', async () => {
    const e = await endpoint(shop, ['booking.created']);
    await book();
    rx.plan = [{ status: 500, body: 'boom\u0000' }, 'hang', { status: 204 }];
    const t0 = clock.now();
    expect(await deliver()).toBe(1); // 500
    clock.set(t0 + 9_999);
    expect(await deliver()).toBe(0); // 10 s not yet over
    clock.set(t0 + 10_000);
    expect(await deliver()).toBe(1); // times out after 400 ms
    const t1 = clock.now();
    clock.set(t1 + 29_999);
    expect(await deliver()).toBe(0);
    clock.set(t1 + 30_000);
    expect(await deliver()).toBe(1); // 204
    clock.set(t1 + 10 * 3600_000);
    expect(await deliver()).toBe(0);

    expect(rx.received).toHaveLength(3);
    const ids = new Set(rx.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    expect(rx.received.map((r) => r.headers['webhook-timestamp'])).toEqual(
      [t0, t0 + 10_000, t1 + 30_000].map((ms) => String(Math.floor(ms / 1000))),
    );
    for (let i = 0; i < 3; i++) expect(verified(e.secret, i).id).toBe([...ids][0]);
    const [d] = (await t.call('GET', `${shop.base}/webhooks/${e.id}/deliveries`)).body.items;
    expect(d).toMatchObject({ status: 'succeeded', attemptCount: 3, eventID: [...ids][0], eventType: 'booking.created' });
    expect(d.attempts.map((a: any) => [a.attempt, a.succeeded, a.responseStatus])).toEqual([
      [3, true, 204],
      [2, false, null],
      [1, false, 500],
    ]);
    expect(d.attempts[1].error).toMatch(/timed out after 400 ms/);
    expect(d.attempts[2]).toMatchObject({ responseExcerpt: 'boom\uFFFD', error: 'HTTP 500' }); // a NUL cannot be stored
    expect(d.attempts[1].latencyMs).toBeGreaterThanOrEqual(390);
    await t.call('DELETE', `${shop.base}/webhooks/${e.id}`);
  });

  it('gives a delivery up after the last attempt, about a day later, and disables an endpoint that failed all along; enabling resumes it', async () => {
    const e = await endpoint(shop, ['booking.created']);
    await book();
    rx.fallback = { status: 503 };
    const t0 = clock.now();
    let attempts = 0;
    for (let i = 0; i < 40 && attempts < MAX_ATTEMPTS; i++) {
      attempts += await deliver();
      const [next] = await rows(`select next_attempt_at from webhook_delivery where status = 'pending'`);
      if (next) clock.set(new Date(next.next_attempt_at).getTime());
    }
    expect(attempts).toBe(MAX_ATTEMPTS);
    const span = rx.received.at(-1)!.at - t0;
    expect(span / 3600_000).toBeGreaterThan(20);
    expect(span / 3600_000).toBeLessThan(22);
    const [d] = (await t.call('GET', `${shop.base}/webhooks/${e.id}/deliveries`)).body.items;
    expect(d).toMatchObject({ status: 'failed', attemptCount: MAX_ATTEMPTS, nextAttemptAt: null });
    const ep = (await t.call('GET', `${shop.base}/webhooks/${e.id}`)).body;
    expect(ep.enabled).toBe(false);
    expect(ep.disabledReason).toMatch(/failed for more than 16 hours.*HTTP 503/);

    // A disabled endpoint gets no new events, and a replay waits (parked) until it is enabled again.
    await book();
    expect(await deliver()).toBe(0);
    const parked = await t.call('POST', `${shop.base}/webhooks/${e.id}/deliveries/${d.id}/replay`);
    expect(parked.body).toMatchObject({ status: 'pending', nextAttemptAt: null });
    clock.advance(86400_000);
    expect(await deliver()).toBe(0);
    const on = await t.call('PATCH', `${shop.base}/webhooks/${e.id}`, { body: { enabled: true } });
    expect(on.body).toMatchObject({ enabled: true, disabledReason: null });
    rx.fallback = { status: 200 };
    await book();
    expect(await deliver()).toBe(2); // the parked replay and the new booking
    expect(rx.received.at(-2)!.headers['webhook-id']).not.toBe(rx.received.at(-1)!.headers['webhook-id']);

    // Replaying the given-up delivery sends the same event again, under the same webhook-id.
    const replay = await t.call('POST', `${shop.base}/webhooks/${e.id}/deliveries/${d.id}/replay`);
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({ status: 'pending', attemptCount: 0, eventID: d.eventID });
    expect(await deliver()).toBe(1);
    expect(rx.received.at(-1)!.headers['webhook-id']).toBe(d.eventID);
    const missing = await t.call('POST', `${shop.base}/webhooks/${e.id}/deliveries/${e.id}/replay`);
    expect(missing.status).toBe(404);

    // The GraphQL twins answer the same log and replay.
    const gql = await t.gql(
      `query($c: ID!, $w: ID!) { webhookDeliveries(companyID: $c, webhookID: $w, limit: 1, offset: 0) {
        total limit deliveries { id eventID status attemptCount attempts { attempt succeeded responseStatus } } } }`,
      { c: shop.companyId, w: e.id },
    );
    const rest = (await t.call('GET', `${shop.base}/webhooks/${e.id}/deliveries`, { query: { limit: 1 } })).body;
    expect(gql.body.data.webhookDeliveries).toMatchObject({ total: rest.total, limit: 1 });
    expect(gql.body.data.webhookDeliveries.deliveries[0]).toMatchObject({ id: rest.items[0].id, status: 'succeeded', attemptCount: 1 });
    const again = await t.gql(
      `mutation($c: ID!, $w: ID!, $d: ID!) { replayWebhookDelivery(companyID: $c, webhookID: $w, deliveryID: $d) { eventID status } }`,
      { c: shop.companyId, w: e.id, d: d.id },
    );
    expect(again.body.data.replayWebhookDelivery).toEqual({ eventID: d.eventID, status: 'pending' });
    await t.call('DELETE', `${shop.base}/webhooks/${e.id}`);
  });

  it('records no event for a change that rolled back', async () => {
    const e = await endpoint(shop, ['booking.created']);
    const taken = nextStart();
    await shop.book({ serviceID: svc.sid, resourceID: svc.rids[1], startTime: taken }).then((r) => expect(r.status).toBe(200));
    const eventsBefore = Number((await rows('select count(*) as n from webhook_event where company_id = ?', [shop.companyId]))[0].n);
    // A daily series whose second occurrence hits the taken time: the first occurrence is written, then all is rolled back.
    const first = new Date(Date.parse(taken) - 86400_000).toISOString();
    const r = await shop.book({
      serviceID: svc.sid,
      resourceID: svc.rids[1],
      startTime: first,
      ignoreSchedule: true,
      repeat: { rrule: 'FREQ=DAILY;COUNT=3', timeZone: 'UTC' },
    });
    expect(r.status).toBe(409);
    const eventsAfter = Number((await rows('select count(*) as n from webhook_event where company_id = ?', [shop.companyId]))[0].n);
    expect(eventsAfter).toBe(eventsBefore);
    expect(await deliver()).toBe(1);
    expect(rx.received).toHaveLength(1);
    await t.call('DELETE', `${shop.base}/webhooks/${e.id}`);
  });

  it("sends a company's events only to its own endpoints", async () => {
    const other = await Shop.open(t, 'Neighbour', 'UTC');
    const otherSvc = await other.bookable('fixed', { duration: 'PT30M' }, 1);
    const mine = await endpoint(shop, ['booking.created']);
    const theirs = await endpoint(other, ['booking.created']);
    const b = await book();
    const ob = await other.book({ serviceID: otherSvc.sid, resourceID: otherSvc.rids[0], startTime: nextStart() });
    expect(await deliver()).toBe(2);
    const byCompany = new Map(rx.received.map((r) => [r.json.data.companyID, r]));
    expect(byCompany.get(shop.companyId)!.json.data.id).toBe(b.id);
    expect(byCompany.get(other.companyId)!.json.data.id).toBe(ob.body.id);
    const mineList = (await t.call('GET', `${shop.base}/webhooks/${mine.id}/deliveries`)).body;
    expect(mineList.total).toBe(1);
    // Each is signed with its own endpoint's secret.
    const i = rx.received.indexOf(byCompany.get(other.companyId)!);
    expect(verified(theirs.secret, i).data.id).toBe(ob.body.id);
    expect(() => verified(mine.secret, i)).toThrow();
    await t.call('DELETE', `${shop.base}/webhooks/${mine.id}`);
    await t.call('DELETE', `${other.base}/webhooks/${theirs.id}`);
  });

  it('payment events: paid at checkout, failed when it expires', async () => {
    const pay = await Shop.open(t, 'Payments', 'UTC');
    await configurePayments(t, pay.companyId);
    const e = await endpoint(pay, ['payment.paid', 'payment.failed']);
    const paid = await startTestPayment(t, pay.companyId);
    expect((await complete(t, paid!.transactionId, 'success', true)).status).toBeLessThan(400);
    const expiring = await startTestPayment(t, pay.companyId);
    clock.advance(t.deps.config.paymentTimeoutSec * 1000 + 1000);
    expect(await sweepExpiredPayments(t.deps)).toBeGreaterThanOrEqual(1);
    expect(await deliver()).toBe(2);
    const byType = Object.fromEntries(rx.received.map((r) => [r.json.type, r.json.data]));
    expect(byType['payment.paid']).toMatchObject({ id: paid!.transactionId, status: 'paid' });
    expect(byType['payment.failed']).toMatchObject({ id: expiring!.transactionId, status: 'failed' });
    const rest = await t.call('GET', `/v1/companies/${pay.companyId}/payments`, { query: { ids: paid!.transactionId } });
    expect(rest.status).toBe(200);
    // The stored updatedAt is the flush's wall-clock time (BaseEntity's onUpdate), not the test clock's.
    expect({ ...byType['payment.paid'], updatedAt: null }).toEqual({ ...rest.body.transactions[0], updatedAt: null });
    verified(e.secret);
  });

  it('settlements: a paid booking is confirmed, a failed one fails, a refund and a gift card purchase are events too', async () => {
    const pay = await Shop.open(t, 'Paid salon', 'UTC');
    const p = await pay.bookable('fixed', { duration: 'PT1H' }, 1);
    await pay.price(p.sid, 'fixed', 2500);
    await configurePayments(t, pay.companyId);
    const e = await endpoint(pay, [
      'booking.created',
      'booking.confirmed',
      'booking.failed',
      'payment.paid',
      'payment.failed',
      'payment.refunded',
      'giftcard.purchased',
      'giftcard.paid',
    ]);
    const token = await pay.login('payer@example.com', t.adminKey);
    const request = () =>
      t.call('POST', '/v1/client/bookings', {
        token,
        body: { companyID: pay.companyId, serviceID: p.sid, resourceID: p.rids[0], startTime: nextStart() },
      });
    const good = (await request()).body;
    const bad = (await request()).body;
    expect([good.status, bad.status]).toEqual(['pending', 'pending']);
    const txOf = (paymentURL: string) => paymentURL.split('/').pop()!;
    expect((await complete(t, txOf(good.paymentURL), 'success', true)).status).toBeLessThan(400);
    expect((await complete(t, txOf(bad.paymentURL), 'failure', true)).status).toBeLessThan(400);
    const refund = await t.call('POST', `/v1/companies/${pay.companyId}/payments/${txOf(good.paymentURL)}/refunds`, {
      body: { itemID: good.id, percent: 50 },
    });
    expect(refund.status).toBeLessThan(300);
    const gift = await t.call('POST', `/v1/companies/${pay.companyId}/plugins/giftcards/giftcards`, {
      body: { title: 'Gift 50', amount: 5000, currency: 'EUR', validityDuration: 'P365D' },
    });
    const ordered = await t.call('POST', `/v1/companies/${pay.companyId}/plugins/giftcards/client/orders`, {
      token,
      body: { giftCardID: gift.body.id },
    });
    expect(ordered.status).toBe(200);
    const order = { body: ordered.body.item };
    expect((await complete(t, txOf(order.body.paymentURL), 'success', true)).status).toBeLessThan(400);

    expect(await deliver()).toBe(10);
    expect(
      await rows(
        'select attempt, error from webhook_attempt a join webhook_delivery d on d.id = a.delivery_id where not a.succeeded and d.company_id = ?',
        [pay.companyId],
      ),
    ).toEqual([]);
    const seen = rx.received.map((r) => `${r.json.type} ${r.json.data.id} ${r.json.data.status}`).sort();
    expect(seen).toEqual(
      [
        `booking.created ${good.id} pending`,
        `booking.created ${bad.id} pending`,
        `booking.confirmed ${good.id} confirmed`,
        `booking.failed ${bad.id} failed`,
        `payment.paid ${txOf(good.paymentURL)} paid`,
        `payment.failed ${txOf(bad.paymentURL)} failed`,
        `payment.refunded ${txOf(good.paymentURL)} partially_refunded`,
        `giftcard.purchased ${order.body.id} pending_payment`,
        `payment.paid ${txOf(order.body.paymentURL)} paid`,
        `giftcard.paid ${order.body.id} active`,
      ].sort(),
    );
    const confirmed = rx.received.find((r) => r.json.type === 'booking.confirmed')!.json.data;
    expect(confirmed).toEqual({ ...(await pay.get(good.id)).body, client: null, service: null, resource: null });
    verified(e.secret);
  });

  it('several workers at once deliver each event once', async () => {
    await endpoint(shop, ['booking.created']);
    const n = 24;
    for (let i = 0; i < n; i++) await book(shop, svc.rids[i % 2]);
    const counts = await Promise.all([1, 2, 3].map(() => deliverDue(t.deps, { batch: 5 })));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(n);
    const ids = rx.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(n);
    expect(ids).toHaveLength(n);
  });

  it('costs a booking no extra statement, with or without a listening endpoint', async () => {
    const quiet = await Shop.open(t, 'Quiet', 'UTC');
    const q = await quiet.bookable('fixed', { duration: 'PT30M' }, 1);
    const create = () => quiet.book({ serviceID: q.sid, resourceID: q.rids[0], startTime: nextStart() });
    await create();
    const without = await t.countStatements(create);
    await endpoint(quiet, ['booking.created']);
    const withOne = await t.countStatements(create);
    expect(withOne).toBe(without);
    const [{ n }] = await rows('select count(*) as n from webhook_event where company_id = ?', [quiet.companyId]);
    expect(Number(n)).toBe(1);
  });
});
