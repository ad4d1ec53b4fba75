import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';

/**
 * An empty body sent with `content-type: application/json` is no body (contract section 3).
 * The vendor's client SDK refreshes tokens with exactly such a request.
 */
let t: TestApp;
let s: Shop;
const clock = new TestClock(Date.parse('2026-05-01T08:00:00Z'));

beforeAll(async () => {
  t = await createTestApp({ clock });
  s = await Shop.open(t, 'Empty bodies', 'UTC');
});
afterAll(async () => t?.close());

const JSON_NO_BODY = { 'content-type': 'application/json' };

async function login(): Promise<{ accessToken: string; refreshToken: string }> {
  const key = await t.keyWith({ [s.companyId]: ['client.login'] });
  const r = await t.call('POST', '/v1/client/auth/login', {
    key,
    body: { companyID: s.companyId, email: 'sdk@example.com', externalUserID: 'sdk-user' },
  });
  expect(r.status).toBe(200);
  return r.body;
}

describe('an empty JSON body', () => {
  it('refreshes tokens as the client SDK sends it: Bearer refresh token, JSON content type, no body', async () => {
    const pair = await login();
    const r = await t.call('POST', '/v1/client/auth/refresh', {
      key: null,
      headers: { ...JSON_NO_BODY, authorization: `Bearer ${pair.refreshToken}` },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresAt: expect.any(String),
      expiresIn: 900,
    });
    // Over a real socket as well, with content-length: 0.
    const base = await t.listen();
    const res = await fetch(`${base}/v1/client/auth/refresh`, {
      method: 'POST',
      headers: { ...JSON_NO_BODY, authorization: `Bearer ${r.body.refreshToken}` },
      body: '',
    });
    expect(res.status).toBe(200);
  });

  it('cancels a booking where the body is optional', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const pair = await login();
    const booked = await t.call('POST', '/v1/client/bookings', {
      token: pair.accessToken,
      body: { companyID: s.companyId, serviceID: sid, resourceID: rids[0], startTime: '2026-05-02T10:00:00Z' },
    });
    expect(booked.status).toBe(200);
    const r = await t.call('POST', `/v1/client/bookings/${booked.body.id}/cancel`, { token: pair.accessToken, headers: JSON_NO_BODY });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('cancelled');
  });

  it('is the usual 400 for missing fields where fields are required', async () => {
    const r = await t.call('POST', '/v1/companies', { headers: JSON_NO_BODY });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(expect.objectContaining({ code: 'invalid_request', message: expect.any(String) }));
    expect(r.body.message).not.toMatch(/not valid JSON/);
  });

  it('keeps refusing malformed JSON and prototype poisoning', async () => {
    for (const body of ['{', ' ', '{"a":1}x', '{"__proto__": {"x": 1}}']) {
      const r = await t.call('POST', '/v1/companies', { body, headers: JSON_NO_BODY });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid_request');
    }
  });
});
