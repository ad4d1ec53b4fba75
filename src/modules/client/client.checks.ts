import { canonicalLanguage, LANGUAGE_RULE } from '../../shared/language';
import type { Check } from '../../shared/validate';

/**
 * Field rules shared by the admin operations, login and guest clients, so that every way a
 * client comes into being applies the same checks.
 */

// Deliberately loose (one @, a dot in the domain, no spaces): the address is the integrator's
// to verify; we only refuse values that cannot be an address at all.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export const isEmail = (v: string): boolean => v.length <= 254 && EMAIL.test(v);

export function checkEmail(c: Check, path: string, v: unknown, required: boolean): string | undefined {
  const s = c.string(path, v, { required, max: 254 });
  if (s === undefined) return undefined;
  if (!isEmail(s)) return (c.fail(path, 'must be an email address'), undefined);
  return s;
}

/** A name: `undefined` when not sent, `null` to clear it (PATCH), else the trimmed text ("" clears too). */
export function checkName(c: Check, path: string, v: unknown): string | null | undefined {
  if (v === null) return null;
  const s = c.string(path, v, { max: 255 });
  if (s === undefined) return undefined;
  return s === '' ? null : s;
}

/** A language: `undefined` when not sent, `null` to clear it, else the canonical BCP 47 tag (`lv-lv` -> `lv-LV`). */
export function checkLanguage(c: Check, path: string, v: unknown): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  const tag = canonicalLanguage(v);
  if (!tag) return (c.fail(path, LANGUAGE_RULE), undefined);
  return tag;
}

/** The externalUserID kept for a guest client created from an email address. */
export const guestExternalUserId = (email: string): string => `guest:${email.toLowerCase()}`;

/** `%` and `_` in a search text are literal characters, not wildcards. */
export const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, '\\$&')}%`;
