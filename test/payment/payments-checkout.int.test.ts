import { createCtx } from '../../src/kernel/context';
import { sweepExpiredPayments } from '../../src/modules/payment/payment.api';
import { newId } from '../../src/shared/ids';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { complete, configurePayments, pathOf, SECRET, startTestPayment } from '../helpers/payments-fixtures';

const T0 = Date.parse('2026-07-01T12:00:00Z');
const clock = new TestClock(T0);
let t: TestApp;
let cid: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  cid = (await t.company('Checkout Co')).id;
  await configurePayments(t, cid);
});
afterAll(async () => t?.close());
beforeEach(() => clock.set(T0));

const txStatus = async (id: string) =>
  (await t.call('GET', `/v1/companies/${cid}/payments`, { query: { ids: id } })).body.transactions[0]?.status;
const sql = (q: string, p: unknown[] = []) => t.deps.orm.em.fork().getConnection().execute(q, p);

describe('test provider checkout page', () => {
  it('is an HTML page with the amount and Pay, Fail and Cancel, reachable without credentials', async () => {
    const started = await startTestPayment(t, cid, { amount: 1250, description: 'Haircut <b>&</b> "wash"' });
    expect(started!.paymentURL).toBe(`http://localhost:4000/v1/payments/test-checkout/${started!.transactionId}`);
    const r = await t.call('GET', pathOf(started!.paymentURL), { key: null });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.headers['content-security-policy']).toContain("default-src 'none'");
    expect(r.text).toContain('12.50 EUR');
    // Relative to the page: /v1/payments/test-checkout/{id} + {id}/complete.
    expect(r.text).toContain(`action="${started!.transactionId}/complete"`);
    expect(new URL(`${started!.transactionId}/complete`, started!.paymentURL).pathname).toBe(
      `/v1/payments/test-checkout/${started!.transactionId}/complete`,
    );
    for (const [label, value] of [
      ['Pay', 'success'],
      ['Fail', 'failure'],
      ['Cancel', 'cancel'],
    ]) {
      expect(r.text).toMatch(new RegExp(`name="outcome" value="${value}">${label}</button>`));
    }
    expect(r.text).toContain('Haircut &lt;b&gt;&amp;&lt;/b&gt; &quot;wash&quot;');
    expect(r.text).not.toContain('<b>');
  });

  it('formats amounts in the currency minor unit', async () => {
    const yen = await startTestPayment(t, cid, { amount: 500, currency: 'JPY' });
    expect((await t.call('GET', pathOf(yen!.paymentURL), { key: null })).text).toContain('500 JPY');
    const cents = await startTestPayment(t, cid, { amount: 7 });
    expect((await t.call('GET', pathOf(cents!.paymentURL), { key: null })).text).toContain('0.07 EUR');
  });

  it('answers 404 for an unknown transaction and 400 for a malformed id', async () => {
    expect((await t.call('GET', `/v1/payments/test-checkout/${newId()}`, { key: null })).status).toBe(404);
    expect((await t.call('GET', '/v1/payments/test-checkout/<script>', { key: null })).status).toBe(400);
    expect((await complete(t, newId(), 'success')).status).toBe(404);
  });
});

describe('completing a test payment', () => {
  it('settles with a form post, shows a completion page without redirect settings, then refuses a second completion', async () => {
    const started = await startTestPayment(t, cid);
    const r = await complete(t, started!.transactionId, 'success');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.text).toContain('Payment completed');
    expect(await txStatus(started!.transactionId)).toBe('paid');
    const again = await complete(t, started!.transactionId, 'cancel');
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('the payment is already paid');
    const page = await t.call('GET', pathOf(started!.paymentURL), { key: null });
    expect(page.text).toContain('This payment is paid');
    expect(page.text).not.toContain('<button');
  });

  it.each([
    ['failure', 'failed'],
    ['cancel', 'cancelled'],
    ['success', 'paid'],
  ])('accepts JSON: outcome %s makes the payment %s', async (outcome, status) => {
    const started = await startTestPayment(t, cid);
    expect((await complete(t, started!.transactionId, outcome, true)).status).toBe(200);
    expect(await txStatus(started!.transactionId)).toBe(status);
  });

  it.each(['paid', '', 'SUCCESS'])('refuses the outcome %p with 400 and changes nothing', async (outcome) => {
    const started = await startTestPayment(t, cid);
    expect((await complete(t, started!.transactionId, outcome)).status).toBe(400);
    expect(await txStatus(started!.transactionId)).toBe('pending');
  });

  it('redirects with 303 to the configured URL when templating is off, unchanged', async () => {
    const c = (await t.company('Plain redirect')).id;
    await configurePayments(t, c, {
      success: 'https://shop.example/ok?x={{.ID}}',
      failure: 'https://shop.example/failed',
      templating: false,
    });
    const started = await startTestPayment(t, c);
    const r = await complete(t, started!.transactionId, 'success');
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('https://shop.example/ok?x={{.ID}}');
    const other = await startTestPayment(t, c);
    expect((await complete(t, other!.transactionId, 'cancel')).status).toBe(200);
  });

  it('accepts form bodies only on the checkout routes', async () => {
    const r = await t.call('PUT', `/v1/companies/${cid}/payments/settings`, {
      body: 'preferredProvider=test',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status).toBe(415);
  });
});

