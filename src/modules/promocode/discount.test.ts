import { discountFor, evaluatePromo, refusalOf, scaledPercent, totalLimitOf, type PromoRule, type PromoUse } from './discount';

const rule = (r: Partial<PromoRule> = {}): PromoRule => ({
  active: true,
  archived: false,
  activeFrom: null,
  activeTo: null,
  reservationAllowanceFrom: null,
  reservationAllowanceTo: null,
  discountType: 'amount',
  discountAmount: 500,
  discountPercent: null,
  maxDiscountAmount: null,
  serviceIds: [],
  usageType: 'unlimited',
  usageLimit: null,
  currentUsageCount: 0,
  ...r,
});
const use = (u: Partial<PromoUse> = {}): PromoUse => ({
  now: 1_000_000,
  price: 2500,
  serviceIds: ['s1'],
  bookingStart: 2_000_000,
  clientHasUsage: false,
  ...u,
});
const percent = (p: number, extra: Partial<PromoRule> = {}) =>
  rule({ discountType: 'percent', discountAmount: null, discountPercent: p, ...extra });

describe('discount arithmetic', () => {
  it('takes an amount as it is', () => {
    expect(discountFor(rule({ discountAmount: 500 }), 2500)).toBe(500);
  });

  it.each([
    [2500, 12.5, 313], // 312.5 -> 313: half up
    [2500, 12.48, 312], // 312.0
    [999, 50, 500], // 499.5 -> 500
    [997, 50, 499], // 498.5 -> 499
    [1, 50, 1], // 0.5 -> 1
    [1, 49.9999, 0], // 0.499999 -> 0
    [3, 33.3333, 1], // 0.999999 -> 1
    [2147483647, 100, 2147483647],
    [2147483647, 0.0001, 2147], // 2147.483647 -> 2147
    [1000, 0, 0],
    [0, 50, 0],
  ])('%i at %d %% is %i (smallest unit, half up)', (price, pct, expected) => {
    expect(discountFor(percent(pct), price)).toBe(expected);
  });

  it('is exact where floating point is not (0.1 + 0.2 style percents)', () => {
    // 1005 * 15.15 % = 152.2575 -> 152; 3000 * 0.35 % = 10.5 -> 11
    expect(discountFor(percent(15.15), 1005)).toBe(152);
    expect(discountFor(percent(0.35), 3000)).toBe(11);
  });

  it('caps the discount at maxDiscountAmount, for percent and amount codes', () => {
    expect(discountFor(percent(50, { maxDiscountAmount: 700 }), 2500)).toBe(700);
    expect(discountFor(percent(10, { maxDiscountAmount: 700 }), 2500)).toBe(250);
    expect(discountFor(rule({ discountAmount: 900, maxDiscountAmount: 400 }), 2500)).toBe(400);
    expect(discountFor(percent(50, { maxDiscountAmount: 0 }), 2500)).toBe(0);
  });

  it('never takes the price below zero', () => {
    expect(discountFor(rule({ discountAmount: 9000 }), 2500)).toBe(2500);
    expect(discountFor(percent(100), 2500)).toBe(2500);
    expect(discountFor(rule({ discountAmount: 100 }), 0)).toBe(0);
    expect(discountFor(rule({ discountAmount: 100 }), -5)).toBe(0);
  });

  it('accepts percents with at most four decimals', () => {
    expect(scaledPercent(12.3456)).toBe(123456);
    expect(scaledPercent(100)).toBe(1_000_000);
    expect(scaledPercent(12.34567)).toBeNull();
  });
});

describe('restrictions', () => {
  it.each([
    ['archived', rule({ archived: true }), use()],
    ['inactive', rule({ active: false }), use()],
    ['not_started', rule({ activeFrom: 1_000_001 }), use()],
    ['ended', rule({ activeTo: 1_000_000 }), use()],
    ['service', rule({ serviceIds: ['s2'] }), use()],
    ['service', rule({ serviceIds: ['s1'] }), use({ serviceIds: ['s1', 's2'] })],
    ['booking_date', rule({ reservationAllowanceFrom: 2_000_001 }), use()],
    ['booking_date', rule({ reservationAllowanceTo: 2_000_000 }), use()],
    ['used', rule({ usageType: 'single_use', currentUsageCount: 1 }), use()],
    ['limit_reached', rule({ usageType: 'limited_count', usageLimit: 3, currentUsageCount: 3 }), use()],
    ['used_by_client', rule({ usageType: 'one_per_customer' }), use({ clientHasUsage: true })],
  ])('refuses with %s', (reason, r, u) => {
    expect(refusalOf(r, u)).toBe(reason);
    expect(evaluatePromo(r, u)).toEqual({ ok: false, reason });
  });

  it('checks in a fixed order: archived first, usage last', () => {
    const everything = rule({ archived: true, active: false, activeTo: 0, usageType: 'single_use', currentUsageCount: 1 });
    expect(refusalOf(everything, use())).toBe('archived');
    expect(refusalOf(rule({ active: false, usageType: 'single_use', currentUsageCount: 1 }), use())).toBe('inactive');
  });

  it('accepts the edges of the half-open windows', () => {
    expect(refusalOf(rule({ activeFrom: 1_000_000, activeTo: 1_000_001 }), use())).toBeNull();
    expect(refusalOf(rule({ reservationAllowanceFrom: 2_000_000, reservationAllowanceTo: 2_000_001 }), use())).toBeNull();
    expect(refusalOf(rule({ reservationAllowanceFrom: 2_000_001 }), use({ bookingStart: null }))).toBeNull();
  });

  it('accepts a code limited to the booked service, and codes without service limits', () => {
    expect(refusalOf(rule({ serviceIds: ['s1', 's3'] }), use())).toBeNull();
    expect(refusalOf(rule(), use({ serviceIds: [] }))).toBeNull();
  });
});

describe('usage types', () => {
  it('single_use allows one usage in total', () => {
    expect(refusalOf(rule({ usageType: 'single_use', currentUsageCount: 0 }), use())).toBeNull();
    expect(refusalOf(rule({ usageType: 'single_use', currentUsageCount: 1 }), use())).toBe('used');
    expect(totalLimitOf({ usageType: 'single_use', usageLimit: null })).toBe(1);
  });

  it('one_per_customer allows one usage per client and any number in total', () => {
    expect(refusalOf(rule({ usageType: 'one_per_customer', currentUsageCount: 50 }), use())).toBeNull();
    expect(refusalOf(rule({ usageType: 'one_per_customer' }), use({ clientHasUsage: true }))).toBe('used_by_client');
    expect(totalLimitOf({ usageType: 'one_per_customer', usageLimit: null })).toBeNull();
  });

  it('limited_count allows usageLimit usages', () => {
    expect(refusalOf(rule({ usageType: 'limited_count', usageLimit: 3, currentUsageCount: 2 }), use())).toBeNull();
    expect(refusalOf(rule({ usageType: 'limited_count', usageLimit: 3, currentUsageCount: 3 }), use())).toBe('limit_reached');
    expect(totalLimitOf({ usageType: 'limited_count', usageLimit: 3 })).toBe(3);
  });

  it('unlimited never runs out', () => {
    expect(refusalOf(rule({ usageType: 'unlimited', currentUsageCount: 1e6 }), use({ clientHasUsage: true }))).toBeNull();
    expect(totalLimitOf({ usageType: 'unlimited', usageLimit: null })).toBeNull();
  });

  it('gives the discount of an applicable code', () => {
    expect(evaluatePromo(percent(20), use({ price: 1999 }))).toEqual({ ok: true, discount: 400 });
  });
});
