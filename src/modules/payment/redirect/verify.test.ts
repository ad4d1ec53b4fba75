import { decryptSecret, encryptSecret } from './secret-box';
import { renderRedirect, type RedirectValues } from './template';
import {
  checkRedirectEnvelope,
  verifyRedirect,
  type RedirectProviderSettings,
  type RedirectQuery,
  type RedirectVerificationSettings,
} from './verify';

const SECRET = 's'.repeat(48);
const T0 = 1_700_000_000; // signing time, Unix seconds
const VALUES: RedirectValues = {
  ID: 'tx-1',
  ItemID: 'bk-1',
  ItemIDs: ['bk-1', 'bk-2'],
  ItemType: 'booking',
  PluginNamespace: 'plug',
  Amount: 1250,
  Currency: 'EUR',
  ReferenceID: 'ref 7/&x',
};
const SUCCESS =
  'https://shop.example/ok/{{.ItemType}}?id={{.ID}}&item={{.ItemID}}&ids={{.ItemIDs}}&amt={{.Amount}}&cur={{.Currency}}&ref={{.ReferenceID}}&ns={{.PluginNamespace}}&utm=static';
const FAILURE = 'https://shop.example/fail?tx={{.ID}}&utm=f';
const CANCEL = 'https://shop.example/cancel/{{.ID}}';
const SUCCESS_KEYS = ['id', 'item', 'ids', 'amt', 'cur', 'ref', 'ns'];

function provider(overrides: Partial<RedirectProviderSettings> = {}): RedirectProviderSettings {
  return {
    enableUrlTemplating: true,
    successUrl: SUCCESS,
    failureUrl: FAILURE,
    cancelUrl: CANCEL,
    decryptSecret: () => SECRET,
    ...overrides,
  };
}

function settings(p: RedirectProviderSettings | null = provider()): RedirectVerificationSettings {
  return { paymentSettings: { preferredProvider: 'test' }, provider: p };
}