describe('starting a payment', () => {
  it('takes no payment without payment settings or without an amount', async () => {
    const bare = (await t.company('No payments')).id;
    expect(await startTestPayment(t, bare)).toBeNull();
    expect(await startTestPayment(t, cid, { amount: 0 })).toBeNull();
  });

  it.each(['klix', 'decta', 'montonio', 'mercadopago'])(
    'refuses %s, which is not available here (preferred before it was refused), with a clear 409',
    async (provider) => {
      const c = (await t.company(`Uses ${provider}`)).id;
      await configurePayments(t, c, { success: 'https://shop.example/{{.ID}}', templating: true, secret: SECRET });
      await sql(`update payment_settings set preferred_provider = ? where company_id = ?`, [provider, c]);
      await expect(startTestPayment(t, c)).rejects.toMatchObject({
        code: 'conflict',
        message: expect.stringContaining(`payment provider ${provider} is not available on this installation`),
      });
      expect((await sql('select count(*)::int as n from payment_transaction where company_id = ?', [c]))[0].n).toBe(0);
    },
  );

  it('checks settings saved before validation existed: templating without a secret, an invalid template', async () => {
    const c = (await t.company('Old settings')).id;
    await configurePayments(t, c, { success: 'https://shop.example/ok', templating: false });
    await sql(`update payment_provider_settings set enable_url_templating = true where company_id = ?`, [c]);
    await expect(startTestPayment(t, c)).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('no signing secret is configured'),
    });
    await configurePayments(t, c, { success: 'https://shop.example/ok', templating: true, secret: SECRET });
    await sql(`update payment_provider_settings set failure_redirect_url = ? where company_id = ?`, [
      'https://shop.example/f?id={{ID}}',
      c,
    ]);
    await expect(startTestPayment(t, c)).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/failure_redirect_url: failed to process URL template: .*the dot is required/),
    });
    expect((await sql('select count(*)::int as n from payment_transaction where company_id = ?', [c]))[0].n).toBe(0);
  });

  it('creates a payment whose final redirect URL is 2000 characters and refuses one of 2001', async () => {
    const c = (await t.company('Long URLs')).id;
    const head = 'https://shop.example/r?id={{.ID}}&p=';
    // Final URL: the template with a 36-character id, then &ts=<10 digits>&sig=<64 hex>.
    const finalLength = (template: string) => template.length - '{{.ID}}'.length + 36 + '&ts='.length + 10 + '&sig='.length + 64;
    const withFinal = (n: number) => {
      const base = finalLength(head);
      return head + 'a'.repeat(n - base);
    };
    expect(withFinal(2001).length).toBeLessThan(2000);
    await configurePayments(t, c, { success: withFinal(2000), templating: true, secret: SECRET });
    const ok = await startTestPayment(t, c);
    const r = await complete(t, ok!.transactionId, 'success');
    expect(r.status).toBe(303);
    expect((r.headers.location as string).length).toBe(2000);
    await configurePayments(t, c, { success: withFinal(2001), templating: true, secret: SECRET });
    await expect(startTestPayment(t, c)).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('2001 characters long; the maximum length is 2000'),
    });
  });
});

describe('expiry', () => {
  it('expires a pending payment at exactly PAYMENT_TIMEOUT, not a millisecond before', async () => {
    const started = await startTestPayment(t, cid);
    const timeout = t.deps.config.paymentTimeoutSec * 1000;
    expect(await sweepExpiredPayments(t.deps, new Date(T0 + timeout - 1))).toBe(0);
    expect(await txStatus(started!.transactionId)).toBe('pending');
    expect(await sweepExpiredPayments(t.deps, new Date(T0 + timeout))).toBeGreaterThanOrEqual(1);
    expect(await txStatus(started!.transactionId)).toBe('failed');
    expect((await complete(t, started!.transactionId, 'success')).status).toBe(409);
  });

  it('refuses to complete an expired payment the sweeper has not reached, and expires it', async () => {
    const started = await startTestPayment(t, cid);
    clock.set(T0 + t.deps.config.paymentTimeoutSec * 1000);
    const r = await complete(t, started!.transactionId, 'success');
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('the payment has expired');
    expect(await txStatus(started!.transactionId)).toBe('failed');
  });

  it('sweeps in batches, and parallel sweepers never settle a payment twice', async () => {
    const c = (await t.company('Many pending')).id;
    await configurePayments(t, c);
    await Promise.all(Array.from({ length: 230 }, () => startTestPayment(t, c, { amount: 100 })));
    const later = new Date(T0 + 3600_000);
    const [{ due }] = await sql(`select count(*)::int as due from payment_transaction where status = 'pending' and expires_at <= ?`, [
      later,
    ]);
    const counts = await Promise.all([
      sweepExpiredPayments(t.deps, later),
      sweepExpiredPayments(createCtx(t.deps, null, 'x', t.deps.log), later),
      sweepExpiredPayments(t.deps, later),
    ]);
    const [{ n }] = await sql(`select count(*)::int as n from payment_transaction where company_id = ? and status = 'failed'`, [c]);
    expect(n).toBe(230);
    // Every due row was expired by exactly one sweeper.
    expect(counts.reduce((a, b) => a + b, 0)).toBe(due);
    expect(await sweepExpiredPayments(t.deps, later)).toBe(0);
  });
});

