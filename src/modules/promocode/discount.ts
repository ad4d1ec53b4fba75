/**
 * The promo code rule, pure: whether a code applies to a booking, and the discount it gives.
 * Amounts are integers in the smallest currency unit; instants are epoch milliseconds.
 */

export const DISCOUNT_TYPES = ['amount', 'percent'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

export const USAGE_TYPES = ['single_use', 'one_per_customer', 'limited_count', 'unlimited'] as const;
export type UsageType = (typeof USAGE_TYPES)[number];

/** Decimal places a `discountPercent` may have (12.3456 %). */
export const PERCENT_DECIMALS = 4;
const PERCENT_SCALE = 10 ** PERCENT_DECIMALS;
/** 100 % in the scaled integer unit: the discount is price * scaled / (100 * PERCENT_SCALE). */
const HUNDRED_PERCENT = 100 * PERCENT_SCALE;

/** What the rule reads of a promo code. */
export interface PromoRule {
  active: boolean;
  archived: boolean;
  activeFrom: number | null;
  activeTo: number | null;
  reservationAllowanceFrom: number | null;
  reservationAllowanceTo: number | null;
  discountType: DiscountType;
  discountAmount: number | null;
  discountPercent: number | null;
  maxDiscountAmount: number | null;
  /** the services the code is limited to; empty: every service */
  serviceIds: readonly string[];
  usageType: UsageType;
  usageLimit: number | null;
  /** usages that are reserved or used */
  currentUsageCount: number;
}

/** One intended use of a code. */
export interface PromoUse {
  now: number;
  /** the price the discount is taken from */
  price: number;
  /** the services booked; every one must be allowed by the code */
  serviceIds: readonly string[];
  /** the booking's start, checked against the reservation allowance; null when not known */
  bookingStart: number | null;
  /** the client already holds a reserved or used usage of the code */
  clientHasUsage: boolean;
}

/** Why a code cannot apply, in the order the rule checks them. */
export const REFUSALS = [
  'archived',
  'inactive',
  'not_started',
  'ended',
  'service',
  'booking_date',
  'used',
  'limit_reached',
  'used_by_client',
] as const;
export type PromoRefusal = (typeof REFUSALS)[number];

export const REFUSAL_MESSAGES: Record<PromoRefusal, string> = {
  archived: 'the promo code is archived',
  inactive: 'the promo code is not active',
  not_started: 'the promo code cannot be used yet',
  ended: 'the promo code can no longer be used',
  service: 'the promo code does not apply to this service',
  booking_date: 'the promo code does not apply to bookings at this time',
  used: 'the promo code has already been used',
  limit_reached: 'the promo code has reached its usage limit',
  used_by_client: 'the promo code has already been used by this client',
};

/** Refusals that depend on other usages: a state conflict (409) rather than a bad request. */
export const isUsageRefusal = (r: PromoRefusal): boolean => r === 'used' || r === 'limit_reached' || r === 'used_by_client';

/** `floor(a / b)` for non-negative safe integers, exactly (no floating-point division). */
const intDiv = (a: number, b: number): number => (a - (a % b)) / b;

/** A percent as a whole number of 1/10 000 %, or null when it has more decimals than that. */
export function scaledPercent(percent: number): number | null {
  const scaled = Math.round(percent * PERCENT_SCALE);
  return Math.abs(scaled - percent * PERCENT_SCALE) < 1e-6 ? scaled : null;
}

/**
 * The discount a code gives on `price`: `amount` is the code's discountAmount; `percent` is
 * that share of the price rounded to the smallest unit, half up (12.5 cents -> 13). Either is
 * capped by maxDiscountAmount and never exceeds the price, so the price never goes below zero.
 */
export function discountFor(
  rule: Pick<PromoRule, 'discountType' | 'discountAmount' | 'discountPercent' | 'maxDiscountAmount'>,
  price: number,
) {
  const base = Math.max(0, Math.floor(price));
  let discount: number;
  if (rule.discountType === 'amount') discount = rule.discountAmount ?? 0;
  else {
    const scaled = Math.round((rule.discountPercent ?? 0) * PERCENT_SCALE);
    // price < 2^31 and scaled <= 10^6: the product stays an exact integer.
    discount = intDiv(base * scaled + HUNDRED_PERCENT / 2, HUNDRED_PERCENT);
  }
  if (rule.maxDiscountAmount !== null && rule.maxDiscountAmount !== undefined) discount = Math.min(discount, rule.maxDiscountAmount);
  return Math.max(0, Math.min(discount, base));
}

/** The first reason the code cannot be used for `use`, or null when it can. Windows are half-open: [from, to). */
export function refusalOf(rule: PromoRule, use: PromoUse): PromoRefusal | null {
  if (rule.archived) return 'archived';
  if (!rule.active) return 'inactive';
  if (rule.activeFrom !== null && use.now < rule.activeFrom) return 'not_started';
  if (rule.activeTo !== null && use.now >= rule.activeTo) return 'ended';
  if (rule.serviceIds.length && use.serviceIds.some((id) => !rule.serviceIds.includes(id))) return 'service';
  if (use.bookingStart !== null) {
    if (rule.reservationAllowanceFrom !== null && use.bookingStart < rule.reservationAllowanceFrom) return 'booking_date';
    if (rule.reservationAllowanceTo !== null && use.bookingStart >= rule.reservationAllowanceTo) return 'booking_date';
  }
  switch (rule.usageType) {
    case 'single_use':
      return rule.currentUsageCount >= 1 ? 'used' : null;
    case 'limited_count':
      return rule.currentUsageCount >= (rule.usageLimit ?? 0) ? 'limit_reached' : null;
    case 'one_per_customer':
      return use.clientHasUsage ? 'used_by_client' : null;
    default:
      return null;
  }
}

export type PromoOutcome = { ok: true; discount: number } | { ok: false; reason: PromoRefusal };

/** Whether the code applies to `use`, and its discount. */
export function evaluatePromo(rule: PromoRule, use: PromoUse): PromoOutcome {
  const reason = refusalOf(rule, use);
  return reason ? { ok: false, reason } : { ok: true, discount: discountFor(rule, use.price) };
}

/** The most usages a code allows at once (null: no total limit). */
export function totalLimitOf(rule: Pick<PromoRule, 'usageType' | 'usageLimit'>): number | null {
  if (rule.usageType === 'single_use') return 1;
  if (rule.usageType === 'limited_count') return rule.usageLimit ?? 0;
  return null;
}
