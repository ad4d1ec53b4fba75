/**
 * Redirect URL templates: validation at save time, substitution and signing when a payment URL
 * is created. Pure; the caller supplies the clock and the decrypted secret.
 *
 * The template is handled as text, never round-tripped through `new URL()`: serialisation would
 * re-encode the merchant's static text, and static text must reach the provider byte for byte.
 * `new URL()` is only used to check that the template is a well-formed absolute URL.
 */

import { computeSignature, type SignedParam } from './signing';

export const PLACEHOLDER_FIELDS = ['ID', 'ItemID', 'ItemIDs', 'ItemType', 'PluginNamespace', 'Amount', 'Currency', 'ReferenceID'] as const;
export type PlaceholderField = (typeof PLACEHOLDER_FIELDS)[number];

/** Upper bound for a configured template and for the final redirect URL. */
export const MAX_REDIRECT_URL_LENGTH = 2000;

export const TEMPLATE_ERROR_PREFIX = 'failed to process URL template';

/** Transaction details substituted into a template. */
export interface RedirectValues {
  ID: string;
  ItemID: string;
  /** joined with commas when given as a list; the receiver splits it */
  ItemIDs: string | readonly string[];
  ItemType: string;
  PluginNamespace?: string | null;
  /** smallest currency unit, never divided by 100 */
  Amount: number | string;
  Currency: string;
  ReferenceID?: string | null;
}

export type TemplateValidation = { ok: true } | { ok: false; message: string };

export interface RenderInput {
  template: string;
  values: RedirectValues;
  /** decrypted signing secret; only needed when the template holds a placeholder */
  secret: string | null | undefined;
  /** epoch milliseconds */
  now: number;
  templating: boolean;
}

export type RenderErrorCode = 'invalid_template' | 'signing_secret_missing' | 'url_too_long';
export type RenderResult = { ok: true; url: string; signed: boolean } | { ok: false; code: RenderErrorCode; message: string };

type Chunk = { text: string } | { field: PlaceholderField };

interface TemplatedParam {
  rawKey: string;
  key: string;
  value: Chunk[];
}

/** A query segment between `&`s, kept verbatim unless it is templated. */
interface QueryPart {
  raw: string;
  templated: TemplatedParam | null;
}

interface ParsedTemplate {
  /** scheme and authority; never templated */
  head: string;
  path: Chunk[];
  /** null when the template has no `?` */
  query: QueryPart[] | null;
  /** text after `#`; never templated */
  fragment: string | null;
  placeholders: number;
}

type ParseFailure = { ok: false; kind: 'url' | 'template' | 'length'; message: string };

const FIELDS = new Set<string>(PLACEHOLDER_FIELDS);
const PLACEHOLDER_BODY = /^ *(\.?)([A-Za-z_][A-Za-z0-9_]*) *$/;
const PLACEHOLDER = /\{\{ *\.([A-Za-z_][A-Za-z0-9_]*) *\}\}/g;
const RESERVED_KEYS = new Set(['ts', 'sig']);

function templateError(detail: string): ParseFailure {
  return { ok: false, kind: 'template', message: `${TEMPLATE_ERROR_PREFIX}: ${detail}` };
}

function lengthMessage(length: number, what: string): string {
  return `${what} is ${length} characters long; the maximum length is ${MAX_REDIRECT_URL_LENGTH} characters`;
}

/**
 * Path-style escaping of a substituted value: every byte outside RFC 3986 "unreserved" is
 * percent-encoded, so a space is `%20` (never `+`), `/`, `&`, `=`, `+`, `#` and `%` cannot change
 * the URL's structure, and decoding gives back exactly the value. Working on UTF-8 bytes avoids
 * the URIError `encodeURIComponent` throws on lone surrogates.
 */