describe('redirect URLs with non-ASCII characters', () => {
  const IDN = 'https://grāmatas.example/ceļš/{{.ID}}?ref={{.ReferenceID}}&note=žēl&utm=ļ#āfter';
  const ASCII = 'https://xn--grmatas-t3a.example/ce%C4%BC%C5%A1/{{.ID}}?ref={{.ReferenceID}}&note=%C5%BE%C4%93l&utm=%C4%BC#%C4%81fter';

  it('are stored as ASCII: punycode host, percent-encoded path, query and fragment', async () => {
    const c = (await t.company('IDN shop')).id;
    const r = await configurePayments(t, c, { success: IDN, failure: 'https://bücher.example/nē', templating: true, secret: SECRET });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success_redirect_url: ASCII, failure_redirect_url: 'https://xn--bcher-kva.example/n%C4%93' });
    const off = await configurePayments(t, c, { success: 'https://grāmatas.example/ceļš', templating: false });
    expect(off.body.success_redirect_url).toBe('https://xn--grmatas-t3a.example/ce%C4%BC%C5%A1');
  });

  it('complete with a 303 whose Location is ASCII and verifies, once the transaction is settled', async () => {
    const c = (await t.company('IDN checkout')).id;
    await configurePayments(t, c, { success: IDN, templating: true, secret: SECRET });
    const started = await startTestPayment(t, c, { referenceID: 'pasūtījums 7' });
    const r = await complete(t, started!.transactionId, 'success');
    expect(r.status).toBe(303);
    const location = r.headers.location as string;
    expect(location).toMatch(/^[\x21-\x7e]+$/);
    expect(location.startsWith(`https://xn--grmatas-t3a.example/ce%C4%BC%C5%A1/${started!.transactionId}?ref=pas%C5%AB`)).toBe(true);
    expect(new URL(location).searchParams.get('note')).toBe('žēl');
    const v = await t.call('GET', `/v1/companies/${c}/payments/verify-signature${new URL(location).search}`);
    expect(v.body).toEqual({ valid: true });
  });

  it('saved before the rule (raw in the database) still redirect with an ASCII Location', async () => {
    const c = (await t.company('Legacy IDN')).id;
    await configurePayments(t, c, { success: 'https://shop.example/ok', templating: true, secret: SECRET });
    await sql('update payment_provider_settings set success_redirect_url = ? where company_id = ?', [IDN, c]);
    const started = await startTestPayment(t, c);
    const r = await complete(t, started!.transactionId, 'success');
    expect(r.status).toBe(303);
    expect(r.headers.location).toMatch(/^https:\/\/xn--grmatas-t3a\.example\/ce%C4%BC%C5%A1\/[\x21-\x7e]+$/);
    const v = await t.call('GET', `/v1/companies/${c}/payments/verify-signature${new URL(r.headers.location as string).search}`);
    expect(v.body).toEqual({ valid: true });
  });

  it('a stored URL that cannot be made ASCII shows the completion page instead of failing after settling', async () => {
    const c = (await t.company('Broken IDN')).id;
    await configurePayments(t, c, { success: 'https://shop.example/ok' });
    const started = await startTestPayment(t, c);
    // A zero-width joiner is not a valid host character; the save-time check would refuse it,
    // and so would a payment started afterwards.
    await sql('update payment_provider_settings set success_redirect_url = ? where company_id = ?', ['https://a\u200db.example/ceļš', c]);
    await expect(startTestPayment(t, c)).rejects.toMatchObject({ code: 'invalid_request' });
    const r = await complete(t, started!.transactionId, 'success');
    expect(r.status).toBe(200);
    expect(r.text).toContain('<html');
    const tx = await t.call('GET', `/v1/companies/${c}/payments`, { query: { ids: started!.transactionId } });
    expect(tx.body.transactions[0].status).toBe('paid');
  });

  it('refuses at save time a host that has no ASCII form', async () => {
    const c = (await t.company('Bad host')).id;
    const r = await configurePayments(t, c, { success: 'https://a\u200db.example/x' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
  });
});
