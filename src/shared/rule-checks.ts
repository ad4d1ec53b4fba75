import { normaliseLimitation } from './limitation';
import type { LimitationInput } from './limitation';
import { isUuid } from './ids';
import { Check } from './validate';

/**
 * Input checks shared by every rule kind (price rules, discounts, capacity rules), so that a
 * limitation or a priority is judged the same way wherever it appears.
 */

/**
 * Validates a limitation (both time-range shapes) into its stored form. Returns undefined when
 * absent, null when explicitly null (or when it restricts nothing), the value otherwise.
 */
export function checkLimitation(c: Check, raw: unknown, path = 'limitation'): LimitationInput | null | undefined {
  if (raw === undefined) return undefined;
  const { value, errors } = normaliseLimitation(raw, path);
  if (errors) {
    for (const e of errors) c.fail(e.path, e.message);
    return undefined;
  }
  return value && Object.keys(value).length > 0 ? value : null;
}

/**
 * Resource ids a limitation names (lowercased), for the company check the caller makes once
 * the shapes are valid; ids that are not UUIDs are recorded as problems here.
 */
export function limitationResourceIds(c: Check, lim: LimitationInput | null | undefined): string[] {
  const ids = lim?.resourceIDs ?? [];
  ids.forEach((id, i) => isUuid(id) || c.fail(`limitation.resourceIDs[${i}]`, 'must be a UUID'));
  if (lim?.resourceIDs) lim.resourceIDs = ids.map((id) => id.toLowerCase());
  return lim?.resourceIDs ?? [];
}

/** Every `priority` is an integer (contract section 1). */
export function checkPriority(c: Check, v: unknown, required: boolean): number | undefined {
  return c.int('priority', v, { required, min: -2_147_483_648, max: 2_147_483_647 });
}

/** Parses the `?type=` filter of rule lists; 400 for an unknown type. */
export function typeFilter<T extends string>(raw: unknown, values: readonly T[]): T | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const c = new Check();
  const t = c.oneOf('type', raw, values);
  c.done('invalid type filter');
  return t;
}
