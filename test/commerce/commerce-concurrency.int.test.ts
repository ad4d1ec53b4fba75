import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { countRows, Shop } from '../helpers/bookings-fixtures';
import { configurePayments } from '../helpers/payments-fixtures';
import { tally } from '../helpers/tally';

/** Real parallel HTTP requests against a listening server: PostgreSQL decides how often a code or a balance can be used. */

let t: TestApp;
let s: Shop;
let base: string;
let sid: string;
let rid: string;
let widgetKey: string;
const clock = new TestClock(Date.parse('2026-03-01T00:00:00Z'));

beforeAll(async () => {
  t = await createTestApp({ clock });
  s = await Shop.open(t, 'Busy gift shop', 'UTC');
  ({
    sid,
    rids: [rid],
  } = await s.bookable('fixed', { duration: 'PT1H', currency: 'EUR' }));
  await s.price(sid, 'fixed', 2500);
  expect((await configurePayments(t, s.companyId)).status).toBe(200);
  widgetKey = await t.keyWith({ [s.companyId]: ['client.read', 'client.create'] });
  base = await t.listen();
});
afterAll(async () => t?.close());

async function post(path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

let day = 0;
/** Ten different free hours on a fresh day: only the code can make two requests collide. */
const hours = (n: number) => {
  day++;
  return Array.from({ length: n }, (_, i) => `2026-03-${String(1 + day).padStart(2, '0')}T${String(i + 8).padStart(2, '0')}:00:00Z`);
};
const booking = (startTime: string, code: string, guest?: string) => ({
  companyID: s.companyId,
  serviceID: sid,
  resourceID: rid,
  startTime,
  spots: 1,
  code,
  ...(guest ? { client: { email: guest } } : {}),
});
async function promo(body: Record<string, unknown>): Promise<any> {
  const r = await t.call('POST', `${s.base}/plugins/promocodes/codes`, { body: { discountType: 'amount', discountAmount: 1000, ...body } });
  expect(r.status).toBe(201);
  return r.body;
}
async function giftCard(amount: number): Promise<any> {
  const g = await t.call('POST', `${s.base}/plugins/giftcards/giftcards`, { body: { title: 'Card', amount, currency: 'EUR' } });
  const c = await t.call('POST', `${s.base}/plugins/giftcards/contracts`, { body: { giftCardID: g.body.id } });
  expect(c.status).toBe(201);
  return c.body;
}

describe('codes and balances under concurrent requests', () => {
  it('10 parallel client bookings with one single_use code: exactly one gets the discount', async () => {
    const p = await promo({ code: 'ONCE-ONLY', usageType: 'single_use' });
    const results = await Promise.all(
      hours(10).map((h, i) => post('/v1/client/bookings', booking(h, 'once-only', `racer${i}@example.com`), { 'x-api-key': widgetKey })),
    );
    expect(tally(results)).toEqual({ 200: 1, '409 conflict': 9 });
    expect(results.find((r) => r.status === 200)!.body.price).toBe(1500);
    expect(await countRows(t, 'select current_usage_count as n from promo_code where id = ?', [p.id])).toBe(1);
    expect(await countRows(t, "select count(*) as n from promo_usage where promo_code_id = ? and status <> 'released'", [p.id])).toBe(1);
    expect(await countRows(t, 'select count(*) as n from booking where code = ?', ['once-only'])).toBe(1);
  });

  it('10 parallel bookings by one client with a one_per_customer code: exactly one', async () => {
    const p = await promo({ code: 'ONE-EACH', usageType: 'one_per_customer' });
    const token = await s.login('same@example.com', t.adminKey);
    const results = await Promise.all(
      hours(10).map((h) => post('/v1/client/bookings', booking(h, 'ONE-EACH'), { authorization: `Bearer ${token}` })),
    );
    expect(tally(results)).toEqual({ 200: 1, '409 conflict': 9 });
    expect(await countRows(t, 'select current_usage_count as n from promo_code where id = ?', [p.id])).toBe(1);
    expect(await countRows(t, 'select count(*) as n from promo_usage where promo_code_id = ?', [p.id])).toBe(1);
  });

  it('20 parallel usages of 10 on a balance of 100: exactly 10 succeed and the balance ends at 0', async () => {
    const c = await giftCard(100);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        post(`${s.base}/plugins/giftcards/contracts/${c.id}/usages`, { amount: 10 }, { 'x-api-key': t.adminKey }),
      ),
    );
    const outcomes = results.map((r) => (r.status === 201 ? '201' : `${r.status} ${r.body.code}`)).sort();
    expect(outcomes).toEqual([...Array(10).fill('201'), ...Array(10).fill('409 insufficient_balance')]);
    const row = (
      await t.deps.orm.em
        .fork()
        .getConnection()
        .execute<{ balance: number; status: string }[]>('select balance, status from gift_card_contract where id = ?', [c.id])
    )[0];
    expect(row).toEqual({ balance: 0, status: 'redeemed' });
    expect(await countRows(t, "select count(*) as n from gift_card_usage where contract_id = ? and status = 'used'", [c.id])).toBe(10);
  });

  it('8 parallel bookings paid with one card worth two bookings: two are paid by it, the balance never goes below zero', async () => {
    const c = await giftCard(5000);
    const results = await Promise.all(
      hours(8).map((h, i) => post('/v1/client/bookings', booking(h, c.code, `card${i}@example.com`), { 'x-api-key': widgetKey })),
    );
    expect(tally(results)).toEqual({ 200: 2, '409 insufficient_balance': 6 });
    expect(results.filter((r) => r.status === 200).map((r) => [r.body.status, r.body.paymentURL])).toEqual([
      ['confirmed', null],
      ['confirmed', null],
    ]);
    expect(await countRows(t, 'select balance as n from gift_card_contract where id = ?', [c.id])).toBe(0);
    expect(
      await countRows(t, "select coalesce(sum(amount), 0) as n from gift_card_usage where contract_id = ? and status = 'used'", [c.id]),
    ).toBe(5000);
  });
});
