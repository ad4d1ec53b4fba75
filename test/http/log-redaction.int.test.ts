import { PassThrough } from 'node:stream';
import { createTestApp, type TestApp } from '../helpers/app';

/**
 * Credentials that travel in a URL never reach the request log: calendar feed tokens, codes
 * being validated, payment return parameters (contract, section 3).
 */

let t: TestApp;
const lines: string[] = [];

beforeAll(async () => {
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  t = await createTestApp({ logStream });
});
afterAll(async () => t?.close());

/** The URLs the request log shows for requests whose path starts with `prefix`. */
const loggedUrls = (prefix: string): string[] =>
  lines
    .map((l) => JSON.parse(l) as { req?: { url?: string } })
    .map((l) => l.req?.url)
    .filter((u): u is string => typeof u === 'string' && u.startsWith(prefix));

it('a calendar feed URL is logged without its token', async () => {
  const cid = (await t.company('Feeds')).id;
  const issued = await t.call('POST', `/v1/companies/${cid}/calendar-feed`);
  expect(issued.status).toBe(201);
  const url = new URL(issued.body.url);
  const token = url.pathname
    .split('/')
    .pop()!
    .replace(/\.ics$/, '');
  expect(token.length).toBeGreaterThan(20);
  expect((await t.call('GET', `${url.pathname}?pastDays=3`, { key: null })).status).toBe(200);
  expect((await t.call('GET', `/v1/calendar/${token}x.ics`, { key: null })).status).toBe(404);
  const logged = loggedUrls('/v1/calendar/');
  expect(logged).toEqual(['/v1/calendar/[redacted]?pastDays=3', '/v1/calendar/[redacted]']);
  expect(lines.join('\n')).not.toContain(token);
});

it('a code being validated is logged without the code', async () => {
  const cid = (await t.company('Codes')).id;
  const code = 'GIFT-SECRET-7733';
  const r = await t.call('POST', `/v1/client/codes/${code}/validate`, { body: { companyID: cid } });
  expect(r.status).toBeLessThan(500);
  expect(loggedUrls('/v1/client/codes/')).toEqual(['/v1/client/codes/[redacted]/validate']);
  expect(lines.join('\n')).not.toContain(code);
  expect(lines.join('\n')).not.toContain(encodeURIComponent(code));
});

it("a payment return is logged without its query (the provider's session)", async () => {
  const session = 'cs_test_a1B2c3SessionSecret';
  await t.call('GET', `/v1/payments/stripe/return/0190c0de-0000-7000-8000-000000000001?outcome=success&session_id=${session}`, {
    key: null,
  });
  await t.call('GET', `/v1/companies/00000000-0000-4000-8000-000000000000/payments/verify-signature?id=1&ts=5&sig=${session}`);
  expect(loggedUrls('/v1/payments/')).toEqual(['/v1/payments/stripe/return/0190c0de-0000-7000-8000-000000000001?[redacted]']);
  expect(lines.join('\n')).not.toContain(session);
});