/** Parses a query the way a framework does: decoded, repeated keys as lists. */
function queryOf(url: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  const search = url.split('#')[0].split('?')[1] ?? '';
  for (const [k, v] of new URLSearchParams(search)) {
    const prev = Object.hasOwn(out, k) ? out[k] : undefined;
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

function signed(
  template = SUCCESS,
  opts: { secret?: string; ts?: number; values?: Partial<RedirectValues> } = {},
): Record<string, string | string[]> {
  const r = renderRedirect({
    template,
    values: { ...VALUES, ...opts.values },
    secret: opts.secret ?? SECRET,
    now: (opts.ts ?? T0) * 1000,
    templating: true,
  });
  if (!r.ok || !r.signed) throw new Error('expected a signed URL');
  return queryOf(r.url);
}

function verify(query: RedirectQuery, nowSeconds = T0, s: RedirectVerificationSettings = settings()) {
  return verifyRedirect({ query, now: nowSeconds * 1000, settings: s });
}

const VALID = { valid: true };
const reason = (r: string) => ({ valid: false, reason: r });

describe('verifyRedirect: valid signatures', () => {
  it('accepts an untouched redirect from each configured template', () => {
    expect(verify(signed(SUCCESS))).toEqual(VALID);
    expect(verify(signed(FAILURE))).toEqual(VALID);
    expect(verify(signed(CANCEL))).toEqual(VALID);
  });

  it('round-trips values that need escaping', () => {
    expect(verify(signed(SUCCESS, { values: { ReferenceID: 'a+b c%20/ä?#&=', PluginNamespace: '' } }))).toEqual(VALID);
  });

  it('accepts an uppercase signature', () => {
    const q = signed();
    expect(verify({ ...q, sig: (q.sig as string).toUpperCase() })).toEqual(VALID);
  });

  it('ignores static parameters that were changed, added or repeated after signing', () => {
    const q = signed();
    expect(verify({ ...q, utm: 'changed' })).toEqual(VALID);
    expect(verify({ ...q, gclid: 'abc', session_id: 'cs_1' })).toEqual(VALID);
    expect(verify({ ...q, utm: ['a', 'b'] })).toEqual(VALID);
  });

  it('accepts a one-element list as the single value', () => {
    const q = signed();
    expect(verify({ ...q, ts: [q.ts as string], sig: [q.sig as string], id: [q.id as string] })).toEqual(VALID);
  });

  it('accepts a plain query object as well as one without a prototype', () => {
    expect(verify({ ...signed() })).toEqual(VALID);
  });

  it('accepts decoded keys that needed escaping in the template', () => {
    const template = 'https://shop.example/?my+key={{.ID}}&b%5B%5D={{.Amount}}';
    const q = signed(template);
    expect(Object.keys(q)).toEqual(expect.arrayContaining(['my key', 'b[]']));
    expect(verify(q, T0, settings(provider({ successUrl: template })))).toEqual(VALID);
  });
});

describe('verifyRedirect: timestamp window', () => {
  it.each([
    ['exactly 300 s old', 300, VALID],
    ['301 s old', 301, reason('signature_expired')],
    ['exactly 60 s ahead', -60, VALID],
    ['61 s ahead', -61, reason('timestamp_in_future')],
  ])('%s', (_name, age, expected) => {
    expect(verify(signed(SUCCESS, { ts: T0 }), T0 + age)).toEqual(expected);
  });

  it('compares whole seconds: 300.999 s after ts is still valid', () => {
    expect(verifyRedirect({ query: signed(), now: (T0 + 300) * 1000 + 999, settings: settings() })).toEqual(VALID);
  });
});

describe('verifyRedirect: envelope checks in contract order', () => {
  const q = signed();
  const sig = q.sig as string;

  it.each([
    ['ts absent', { sig }],
    ['sig absent', { ts: String(T0) }],
    ['both absent', {}],
    ['ts an empty list', { ts: [], sig }],
  ])('missing_parameters when %s', (_name, query) => {
    expect(verify(query as RedirectQuery)).toEqual(reason('missing_parameters'));
  });

  it('reports missing parameters before looking at the settings', () => {
    expect(verify({}, T0, { paymentSettings: null, provider: null })).toEqual(reason('missing_parameters'));
  });

  it.each(['12a', '1.5', '', ' 1700000000', '1e9', '+1700000000', '0x10', '99999999999999999999'])('invalid_timestamp for ts=%p', (ts) => {
    expect(verify({ ...q, ts })).toEqual(reason('invalid_timestamp'));
  });

  it('invalid_timestamp for a repeated ts', () => {
    expect(verify({ ...q, ts: [String(T0), String(T0)] })).toEqual(reason('invalid_timestamp'));
  });

  it('treats a negative or zero ts as an integer that has expired', () => {
    expect(verify({ ...q, ts: '-5' })).toEqual(reason('signature_expired'));
    expect(verify({ ...q, ts: '0' })).toEqual(reason('signature_expired'));
  });

  it('checks the time before the signature shape', () => {
    expect(verify({ ...q, sig: 'zz' }, T0 + 301)).toEqual(reason('signature_expired'));
    expect(verify({ ...q, sig: 'zz' }, T0 - 61)).toEqual(reason('timestamp_in_future'));
  });

  it.each([
    ['not hex', `${sig.slice(0, 63)}g`],
    ['empty', ''],
    ['with a prefix', `0x${sig.slice(2)}`],
    ['with spaces', ` ${sig.slice(1)}`],
  ])('invalid_signature_format when sig is %s', (_name, bad) =>
    expect(verify({ ...q, sig: bad })).toEqual(reason('invalid_signature_format')),
  );

  it('invalid_signature_format for a repeated sig', () => {
    expect(verify({ ...q, sig: [sig, sig] })).toEqual(reason('invalid_signature_format'));
  });

  it.each([
    ['63', sig.slice(1)],
    ['65', `${sig}a`],
    ['3', 'abc'],
    ['128', sig + sig],
  ])('invalid_signature_length for %s hex characters', (_n, bad) => {
    expect(verify({ ...q, sig: bad })).toEqual(reason('invalid_signature_length'));
  });

  it('checks the shape of sig before the settings', () => {
    expect(verify({ ...q, sig: 'abc' }, T0, { paymentSettings: null, provider: null })).toEqual(reason('invalid_signature_length'));
  });

  it('exposes the envelope checks alone for use before loading settings', () => {
    expect(checkRedirectEnvelope(q, T0 * 1000)).toEqual({ ok: true, ts: String(T0), sig });
    expect(checkRedirectEnvelope({ ts: 'x', sig }, T0 * 1000)).toEqual({ ok: false, reason: 'invalid_timestamp' });
  });
});

describe('verifyRedirect: settings', () => {
  const q = signed();

  it('company_settings_not_found without payment settings', () => {
    expect(verify(q, T0, { paymentSettings: null, provider: provider() })).toEqual(reason('company_settings_not_found'));
  });

  it('provider_settings_not_found without provider settings or preferred provider', () => {
    expect(verify(q, T0, settings(null))).toEqual(reason('provider_settings_not_found'));
    expect(verify(q, T0, { paymentSettings: { preferredProvider: null }, provider: provider() })).toEqual(
      reason('provider_settings_not_found'),
    );
  });

  it('signing_secret_not_configured when templating is off, without asking for the secret', () => {
    const decrypt = jest.fn(() => SECRET);
    expect(verify(q, T0, settings(provider({ enableUrlTemplating: false, decryptSecret: decrypt })))).toEqual(
      reason('signing_secret_not_configured'),
    );
    expect(decrypt).not.toHaveBeenCalled();
  });

  it.each([null, ''])('signing_secret_not_configured when the secret is %p', (secret) => {
    expect(verify(q, T0, settings(provider({ decryptSecret: () => secret })))).toEqual(reason('signing_secret_not_configured'));
  });

  it('failed_to_extract_signing_secret when the stored secret cannot be decrypted', () => {
    const box = encryptSecret(SECRET, Buffer.alloc(32, 1));
    const p = provider({ decryptSecret: () => decryptSecret(box, Buffer.alloc(32, 2)) });
    expect(verify(q, T0, settings(p))).toEqual(reason('failed_to_extract_signing_secret'));
  });

  it('decrypts the secret only after the cheap checks pass', () => {
    const decrypt = jest.fn(() => SECRET);
    verify({ ...q, ts: 'x' }, T0, settings(provider({ decryptSecret: decrypt })));
    expect(decrypt).not.toHaveBeenCalled();
  });

  it('internal_error for anything unexpected', () => {
    const broken = {
      get paymentSettings(): never {
        throw new Error('boom');
      },
      provider: null,
    } as RedirectVerificationSettings;
    expect(verify(q, T0, broken)).toEqual(reason('internal_error'));
    expect(verifyRedirect({ query: q, now: Number.NaN, settings: settings() })).toEqual(reason('internal_error'));
    expect(verifyRedirect({ query: null as unknown as RedirectQuery, now: T0 * 1000, settings: settings() })).toEqual(
      reason('internal_error'),
    );
  });
});

describe('verifyRedirect: signature_mismatch', () => {
  const q = signed();

  it.each(SUCCESS_KEYS)('when the templated parameter %s is altered', (key) => {
    expect(verify({ ...q, [key]: `${q[key] as string}x` })).toEqual(reason('signature_mismatch'));
  });

  it.each(SUCCESS_KEYS)('when the templated parameter %s is removed', (key) => {
    const { [key]: _removed, ...rest } = q;
    expect(verify(rest)).toEqual(reason('signature_mismatch'));
  });

  it('when a templated parameter is repeated, whichever copy comes first', () => {
    expect(verify({ ...q, id: [q.id as string, 'evil'] })).toEqual(reason('signature_mismatch'));
    expect(verify({ ...q, id: ['evil', q.id as string] })).toEqual(reason('signature_mismatch'));
  });

  it('when ts is altered within the window', () => {
    expect(verify({ ...q, ts: String(T0 + 1) })).toEqual(reason('signature_mismatch'));
    expect(verify({ ...q, ts: `0${T0}` })).toEqual(reason('signature_mismatch'));
  });

  it('when a single hex digit of sig is altered', () => {
    const sig = q.sig as string;
    const altered = `${sig.slice(0, 10)}${sig[10] === 'a' ? 'b' : 'a'}${sig.slice(11)}`;
    expect(verify({ ...q, sig: altered })).toEqual(reason('signature_mismatch'));
  });

  it('after the secret was rotated', () => {
    const old = signed(SUCCESS, { secret: 'o'.repeat(48) });
    expect(verify(old)).toEqual(reason('signature_mismatch'));
    expect(verify(old, T0, settings(provider({ decryptSecret: () => 'o'.repeat(48) })))).toEqual(VALID);
  });

  it('when the template that produced the URL is no longer configured', () => {
    expect(verify(signed(FAILURE), T0, settings(provider({ failureUrl: null })))).toEqual(reason('signature_mismatch'));
  });

  it('when no configured template has a placeholder', () => {
    const plain = provider({ successUrl: 'https://shop.example/ok', failureUrl: undefined, cancelUrl: '' });
    expect(verify(q, T0, settings(plain))).toEqual(reason('signature_mismatch'));
  });

  it('when parameters of one template are signed against the key set of another', () => {
    // The failure URL's key set is {tx}; a success query carrying tx must not pass with it.
    expect(verify({ ...signed(FAILURE), id: 'x' }, T0, settings(provider({ failureUrl: null, cancelUrl: null })))).toEqual(
      reason('signature_mismatch'),
    );
  });

  it('when the query holds a parameter that another template templates and the matching one does not', () => {
    // FAILURE signs {tx}; SUCCESS templates amt and cur. Appending them forges a "verified" amount.
    expect(verify(signed(FAILURE))).toEqual(VALID);
    expect(verify({ ...signed(FAILURE), amt: '1', cur: 'EUR' })).toEqual(reason('signature_mismatch'));
    expect(verify({ ...signed(FAILURE), ref: ['a', 'b'] })).toEqual(reason('signature_mismatch'));
    // CANCEL has placeholders only in its path: it signs the empty key set and ts alone.
    expect(verify(signed(CANCEL))).toEqual(VALID);
    expect(verify({ ...signed(CANCEL), amt: '1' })).toEqual(reason('signature_mismatch'));
    expect(verify({ ...signed(CANCEL), tx: 'other' })).toEqual(reason('signature_mismatch'));
    // Parameters that no template templates stay ignored.
    expect(verify({ ...signed(CANCEL), utm: 'x', note: 'y' })).toEqual(VALID);
    expect(verify({ ...signed(FAILURE), utm: 'x', note: 'y' })).toEqual(VALID);
  });

  it('a success signature is not valid against the key set of another template', () => {
    // The same values under the failure key set {tx} give another signature: the key set is signed.
    const q = signed('https://shop.example/x?tx={{.ID}}&amt={{.Amount}}');
    const s = settings(provider({ successUrl: FAILURE, failureUrl: null, cancelUrl: null }));
    expect(verify(q, T0, s)).toEqual(reason('signature_mismatch'));
  });

  it('handles a templated key named like an Object property', () => {
    const template = 'https://shop.example/?constructor={{.ID}}';
    const s = settings(provider({ successUrl: template }));
    const { constructor: _c, ...rest } = signed(template);
    expect(verify(rest, T0, s)).toEqual(reason('signature_mismatch'));
    expect(verify(signed(template), T0, s)).toEqual(VALID);
  });
});
