import { PassThrough } from 'node:stream';
import { createTestApp, TestClock, type Res, type TestApp } from '../helpers/app';
import { complete, configurePayments, pathOf, SECRET, startTestPayment, verifyUrl } from '../helpers/payments-fixtures';

/**
 * The signing secret is write-only: whatever path a request takes (save, read, verify,
 * checkout, redirect, errors), it must not appear in a response or a log line.
 */
const clock = new TestClock(Date.parse('2026-08-01T09:00:00Z'));
const lines: string[] = [];
const responses: Res[] = [];
let t: TestApp;
let cid: string;
const ROTATED = `${SECRET}-second-generation`;

function record<T extends Res>(r: T): T {
  responses.push(r);
  return r;
}

beforeAll(async () => {
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  t = await createTestApp({ clock, logStream });
  cid = (await t.company('Secret Co')).id;
});
afterAll(async () => t?.close());

it('never shows the signing secret in a response or a log line', async () => {
  const success = 'https://shop.example/ok?id={{.ID}}&ref={{.ReferenceID}}';
  // Saves: valid, invalid in several ways while carrying the secret, over REST and GraphQL.
  record(await configurePayments(t, cid, { success, failure: 'https://shop.example/f?tx={{.ID}}', templating: true, secret: SECRET }));
  record(
    await t.call('PUT', `/v1/companies/${cid}/payments/providers/test`, {
      body: { success_redirect_url: 'https://shop.example/?id={{ID}}', enable_url_templating: true, signing_secret: SECRET },
    }),
  );
  record(
    await t.call('PUT', `/v1/companies/${cid}/payments/providers/test`, { body: { success_redirect_url: 5, signing_secret: SECRET } }),
  );
  record(await t.call('PUT', `/v1/companies/${cid}/payments/providers/test`, { body: `{"signing_secret": "${SECRET}", ` }));
  record(
    await t.call('PUT', `/v1/companies/${cid}/payments/providers/test`, { body: { signing_secret: SECRET }, key: await t.newMerchant() }),
  );
  record(
    await t.call('PUT', `/v1/companies/${cid}/payments/providers/stripe`, {
      body: { success_redirect_url: success, enable_url_templating: true, signing_secret: SECRET },
    }),
  );
  const gql = `mutation($c: ID!, $s: String) { updatePaymentProviderSettings(companyID: $c, provider: "test", input: {success_redirect_url: "${success}", enable_url_templating: true, signing_secret: $s}) { signing_secret_set } }`;
  record((await t.gql(gql, { c: cid, s: SECRET })) as Res);
  record((await t.gql(gql.replace('{{.ID}}', '{{ID}}'), { c: cid, s: SECRET })) as Res);
  record(
    (await t.gql(
      `mutation { updatePaymentProviderSettings(companyID: "${cid}", provider: "test", input: {enable_url_templating: true, signing_secret: "${SECRET}", unknown: 1}) { provider } }`,
    )) as Res,
  );
  record(await t.call('GET', `/v1/companies/${cid}/payments/providers/test`));
  record(
    (await t.gql(
      'query($c: ID!) { paymentProviderSettings(companyID: $c, provider: "test") { signing_secret_set success_redirect_url } }',
      { c: cid },
    )) as Res,
  );

  // Checkout and redirect; verification valid and invalid.
  const started = await startTestPayment(t, cid, { referenceID: 'order 7' });
  record(await t.call('GET', pathOf(started!.paymentURL), { key: null }));
  const done = record(await complete(t, started!.transactionId, 'success'));
  expect(done.status).toBe(303);
  const location = done.headers.location as string;
  expect(record(await verifyUrl(t, cid, location)).body).toEqual({ valid: true });
  record(await verifyUrl(t, cid, `${location}x`));
  record(await verifyUrl(t, cid, location.replace('ref=order', 'ref=other')));
  record(
    await t.call(
      'GET',
      `/v1/companies/${cid}/payments/verify-signature?ts=1&sig=${'0'.repeat(64)}&secret=${encodeURIComponent(SECRET.slice(0, 8))}`,
    ),
  );

  // Rotation, then an unreadable secret: verify, payment start and checkout all fail safely.
  record(await configurePayments(t, cid, { success, failure: 'https://shop.example/f?tx={{.ID}}', templating: true, secret: ROTATED }));
  const pending = await startTestPayment(t, cid);
  const original = t.deps.encryptionKey;
  (t.deps as { encryptionKey: Buffer }).encryptionKey = Buffer.alloc(32, 3);
  try {
    expect(record(await verifyUrl(t, cid, location)).body).toEqual({ valid: false, reason: 'failed_to_extract_signing_secret' });
    await expect(startTestPayment(t, cid)).rejects.toMatchObject({ code: 'invalid_request' });
    const page = record(await complete(t, pending!.transactionId, 'failure'));
    expect(page.status).toBe(200);
  } finally {
    (t.deps as { encryptionKey: Buffer }).encryptionKey = original;
  }
  record(await t.call('GET', `/v1/companies/${cid}/payments`));

  expect(responses.length).toBeGreaterThan(15);
  expect(lines.length).toBeGreaterThan(20);
  for (const secret of [SECRET, ROTATED]) {
    for (const r of responses) {
      expect(r.text).not.toContain(secret);
      expect(JSON.stringify(r.headers)).not.toContain(secret);
    }
    for (const line of lines) expect(line).not.toContain(secret);
  }
  // The log does record the requests (the scan is not vacuous).
  expect(lines.some((l) => l.includes('/payments/providers/test'))).toBe(true);
  expect(lines.some((l) => l.includes('redirect URL could not be rendered'))).toBe(true);
});
