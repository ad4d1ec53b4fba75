import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';
import { configurePayments } from '../helpers/payments-fixtures';
import { SubscriptionFixtures } from '../helpers/subscriptions-fixtures';

/**
 * A cancel and a checkout completion of the same pending item, sent at the same time as real
 * parallel HTTP requests: exactly one of them wins, and nothing cancelled while pending is paid.
 */
const clock = new TestClock(Date.parse('2026-03-01T00:00:00Z'));
let t: TestApp;
let shop: Shop;
let base: string;
let sid: string;
let rids: string[];
let token: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  shop = await Shop.open(t, 'Race salon', 'UTC');
  ({ sid, rids } = await shop.bookable('fixed', { duration: 'PT1H' }, 2));
  await shop.price(sid, 'fixed', 2500);
  expect((await configurePayments(t, shop.companyId, { success: 'https://shop.example/ok' })).status).toBe(200);
  token = await shop.login('racer@example.com', t.adminKey);
  base = await t.listen();
});
afterAll(async () => t?.close());

const rows = async (sql: string, params: unknown[] = []): Promise<any[]> => t.deps.orm.em.fork().getConnection().execute(sql, params);

async function send(method: string, path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await res.text();
  return { status: res.status, body: res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text };
}
/** Milliseconds before the checkout and before the cancel: together, or one after the other, so that each side wins some. */
const STAGGER = [
  [0, 0],
  [20, 0],
  [50, 0],
  [0, 20],
  [0, 50],
];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const count = (outcomes: string[]) => outcomes.reduce<Record<string, number>>((m, o) => ({ ...m, [o]: (m[o] ?? 0) + 1 }), {});
const pay = (txId: string) => send('POST', `/v1/payments/test-checkout/${txId}/complete`, { outcome: 'success' }, {});
const txStatus = async (id: string) => (await rows('select status from payment_transaction where id = ?', [id]))[0].status;

describe('cancel and checkout of the same pending booking at once', () => {
  it('either the payment wins (the cancel then meets a confirmed booking) or the cancel wins (the checkout answers 409)', async () => {
    const N = 30;
    const pending: { id: string; tx: string; byClient: boolean }[] = [];
    for (let i = 0; i < N; i++) {
      const startTime = new Date(Date.UTC(2026, 2, 2, i % 12) + Math.floor(i / 12) * 86_400_000).toISOString();
      const r = await t.call('POST', '/v1/client/bookings', {
        token,
        body: { companyID: shop.companyId, serviceID: sid, resourceID: rids[i % 2], startTime },
      });
      expect(r.status).toBe(200);
      pending.push({ id: r.body.id, tx: r.body.paymentURL.split('/').pop(), byClient: i % 2 === 0 });
    }
    const results = await Promise.all(
      pending.map(async (b, i) => {
        const [payAfter, cancelAfter] = STAGGER[i % STAGGER.length];
        const paid = sleep(payAfter).then(() => pay(b.tx));
        const cancel = sleep(cancelAfter).then(() =>
          b.byClient
            ? send('POST', `/v1/client/bookings/${b.id}/cancel`, {}, { authorization: `Bearer ${token}` })
            : send('PATCH', `${shop.base}/bookings/${b.id}`, { status: 'cancelled', refundPercent: 100 }, { 'x-api-key': t.adminKey }),
        );
        const [c, p] = await Promise.all([cancel, paid]);
        return { ...b, cancel: c, pay: p };
      }),
    );

    const outcomes: string[] = [];
    for (const r of results) {
      expect([200, 409]).toContain(r.cancel.status);
      expect([303, 409]).toContain(r.pay.status);
      const booking = (await rows('select status from booking where id = ?', [r.id]))[0].status;
      const history = (await rows('select new_status from booking_status_change where booking_id = ? order by seq', [r.id])).map(
        (h) => h.new_status,
      );
      const tx = await txStatus(r.tx);
      const refunded = await rows('select coalesce(sum(amount), 0)::int as n from refund where transaction_id = ?', [r.tx]);
      if (r.pay.status === 409) {
        // The cancel won: the booking and its payment were cancelled together, the time is free.
        expect([r.cancel.status, booking, tx, history]).toEqual([200, 'cancelled', 'cancelled', ['pending', 'cancelled']]);
        expect(await rows('select 1 from booking_occupancy where booking_id = ?', [r.id])).toEqual([]);
        outcomes.push('cancel won');
        continue;
      }
      // The payment won: it was confirmed first; a cancel that came after it is a cancel of a confirmed booking.
      expect(history.slice(0, 2)).toEqual(['pending', 'confirmed']);
      if (r.cancel.status === 409) {
        expect([booking, tx]).toEqual(['confirmed', 'paid']);
        outcomes.push('payment won, cancel refused');
      } else if (r.byClient) {
        // A client's cancel of a confirmed booking refunds nothing (the existing rule).
        expect([booking, tx, history]).toEqual(['cancelled', 'paid', ['pending', 'confirmed', 'cancelled']]);
        outcomes.push('payment won, then cancelled');
      } else {
        // The merchant's cancel with refundPercent 100 refunds it all.
        expect([booking, tx, refunded[0].n]).toEqual(['cancelled', 'refunded', 2500]);
        outcomes.push('payment won, then cancelled');
      }
    }
    // Nothing is left pending, and nothing cancelled while pending was paid.
    expect(await rows(`select id from payment_transaction where company_id = ? and status = 'pending'`, [shop.companyId])).toEqual([]);
    console.log(`booking races: ${JSON.stringify(count(outcomes))}`);
  });
});

