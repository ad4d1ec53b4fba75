import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { complete, configurePayments, SECRET, startTestPayment, verifyUrl } from '../helpers/payments-fixtures';

const T0 = Date.parse('2026-05-04T10:00:00Z');
const clock = new TestClock(T0);
let t: TestApp;
let cid: string;

const SUCCESS =
  'https://shop.example/return/{{.ItemType}}/{{.ReferenceID}}?id={{.ID}}&item={{.ItemID}}&items={{.ItemIDs}}&type={{.ItemType}}&ns={{.PluginNamespace}}&amount={{.Amount}}&currency={{.Currency}}&ref={{.ReferenceID}}&utm_source=pay';
const FAILURE = 'https://shop.example/failed?tx={{.ID}}&lang=en';
const CANCEL = 'https://shop.example/cancelled?from=checkout';
const TEMPLATED = ['id', 'item', 'items', 'type', 'ns', 'amount', 'currency', 'ref'];

beforeAll(async () => {
  t = await createTestApp({ clock });
  cid = (await t.company('Signing Co')).id;
  const r = await configurePayments(t, cid, { success: SUCCESS, failure: FAILURE, cancel: CANCEL, templating: true, secret: SECRET });
  expect(r.status).toBe(200);
});
afterAll(async () => t?.close());

beforeEach(() => clock.set(T0));

/** A paid transaction's redirect URL (the Location of the 303). */
async function paidRedirect(
  input: Parameters<typeof startTestPayment>[2] = {},
  outcome = 'success',
  company = cid,
): Promise<{ location: string; transactionId: string }> {
  const started = await startTestPayment(t, company, { referenceID: 'order 42/a', pluginNamespace: 'giftcards', ...input });
  const r = await complete(t, started!.transactionId, outcome);
  expect(r.status).toBe(303);
  return { location: r.headers.location as string, transactionId: started!.transactionId };
}

function withParam(url: string, key: string, value: string | null): string {
  const u = new URL(url);
  if (value === null) u.searchParams.delete(key);
  else u.searchParams.set(key, value);
  return u.toString();
}

const verify = (url: string, company = cid) =>
  verifyUrl(t, company, url).then((r) => {
    expect(r.status).toBe(200);
    return r.body;
  });

describe('signed redirect URL', () => {
  it('substitutes every placeholder, keeps static text and appends ts and sig last', async () => {
    const items = ['6f1c2d3e-0000-4000-8000-0000000000b1', '6f1c2d3e-0000-4000-8000-0000000000b2'];
    const { location, transactionId } = await paidRedirect({ itemIDs: items, amount: 2500 });
    const u = new URL(location);
    expect(`${u.origin}${u.pathname}`).toBe('https://shop.example/return/booking/order%2042%2Fa');
    expect([...u.searchParams.keys()]).toEqual([...TEMPLATED, 'utm_source', 'ts', 'sig']);
    expect(Object.fromEntries(u.searchParams)).toMatchObject({
      id: transactionId,
      item: items[0],
      items: items.join(','),
      type: 'booking',
      ns: 'giftcards',
      amount: '2500',
      currency: 'EUR',
      ref: 'order 42/a',
      utm_source: 'pay',
      ts: String(T0 / 1000),
    });
    // Path-style escaping: a space is %20 (never +), and values are not encoded twice.
    expect(location).toContain('ref=order%2042%2Fa&');
    expect(location).toContain(`items=${items.join('%2C')}&`);
    expect(u.searchParams.get('sig')).toMatch(/^[0-9a-f]{64}$/);
    expect(await verify(location)).toEqual({ valid: true });
  });

  it('signs the failure URL with its own parameters and passes a URL without placeholders unsigned', async () => {
    const failed = await paidRedirect({}, 'failure');
    expect(failed.location).toMatch(
      new RegExp(`^https://shop\\.example/failed\\?tx=${failed.transactionId}&lang=en&ts=\\d+&sig=[0-9a-f]{64}$`),
    );
    expect(await verify(failed.location)).toEqual({ valid: true });
    const cancelled = await paidRedirect({}, 'cancel');
    expect(cancelled.location).toBe(CANCEL);
  });

  it.each(TEMPLATED)('is a signature_mismatch when the templated parameter %s is altered or dropped', async (key) => {
    const { location } = await paidRedirect();
    const value = new URL(location).searchParams.get(key)!;
    expect(await verify(withParam(location, key, `${value}x`))).toEqual({ valid: false, reason: 'signature_mismatch' });
    expect(await verify(withParam(location, key, null))).toEqual({ valid: false, reason: 'signature_mismatch' });
  });

  it('stays valid when static parameters are added or changed after signing, or the path changes', async () => {
    const { location } = await paidRedirect();
    expect(await verify(`${location}&utm_campaign=spring&fbclid=abc`)).toEqual({ valid: true });
    expect(await verify(withParam(location, 'utm_source', 'newsletter'))).toEqual({ valid: true });
    expect(await verify(location.replace('/return/booking/', '/elsewhere/'))).toEqual({ valid: true });
  });

  it('accepts the signature in upper case', async () => {
    const { location } = await paidRedirect();
    const sig = new URL(location).searchParams.get('sig')!;
    expect(await verify(withParam(location, 'sig', sig.toUpperCase()))).toEqual({ valid: true });
  });

  it('is a signature_mismatch when ts or one digit of sig is altered', async () => {
    const { location } = await paidRedirect();
    const u = new URL(location);
    expect(await verify(withParam(location, 'ts', String(Number(u.searchParams.get('ts')) + 1)))).toEqual({
      valid: false,
      reason: 'signature_mismatch',
    });
    const sig = u.searchParams.get('sig')!;
    expect(await verify(withParam(location, 'sig', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1)))).toEqual({
      valid: false,
      reason: 'signature_mismatch',
    });
  });
});

