import { bookingAccessToken, verifyBookingAccessToken } from './access-token';

const secret = new TextEncoder().encode('a-secret-of-at-least-thirty-two-characters');
const other = new TextEncoder().encode('another-secret-of-at-least-thirty-two-chars');
const id = '0b5f4c2e-8a3d-4e61-9a57-3c2d1e0f9a8b';

describe('booking access tokens', () => {
  it('are deterministic, url-safe and 43 characters long', () => {
    const t = bookingAccessToken(secret, id);
    expect(t).toBe(bookingAccessToken(secret, id));
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('verify for their booking only', () => {
    const t = bookingAccessToken(secret, id);
    expect(verifyBookingAccessToken(secret, id, t)).toBe(true);
    expect(verifyBookingAccessToken(secret, id.toUpperCase(), t)).toBe(true);
    expect(verifyBookingAccessToken(secret, '1b5f4c2e-8a3d-4e61-9a57-3c2d1e0f9a8b', t)).toBe(false);
    expect(verifyBookingAccessToken(other, id, t)).toBe(false);
  });

  it('refuse malformed tokens', () => {
    const t = bookingAccessToken(secret, id);
    for (const bad of [undefined, null, 1, '', t.slice(1), `${t}x`, t.replace(/./, (c) => (c === 'A' ? 'B' : 'A'))]) {
      expect(verifyBookingAccessToken(secret, id, bad)).toBe(false);
    }
  });
});
