import type { Check } from '../../shared/validate';

/** Field checks of gift card input, shared by REST and GraphQL (both hand over the same objects). */

export interface GiftCardInput {
  active?: unknown;
  amount?: unknown;
  availableFrom?: unknown;
  availableTo?: unknown;
  currency?: unknown;
  metaData?: unknown;
  metaDataUpdate?: unknown;
  taxInclusive?: unknown;
  taxRate?: unknown;
  title?: unknown;
  validityDuration?: unknown;
}

export interface GiftCardFields {
  title: string;
  amount: number;
  currency: string;
  active: boolean;
  taxInclusive: boolean;
  taxRate: number;
  availableFrom: number | null;
  availableTo: number | null;
  validityDuration: string | null;
  validitySec: number | null;
}

export const MAX_AMOUNT = 2_147_483_647;

/** The fields present in `input` (null where an optional one is cleared). */
export function readGiftCardInput(c: Check, input: GiftCardInput, creating: boolean): Partial<GiftCardFields> {
  const out: Partial<GiftCardFields> = {};
  const required = (k: keyof GiftCardInput) => {
    if (input[k] === null) c.fail(k, creating ? 'is required' : 'cannot be removed');
  };
  for (const k of ['title', 'amount', 'currency', 'active', 'taxInclusive', 'taxRate'] as const) required(k);
  const title = c.string('title', input.title, { required: creating, max: 255 });
  if (title !== undefined) out.title = title;
  const amount = c.int('amount', input.amount, { required: creating, min: 1, max: MAX_AMOUNT });
  if (amount !== undefined) out.amount = amount;
  const currency = c.currency('currency', input.currency, creating);
  if (currency !== undefined) out.currency = currency;
  for (const k of ['active', 'taxInclusive'] as const) {
    const v = c.bool(k, input[k]);
    if (v !== undefined) out[k] = v;
  }
  const rate = c.number('taxRate', input.taxRate, { min: 0, max: 100 });
  if (rate !== undefined) out.taxRate = rate;
  for (const k of ['availableFrom', 'availableTo'] as const) {
    if (input[k] === null) out[k] = null;
    else {
      const ms = c.timestamp(k, input[k]);
      if (ms !== undefined) out[k] = ms;
    }
  }
  if (input.validityDuration === null || input.validityDuration === '') {
    out.validityDuration = null;
    out.validitySec = null;
  } else {
    const d = c.duration('validityDuration', input.validityDuration, { positive: true });
    if (d && d.seconds > MAX_AMOUNT) c.fail('validityDuration', 'must be shorter than 68 years');
    else if (d) {
      out.validityDuration = d.text;
      out.validitySec = d.seconds;
    }
  }
  return out;
}

/** `current` with the sent `patch`, once the window's end is after its start. */
export function checkGiftCardFields(c: Check, current: GiftCardFields, patch: Partial<GiftCardFields>): GiftCardFields {
  const next = { ...current, ...patch };
  if (next.availableFrom !== null && next.availableTo !== null && next.availableTo <= next.availableFrom)
    c.fail('availableTo', 'must be after availableFrom');
  return next;
}

export const newGiftCardDefaults = (): GiftCardFields => ({
  title: '',
  amount: 0,
  currency: 'EUR',
  active: true,
  taxInclusive: false,
  taxRate: 0,
  availableFrom: null,
  availableTo: null,
  validityDuration: null,
  validitySec: null,
});
