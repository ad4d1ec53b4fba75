import { createTestApp, type TestApp } from '../helpers/app';
import { SECRET } from '../helpers/payments-fixtures';

let t: TestApp;
let cid: string;

beforeAll(async () => {
  t = await createTestApp();
  cid = (await t.company('Pay Co')).id;
});
afterAll(async () => t?.close());

const settingsUrl = (c = cid) => `/v1/companies/${c}/payments/settings`;
const providerUrl = (p = 'test', c = cid) => `/v1/companies/${c}/payments/providers/${p}`;
const OK = 'https://shop.example/thanks';

describe('payment settings', () => {
  it('are absent until saved (404 over REST, null over GraphQL)', async () => {
    const c = (await t.company('Fresh')).id;
    expect((await t.call('GET', settingsUrl(c))).status).toBe(404);
    const g = await t.gql('query($c: ID!) { paymentSettings(companyID: $c) { preferredProvider } }', { c });
    expect(g.body.data.paymentSettings).toBeNull();
  });

  it('store the preferred provider, one of those that take payments here (stripe, test)', async () => {
    for (const p of ['stripe', 'test']) {
      const r = await t.call('PUT', settingsUrl(), { body: { preferredProvider: p } });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ companyID: cid, preferredProvider: p });
    }
    expect((await t.call('GET', settingsUrl())).body.preferredProvider).toBe('test');
  });

  it.each(['klix', 'decta', 'montonio', 'mercadopago'])('refuse %s, which takes no payments here, with 409 naming it', async (p) => {
    const r = await t.call('PUT', settingsUrl(), { body: { preferredProvider: p } });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'conflict', message: expect.stringContaining(`payment provider ${p} is not available`) });
    expect((await t.call('GET', settingsUrl())).body.preferredProvider).toBe('test');
  });

  it.each([[{ preferredProvider: 'paypal' }], [{ preferredProvider: 7 }], [{}]])('refuse %j', async (body) => {
    const r = await t.call('PUT', settingsUrl(), { body });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
  });

  it('answer the same over GraphQL', async () => {
    const g = await t.gql(
      'mutation($c: ID!) { updatePaymentSettings(companyID: $c, input: {preferredProvider: test}) { companyID preferredProvider } }',
      { c: cid },
    );
    expect(g.body.data.updatePaymentSettings).toEqual({ companyID: cid, preferredProvider: 'test' });
    const bad = await t.gql(
      'mutation($c: ID!) { updatePaymentSettings(companyID: $c, input: {preferredProvider: cash}) { preferredProvider } }',
      { c: cid },
    );
    expect(bad.body.errors[0].extensions.code).toBe('invalid_request');
  });
});

