import { sweepExpiredPayments } from '../../src/modules/payment/payment.api';
import { createTestApp, TestClock, type Res, type TestApp } from '../helpers/app';
import { countRows, Shop } from '../helpers/bookings-fixtures';
import { complete, configurePayments } from '../helpers/payments-fixtures';

/** Promo codes through HTTP: definitions, validation, and codes on client bookings with their usage lifecycle. */

const T0 = Date.parse('2026-03-01T00:00:00Z');
const clock = new TestClock(T0);
let t: TestApp;
let shop: Shop;
let sid: string;
let rid: string;
let otherSid: string;
let token: string;
let widgetKey: string;
let hour = 0;

beforeAll(async () => {
  t = await createTestApp({ clock });
  shop = await Shop.open(t, 'Promo salon', 'UTC');
  ({
    sid,
    rids: [rid],
  } = await shop.bookable('fixed', { duration: 'PT1H', currency: 'EUR' }));
  await shop.price(sid, 'fixed', 2500);
  otherSid = await shop.service('fixed', { duration: 'PT1H' }, 'Other service');
  await shop.link(otherSid, rid);
  await shop.price(otherSid, 'fixed', 4000);
  expect((await configurePayments(t, shop.companyId)).status).toBe(200);
  widgetKey = await t.keyWith({ [shop.companyId]: ['client.read', 'client.create'] });
});
afterAll(async () => t?.close());
beforeEach(async () => {
  clock.set(T0);
  token = await shop.login('ann@example.com', t.adminKey);
});

const base = () => `/v1/companies/${shop.companyId}/plugins/promocodes`;
const create = (body: Record<string, unknown>, companyId = shop.companyId): Promise<Res> =>
  t.call('POST', `/v1/companies/${companyId}/plugins/promocodes/codes`, { body });
let seq = 0;
const uniqueCode = (prefix = 'CODE') => `${prefix}-${++seq}`;
async function promo(body: Record<string, unknown> = {}): Promise<any> {
  const r = await create({ code: uniqueCode(), discountType: 'amount', discountAmount: 500, ...body });
  if (r.status !== 201) throw new Error(`promo: ${r.status} ${r.text}`);
  return r.body;
}
/** A fresh free hour for each booking, so times never collide. */
const nextStart = () => new Date(Date.parse('2026-03-02T00:00:00Z') + hour++ * 3_600_000).toISOString().replace('.000Z', 'Z');
const request = (code: string | undefined, opts: { token?: string; service?: string; start?: string; guest?: string } = {}): Promise<Res> =>
  t.call('POST', '/v1/client/bookings', {
    ...(opts.guest ? { key: widgetKey } : { token: opts.token ?? token }),
    body: {
      companyID: shop.companyId,
      serviceID: opts.service ?? sid,
      resourceID: rid,
      startTime: opts.start ?? nextStart(),
      spots: 1,
      ...(code !== undefined ? { code } : {}),
      ...(opts.guest ? { client: { email: opts.guest } } : {}),
    },
  });
const usages = async (id: string) => (await t.call('GET', `${base()}/codes/${id}/usages`)).body;
const get = async (id: string) => (await t.call('GET', `${base()}/codes/${id}`)).body;
const txOf = (booking: { paymentURL: string }) => booking.paymentURL.split('/').pop()!;
const validate = (body: Record<string, unknown>) => t.call('POST', `${base()}/validate`, { body });

