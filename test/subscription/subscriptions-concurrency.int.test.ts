import { sweepSubscriptions } from '../../src/modules/subscription/subscription.sweeper';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { countRows, Shop } from '../helpers/bookings-fixtures';
import { configurePayments } from '../helpers/payments-fixtures';
import { SubscriptionFixtures } from '../helpers/subscriptions-fixtures';

/** Real parallel HTTP requests against a listening server: row locks decide how many visits and places are taken. */

const T0 = Date.parse('2026-03-02T06:00:00Z');
const clock = new TestClock(T0);
let t: TestApp;
let shop: Shop;
let f: SubscriptionFixtures;
let url: string;
let sid: string;
let rid: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  shop = await Shop.open(t, 'Busy gym', 'UTC');
  ({
    sid,
    rids: [rid],
  } = await shop.bookable('fixed', { duration: 'PT1H', currency: 'EUR' }));
  await shop.price(sid, 'fixed', 2500);
  expect((await configurePayments(t, shop.companyId)).status).toBe(200);
  f = new SubscriptionFixtures(t, shop.companyId);
  await f.settings({ currency: 'EUR', cartExpiration: 'PT10M' });
  url = await t.listen();
});
afterAll(async () => t?.close());

async function post(path: string, body: unknown, token: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}
const base = () => `/v1/companies/${shop.companyId}/plugins/subscription/client`;
const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {});

it('10 parallel bookings on a contract with 3 visits left: exactly 3 are covered', async () => {
  const token = await shop.login('racer@example.com', t.adminKey);
  const s = await f.subscription({ limitations: { bookingsCount: 3 } });
  await f.price([s], 0);
  const c = (await post(`${base()}/purchases`, { items: [{ subscriptionID: s }] }, token)).body.items[0];
  expect(c.status).toBe('active');
  // ten different free hours: only the contract can make two requests collide
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      post(
        '/v1/client/bookings',
        {
          companyID: shop.companyId,
          serviceID: sid,
          resourceID: rid,
          startTime: `2026-03-03T${String(8 + i).padStart(2, '0')}:00:00Z`,
          spots: 1,
          code: c.code,
        },
        token,
      ),
    ),
  );
  expect(tally(results.map((r) => r.status))).toEqual({ 200: 3, 409: 7 });
  expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'insufficient_balance')).toBe(true);
  expect(await f.balance(c.id)).toBe(0);
  expect(await countRows(t, `select count(*) as n from subscription_usage where contract_id = ? and status <> 'cancelled'`, [c.id])).toBe(
    3,
  );
  expect(await countRows(t, `select count(*) as n from booking where code = ?`, [c.code])).toBe(3);
});

it('10 parallel cart additions against a capacity of 5: exactly 5 pending, and the capacity returns when the carts expire', async () => {
  const s = await f.subscription({ limitations: { bookingsCount: 3 } });
  await f.price([s], 1000);
  await f.capacity([s], 5);
  const tokens = await Promise.all(Array.from({ length: 10 }, (_, i) => shop.login(`buyer${i}@example.com`, t.adminKey)));
  const results = await Promise.all(tokens.map((tok) => post(`${base()}/cart`, { items: [{ subscriptionID: s }] }, tok)));
  expect(tally(results.map((r) => r.status))).toEqual({ 200: 5, 409: 5 });
  const held = `select count(*) as n from subscription_contract where subscription_id = ? and status = 'pending_payment'`;
  expect(await countRows(t, held, [s])).toBe(5);
  clock.advance(10 * 60_000);
  expect((await sweepSubscriptions(t.deps)).lapsed).toBe(5);
  expect(await countRows(t, held, [s])).toBe(0);
  const fresh = await Promise.all(tokens.map((_, i) => shop.login(`buyer${i}@example.com`, t.adminKey)));
  const again = await Promise.all(fresh.map((tok) => post(`${base()}/cart`, { items: [{ subscriptionID: s }] }, tok)));
  expect(tally(again.map((r) => r.status))).toEqual({ 200: 5, 409: 5 });
});
