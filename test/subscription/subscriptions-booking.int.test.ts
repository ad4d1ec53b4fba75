import { createTestApp, TestClock, type Res, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';
import { configurePayments } from '../helpers/payments-fixtures';
import { SubscriptionFixtures } from '../helpers/subscriptions-fixtures';

/**
 * Booking with a subscription contract code: covered only when every limitation holds (in the
 * company's zone, Europe/Riga, across the DST change of 29 March 2026) and a visit is left in
 * the booking's period; cancellations give the visit back with a reversing entry.
 */

const T0 = Date.parse('2026-03-23T06:00:00Z'); // Monday 08:00 in Riga
const clock = new TestClock(T0);
let t: TestApp;
let shop: Shop;
let f: SubscriptionFixtures;
let sid: string;
let rid: string;
let otherSid: string;
let token: string;
let otherToken: string;
let widgetKey: string;
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ clock });
  shop = await Shop.open(t, 'Pool', 'Europe/Riga');
  expect((await configurePayments(t, shop.companyId)).status).toBe(200);
  f = new SubscriptionFixtures(t, shop.companyId);
  await f.settings({ currency: 'EUR' });
  widgetKey = await t.keyWith({ [shop.companyId]: ['client.read', 'client.create'] });
});
afterAll(async () => t?.close());
beforeEach(async () => {
  clock.set(T0);
  n++;
  // a fresh resource per test, so that tests never compete for times
  ({
    sid,
    rids: [rid],
  } = await shop.bookable('fixed', { duration: 'PT1H', currency: 'EUR' }));
  await shop.price(sid, 'fixed', 2500);
  otherSid = await shop.service('fixed', { duration: 'PT1H', currency: 'EUR' }, 'Sauna');
  await shop.link(otherSid, rid);
  await shop.price(otherSid, 'fixed', 1500);
  token = await shop.login(`swimmer${n}@example.com`, t.adminKey);
  otherToken = await shop.login(`stranger${n}@example.com`, t.adminKey);
});

const base = () => `/v1/companies/${shop.companyId}/plugins/subscription/client`;

/** A free membership bought by the calling client: active at once. */
async function membership(fields: Parameters<SubscriptionFixtures['subscription']>[0] = {}, tok = token): Promise<any> {
  const s = await f.subscription({ duration: 'P90D', ...fields });
  await f.price([s], 0);
  const r = await t.call('POST', `${base()}/purchases`, { token: tok, body: { items: [{ subscriptionID: s }] } });
  if (r.status !== 200) throw new Error(`purchase: ${r.status} ${r.text}`);
  return r.body.items[0];
}

/** A booking request at a local Riga wall time (`2026-03-24T10:00`). */
const book = (
  local: string,
  code: string | undefined,
  opts: { token?: string | null; service?: string; key?: string; guest?: string } = {},
): Promise<Res> => {
  const offset = local >= '2026-03-29T04:00' ? '+03:00' : '+02:00';
  return t.call('POST', '/v1/client/bookings', {
    token: opts.token === undefined ? token : opts.token,
    ...(opts.key ? { key: opts.key } : {}),
    body: {
      companyID: shop.companyId,
      serviceID: opts.service ?? sid,
      resourceID: rid,
      startTime: `${local}:00${offset}`,
      spots: 1,
      ...(code ? { code } : {}),
      ...(opts.guest ? { client: { email: opts.guest } } : {}),
    },
  });
};
const refusal = (r: Res) => [r.status, r.body.code, r.body.details?.[0]?.path];

