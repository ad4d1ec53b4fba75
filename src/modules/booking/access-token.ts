import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A booking's `accessToken` lets a guest (who has no login) read and cancel that one booking.
 * It is derived, not stored: HMAC-SHA256 of the booking id under a key derived from the
 * server's token secret, so nothing leaks from a database dump and rotating JWT_SECRET
 * invalidates every booking link at once.
 */

const keys = new WeakMap<Uint8Array, Buffer>();

// A separate key per purpose keeps these MACs from ever matching another use of the secret.
function bookingKey(secret: Uint8Array): Buffer {
  let k = keys.get(secret);
  if (!k) {
    k = createHmac('sha256', secret).update('booking-access-token/v1').digest();
    keys.set(secret, k);
  }
  return k;
}

/** The access token of booking `bookingId` (base64url, 43 characters). */
export function bookingAccessToken(secret: Uint8Array, bookingId: string): string {
  return createHmac('sha256', bookingKey(secret)).update(bookingId.toLowerCase()).digest('base64url');
}

/** True when `token` is the access token of `bookingId`; compared in constant time. */
export function verifyBookingAccessToken(secret: Uint8Array, bookingId: string, token: unknown): boolean {
  if (typeof token !== 'string' || token.length !== 43) return false;
  const expected = Buffer.from(bookingAccessToken(secret, bookingId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