describe('verification time window', () => {
  it.each([
    ['exactly 300 s later', 300_000, { valid: true }],
    ['300.999 s later', 300_999, { valid: true }],
    ['301 s later', 301_000, { valid: false, reason: 'signature_expired' }],
    ['exactly 60 s earlier', -60_000, { valid: true }],
    ['61 s earlier', -61_000, { valid: false, reason: 'timestamp_in_future' }],
  ])('verified %s', async (_name, shift, expected) => {
    const { location } = await paidRedirect();
    clock.set(T0 + shift);
    expect(await verify(location)).toEqual(expected);
  });
});

describe('verification reasons, in the contract order', () => {
  it('missing_parameters, invalid_timestamp, invalid_signature_format, invalid_signature_length', async () => {
    const { location } = await paidRedirect();
    const sig = new URL(location).searchParams.get('sig')!;
    expect(await verify(withParam(location, 'ts', null))).toEqual({ valid: false, reason: 'missing_parameters' });
    expect(await verify(withParam(location, 'sig', null))).toEqual({ valid: false, reason: 'missing_parameters' });
    expect(await verify('https://shop.example/')).toEqual({ valid: false, reason: 'missing_parameters' });
    expect(await verify(withParam(location, 'ts', '17e8'))).toEqual({ valid: false, reason: 'invalid_timestamp' });
    expect(await verify(`${location}&ts=${T0 / 1000}`)).toEqual({ valid: false, reason: 'invalid_timestamp' });
    expect(await verify(withParam(location, 'sig', `${sig.slice(0, 63)}g`))).toEqual({ valid: false, reason: 'invalid_signature_format' });
    expect(await verify(withParam(location, 'sig', sig.slice(1)))).toEqual({ valid: false, reason: 'invalid_signature_length' });
    // The time is judged before the shape of sig.
    clock.set(T0 + 301_000);
    expect(await verify(withParam(location, 'sig', 'zz'))).toEqual({ valid: false, reason: 'signature_expired' });
  });

  it('company_settings_not_found for a company without payment settings', async () => {
    const { location } = await paidRedirect();
    const bare = (await t.company('Bare')).id;
    expect(await verify(location, bare)).toEqual({ valid: false, reason: 'company_settings_not_found' });
  });

  it('provider_settings_not_found when the preferred provider has no settings', async () => {
    const { location } = await paidRedirect();
    const c = (await t.company('Prefers stripe')).id;
    await configurePayments(t, c, { provider: 'test', success: SUCCESS, templating: true, secret: SECRET });
    expect((await t.call('PUT', `/v1/companies/${c}/payments/settings`, { body: { preferredProvider: 'stripe' } })).status).toBe(200);
    expect(await verify(location, c)).toEqual({ valid: false, reason: 'provider_settings_not_found' });
  });

  it('signing_secret_not_configured when templating is off', async () => {
    const { location } = await paidRedirect();
    const c = (await t.company('Plain')).id;
    await configurePayments(t, c, { success: SUCCESS, templating: false });
    expect(await verify(location, c)).toEqual({ valid: false, reason: 'signing_secret_not_configured' });
  });

  it('failed_to_extract_signing_secret when the encryption key changed', async () => {
    const { location } = await paidRedirect();
    const original = t.deps.encryptionKey;
    (t.deps as { encryptionKey: Buffer }).encryptionKey = Buffer.alloc(32, 9);
    try {
      expect(await verify(location)).toEqual({ valid: false, reason: 'failed_to_extract_signing_secret' });
      // Creating a payment URL with an unreadable secret is refused as well.
      await expect(startTestPayment(t, cid)).rejects.toMatchObject({ code: 'invalid_request' });
    } finally {
      (t.deps as { encryptionKey: Buffer }).encryptionKey = original;
    }
    expect(await verify(location)).toEqual({ valid: true });
  });

  it('signature_mismatch after the secret was rotated; links signed afterwards verify', async () => {
    const c = (await t.company('Rotating')).id;
    await configurePayments(t, c, { success: SUCCESS, templating: true, secret: SECRET });
    const before = await paidRedirect({}, 'success', c);
    expect(await verify(before.location, c)).toEqual({ valid: true });
    await configurePayments(t, c, { success: SUCCESS, templating: true, secret: `${SECRET}-rotated` });
    expect(await verify(before.location, c)).toEqual({ valid: false, reason: 'signature_mismatch' });
    const after = await paidRedirect({}, 'success', c);
    expect(await verify(after.location, c)).toEqual({ valid: true });
  });

  it('signature_mismatch when the template that produced the link is no longer configured', async () => {
    const c = (await t.company('Changed template')).id;
    await configurePayments(t, c, { success: SUCCESS, templating: true, secret: SECRET });
    const { location } = await paidRedirect({}, 'success', c);
    await configurePayments(t, c, { success: 'https://shop.example/new?id={{.ID}}', templating: true });
    expect(await verify(location, c)).toEqual({ valid: false, reason: 'signature_mismatch' });
  });

  it('internal_error when the settings cannot be loaded', async () => {
    const { location } = await paidRedirect();
    const conn = t.deps.orm.em.fork().getConnection();
    await conn.execute('alter table payment_provider_settings rename to payment_provider_settings_away');
    try {
      expect(await verify(location)).toEqual({ valid: false, reason: 'internal_error' });
    } finally {
      await conn.execute('alter table payment_provider_settings_away rename to payment_provider_settings');
    }
    expect(await verify(location)).toEqual({ valid: true });
  });
});