export function escapeValue(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const unreserved =
      (byte >= 0x30 && byte <= 0x39) ||
      (byte >= 0x41 && byte <= 0x5a) ||
      (byte >= 0x61 && byte <= 0x7a) ||
      byte === 0x2d ||
      byte === 0x2e ||
      byte === 0x5f ||
      byte === 0x7e;
    out += unreserved ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** What a query-string parser yields for a raw key or value; throws URIError on bad UTF-8. */
export function decodeQueryComponent(raw: string): string {
  return decodeURIComponent(raw.replace(/\+/g, ' '));
}

/** Finds every `{{...}}`; each must be exactly one known field with its leading dot. */
function scanPlaceholders(url: string): { start: number; end: number }[] | ParseFailure {
  const spans: { start: number; end: number }[] = [];
  let from = 0;
  for (;;) {
    const open = url.indexOf('{{', from);
    const close = url.indexOf('}}', from);
    if (close !== -1 && (open === -1 || close < open))
      return templateError(`unbalanced braces: "}}" at position ${close} has no opening "{{"`);
    if (open === -1) return spans;
    const end = url.indexOf('}}', open + 2);
    const nextOpen = url.indexOf('{{', open + 2);
    if (end === -1 || (nextOpen !== -1 && nextOpen < end))
      return templateError(`unbalanced braces: "{{" at position ${open} is not closed`);
    const text = url.slice(open, end + 2);
    const m = PLACEHOLDER_BODY.exec(url.slice(open + 2, end));
    if (!m)
      return templateError(
        `unsupported placeholder ${text}: only a single field such as {{.ID}} is allowed, and values are escaped automatically`,
      );
    const [, dot, name] = m;
    if (!FIELDS.has(name)) {
      const hint = PLACEHOLDER_FIELDS.find((f) => f.toLowerCase() === name.toLowerCase());
      return templateError(
        `unknown field "${name}" in placeholder ${text}${hint ? ` (did you mean {{.${hint}}}?)` : ''}; allowed fields: ${PLACEHOLDER_FIELDS.map((f) => `.${f}`).join(', ')}`,
      );
    }
    if (!dot) return templateError(`placeholder ${text} needs a leading dot ({{.${name}}}): the dot is required`);
    spans.push({ start: open, end: end + 2 });
    from = end + 2;
  }
}

/** Only valid after `scanPlaceholders` accepted the text. */
function chunk(text: string): Chunk[] {
  const out: Chunk[] = [];
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    const at = m.index ?? 0;
    if (at > last) out.push({ text: text.slice(last, at) });
    out.push({ field: m[1] as PlaceholderField });
    last = at + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

function safeDecode(raw: string): string {
  try {
    return decodeQueryComponent(raw);
  } catch {
    return raw;
  }
}

function parseQueryPart(raw: string, templating: boolean): QueryPart | ParseFailure {
  if (!templating || !raw.includes('{{')) return { raw, templated: null };
  const eq = raw.indexOf('=');
  if (eq === -1 || raw.slice(0, eq).includes('{{'))
    return templateError(`placeholders are not allowed in query parameter names ("${raw}")`);
  const rawKey = raw.slice(0, eq);
  if (rawKey === '') return templateError(`templated query parameter "${raw}" needs a name`);
  const value = chunk(raw.slice(eq + 1));
  // Static text of a signed parameter must decode identically in every parser, or the
  // verifier would see a different value than the signer did.
  for (const piece of [rawKey, ...value.flatMap((c) => ('text' in c ? [c.text] : []))]) {
    try {
      decodeQueryComponent(piece);
    } catch {
      return templateError(`query parameter "${raw}" holds percent-encoding that is not valid UTF-8`);
    }
  }
  return { raw, templated: { rawKey, key: decodeQueryComponent(rawKey), value } };
}

function parseTemplate(url: string, templating: boolean): ParsedTemplate | ParseFailure {
  if (typeof url !== 'string' || url === '') return { ok: false, kind: 'url', message: 'invalid redirect URL: the URL is empty' };
  if (url.length > MAX_REDIRECT_URL_LENGTH) return { ok: false, kind: 'length', message: lengthMessage(url.length, 'redirect URL') };
  const scheme = /^https?:\/\//i.exec(url);
  if (!scheme) return { ok: false, kind: 'url', message: 'invalid redirect URL: it must be an absolute http or https URL' };

  const spans = templating ? scanPlaceholders(url) : [];
  if (!Array.isArray(spans)) return spans;
  // The probe replaces placeholders by a plain letter so the checks below judge only static text
  // (and catch a `%` whose hex digits would come from a substituted value).
  let probe = '';
  let last = 0;
  for (const s of spans) {
    probe += `${url.slice(last, s.start)}x`;
    last = s.end;
  }
  probe += url.slice(last);
  if (/[\u0000-\u0020\u007f\\]/.test(probe))
    return { ok: false, kind: 'url', message: 'invalid redirect URL: it contains whitespace, a control character or a backslash' };
  if (/%(?![0-9A-Fa-f]{2})/.test(probe))
    return { ok: false, kind: 'url', message: 'invalid redirect URL: it contains a "%" that is not followed by two hex digits' };
  let parsed: URL;
  try {
    parsed = new URL(probe);
  } catch {
    return { ok: false, kind: 'url', message: 'invalid redirect URL: it must be an absolute http or https URL' };
  }

  // Placeholders never contain / ? # & =, so the structure can be read off the raw text.
  const authorityEnd = url.slice(scheme[0].length).search(/[/?#]/);
  const headEnd = authorityEnd === -1 ? url.length : scheme[0].length + authorityEnd;
  if (headEnd === scheme[0].length || parsed.hostname === '')
    return { ok: false, kind: 'url', message: 'invalid redirect URL: the host is missing' };
  const hashAt = url.indexOf('#', headEnd);
  const end = hashAt === -1 ? url.length : hashAt;
  const queryAt = url.indexOf('?', headEnd);
  const hasQuery = queryAt !== -1 && queryAt < end;
  const pathEnd = hasQuery ? queryAt : end;
  if (spans.some((s) => s.start < headEnd))
    return templateError('placeholders are allowed only in the path and in query values, not in the scheme or host');
  if (spans.some((s) => s.start > end))
    return templateError('placeholders are allowed only in the path and in query values, not in the fragment');

  const query: QueryPart[] | null = hasQuery ? [] : null;
  if (query) {
    for (const raw of url.slice(queryAt + 1, end).split('&')) {
      const part = parseQueryPart(raw, templating);
      if ('ok' in part) return part;
      query.push(part);
    }
  }
  if (spans.length > 0 && query) {
    const keyOf = (p: QueryPart) => (p.templated ? p.templated.key : safeDecode(p.raw.split('=', 1)[0]));
    const keys = query.filter((p) => p.raw !== '').map(keyOf);
    for (const key of keys) {
      if (RESERVED_KEYS.has(key)) return templateError(`query parameter "${key}" is reserved for the signature`);
    }
    for (const p of query) {
      // A repeated signed key would reach the merchant as a list, and which copy a framework
      // picks differs; one copy keeps the signed value unambiguous.
      if (p.templated && keys.filter((k) => k === p.templated?.key).length > 1) {
        return templateError(`templated query parameter "${p.templated.key}" appears more than once`);
      }
    }
  }
  return {
    head: url.slice(0, headEnd),
    path: templating ? chunk(url.slice(headEnd, pathEnd)) : [{ text: url.slice(headEnd, pathEnd) }],
    query,
    fragment: hashAt === -1 ? null : url.slice(hashAt + 1),
    placeholders: spans.length,
  };
}

/**
 * Save-time check of a configured redirect URL: absolute http/https, at most 2000 characters,
 * and, with templating on, only the eight known placeholders in the path or query values.
 */
export function validateTemplate(url: string, options: { templating?: boolean } = {}): TemplateValidation {
  const parsed = parseTemplate(url, options.templating ?? true);
  return 'ok' in parsed ? { ok: false, message: parsed.message } : { ok: true };
}

/**
 * Decoded names of the signed query parameters of a template, or null when the template yields
 * no signed URL (invalid, or without any placeholder). Path-only templates give an empty list:
 * their signature covers only `ts`.
 */
export function signedQueryKeys(template: string): string[] | null {
  const parsed = parseTemplate(template, true);
  if ('ok' in parsed || parsed.placeholders === 0) return null;
  return (parsed.query ?? []).flatMap((p) => (p.templated ? [p.templated.key] : []));
}

function fieldStrings(values: RedirectValues): Record<PlaceholderField, string> {
  return {
    ID: values.ID ?? '',
    ItemID: values.ItemID ?? '',
    ItemIDs: typeof values.ItemIDs === 'string' ? values.ItemIDs : (values.ItemIDs ?? []).join(','),
    ItemType: values.ItemType ?? '',
    PluginNamespace: values.PluginNamespace ?? '',
    Amount: values.Amount === undefined || values.Amount === null ? '' : String(values.Amount),
    Currency: values.Currency ?? '',
    ReferenceID: values.ReferenceID ?? '',
  };
}

function renderChunks(chunks: readonly Chunk[], fields: Record<PlaceholderField, string>): string {
  return chunks.map((c) => ('text' in c ? c.text : escapeValue(fields[c.field]))).join('');
}

function withinLimit(url: string, signed: boolean): RenderResult {
  if (url.length > MAX_REDIRECT_URL_LENGTH)
    return { ok: false, code: 'url_too_long', message: lengthMessage(url.length, 'the final redirect URL') };
  return { ok: true, url, signed };
}

/**
 * The redirect URL handed to the provider. With templating off, or without any placeholder, the
 * template is returned as configured (no `ts`/`sig`). Otherwise placeholders are substituted,
 * the template's query parameters keep their order and text, and `ts` and `sig` are appended as
 * the last two query parameters, before any fragment.
 */
export function renderRedirect(input: RenderInput): RenderResult {
  const { template } = input;
  if (!input.templating) return withinLimit(template, false);
  if (!Number.isFinite(input.now)) throw new RangeError('now must be epoch milliseconds');
  const parsed = parseTemplate(template, true);
  if ('ok' in parsed) return { ok: false, code: parsed.kind === 'length' ? 'url_too_long' : 'invalid_template', message: parsed.message };
  if (parsed.placeholders === 0) return withinLimit(template, false);
  if (!input.secret)
    return { ok: false, code: 'signing_secret_missing', message: 'URL templating is enabled but no signing secret is configured' };

  const fields = fieldStrings(input.values);
  const signedParams: SignedParam[] = [];
  const queryText = (parsed.query ?? [])
    .map((p) => {
      if (!p.templated) return p.raw;
      const rawValue = renderChunks(p.templated.value, fields);
      signedParams.push({ key: p.templated.key, value: decodeQueryComponent(rawValue) });
      return `${p.templated.rawKey}=${rawValue}`;
    })
    .join('&');
  const ts = Math.floor(input.now / 1000);
  const sig = computeSignature(input.secret, signedParams, ts);
  const separator = parsed.query === null || queryText === '' || queryText.endsWith('&') ? '' : '&';
  const url = `${parsed.head}${renderChunks(parsed.path, fields)}?${queryText}${separator}ts=${ts}&sig=${sig}${parsed.fragment === null ? '' : `#${parsed.fragment}`}`;
  return withinLimit(url, true);
}
