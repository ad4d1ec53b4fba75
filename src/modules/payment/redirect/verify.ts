/**
 * Verification of a signed redirect URL from the query parameters the merchant forwards. Pure:
 * the caller loads the company's settings and injects the clock; the secret is decrypted only
 * once the cheap checks have passed.
 *
 * Decisions a merchant can observe:
 * - Time is compared in whole seconds (`floor(now / 1000)`), the unit of `ts`. A `ts` exactly
 *   300 s old or exactly 60 s ahead is still valid; 301 s old is expired, 61 s ahead is in the
 *   future.
 * - `ts` is an optionally signed decimal integer that fits a safe integer; anything else,
 *   including an empty value, is `invalid_timestamp`. The signature covers `ts` as sent.
 * - A key is "absent" only when it is not in the query at all; `sig=` is present but not hex.
 * - Repeated keys: a list with one element counts as that element. A repeated `ts` or `sig` is
 *   rejected (`invalid_timestamp`, `invalid_signature_format`), and a repeated templated
 *   parameter is a `signature_mismatch`: frameworks disagree on which copy they keep, so
 *   accepting the first would let an appended copy reach the merchant as "verified".
 *   Repeats of parameters that are not signed are ignored like any other extra parameter.
 * - A signature matches at most one configured template (it covers that template's key set).
 *   A query that also holds a parameter templated by another configured template, but not by
 *   the matching one, is a `signature_mismatch`; parameters no template templates are ignored.
 */

import { computeSignature, signaturesEqual, SIGNATURE_HEX_LENGTH, type SignedParam } from './signing';
import { signedQueryKeys } from './template';

export const SIGNATURE_MAX_AGE_SECONDS = 300;
export const SIGNATURE_MAX_FUTURE_SECONDS = 60;

/** Why a signed redirect URL does not verify. */
export const VERIFY_FAILURE_REASONS = [
  'missing_parameters',
  'invalid_timestamp',
  'signature_expired',
  'timestamp_in_future',
  'invalid_signature_format',
  'invalid_signature_length',
  'company_settings_not_found',
  'provider_settings_not_found',
  'signing_secret_not_configured',
  'failed_to_extract_signing_secret',
  'signature_mismatch',
  'internal_error',
] as const;
export type VerifyFailureReason = (typeof VERIFY_FAILURE_REASONS)[number];

export type VerifyResult = { valid: true } | { valid: false; reason: VerifyFailureReason };

export type RedirectQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The preferred provider's settings as stored; `decryptSecret` may throw (key changed). */
export interface RedirectProviderSettings {
  enableUrlTemplating: boolean;
  successUrl: string | null | undefined;
  failureUrl: string | null | undefined;
  cancelUrl: string | null | undefined;
  decryptSecret: () => string | null;
}

export interface RedirectVerificationSettings {
  paymentSettings: null | { preferredProvider: string | null };
  provider: null | RedirectProviderSettings;
}

export interface VerifyInput {
  query: RedirectQuery;
  /** epoch milliseconds */
  now: number;
  settings: RedirectVerificationSettings;
}

export type EnvelopeCheck = { ok: true; ts: string; sig: string } | { ok: false; reason: VerifyFailureReason };

const INTEGER = /^-?[0-9]+$/;
const HEX = /^[0-9a-fA-F]+$/;

/** undefined: absent; null: present but repeated; otherwise the single value. */
function single(query: RedirectQuery, key: string): string | null | undefined {
  // Own properties only: a key such as `constructor` must not resolve through the prototype.
  if (!Object.hasOwn(query, key)) return undefined;
  const value = query[key];
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (value.length === 0) return undefined;
  return value.length === 1 && typeof value[0] === 'string' ? value[0] : null;
}

function fail(reason: VerifyFailureReason): { valid: false; reason: VerifyFailureReason } {
  return { valid: false, reason };
}

/**
 * Steps 1-5 of the contract, which need no settings: a service can run them before loading
 * anything from the database.
 */
export function checkRedirectEnvelope(query: RedirectQuery, now: number): EnvelopeCheck {
  const ts = single(query, 'ts');
  const sig = single(query, 'sig');
  if (ts === undefined || sig === undefined) return { ok: false, reason: 'missing_parameters' };
  if (ts === null || !INTEGER.test(ts) || !Number.isSafeInteger(Number(ts))) return { ok: false, reason: 'invalid_timestamp' };
  const age = Math.floor(now / 1000) - Number(ts);
  if (age > SIGNATURE_MAX_AGE_SECONDS) return { ok: false, reason: 'signature_expired' };
  if (-age > SIGNATURE_MAX_FUTURE_SECONDS) return { ok: false, reason: 'timestamp_in_future' };
  if (sig === null || !HEX.test(sig)) return { ok: false, reason: 'invalid_signature_format' };
  if (sig.length !== SIGNATURE_HEX_LENGTH) return { ok: false, reason: 'invalid_signature_length' };
  return { ok: true, ts, sig };
}

/** Signed parameters for one template's key set, or null when one is missing or repeated. */
function collect(query: RedirectQuery, keys: readonly string[]): SignedParam[] | null {
  const params: SignedParam[] = [];
  for (const key of keys) {
    const value = single(query, key);
    if (typeof value !== 'string') return null;
    params.push({ key, value });
  }
  return params;
}

function verifyUnsafe({ query, now, settings }: VerifyInput): VerifyResult {
  if (!Number.isFinite(now)) throw new RangeError('now must be epoch milliseconds');
  const envelope = checkRedirectEnvelope(query, now);
  if (!envelope.ok) return fail(envelope.reason);
  if (!settings.paymentSettings) return fail('company_settings_not_found');
  const provider = settings.paymentSettings.preferredProvider ? settings.provider : null;
  if (!provider) return fail('provider_settings_not_found');
  if (!provider.enableUrlTemplating) return fail('signing_secret_not_configured');
  let secret: string | null;
  try {
    secret = provider.decryptSecret();
  } catch {
    return fail('failed_to_extract_signing_secret');
  }
  if (!secret) return fail('signing_secret_not_configured');

  // The same key set often serves success, failure and cancel; one HMAC per distinct set.
  const keySets = new Map<string, string[]>();
  const templatedAnywhere = new Set<string>();
  for (const template of [provider.successUrl, provider.failureUrl, provider.cancelUrl]) {
    if (!template) continue;
    const keys = signedQueryKeys(template);
    if (!keys) continue;
    keySets.set(JSON.stringify([...keys].sort()), keys);
    for (const key of keys) templatedAnywhere.add(key);
  }
  for (const keys of keySets.values()) {
    const params = collect(query, keys);
    if (!params || !signaturesEqual(computeSignature(secret, params, envelope.ts), envelope.sig)) continue;
    // The signature vouches only for its own template's keys: a parameter that another template
    // templates (an appended `amount` on a failure redirect) would reach the merchant looking
    // verified although nobody signed it.
    const own = new Set(keys);
    const foreign = [...templatedAnywhere].some((key) => !own.has(key) && single(query, key) !== undefined);
    return foreign ? fail('signature_mismatch') : { valid: true };
  }
  return fail('signature_mismatch');
}

/** Runs the contract's checks in order; the first failure gives the reason. Never throws. */
export function verifyRedirect(input: VerifyInput): VerifyResult {
  try {
    return verifyUnsafe(input);
  } catch {
    return fail('internal_error');
  }
}