describe('cancel and checkout of the same pending subscription purchase at once', () => {
  it('either the purchase is paid and active (a later cancel ends an active contract) or both are cancelled', async () => {
    const f = new SubscriptionFixtures(t, shop.companyId);
    await f.settings({ currency: 'EUR', taxInclusive: true, taxRate: 0, cartExpiration: 'PT15M' });
    const plan = await f.subscription({ title: 'Race plan', duration: 'P30D', limitations: { bookingsCount: 2 } });
    await f.price([plan], 4000);
    const sub = (path: string) => `/v1/companies/${shop.companyId}/plugins/subscription${path}`;
    const bought: { id: string; tx: string }[] = [];
    for (let i = 0; i < 15; i++) {
      const r = await t.call('POST', sub('/client/purchases'), { token, body: { items: [{ subscriptionID: plan }] } });
      expect(r.status).toBe(200);
      bought.push({ id: r.body.items[0].id, tx: r.body.paymentURL.split('/').pop() });
    }
    const results = await Promise.all(
      bought.map(async (b, i) => {
        const [payAfter, cancelAfter] = STAGGER[i % STAGGER.length];
        const [c, p] = await Promise.all([
          sleep(cancelAfter).then(() => send('PATCH', sub(`/contracts/${b.id}`), { status: 'cancelled' }, { 'x-api-key': t.adminKey })),
          sleep(payAfter).then(() => pay(b.tx)),
        ]);
        return { ...b, cancel: c, pay: p };
      }),
    );
    const outcomes: string[] = [];
    for (const r of results) {
      expect(r.cancel.status).toBe(200);
      const [contract] = await rows('select status, active_from from subscription_contract where id = ?', [r.id]);
      const tx = await txStatus(r.tx);
      expect(contract.status).toBe('cancelled');
      if (r.pay.status === 409) {
        expect([tx, contract.active_from]).toEqual(['cancelled', null]);
        outcomes.push('cancel won');
      } else {
        // Paid first: the contract was activated, then the merchant cancelled an active contract.
        expect(r.pay.status).toBe(303);
        expect(tx).toBe('paid');
        expect(contract.active_from).not.toBeNull();
        outcomes.push('payment won');
      }
    }
    expect(await rows(`select id from payment_transaction where company_id = ? and status = 'pending'`, [shop.companyId])).toEqual([]);
    console.log(`subscription races: ${JSON.stringify(count(outcomes))}`);
  });
});