describe('provider settings', () => {
  it('store the redirect URLs and answer signing_secret_set instead of the secret', async () => {
    const r = await t.call('PUT', providerUrl(), {
      body: {
        success_redirect_url: 'https://shop.example/ok?id={{.ID}}',
        failure_redirect_url: OK,
        cancel_redirect_url: null,
        enable_url_templating: true,
        signing_secret: SECRET,
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      provider: 'test',
      success_redirect_url: 'https://shop.example/ok?id={{.ID}}',
      failure_redirect_url: OK,
      cancel_redirect_url: null,
      enable_url_templating: true,
      signing_secret_set: true,
    });
    expect(r.body).not.toHaveProperty('signing_secret');
    expect(r.text).not.toContain(SECRET);
    const g = await t.call('GET', providerUrl());
    expect(g.body).toEqual(r.body);
    expect(g.text).not.toContain(SECRET);
  });

  it('keep the stored secret when a save omits signing_secret, and remove it on null', async () => {
    const kept = await t.call('PUT', providerUrl(), {
      body: { success_redirect_url: 'https://shop.example/k/{{.ID}}', enable_url_templating: true },
    });
    expect(kept.status).toBe(200);
    expect(kept.body.signing_secret_set).toBe(true);
    expect(kept.body.failure_redirect_url).toBeNull();
    const refused = await t.call('PUT', providerUrl(), {
      body: { success_redirect_url: OK, enable_url_templating: true, signing_secret: null },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([{ path: 'signing_secret', message: 'is required when enable_url_templating is true' }]);
    const removed = await t.call('PUT', providerUrl(), {
      body: { success_redirect_url: OK, enable_url_templating: false, signing_secret: null },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.signing_secret_set).toBe(false);
  });

  it('accept templating off without a secret, and pass braces through unchecked then', async () => {
    const r = await t.call('PUT', providerUrl('stripe'), {
      body: { success_redirect_url: 'https://shop.example/{{ID}}', enable_url_templating: false },
    });
    expect(r.status).toBe(200);
    expect(r.body.signing_secret_set).toBe(false);
  });

  it('stores settings of every provider, also those that cannot take payments here', async () => {
    for (const p of ['klix', 'decta', 'montonio', 'mercadopago']) {
      const r = await t.call('PUT', providerUrl(p), {
        body: { success_redirect_url: 'https://shop.example/{{.ID}}', enable_url_templating: true, signing_secret: SECRET },
      });
      expect(r.status).toBe(200);
    }
    expect((await t.call('GET', providerUrl('paypal'))).status).toBe(400);
    expect((await t.call('GET', providerUrl('test', (await t.company('None')).id))).status).toBe(404);
  });

  it('require a signing secret of at least 32 characters with templating, never echoing it', async () => {
    const short = 'x'.repeat(31);
    const r = await t.call('PUT', providerUrl(), {
      body: { success_redirect_url: OK, enable_url_templating: true, signing_secret: short },
    });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([{ path: 'signing_secret', message: 'must be at least 32 characters' }]);
    expect(r.text).not.toContain(short);
    const exact = await t.call('PUT', providerUrl(), {
      body: { success_redirect_url: OK, enable_url_templating: true, signing_secret: 'y'.repeat(32) },
    });
    expect(exact.status).toBe(200);
    const none = await t.call('PUT', providerUrl('decta', (await t.company('No secret')).id), {
      body: { success_redirect_url: OK, enable_url_templating: true },
    });
    expect(none.status).toBe(400);
    expect(none.body.details[0].path).toBe('signing_secret');
  });

  it('requires the leading dot and says so', async () => {
    const r = await t.call('PUT', providerUrl(), {
      body: { success_redirect_url: 'https://shop.example/?id={{ID}}', enable_url_templating: true, signing_secret: SECRET },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
    expect(r.body.message).toContain('failed to process URL template');
    expect(r.body.message).toContain('the dot is required');
    expect(r.body.details[0]).toMatchObject({ path: 'success_redirect_url' });
  });

  it.each([
    ['an unknown field', 'https://shop.example/?x={{.Foo}}', 'failed to process URL template'],
    ['a function call', 'https://shop.example/?x={{urlquery .ID}}', 'failed to process URL template'],
    ['a placeholder in the host', 'https://{{.ID}}.shop.example/', 'failed to process URL template'],
    ['a relative URL', '/thanks', 'absolute http or https URL'],
    ['another scheme', 'ftp://shop.example/x', 'absolute http or https URL'],
    ['javascript', 'javascript:alert(1)', 'absolute http or https URL'],
  ])('refuses %s', async (_name, url, text) => {
    const r = await t.call('PUT', providerUrl(), {
      body: { cancel_redirect_url: url, enable_url_templating: true, signing_secret: SECRET },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(text);
    expect(r.body.details[0].path).toBe('cancel_redirect_url');
  });

  it('accepts a URL of exactly 2000 characters and refuses 2001, with templating on or off', async () => {
    const base = 'https://shop.example/';
    const at = (n: number) => base + 'a'.repeat(n - base.length);
    for (const templating of [true, false]) {
      const body = (u: string) => ({ success_redirect_url: u, enable_url_templating: templating, signing_secret: SECRET });
      const ok = await t.call('PUT', providerUrl(), { body: body(at(2000)) });
      expect(ok.status).toBe(200);
      const long = await t.call('PUT', providerUrl(), { body: body(at(2001)) });
      expect(long.status).toBe(400);
      expect(long.body.message).toMatch(/2001 characters long; the maximum length is 2000/);
    }
  });

  it('refuses wrong types with 400 and changes nothing', async () => {
    const before = (await t.call('GET', providerUrl())).body;
    for (const body of [{ enable_url_templating: 'yes' }, { success_redirect_url: 5 }, { signing_secret: 12345 }]) {
      const r = await t.call('PUT', providerUrl(), { body });
      expect(r.status).toBe(400);
    }
    expect((await t.call('GET', providerUrl())).body).toEqual(before);
  });

  it('answer the same over GraphQL, without a way to read the secret', async () => {
    const g = await t.gql(
      `mutation($c: ID!, $s: String) { updatePaymentProviderSettings(companyID: $c, provider: test, input: {success_redirect_url: "https://shop.example/g/{{.ID}}", enable_url_templating: true, signing_secret: $s}) { provider success_redirect_url enable_url_templating signing_secret_set } }`,
      { c: cid, s: SECRET },
    );
    expect(g.body.data.updatePaymentProviderSettings).toEqual({
      provider: 'test',
      success_redirect_url: 'https://shop.example/g/{{.ID}}',
      enable_url_templating: true,
      signing_secret_set: true,
    });
    const q = await t.gql('query($c: ID!) { paymentProviderSettings(companyID: $c, provider: test) { signing_secret_set } }', { c: cid });
    expect(q.body.data.paymentProviderSettings.signing_secret_set).toBe(true);
    const noField = await t.gql('query($c: ID!) { paymentProviderSettings(companyID: $c, provider: test) { signing_secret } }', {
      c: cid,
    });
    expect(noField.body.errors[0].extensions.code).toBe('invalid_request');
    const bad = await t.gql(
      'mutation($c: ID!) { updatePaymentProviderSettings(companyID: $c, provider: test, input: {success_redirect_url: "https://x.example/{{ID}}", enable_url_templating: true}) { provider } }',
      { c: cid },
    );
    expect(bad.body.errors[0].extensions.code).toBe('invalid_request');
    expect(bad.body.errors[0].message).toContain('the dot is required');
  });

  it('stores the secret encrypted', async () => {
    const rows = await t.deps.orm.em
      .fork()
      .getConnection()
      .execute<{ signing_secret_enc: string | null }[]>('select signing_secret_enc from payment_provider_settings where company_id = ?', [
        cid,
      ]);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(String(r.signing_secret_enc ?? '')).not.toContain(SECRET);
    expect(rows.some((r) => r.signing_secret_enc?.startsWith('v1:'))).toBe(true);
  });
});

describe('access', () => {
  it('needs payments.read to read and payments.write to save', async () => {
    const reader = await t.keyWith({ [cid]: ['payments.read'] });
    expect((await t.call('GET', settingsUrl(), { key: reader })).status).toBe(200);
    expect((await t.call('GET', providerUrl(), { key: reader })).status).toBe(200);
    expect((await t.call('PUT', settingsUrl(), { key: reader, body: { preferredProvider: 'test' } })).status).toBe(403);
    expect((await t.call('PUT', providerUrl(), { key: reader, body: {} })).status).toBe(403);
    const other = await t.keyWith({ [cid]: ['bookings.read'] });
    expect((await t.call('GET', settingsUrl(), { key: other })).status).toBe(403);
    expect((await t.call('GET', settingsUrl(), { key: null })).status).toBe(401);
  });

  it("refuses another merchant's company with 403 and an unknown company with 404", async () => {
    const stranger = await t.newMerchant();
    expect((await t.call('GET', settingsUrl(), { key: stranger })).status).toBe(403);
    expect((await t.call('PUT', providerUrl(), { key: stranger, body: { success_redirect_url: OK } })).status).toBe(403);
    expect((await t.call('GET', settingsUrl('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
    expect((await t.call('GET', settingsUrl('nope'))).status).toBe(400);
  });
});
