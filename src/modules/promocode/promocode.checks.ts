import { conflict } from '../../shared/errors';
import type { Check } from '../../shared/validate';
import { DISCOUNT_TYPES, scaledPercent, totalLimitOf, USAGE_TYPES, PERCENT_DECIMALS, type DiscountType, type UsageType } from './discount';

/** Field checks of promo code input, shared by REST and GraphQL (both hand over the same objects). */

export interface PromoCodeInput {
  active?: unknown;
  activeFrom?: unknown;
  activeTo?: unknown;
  code?: unknown;
  description?: unknown;
  discountAmount?: unknown;
  discountPercent?: unknown;
  discountType?: unknown;
  maxDiscountAmount?: unknown;
  metaData?: unknown;
  metaDataUpdate?: unknown;
  reservationAllowanceFrom?: unknown;
  reservationAllowanceTo?: unknown;
  serviceIds?: unknown;
  title?: unknown;
  usageLimit?: unknown;
  usageType?: unknown;
}

/** A promo code's settable fields; instants in epoch milliseconds. */
export interface PromoFields {
  title: string;
  code: string;
  description: string | null;
  active: boolean;
  activeFrom: number | null;
  activeTo: number | null;
  reservationAllowanceFrom: number | null;
  reservationAllowanceTo: number | null;
  discountType: DiscountType;
  discountAmount: number | null;
  discountPercent: number | null;
  maxDiscountAmount: number | null;
  serviceIds: string[];
  usageType: UsageType;
  usageLimit: number | null;
}

/** Letters, digits, `-`, `_` and `.`: no spaces, and no commas (a booking request lists several codes with commas). */
export const PROMO_CODE_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_AMOUNT = 2_147_483_647;

/** `raw` when null (clear the field), undefined when absent, else what `parse` makes of it. */
function nullable<T>(raw: unknown, parse: () => T | undefined): T | null | undefined {
  if (raw === null) return null;
  if (raw === undefined) return undefined;
  return parse();
}

/** The fields present in `input` (null where the client clears one); cross-field rules are `checkPromoFields`. */
export function readPromoInput(c: Check, input: PromoCodeInput, creating: boolean): Partial<PromoFields> {
  const out: Partial<PromoFields> = {};
  const set = <K extends keyof PromoFields>(k: K, v: PromoFields[K] | null | undefined) => {
    if (v !== undefined) out[k] = v as PromoFields[K];
  };
  const code = c.string('code', input.code, { required: creating, max: 64 });
  if (code !== undefined && !PROMO_CODE_PATTERN.test(code))
    c.fail('code', 'may hold only letters A-Z, digits, "-", "_" and "." (no spaces or commas)');
  else set('code', code);
  if (input.code === null && !creating) c.fail('code', 'cannot be removed');
  if (input.title === null) c.fail('title', 'cannot be removed; leave it out');
  set('title', c.string('title', input.title, { max: 255 }));
  set(
    'description',
    nullable(input.description, () => c.string('description', input.description, { max: 2000 })),
  );
  if (input.active === null) c.fail('active', 'must be a boolean');
  set('active', c.bool('active', input.active));
  for (const k of ['activeFrom', 'activeTo', 'reservationAllowanceFrom', 'reservationAllowanceTo'] as const)
    set(
      k,
      nullable(input[k], () => c.timestamp(k, input[k])),
    );
  if (input.discountType === null) c.fail('discountType', 'is required');
  set('discountType', c.oneOf('discountType', input.discountType, DISCOUNT_TYPES, creating));
  set(
    'discountAmount',
    nullable(input.discountAmount, () => c.int('discountAmount', input.discountAmount, { min: 0, max: MAX_AMOUNT })),
  );
  set(
    'discountPercent',
    nullable(input.discountPercent, () => {
      const p = c.number('discountPercent', input.discountPercent, { min: 0, max: 100 });
      if (p !== undefined && scaledPercent(p) === null) {
        c.fail('discountPercent', `must have at most ${PERCENT_DECIMALS} decimal places`);
        return undefined;
      }
      return p;
    }),
  );
  set(
    'maxDiscountAmount',
    nullable(input.maxDiscountAmount, () => c.int('maxDiscountAmount', input.maxDiscountAmount, { min: 0, max: MAX_AMOUNT })),
  );
  if (input.serviceIds === null) set('serviceIds', []);
  else set('serviceIds', c.uuids('serviceIds', input.serviceIds));
  if (input.usageType === null) c.fail('usageType', 'must be one of ' + USAGE_TYPES.join(', '));
  set('usageType', c.oneOf('usageType', input.usageType, USAGE_TYPES));
  set(
    'usageLimit',
    nullable(input.usageLimit, () => c.int('usageLimit', input.usageLimit, { min: 1, max: MAX_AMOUNT })),
  );
  return out;
}

/**
 * The record a create or update leads to: `current` (the stored fields, or the defaults)
 * with the sent `patch`, after the rules between fields: `amount` needs discountAmount and
 * `percent` discountPercent (the other one is cleared, and sending it is 400), `limited_count`
 * needs usageLimit (other usage types clear it), and a window's end must be after its start.
 */
export function checkPromoFields(c: Check, current: PromoFields, patch: Partial<PromoFields>): PromoFields {
  const next: PromoFields = { ...current, ...patch };
  if (next.discountType === 'amount') {
    if (next.discountAmount === null) c.fail('discountAmount', 'is required when discountType is amount');
    if (patch.discountPercent !== undefined && patch.discountPercent !== null) c.fail('discountPercent', 'applies to percent codes only');
    next.discountPercent = null;
  } else {
    if (next.discountPercent === null) c.fail('discountPercent', 'is required when discountType is percent (0-100)');
    if (patch.discountAmount !== undefined && patch.discountAmount !== null) c.fail('discountAmount', 'applies to amount codes only');
    next.discountAmount = null;
  }
  if (next.usageType === 'limited_count') {
    if (next.usageLimit === null) c.fail('usageLimit', 'is required when usageType is limited_count');
  } else {
    if (patch.usageLimit !== undefined && patch.usageLimit !== null) c.fail('usageLimit', 'applies to limited_count codes only');
    next.usageLimit = null;
  }
  if (next.activeFrom !== null && next.activeTo !== null && next.activeTo <= next.activeFrom)
    c.fail('activeTo', 'must be after activeFrom');
  if (
    next.reservationAllowanceFrom !== null &&
    next.reservationAllowanceTo !== null &&
    next.reservationAllowanceTo <= next.reservationAllowanceFrom
  )
    c.fail('reservationAllowanceTo', 'must be after reservationAllowanceFrom');
  return next;
}

/** A limit below the usages the code already holds would make them impossible: 409, nothing changes. */
export function checkLimitAgainstUsage(next: PromoFields, currentUsageCount: number): void {
  const limit = totalLimitOf(next);
  if (limit !== null && limit < currentUsageCount) {
    throw conflict(`the code already has ${currentUsageCount} reserved or used usages, more than ${next.usageType} allows`, [
      { path: next.usageType === 'limited_count' ? 'usageLimit' : 'usageType', message: `must allow at least ${currentUsageCount} usages` },
    ]);
  }
}

/** Defaults of a new code before the sent fields apply. */
export const newPromoDefaults = (): PromoFields => ({
  title: '',
  code: '',
  description: null,
  active: true,
  activeFrom: null,
  activeTo: null,
  reservationAllowanceFrom: null,
  reservationAllowanceTo: null,
  discountType: 'amount',
  discountAmount: null,
  discountPercent: null,
  maxDiscountAmount: null,
  serviceIds: [],
  usageType: 'unlimited',
  usageLimit: null,
});
