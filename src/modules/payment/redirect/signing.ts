/**
 * Signature of a signed redirect URL. This block is the public description of the format; the
 * verification operation is its only other reader.
 *
 *   sig = lowercase hex of HMAC-SHA256(key = UTF-8 bytes of signing_secret,
 *                                      message = UTF-8 bytes of C)
 *
 * C, the canonical string, is the template's key set, then one line per templated query
 * parameter, then the timestamp:
 *
 *   keys=<klen>:<key>,<klen>:<key>...\n  the template's templated keys, ordered by key
 *                                         ("keys=" alone for a template that templates none)
 *   <klen>:<key>=<vlen>:<value>\n        for each templated parameter, ordered by key, then value
 *   ts=<ts>                              no trailing newline
 *
 * - "Templated parameters" are the query parameters whose configured value holds a placeholder.
 *   Static query parameters, the path (templated or not) and the fragment are not signed.
 * - The key set binds the signature to the template it was made for. The verifier accepts a
 *   signature only for the one configured template whose key set it was computed over, and only
 *   when the forwarded query holds no parameter that another configured template templates and
 *   this one does not: a failure redirect (which signs, say, the booking id) can never vouch for
 *   an appended `amount`, and a template with placeholders only in its path (`keys=` and `ts`
 *   alone) vouches for no templated value at all.
 * - <key> and <value> are the DECODED forms, i.e. what a query-string parser hands the
 *   verifier: `+` is a space and `%XX` sequences are decoded as UTF-8. Signing the decoded form
 *   means the verifier never needs the raw URL, which frameworks do not reliably keep.
 * - <klen> and <vlen> are the decimal UTF-8 byte lengths of <key> and <value>.
 * - Ordering compares the UTF-8 bytes of keys (then values) bytewise, so it is the same in any
 *   language and independent of the order in the URL.
 * - <ts> is the `ts` query parameter exactly as sent (Unix seconds, decimal).
 *
 * Why lengths: a naive `k=v&k=v` join is ambiguous as soon as a value contains `&` or `=`
 * (`a=1&b=2` is both {a: "1&b=2"} and {a: "1", b: "2"}). With every key and value prefixed by
 * its length the string can be parsed back in exactly one way, so two different parameter sets
 * never share a canonical string. The key line starts with `k`, entry lines with a digit and the
 * final line with `t`, so no line can be mistaken for another kind.
 *
 * Example: parameters booking = "b 1", ref = "x=y" and ts = 1700000000 give
 *
 *   "keys=7:booking,3:ref\n7:booking=3:b 1\n3:ref=3:x=y\nts=1700000000"
 */

import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SignedParam {
  /** decoded query key */
  key: string;
  /** decoded query value */
  value: string;
}

/** Number of hex characters of a signature (32 bytes). */
export const SIGNATURE_HEX_LENGTH = 64;

const HEX_SIGNATURE = /^[0-9a-f]{64}$/;

function byteOrder(a: SignedParam, b: SignedParam): number {
  const byKey = Buffer.compare(Buffer.from(a.key, 'utf8'), Buffer.from(b.key, 'utf8'));
  return byKey !== 0 ? byKey : Buffer.compare(Buffer.from(a.value, 'utf8'), Buffer.from(b.value, 'utf8'));
}

/**
 * The canonical string C described at the top of this file. The key set is that of `params`:
 * the signer passes every templated parameter of one template, and so does the verifier.
 */
export function canonicalString(params: readonly SignedParam[], ts: string | number): string {
  const sorted = [...params].sort(byteOrder);
  const keys = [...new Set(sorted.map((p) => p.key))].map((key) => `${Buffer.byteLength(key, 'utf8')}:${key}`);
  const lines = [`keys=${keys.join(',')}`];
  for (const { key, value } of sorted) lines.push(`${Buffer.byteLength(key, 'utf8')}:${key}=${Buffer.byteLength(value, 'utf8')}:${value}`);
  lines.push(`ts=${ts}`);
  return lines.join('\n');
}

/** HMAC-SHA256 of the canonical string as 64 lowercase hex characters. */
export function computeSignature(secret: string, params: readonly SignedParam[], ts: string | number): string {
  if (!secret) throw new Error('a signing secret is required');
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(canonicalString(params, ts), 'utf8').digest('hex');
}

/**
 * Constant-time comparison of an expected signature with a received one in either case.
 * Anything that is not 64 hex characters is simply unequal.
 */
export function signaturesEqual(expected: string, received: string): boolean {
  const a = expected.toLowerCase();
  const b = received.toLowerCase();
  if (!HEX_SIGNATURE.test(a) || !HEX_SIGNATURE.test(b)) return false;
  // Decoding to bytes makes both buffers exactly 32 bytes, as timingSafeEqual requires.
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}
