import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { isUuid } from '../../shared/ids';

/**
 * Client access tokens are HS256 JWTs (sub = client id, cid = company id, jti = a random id of
 * its own, so that two tokens issued in the same second for the same client are distinct);
 * refresh tokens are opaque random strings stored only as their sha256.
 */

// The audience keeps other JWTs signed with the same key (if any appear) from passing as client tokens.
const AUDIENCE = 'client';

/** Refresh tokens expire 30 days after they are issued; each rotation issues a new one. */
export const REFRESH_TTL_SEC = 30 * 24 * 3600;

export const newRefreshToken = (): string => randomBytes(32).toString('base64url');

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Signs an access token issued at `nowMs`; `expiresAtMs` is on a whole second, like the `exp` claim. */
export async function signAccessToken(
  key: Uint8Array,
  claims: { clientId: string; companyId: string },
  nowMs: number,
  ttlSec: number,
): Promise<{ token: string; expiresAtMs: number }> {
  const iat = Math.floor(nowMs / 1000);
  const exp = iat + ttlSec;
  const token = await new SignJWT({ cid: claims.companyId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.clientId)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(randomBytes(16).toString('base64url'))
    .sign(key);
  return { token, expiresAtMs: exp * 1000 };
}

/** The client an access token names, or null when its signature, audience or expiry (at `nowMs`) fails. */
export async function verifyAccessToken(
  key: Uint8Array,
  token: string,
  nowMs: number,
): Promise<{ clientId: string; companyId: string } | null> {
  if (token.length > 4096) return null;
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      audience: AUDIENCE,
      currentDate: new Date(nowMs),
      requiredClaims: ['exp', 'sub'],
    });
    if (!isUuid(payload.sub) || !isUuid(payload.cid)) return null;
    return { clientId: payload.sub.toLowerCase(), companyId: (payload.cid as string).toLowerCase() };
  } catch {
    return null;
  }
}
