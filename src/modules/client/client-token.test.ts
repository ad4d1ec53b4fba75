import { decodeJwt, SignJWT } from 'jose';
import { guestExternalUserId, isEmail, likePattern } from './client.checks';
import { hashToken, newRefreshToken, signAccessToken, verifyAccessToken } from './client-token';

const KEY = new TextEncoder().encode('unit-test-secret-0123456789abcdefghijkl');
const CLIENT = '11111111-1111-4111-8111-111111111111';
const COMPANY = '22222222-2222-4222-8222-222222222222';
const NOW = Date.parse('2026-11-23T08:00:00.700Z');

describe('access tokens', () => {
  it('round-trips and expires on whole seconds after the ttl', async () => {
    const { token, expiresAtMs } = await signAccessToken(KEY, { clientId: CLIENT, companyId: COMPANY }, NOW, 900);
    expect(expiresAtMs).toBe(Date.parse('2026-11-23T08:15:00Z'));
    expect(await verifyAccessToken(KEY, token, NOW)).toEqual({ clientId: CLIENT, companyId: COMPANY });
    expect(await verifyAccessToken(KEY, token, expiresAtMs - 1000)).not.toBeNull();
    expect(await verifyAccessToken(KEY, token, expiresAtMs)).toBeNull();
  });
  it('are distinct when issued in the same second for the same client (each carries its own random id)', async () => {
    const claims = { clientId: CLIENT, companyId: COMPANY };
    const a = await signAccessToken(KEY, claims, NOW, 900);
    const b = await signAccessToken(KEY, claims, NOW, 900);
    expect(a.token).not.toBe(b.token);
    const [ja, jb] = [decodeJwt(a.token).jti, decodeJwt(b.token).jti];
    expect(ja).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(ja).not.toBe(jb);
    expect(await verifyAccessToken(KEY, a.token, NOW)).toEqual(claims);
    expect(await verifyAccessToken(KEY, b.token, NOW)).toEqual(claims);
  });
  it('refuses another key, another audience and non-uuid claims', async () => {
    const { token } = await signAccessToken(KEY, { clientId: CLIENT, companyId: COMPANY }, NOW, 900);
    expect(await verifyAccessToken(new TextEncoder().encode('x'.repeat(40)), token, NOW)).toBeNull();
    const exp = Math.floor(NOW / 1000) + 60;
    const noAud = await new SignJWT({ cid: COMPANY })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(CLIENT)
      .setExpirationTime(exp)
      .sign(KEY);
    expect(await verifyAccessToken(KEY, noAud, NOW)).toBeNull();
    const badSub = await new SignJWT({ cid: COMPANY })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('me')
      .setAudience('client')
      .setExpirationTime(exp)
      .sign(KEY);
    expect(await verifyAccessToken(KEY, badSub, NOW)).toBeNull();
    const noExp = await new SignJWT({ cid: COMPANY })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(CLIENT)
      .setAudience('client')
      .sign(KEY);
    expect(await verifyAccessToken(KEY, noExp, NOW)).toBeNull();
  });
});

describe('refresh tokens', () => {
  it('are 32 random bytes in base64url and hash to hex sha256', () => {
    const a = newRefreshToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newRefreshToken()).not.toBe(a);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(a)).not.toContain(a);
  });
});

describe('client fields', () => {
  it('accepts plausible emails only', () => {
    for (const ok of ['a@example.com', 'Ann.Lee+x@sub.example.co.uk']) expect(isEmail(ok)).toBe(true);
    for (const bad of ['', 'a', 'a@b', 'a b@example.com', '@example.com', 'a@example.', 'a@@example.com', `${'x'.repeat(250)}@example.com`])
      expect(isEmail(bad)).toBe(false);
  });
  it('escapes LIKE wildcards and derives guest ids', () => {
    expect(likePattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
    expect(guestExternalUserId('Ann@Example.COM')).toBe('guest:ann@example.com');
  });
});