describe('promo code definitions', () => {
  it('creates, reads, lists, updates with versioned metadata, archives and unarchives', async () => {
    const created = await create({
      code: 'Summer-10',
      title: 'Summer',
      discountType: 'percent',
      discountPercent: 10,
      maxDiscountAmount: 1000,
      usageType: 'limited_count',
      usageLimit: 5,
      serviceIds: [sid],
      activeFrom: '2026-03-01T00:00:00+02:00',
      metaData: { campaign: 'spring' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      code: 'Summer-10',
      title: 'Summer',
      active: true,
      discountType: 'percent',
      discountPercent: 10,
      discountAmount: null,
      maxDiscountAmount: 1000,
      usageType: 'limited_count',
      usageLimit: 5,
      currentUsageCount: 0,
      serviceIds: [sid],
      activeFrom: '2026-02-28T22:00:00Z',
      archivedAt: null,
      metaData: { campaign: 'spring' },
      metaDataVersion: 1,
    });
    const id = created.body.id;
    expect((await t.call('GET', `${base()}/codes/${id}`)).body).toEqual(created.body);
    const list = await t.call('GET', `${base()}/codes`);
    expect(list.status).toBe(200);
    expect(list.body.map((p: { id: string }) => p.id)).toContain(id);

    const updated = await t.call('PATCH', `${base()}/codes/${id}`, {
      body: {
        discountType: 'amount',
        discountAmount: 300,
        usageType: 'unlimited',
        metaDataUpdate: { expectedVersion: 1, path: 'a.b', value: 1 },
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      discountType: 'amount',
      discountAmount: 300,
      discountPercent: null,
      usageType: 'unlimited',
      usageLimit: null,
      metaData: { campaign: 'spring', a: { b: 1 } },
      metaDataVersion: 2,
    });
    const stale = await t.call('PATCH', `${base()}/codes/${id}`, {
      body: { title: 'x', metaDataUpdate: { expectedVersion: 1, path: 'c', value: 2 } },
    });
    expect([stale.status, stale.body.code]).toEqual([409, 'version_conflict']);
    expect((await get(id)).title).toBe('Summer');

    const archived = await t.call('POST', `${base()}/codes/${id}/archive`, { body: { archived: true } });
    expect(archived.status).toBe(200);
    expect(archived.body.archivedAt).toBe('2026-03-01T00:00:00Z');
    const unarchived = await t.call('POST', `${base()}/codes/${id}/archive`, { body: { archived: false } });
    expect(unarchived.body.archivedAt).toBeNull();
    const byDefault = await t.call('POST', `${base()}/codes/${id}/archive`);
    expect(byDefault.body.archivedAt).not.toBeNull();
  });

  it('stores the code as given and refuses the same code in any case (409)', async () => {
    const first = await create({ code: 'WINTER', discountType: 'amount', discountAmount: 100 });
    expect(first.status).toBe(201);
    const again = await create({ code: 'winter', discountType: 'amount', discountAmount: 100 });
    expect([again.status, again.body.code]).toEqual([409, 'conflict']);
    const other = await promo();
    const renamed = await t.call('PATCH', `${base()}/codes/${other.id}`, { body: { code: 'Winter' } });
    expect([renamed.status, renamed.body.code]).toEqual([409, 'conflict']);
    // The same code in another company is fine.
    const elsewhere = await t.company('Elsewhere');
    expect((await create({ code: 'WINTER', discountType: 'amount', discountAmount: 100 }, elsewhere.id)).status).toBe(201);
  });

  it.each([
    ['amount without discountAmount', { discountType: 'amount' }, 'discountAmount'],
    ['percent without discountPercent', { discountType: 'percent' }, 'discountPercent'],
    ['percent above 100', { discountType: 'percent', discountPercent: 100.5 }, 'discountPercent'],
    ['negative percent', { discountType: 'percent', discountPercent: -1 }, 'discountPercent'],
    ['percent with 5 decimals', { discountType: 'percent', discountPercent: 10.00001 }, 'discountPercent'],
    ['discountPercent on an amount code', { discountType: 'amount', discountAmount: 5, discountPercent: 5 }, 'discountPercent'],
    ['limited_count without usageLimit', { discountType: 'amount', discountAmount: 5, usageType: 'limited_count' }, 'usageLimit'],
    [
      'usageLimit on another usage type',
      { discountType: 'amount', discountAmount: 5, usageType: 'single_use', usageLimit: 3 },
      'usageLimit',
    ],
    ['unknown discountType', { discountType: 'gift' }, 'discountType'],
    ['unknown usageType', { discountType: 'amount', discountAmount: 5, usageType: 'twice' }, 'usageType'],
    [
      'activeTo before activeFrom',
      { discountType: 'amount', discountAmount: 5, activeFrom: '2026-03-02T00:00:00Z', activeTo: '2026-03-01T00:00:00Z' },
      'activeTo',
    ],
    ['a timestamp without offset', { discountType: 'amount', discountAmount: 5, activeFrom: '2026-03-02T00:00:00' }, 'activeFrom'],
    [
      'an unknown service',
      { discountType: 'amount', discountAmount: 5, serviceIds: ['00000000-0000-4000-8000-000000000000'] },
      'serviceIds[0]',
    ],
    ['a code with a space', { code: 'TWO WORDS', discountType: 'amount', discountAmount: 5 }, 'code'],
    ['a code with a comma', { code: 'A,B', discountType: 'amount', discountAmount: 5 }, 'code'],
    ['no code', { code: undefined, discountType: 'amount', discountAmount: 5 }, 'code'],
  ])('refuses %s with 400 and creates nothing', async (_name, body, path) => {
    const before = await countRows(t, 'select count(*) as n from promo_code where company_id = ?', [shop.companyId]);
    const r = await create({ code: uniqueCode('BAD'), ...body });
    expect([r.status, r.body.code]).toEqual([400, 'invalid_request']);
    expect(r.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await countRows(t, 'select count(*) as n from promo_code where company_id = ?', [shop.companyId])).toBe(before);
  });

  it('refuses an invalid update with 400 and changes nothing', async () => {
    const p = await promo({ discountType: 'percent', discountPercent: 20, discountAmount: undefined });
    const r = await t.call('PATCH', `${base()}/codes/${p.id}`, { body: { discountPercent: 101 } });
    expect([r.status, r.body.code]).toEqual([400, 'invalid_request']);
    const switched = await t.call('PATCH', `${base()}/codes/${p.id}`, { body: { discountType: 'amount' } });
    expect(switched.status).toBe(400);
    expect(await get(p.id)).toEqual(p);
  });
});

describe('merchant validation', () => {
  const at = (offsetHours: number) => new Date(T0 + offsetHours * 3_600_000).toISOString();

  it('gives the discount of a valid code, rounded half up and capped', async () => {
    const p = await promo({ discountType: 'percent', discountPercent: 12.5, discountAmount: undefined });
    const r = await validate({ code: p.code.toLowerCase(), bookingAmount: 2500, serviceIDs: [sid], bookingDate: at(30) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ valid: true, discountAmount: 313, errorMessage: null, promoCode: { id: p.id } });
    const capped = await promo({ discountType: 'percent', discountPercent: 50, discountAmount: undefined, maxDiscountAmount: 700 });
    expect((await validate({ code: capped.code, bookingAmount: 2500 })).body).toMatchObject({ valid: true, discountAmount: 700 });
    const big = await promo({ discountAmount: 9000 });
    expect((await validate({ code: big.code, bookingAmount: 2500 })).body).toMatchObject({ valid: true, discountAmount: 2500 });
    expect((await validate({ code: big.code })).body).toMatchObject({ valid: true, discountAmount: 9000 });
  });

  it('answers 200 valid: false with the reason for every code that cannot apply', async () => {
    const archived = await promo();
    await t.call('POST', `${base()}/codes/${archived.id}/archive`, { body: { archived: true } });
    const inactive = await promo({ active: false });
    const notYet = await promo({ activeFrom: at(1) });
    const ended = await promo({ activeTo: at(0) });
    const otherService = await promo({ serviceIds: [otherSid] });
    const window = await promo({ reservationAllowanceFrom: at(48), reservationAllowanceTo: at(72) });
    const cases: [string, Record<string, unknown>, string][] = [
      ['UNKNOWN-CODE', {}, 'unknown promo code'],
      [archived.code, {}, 'the promo code is archived'],
      [inactive.code, {}, 'the promo code is not active'],
      [notYet.code, {}, 'the promo code cannot be used yet'],
      [ended.code, {}, 'the promo code can no longer be used'],
      [otherService.code, { serviceIDs: [sid] }, 'the promo code does not apply to this service'],
      [window.code, { bookingDate: at(24) }, 'the promo code does not apply to bookings at this time'],
      [window.code, { bookingDate: at(72) }, 'the promo code does not apply to bookings at this time'],
    ];
    for (const [code, extra, message] of cases) {
      const r = await validate({ code, bookingAmount: 2500, ...extra });
      expect([r.status, r.body.valid, r.body.errorMessage, r.body.discountAmount]).toEqual([200, false, message, null]);
    }
    expect((await validate({ code: window.code, bookingDate: at(48) })).body.valid).toBe(true);
    expect((await validate({ code: otherService.code, serviceIDs: [otherSid] })).body.valid).toBe(true);
  });

  it('answers the usage limits: single use, limited count, one per customer', async () => {
    const single = await promo({ usageType: 'single_use' });
    const limited = await promo({ usageType: 'limited_count', usageLimit: 1 });
    const perClient = await promo({ usageType: 'one_per_customer' });
    for (const p of [single, limited, perClient]) expect((await request(p.code)).status).toBe(200);
    const me = (await t.call('GET', '/v1/client/profile', { token })).body.id;
    expect((await validate({ code: single.code })).body.errorMessage).toBe('the promo code has already been used');
    expect((await validate({ code: limited.code })).body.errorMessage).toBe('the promo code has reached its usage limit');
    expect((await validate({ code: perClient.code, clientID: me })).body.errorMessage).toBe(
      'the promo code has already been used by this client',
    );
    expect((await validate({ code: perClient.code })).body.valid).toBe(true);
  });

  it('is 400 for malformed input', async () => {
    expect((await validate({ bookingAmount: 1 })).status).toBe(400);
    expect((await validate({ code: 'X', bookingAmount: -1 })).status).toBe(400);
    expect((await validate({ code: 'X', bookingDate: 'tomorrow' })).status).toBe(400);
  });
});

describe('promo codes on client bookings', () => {
  it('lowers the price, reserves a usage while the booking waits for payment and uses it once paid', async () => {
    const p = await promo({ discountAmount: 500 });
    const booked = await request(p.code.toLowerCase());
    expect(booked.status).toBe(200);
    expect(booked.body).toMatchObject({ status: 'pending', price: 2000 });
    const [usage] = await usages(p.id);
    expect(usage).toMatchObject({
      status: 'reserved',
      reservationID: booked.body.id,
      discountAmount: 500,
      currency: 'EUR',
      promoCodeID: p.id,
    });
    expect(usage.clientID).toEqual(expect.any(String));
    expect((await get(p.id)).currentUsageCount).toBe(1);
    const admin = (await shop.get(booked.body.id)).body;
    expect(admin.code).toBe(p.code.toLowerCase());
    const tx = (await t.call('GET', `/v1/companies/${shop.companyId}/payments`, { query: { itemIDs: booked.body.id } })).body
      .transactions[0];
    expect(tx).toMatchObject({ amount: 2000, perItemAmounts: { [booked.body.id]: 2000 } });
    expect((await complete(t, txOf(booked.body), 'success')).status).toBe(200);
    expect((await shop.get(booked.body.id)).body.status).toBe('confirmed');
    expect((await usages(p.id))[0].status).toBe('used');
    expect((await get(p.id)).currentUsageCount).toBe(1);
  });

  it.each(['failure', 'cancel'])('releases the usage when the payment ends with %s, so the code works again', async (outcome) => {
    const p = await promo({ usageType: 'single_use' });
    const booked = await request(p.code);
    expect((await complete(t, txOf(booked.body), outcome)).status).toBe(200);
    expect((await shop.get(booked.body.id)).body.status).toBe('failed');
    expect((await usages(p.id))[0].status).toBe('released');
    expect((await get(p.id)).currentUsageCount).toBe(0);
    expect((await request(p.code)).status).toBe(200);
  });

  it('releases the usage when the payment expires', async () => {
    const p = await promo({ usageType: 'single_use' });
    const booked = await request(p.code);
    expect((await request(p.code)).status).toBe(409);
    clock.advance(t.deps.config.paymentTimeoutSec * 1000);
    expect(await sweepExpiredPayments(t.deps)).toBeGreaterThanOrEqual(1);
    expect((await shop.get(booked.body.id)).body.status).toBe('failed');
    expect((await usages(p.id))[0].status).toBe('released');
    expect((await get(p.id)).currentUsageCount).toBe(0);
    token = await shop.login('ann@example.com', t.adminKey);
    const again = await request(p.code);
    expect(again.status).toBe(200);
    expect(again.body.price).toBe(2000);
  });

  it('releases a used usage when the client cancels the confirmed booking', async () => {
    const p = await promo({ usageType: 'single_use' });
    const booked = await request(p.code);
    await complete(t, txOf(booked.body), 'success');
    const cancelled = await t.call('POST', `/v1/client/bookings/${booked.body.id}/cancel`, { token });
    expect([cancelled.status, cancelled.body.status]).toEqual([200, 'cancelled']);
    expect((await usages(p.id))[0].status).toBe('released');
    expect((await get(p.id)).currentUsageCount).toBe(0);
  });

  it('confirms a booking whose price drops to zero without a payment, and uses the code at once', async () => {
    const p = await promo({ discountType: 'percent', discountPercent: 100, discountAmount: undefined });
    const booked = await request(p.code);
    expect(booked.status).toBe(200);
    expect(booked.body).toMatchObject({ status: 'confirmed', price: 0, paymentURL: null });
    expect((await usages(p.id))[0]).toMatchObject({ status: 'used', discountAmount: 2500 });
    expect(
      await countRows(t, 'select count(*) as n from payment_transaction where item_ids @> ?::jsonb', [JSON.stringify([booked.body.id])]),
    ).toBe(0);
  });

  it('follows a manual booking: paid stays reserved until the merchant confirms; a rejection releases', async () => {
    const manual = await shop.service('fixed', { duration: 'PT1H', bookingPolicy: 'manual' }, 'Manual');
    await shop.link(manual, rid);
    await shop.price(manual, 'fixed', 2500);
    const p = await promo();
    const first = await request(p.code, { service: manual });
    await complete(t, txOf(first.body), 'success');
    expect((await shop.get(first.body.id)).body.status).toBe('pending');
    expect((await usages(p.id))[0].status).toBe('reserved');
    expect((await shop.patch(first.body.id, { status: 'confirmed' })).status).toBe(200);
    expect((await usages(p.id))[0].status).toBe('used');
    const second = await request(p.code, { service: manual });
    await complete(t, txOf(second.body), 'success');
    expect((await shop.patch(second.body.id, { status: 'rejected' })).status).toBe(200);
    const byBooking = Object.fromEntries((await usages(p.id)).map((u: any) => [u.reservationID, u.status]));
    expect(byBooking).toEqual({ [first.body.id]: 'used', [second.body.id]: 'released' });
    expect((await get(p.id)).currentUsageCount).toBe(1);
  });

  describe('usage types', () => {
    it('single_use: one usage in total', async () => {
      const p = await promo({ usageType: 'single_use' });
      expect((await request(p.code)).status).toBe(200);
      const other = await shop.login('bob@example.com', t.adminKey);
      const second = await request(p.code, { token: other });
      expect([second.status, second.body.code, second.body.message]).toEqual([409, 'conflict', 'the promo code has already been used']);
    });

    it('one_per_customer: one usage per client, guests included', async () => {
      const p = await promo({ usageType: 'one_per_customer' });
      expect((await request(p.code)).status).toBe(200);
      const again = await request(p.code);
      expect([again.status, again.body.message]).toEqual([409, 'the promo code has already been used by this client']);
      const other = await shop.login('carl@example.com', t.adminKey);
      expect((await request(p.code, { token: other })).status).toBe(200);
      expect((await request(p.code, { guest: 'dora@example.com' })).status).toBe(200);
      const guestAgain = await request(p.code, { guest: 'DORA@example.com' });
      expect([guestAgain.status, guestAgain.body.code]).toEqual([409, 'conflict']);
      expect((await get(p.id)).currentUsageCount).toBe(3);
    });

    it('limited_count: usageLimit usages', async () => {
      const p = await promo({ usageType: 'limited_count', usageLimit: 2 });
      expect((await request(p.code)).status).toBe(200);
      expect((await request(p.code)).status).toBe(200);
      const third = await request(p.code);
      expect([third.status, third.body.message]).toEqual([409, 'the promo code has reached its usage limit']);
      const lowered = await t.call('PATCH', `${base()}/codes/${p.id}`, { body: { usageLimit: 1 } });
      expect([lowered.status, lowered.body.code]).toEqual([409, 'conflict']);
    });

    it('unlimited: any number of usages', async () => {
      const p = await promo();
      for (let i = 0; i < 4; i++) expect((await request(p.code)).status).toBe(200);
      expect((await get(p.id)).currentUsageCount).toBe(4);
    });
  });

  it('refuses a code that cannot apply with 400 naming the code, and books nothing', async () => {
    const p = await promo({ serviceIds: [otherSid] });
    const before = await countRows(t, 'select count(*) as n from booking where company_id = ?', [shop.companyId]);
    const r = await request(p.code);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 'invalid_request',
      details: [{ path: 'code', message: 'the promo code does not apply to this service' }],
    });
    expect(await countRows(t, 'select count(*) as n from booking where company_id = ?', [shop.companyId])).toBe(before);
    const unknown = await request('NOPE');
    expect([unknown.status, unknown.body.message]).toEqual([400, 'unknown code']);
  });

  it('applies promo codes in a batch, each booking with its own code, one payment for the rest', async () => {
    const a = await promo({ discountAmount: 1000 });
    const b = await promo({ discountType: 'percent', discountPercent: 10, discountAmount: undefined });
    const r = await t.call('POST', '/v1/client/bookings/batch', {
      token,
      body: {
        bookings: [
          { companyID: shop.companyId, serviceID: sid, resourceID: rid, startTime: nextStart(), code: a.code },
          { companyID: shop.companyId, serviceID: otherSid, resourceID: rid, startTime: nextStart(), code: b.code },
          { companyID: shop.companyId, serviceID: sid, resourceID: rid, startTime: nextStart() },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.bookings.map((x: { price: number }) => x.price)).toEqual([1500, 3600, 2500]);
    expect(r.body.totalAmount).toBe(7600);
    const single = await promo({ usageType: 'single_use' });
    const twice = await t.call('POST', '/v1/client/bookings/batch', {
      token,
      body: {
        bookings: [
          { companyID: shop.companyId, serviceID: sid, resourceID: rid, startTime: nextStart(), code: single.code },
          { companyID: shop.companyId, serviceID: sid, resourceID: rid, startTime: nextStart(), code: single.code },
        ],
      },
    });
    expect([twice.status, twice.body.details[0].path]).toEqual([409, 'bookings[1].code']);
    expect((await get(single.id)).currentUsageCount).toBe(0);
  });
});

describe('client validation before booking', () => {
  const body = (extra: Record<string, unknown> = {}) => ({
    companyID: shop.companyId,
    serviceID: sid,
    resourceID: rid,
    startTime: '2026-03-20T10:00:00Z',
    spots: 1,
    ...extra,
  });

  it('answers canApply with the price to pay, for a token or a widget key', async () => {
    const p = await promo({ discountAmount: 700 });
    const r = await t.call('POST', `/v1/client/codes/${p.code}/validate`, { token, body: body() });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ canApply: true, pluginNameSpace: 'promocodes', price: 1800, clientEmail: 'ann@example.com' });
    expect(r.body.pluginResponse).toMatchObject({ promoCodeID: p.id, discountAmount: 700 });
    const widget = await t.call('POST', `/v1/client/codes/${p.code.toLowerCase()}/validate`, {
      key: widgetKey,
      body: body({ code: p.code }),
    });
    expect(widget.body).toMatchObject({ canApply: true, clientID: null, clientEmail: null, price: 1800 });
  });

  it('answers canApply: false for codes that cannot apply, unknown ones included', async () => {
    const p = await promo({ serviceIds: [otherSid] });
    const r = await t.call('POST', `/v1/client/codes/${p.code}/validate`, { token, body: body() });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      canApply: false,
      pluginNameSpace: 'promocodes',
      price: 2500,
      pluginResponse: { errorMessage: 'the promo code does not apply to this service' },
    });
    const unknown = await t.call('POST', '/v1/client/codes/NOTHING/validate', { token, body: body() });
    expect(unknown.body).toEqual({
      canApply: false,
      clientEmail: 'ann@example.com',
      clientID: expect.any(String),
      pluginNameSpace: null,
      pluginResponse: { errorMessage: 'unknown code' },
      price: 2500,
    });
  });

  it('is 400 when the body names another code, or the request is malformed', async () => {
    const r = await t.call('POST', '/v1/client/codes/ABC/validate', { token, body: body({ code: 'XYZ' }) });
    expect([r.status, r.body.code]).toEqual([400, 'invalid_request']);
    expect((await t.call('POST', '/v1/client/codes/ABC/validate', { token, body: body({ startTime: 'soon' }) })).status).toBe(400);
    expect((await t.call('POST', '/v1/client/codes/ABC/validate', { key: null, body: body() })).status).toBe(401);
  });
});

