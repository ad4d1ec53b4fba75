import { sweepSubscriptions } from '../../src/modules/subscription/subscription.sweeper';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';
import { configurePayments } from '../helpers/payments-fixtures';
import { SubscriptionFixtures } from '../helpers/subscriptions-fixtures';

/** Period changes, rollover and contract expiry with moved time, swept by several sweepers at once. */

const T0 = Date.parse('2026-03-02T08:00:00Z'); // Monday 10:00 in Riga
const clock = new TestClock(T0);
let t: TestApp;
let shop: Shop;
let f: SubscriptionFixtures;
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ clock });
  shop = await Shop.open(t, 'Studio', 'Europe/Riga');
  expect((await configurePayments(t, shop.companyId)).status).toBe(200);
  f = new SubscriptionFixtures(t, shop.companyId);
  await f.settings({ currency: 'EUR' });
});
afterAll(async () => t?.close());
beforeEach(() => clock.set(T0));

async function contract(fields: Parameters<SubscriptionFixtures['subscription']>[0]): Promise<any> {
  const s = await f.subscription(fields);
  await f.price([s], 0);
  const token = await shop.login(`yogi${++n}@example.com`, t.adminKey);
  const r = await t.call('POST', `/v1/companies/${shop.companyId}/plugins/subscription/client/purchases`, {
    token,
    body: { items: [{ subscriptionID: s }] },
  });
  expect(r.body.items[0].status).toBe('active');
  return r.body.items[0];
}
const kinds = async (id: string) => (await f.ledger(id)).map((e) => `${e.type} ${e.amount}`);

describe('subscription sweeper', () => {
  it('moves weekly periods: unused visits lapse, the new allocation and a capped rollover follow, across the DST change', async () => {
    const c = await contract({
      duration: 'P28D',
      recurringEnabled: true,
      recurringInterval: 'week',
      limitations: { bookingsCount: 3 },
      rollOverSettings: { rollOverType: 'capped', settings: { maxVisits: 2 } },
    });
    expect(c).toMatchObject({ periodStart: '2026-03-02T08:00:00Z', periodEnd: '2026-03-09T08:00:00Z' });
    clock.set('2026-03-09T08:00:00Z');
    // two processes sweep at once: every period change happens exactly once
    const [a, b] = await Promise.all([sweepSubscriptions(t.deps), sweepSubscriptions(t.deps)]);
    expect(a.advanced + b.advanced).toBe(1);
    expect(await kinds(c.id)).toEqual(['ALLOCATION 3', 'EXPIRATION -3', 'ALLOCATION 3', 'ROLLOVER 2']);
    expect(await f.balance(c.id)).toBe(5);
    // three weeks later at once: each period closes in turn; the week after 29 March starts at 10:00 summer time
    clock.set('2026-03-27T00:00:00Z');
    await sweepSubscriptions(t.deps);
    const row = await f.contractRow(c.id);
    expect([new Date(row.period_start).toISOString(), row.period_index]).toEqual(['2026-03-23T08:00:00.000Z', 3]);
    expect(new Date(row.period_end).toISOString()).toBe('2026-03-30T07:00:00.000Z');
    expect(await f.balance(c.id)).toBe(5);
  });

  it('a rollover of none lets unused visits lapse; all carries every one', async () => {
    const none = await contract({ duration: 'P14D', recurringInterval: 'week', limitations: { bookingsCount: 2 } });
    const all = await contract({
      duration: 'P14D',
      recurringInterval: 'week',
      limitations: { bookingsCount: 2 },
      rollOverSettings: { rollOverType: 'all', settings: {} },
    });
    clock.set('2026-03-09T09:00:00Z');
    await sweepSubscriptions(t.deps);
    expect(await f.balance(none.id)).toBe(2);
    expect(await f.balance(all.id)).toBe(4);
  });

  it('expires contracts on time with an EXPIRATION of what is left, once', async () => {
    const c = await contract({ duration: 'P7D', limitations: { bookingsCount: 4 } });
    clock.set('2026-03-09T07:59:59Z');
    await sweepSubscriptions(t.deps);
    expect((await f.contractRow(c.id)).status).toBe('active');
    clock.set('2026-03-09T08:00:00Z');
    const [a, b] = await Promise.all([sweepSubscriptions(t.deps), sweepSubscriptions(t.deps)]);
    expect(a.expired + b.expired).toBe(1);
    expect((await f.contractRow(c.id)).status).toBe('expired');
    expect(await kinds(c.id)).toEqual(['ALLOCATION 4', 'EXPIRATION -4']);
    await sweepSubscriptions(t.deps);
    expect(await f.balance(c.id)).toBe(0);
  });
});