describe('verification access and GraphQL', () => {
  it('needs an API key with payments.read on the company', async () => {
    const { location } = await paidRedirect();
    const search = new URL(location).search;
    const url = `/v1/companies/${cid}/payments/verify-signature${search}`;
    expect((await t.call('GET', url, { key: null })).status).toBe(401);
    expect((await t.call('GET', url, { key: await t.newMerchant() })).status).toBe(403);
    expect((await t.call('GET', url, { key: await t.keyWith({ [cid]: ['bookings.read'] }) })).status).toBe(403);
    expect((await t.call('GET', url, { key: await t.keyWith({ [cid]: ['payments.read'] }) })).body).toEqual({ valid: true });
    expect((await t.call('GET', `/v1/companies/00000000-0000-4000-8000-000000000000/payments/verify-signature${search}`)).status).toBe(404);
  });

  it('verifyRedirectSignature takes the received parameters as a list of name and value', async () => {
    const { location } = await paidRedirect();
    const params = [...new URL(location).searchParams].map(([name, value]) => ({ name, value }));
    const q = 'query($c: ID!, $q: [QueryParameterInput!]!) { verifyRedirectSignature(companyID: $c, query: $q) { valid reason } }';
    expect((await t.gql(q, { c: cid, q: params })).body.data.verifyRedirectSignature).toEqual({ valid: true, reason: null });
    const tampered = params.map((p) => (p.name === 'amount' ? { ...p, value: '1' } : p));
    expect((await t.gql(q, { c: cid, q: tampered })).body.data.verifyRedirectSignature).toEqual({
      valid: false,
      reason: 'signature_mismatch',
    });
    // A parameter repeated is a list, as a query-string parser reads it: not the signed value.
    const repeated = [...params, { name: 'amount', value: '1' }];
    expect((await t.gql(q, { c: cid, q: repeated })).body.data.verifyRedirectSignature.valid).toBe(false);
  });
});

describe('a signature is bound to the template it was made for', () => {
  it('a failure redirect with amount and currency appended is a signature_mismatch', async () => {
    const failed = await paidRedirect({}, 'failure');
    expect(await verify(failed.location)).toEqual({ valid: true });
    expect(await verify(`${failed.location}&amount=1&currency=EUR`)).toEqual({ valid: false, reason: 'signature_mismatch' });
    // Any single parameter templated only by the success template is refused as well.
    for (const key of TEMPLATED.filter((k) => k !== 'tx')) {
      expect(await verify(`${failed.location}&${key}=1`)).toEqual({ valid: false, reason: 'signature_mismatch' });
    }
    // Parameters that no template templates are still ignored.
    expect(await verify(`${failed.location}&utm_campaign=x&lang=de`)).toEqual({ valid: true });
  });

  it('a path-only template signs ts alone, and that vouches for no templated parameter', async () => {
    const c = (await t.company('Path only')).id;
    await configurePayments(t, c, {
      success: 'https://shop.example/paid?amount={{.Amount}}&currency={{.Currency}}&id={{.ID}}',
      cancel: 'https://shop.example/cancelled/{{.ID}}',
      templating: true,
      secret: SECRET,
    });
    const cancelled = await paidRedirect({}, 'cancel', c);
    expect(new URL(cancelled.location).pathname).toBe(`/cancelled/${cancelled.transactionId}`);
    expect(await verify(cancelled.location, c)).toEqual({ valid: true });
    expect(await verify(`${cancelled.location}&amount=1&currency=EUR&id=${cancelled.transactionId}`, c)).toEqual({
      valid: false,
      reason: 'signature_mismatch',
    });
    expect(await verify(`${cancelled.location}&amount=1`, c)).toEqual({ valid: false, reason: 'signature_mismatch' });
    expect(await verify(`${cancelled.location}&note=hello`, c)).toEqual({ valid: true });
    const paid = await paidRedirect({ amount: 4200 }, 'success', c);
    expect(await verify(paid.location, c)).toEqual({ valid: true });
  });
});