describe('tenant isolation', () => {
  it("is 404 for another company's promo code id, and another company's code is unknown", async () => {
    const other = await Shop.open(t, 'Rival', 'UTC');
    const theirs = (await create({ code: 'RIVAL-ONLY', discountType: 'amount', discountAmount: 100 }, other.companyId)).body;
    expect((await t.call('GET', `${base()}/codes/${theirs.id}`)).status).toBe(404);
    expect((await t.call('PATCH', `${base()}/codes/${theirs.id}`, { body: { title: 'x' } })).status).toBe(404);
    expect((await t.call('POST', `${base()}/codes/${theirs.id}/archive`, { body: {} })).status).toBe(404);
    expect((await t.call('GET', `${base()}/codes/${theirs.id}/usages`)).status).toBe(404);
    expect((await validate({ code: 'RIVAL-ONLY' })).body).toMatchObject({ valid: false, errorMessage: 'unknown promo code' });
    expect((await request('RIVAL-ONLY')).status).toBe(400);
    const foreignMerchant = await t.newMerchant();
    expect((await t.call('GET', `${base()}/codes`, { key: foreignMerchant })).status).toBe(403);
    const readOnly = await t.keyWith({ [shop.companyId]: ['promocodes.read'] });
    expect(
      (await t.call('POST', `${base()}/codes`, { key: readOnly, body: { code: 'RO', discountType: 'amount', discountAmount: 1 } })).status,
    ).toBe(403);
    expect((await t.call('GET', `${base()}/codes`, { key: readOnly })).status).toBe(200);
  });
});