describe('booking with a subscription contract code', () => {
  it('covers the booking: nothing to pay, a used usage and a USAGE entry; cancelling reverses it', async () => {
    const c = await membership({ limitations: { bookingsCount: 2 } });
    const r = await book('2026-03-24T10:00', c.code.toLowerCase().replace(/-/g, ' '));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'confirmed', price: 2500 });
    expect(r.body.paymentURL ?? null).toBeNull();
    const after = (await t.call('GET', `${base()}/purchases/${c.id}`, { token })).body;
    expect(after.usages).toHaveLength(1);
    expect(after.usages[0]).toMatchObject({ bookingID: r.body.id, status: 'used', source: 'booking' });
    expect((await f.ledger(c.id)).map((e) => [e.type, e.amount])).toEqual([
      ['ALLOCATION', 2],
      ['USAGE', -1],
    ]);
    const cancel = await t.call('POST', `/v1/client/bookings/${r.body.id}/cancel`, { token, body: {} });
    expect(cancel.status).toBe(200);
    expect((await f.ledger(c.id)).map((e) => [e.type, e.amount])).toEqual([
      ['ALLOCATION', 2],
      ['USAGE', -1],
      ['REVERSAL', 1],
    ]);
    expect(await f.balance(c.id)).toBe(2);
    expect((await t.call('GET', `${base()}/purchases/${c.id}`, { token })).body.usages[0].status).toBe('cancelled');
  });

  it('refuses a booking when no visit is left (409 insufficient_balance), and books nothing', async () => {
    const c = await membership({ limitations: { bookingsCount: 1 } });
    expect((await book('2026-03-24T10:00', c.code)).status).toBe(200);
    const r = await book('2026-03-24T12:00', c.code);
    expect(refusal(r)).toEqual([409, 'insufficient_balance', 'code']);
    expect(r.body.message).toMatch(/bookingsCount/);
    expect(await f.balance(c.id)).toBe(0);
  });

  it('counts visits per period: a new week brings new visits', async () => {
    const c = await membership({ limitations: { bookingsCount: 1 }, recurringInterval: 'week', recurringEnabled: true });
    // the contract started Monday 23 March 08:00 local; periods are weeks from then, across the DST change
    expect((await book('2026-03-24T10:00', c.code)).status).toBe(200);
    expect(refusal(await book('2026-03-30T07:00', c.code))).toEqual([409, 'insufficient_balance', 'code']); // still week one
    expect((await book('2026-03-30T08:00', c.code)).status).toBe(200); // week two starts at 08:00 local (summer time)
    expect(refusal(await book('2026-04-02T10:00', c.code))).toEqual([409, 'insufficient_balance', 'code']);
    const ledger = await f.ledger(c.id);
    expect(ledger.filter((e) => e.type === 'ALLOCATION').map((e) => e.periodStart)).toEqual([
      '2026-03-23T06:00:00.000Z',
      '2026-03-30T05:00:00.000Z',
    ]);
  });

  it('checks days of the week and time windows in the company zone, to the last allowed minute', async () => {
    const c = await membership({
      limitations: { bookingsCount: 20, daysOfWeek: 124, times: [{ startTime: '09:00', endTime: '12:00' }] },
    });
    expect((await book('2026-03-27T11:00', c.code)).status).toBe(200); // Friday, ends 12:00 exactly
    const late = await book('2026-03-27T12:00', c.code);
    expect(refusal(late)).toEqual([400, 'invalid_request', 'code']);
    expect(late.body.message).toMatch(/times/);
    expect(refusal(await book('2026-03-27T08:00', c.code))[0]).toBe(400);
    const saturday = await book('2026-03-28T10:00', c.code);
    expect(saturday.body.message).toMatch(/daysOfWeek/);
    expect((await book('2026-03-29T10:00', c.code)).body.message).toMatch(/daysOfWeek/); // Sunday, the DST day
    expect((await book('2026-03-30T09:00', c.code)).status).toBe(200); // Monday, summer time
    expect(await f.balance(c.id)).toBe(18);
  });

  it('checks services, spots and the contract term', async () => {
    const c = await membership({ limitations: { bookingsCount: 5, maxSpotsPerBooking: 1 }, serviceIds: [sid], duration: 'P7D' });
    expect((await book('2026-03-24T10:00', c.code, { service: otherSid })).body.message).toMatch(/serviceIDs/);
    expect((await book('2026-03-30T10:00', c.code)).body.message).toMatch(/expiresAt/); // the contract ends 30 March 08:00
    expect(await f.balance(c.id)).toBe(5);
  });

  it("refuses another client's contract, unpaid contracts and unknown codes with 400", async () => {
    const c = await membership({ limitations: { bookingsCount: 5 } });
    const foreign = await book('2026-03-24T10:00', c.code, { token: otherToken });
    expect(refusal(foreign)).toEqual([400, 'invalid_request', 'code']);
    expect(foreign.body.message).toMatch(/another client/);
    // a guest whose e-mail is the owner's may use it, another guest may not
    expect((await book('2026-03-24T11:00', c.code, { token: null, key: widgetKey, guest: `swimmer${n}@example.com` })).status).toBe(200);
    expect((await book('2026-03-24T12:00', c.code, { token: null, key: widgetKey, guest: `guest${n}@example.com` })).status).toBe(400);
    const s = await f.subscription({});
    await f.price([s], 900);
    const unpaid = (await t.call('POST', `${base()}/purchases`, { token, body: { items: [{ subscriptionID: s }] } })).body.items[0];
    expect((await book('2026-03-24T13:00', unpaid.code)).body.message).toMatch(/not paid/);
    expect(refusal(await book('2026-03-24T13:00', 'ZZZZ-ZZZZ-ZZZZ'))).toEqual([400, 'invalid_request', 'code']);
    expect(await f.balance(c.id)).toBe(4);
  });

  it('validates a code for a described booking: canApply, pluginNameSpace subscription, the price left to pay', async () => {
    const c = await membership({ limitations: { bookingsCount: 1, daysOfWeek: 64 } });
    const ask = (startTime: string) =>
      t.call('POST', `/v1/client/codes/${c.code}/validate`, {
        token,
        body: { companyID: shop.companyId, serviceID: sid, resourceID: rid, startTime, spots: 1 },
      });
    const monday = await ask('2026-03-30T10:00:00+03:00');
    expect(monday.body).toMatchObject({ canApply: true, pluginNameSpace: 'subscription', price: 0 });
    expect(monday.body.pluginResponse).toMatchObject({ subscriptionContractID: c.id, visitsLeft: 0 });
    const tuesday = await ask('2026-03-24T10:00:00+02:00');
    expect(tuesday.body).toMatchObject({ canApply: false, pluginNameSpace: 'subscription' });
    expect(tuesday.body.pluginResponse.failedLimitation).toBe('daysOfWeek');
  });

  it("validating another client's contract code answers exactly as for an unknown code, whatever the contract's state", async () => {
    const active = await membership({ limitations: { bookingsCount: 5 } });
    const s = await f.subscription({});
    await f.price([s], 900);
    const unpaid = (await t.call('POST', `${base()}/purchases`, { token, body: { items: [{ subscriptionID: s }] } })).body.items[0];
    const ask = (code: string, tok: string) =>
      t.call('POST', `/v1/client/codes/${code}/validate`, {
        token: tok,
        body: { companyID: shop.companyId, serviceID: sid, resourceID: rid, startTime: '2026-03-24T10:00:00+02:00', spots: 1 },
      });
    const unknown = await ask('ZZZZ-ZZZZ-ZZZZ', otherToken);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ canApply: false, pluginNameSpace: null, pluginResponse: { errorMessage: 'unknown code' } });
    for (const c of [active, unpaid]) {
      const foreign = await ask(c.code, otherToken);
      expect(foreign.status).toBe(unknown.status);
      expect(foreign.body).toEqual(unknown.body);
      expect(foreign.text).not.toContain(c.id);
    }
    // The owner is told all about them.
    expect((await ask(active.code, token)).body.pluginResponse).toMatchObject({ subscriptionContractID: active.id, status: 'active' });
    expect((await ask(unpaid.code, token)).body.pluginResponse).toMatchObject({
      subscriptionContractID: unpaid.id,
      status: 'pending_payment',
    });
  });
});
