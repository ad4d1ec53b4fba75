/**
 * Redirect URLs are ASCII on the wire: a `Location` header with a character above U+00FF makes
 * Node refuse the whole response, and one between U+0080 and U+00FF goes out as a Latin-1 byte
 * that no browser reads as intended. So a configured URL is converted once, at save time:
 *
 * - a non-ASCII host becomes its IDNA (punycode) form, as a browser would send it;
 * - every other non-ASCII character (user info, path, query, fragment) is percent-encoded as
 *   UTF-8, which every query-string parser decodes back to the same character.
 *
 * ASCII text is never touched, so the merchant's static text keeps its bytes and `{{.Field}}`
 * placeholders (ASCII) survive as they are. Decoded query keys and values are unchanged by the
 * conversion, so a signature made over the converted template verifies against the original one.
 */

import { domainToASCII } from 'node:url';

const NON_ASCII = /[^\x00-\x7f]+/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

function percentEncodeNonAscii(text: string): string {
  return text.replace(NON_ASCII, (run) =>
    [...Buffer.from(run, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

/** True when the text can go into an HTTP header as it is: printable ASCII, no space. */
export function isHeaderSafeUrl(url: string): boolean {
  return /^[\x21-\x7e]+$/.test(url);
}

/**
 * The ASCII form of a URL, or null when it has none: a non-ASCII host that is not a valid
 * internationalised domain name, or text that is not well-formed Unicode (a lone surrogate).
 * A URL that is already ASCII comes back unchanged.
 */
export function toAsciiUrl(url: string): string | null {
  if (!/[^\x00-\x7f]/.test(url)) return url;
  if (LONE_SURROGATE.test(url)) return null;
  const scheme = SCHEME.exec(url);
  if (!scheme) return percentEncodeNonAscii(url);
  const rest = url.slice(scheme[0].length);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const tail = authorityEnd === -1 ? '' : rest.slice(authorityEnd);
  const at = authority.lastIndexOf('@');
  const userinfo = at === -1 ? '' : authority.slice(0, at + 1);
  const hostPort = authority.slice(at + 1);
  const portAt = hostPort.startsWith('[') ? hostPort.indexOf(':', hostPort.indexOf(']')) : hostPort.lastIndexOf(':');
  const host = portAt === -1 ? hostPort : hostPort.slice(0, portAt);
  const port = portAt === -1 ? '' : hostPort.slice(portAt);
  let asciiHost = host;
  if (/[^\x00-\x7f]/.test(host)) {
    asciiHost = domainToASCII(host);
    if (!asciiHost) return null;
  }
  if (/[^\x00-\x7f]/.test(port)) return null;
  return `${scheme[0]}${percentEncodeNonAscii(userinfo)}${asciiHost}${port}${percentEncodeNonAscii(tail)}`;
}