describe('GraphQL', () => {
  it('creates, pages, validates and updates promo codes with typed enums and metaDataUpdate', async () => {
    const created = await t.gql(
      `mutation($cid: ID!, $input: CreatePromoCodeInput!) { createPromoCode(companyID: $cid, input: $input) { id code discountType usageType usageLimit metaDataVersion } }`,
      {
        cid: shop.companyId,
        input: { code: 'GQL-1', discountType: 'percent', discountPercent: 20, usageType: 'limited_count', usageLimit: 3 },
      },
    );
    expect(created.body.errors).toBeUndefined();
    const p = created.body.data.createPromoCode;
    expect(p).toMatchObject({ code: 'GQL-1', discountType: 'percent', usageType: 'limited_count', usageLimit: 3, metaDataVersion: 1 });
    const page = await t.gql(`query($cid: ID!) { promoCodes(companyID: $cid, limit: 1) { total promoCodes { id } } }`, {
      cid: shop.companyId,
    });
    expect(page.body.data.promoCodes.promoCodes).toHaveLength(1);
    expect(page.body.data.promoCodes.total).toBeGreaterThan(1);
    const valid = await t.gql(
      `query($cid: ID!) { validatePromoCode(companyID: $cid, input: {code: "gql-1", bookingAmount: 1001}) { valid discountAmount promoCode { id } } }`,
      { cid: shop.companyId },
    );
    expect(valid.body.data.validatePromoCode).toEqual({ valid: true, discountAmount: 200, promoCode: { id: p.id } });
    const updated = await t.gql(
      `mutation($cid: ID!, $id: ID!) { updatePromoCode(companyID: $cid, id: $id, input: {title: "Renamed", metaDataUpdate: {expectedVersion: 1, path: "k", value: "v"}}) { title metaData metaDataVersion } }`,
      { cid: shop.companyId, id: p.id },
    );
    expect(updated.body.data.updatePromoCode).toEqual({ title: 'Renamed', metaData: { k: 'v' }, metaDataVersion: 2 });
    const misspelt = await t.gql(
      `mutation($cid: ID!, $id: ID!) { updatePromoCode(companyID: $cid, id: $id, input: {metaDataUpdate: {expectedVersoin: 2, path: "k", value: 1}}) { id } }`,
      { cid: shop.companyId, id: p.id },
    );
    expect(misspelt.body.errors?.length).toBeGreaterThan(0);
    const badEnum = await t.gql(`mutation($cid: ID!) { createPromoCode(companyID: $cid, input: {code: "E", discountType: gift}) { id } }`, {
      cid: shop.companyId,
    });
    expect(badEnum.body.errors?.length).toBeGreaterThan(0);
    const usages = await t.gql(
      `query($cid: ID!, $id: ID!) { promoCodeUsages(companyID: $cid, promoCodeID: $id) { total promoUsages { status } } }`,
      {
        cid: shop.companyId,
        id: p.id,
      },
    );
    expect(usages.body.data.promoCodeUsages).toEqual({ total: 0, promoUsages: [] });
    const missing = await t.gql(`query($cid: ID!) { promoCode(companyID: $cid, id: "00000000-0000-4000-8000-000000000000") { id } }`, {
      cid: shop.companyId,
    });
    expect(missing.body.data.promoCode).toBeNull();
    expect(missing.body.errors[0].extensions.code).toBe('not_found');
  });

  it('validates a code for a client booking', async () => {
    const p = await promo({ discountAmount: 100 });
    const r = await t.gql(
      `query($code: String!, $input: ValidateCodeInput!) { clientValidateCode(code: $code, input: $input) { canApply pluginNameSpace price pluginResponse } }`,
      { code: p.code, input: { companyID: shop.companyId, serviceID: sid, resourceID: rid, startTime: '2026-03-21T10:00:00Z' } },
      { key: null, token },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.clientValidateCode).toMatchObject({ canApply: true, pluginNameSpace: 'promocodes', price: 2400 });
  });
});
