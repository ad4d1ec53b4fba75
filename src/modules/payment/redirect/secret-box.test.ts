import { randomBytes } from 'node:crypto';
import { decryptSecret, deriveKey, EncryptionKeyError, encryptSecret, SecretBoxError } from './secret-box';

const KEY = randomBytes(32);
const SECRET = 'whsec_0123456789abcdefghijklmnopqrstuvwxyz';

describe('secret box', () => {
  it('round-trips a secret, including non-ASCII and empty text', () => {
    for (const plain of [SECRET, 'pässwörd-€-𝄞', '']) expect(decryptSecret(encryptSecret(plain, KEY), KEY)).toBe(plain);
  });

  it('writes a versioned box that does not contain the secret and differs every time', () => {
    const a = encryptSecret(SECRET, KEY);
    const b = encryptSecret(SECRET, KEY);
    expect(a).toMatch(/^v1:[A-Za-z0-9+/]{16}:[A-Za-z0-9+/]{22}==:[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain(SECRET);
  });

  it('fails with a wrong key', () => {
    const box = encryptSecret(SECRET, KEY);
    expect(() => decryptSecret(box, randomBytes(32))).toThrow(SecretBoxError);
  });

  it.each([
    ['ciphertext', 3],
    ['tag', 2],
    ['iv', 1],
  ])('fails when the %s is tampered with', (_name, index) => {
    const parts = encryptSecret(SECRET, KEY).split(':');
    const bytes = Buffer.from(parts[index], 'base64');
    bytes[0] ^= 0x01;
    parts[index] = bytes.toString('base64');
    expect(() => decryptSecret(parts.join(':'), KEY)).toThrow(/cannot be decrypted/);
  });

  it('fails when the ciphertext is truncated', () => {
    const parts = encryptSecret(SECRET, KEY).split(':');
    parts[3] = Buffer.from(parts[3], 'base64').subarray(1).toString('base64');
    expect(() => decryptSecret(parts.join(':'), KEY)).toThrow(SecretBoxError);
  });

  it('binds the box to its context when one is given', () => {
    const box = encryptSecret(SECRET, KEY, 'company-1/stripe');
    expect(decryptSecret(box, KEY, 'company-1/stripe')).toBe(SECRET);
    expect(() => decryptSecret(box, KEY, 'company-2/stripe')).toThrow(SecretBoxError);
    expect(() => decryptSecret(box, KEY)).toThrow(SecretBoxError);
  });

  it.each(['', 'plain-secret', 'v2:a:b:c', 'v1:a:b', 'v1:!!!!:AAAA:AAAA', 'v1:AAAA:AAAAAAAAAAAAAAAAAAAAAA==:AAAA'])(
    'rejects the malformed box %p',
    (box) => {
      expect(() => decryptSecret(box, KEY)).toThrow(SecretBoxError);
    },
  );

  it('never puts the secret or key into an error message', () => {
    const box = encryptSecret(SECRET, KEY);
    try {
      decryptSecret(box, randomBytes(32));
      throw new Error('expected a failure');
    } catch (e) {
      expect((e as Error).message).not.toContain(SECRET);
      expect((e as Error).message).not.toContain(box);
    }
  });

  it('requires a 32-byte key', () => {
    expect(() => encryptSecret(SECRET, randomBytes(16))).toThrow(/32 bytes/);
    expect(() => decryptSecret(encryptSecret(SECRET, KEY), randomBytes(31))).toThrow(/32 bytes/);
  });
});

describe('deriveKey', () => {
  it('decodes a 32-byte base64 key, standard or URL-safe, padded or not', () => {
    const raw = Buffer.from('fb'.repeat(32), 'hex'); // encodes with + and / in standard base64
    for (const text of [
      raw.toString('base64'),
      raw.toString('base64').replace(/=+$/, ''),
      raw.toString('base64url'),
      ` ${raw.toString('base64')}\n`,
    ]) {
      expect(deriveKey(text)).toEqual({ key: raw, derived: false });
    }
  });

  it('derives a fixed development key when the variable is absent or blank', () => {
    const a = deriveKey(undefined);
    expect(a.derived).toBe(true);
    expect(a.key).toHaveLength(32);
    expect(deriveKey('').key.equals(a.key)).toBe(true);
    expect(deriveKey('   ').key.equals(a.key)).toBe(true);
    // Secrets encrypted under it survive a restart.
    expect(decryptSecret(encryptSecret(SECRET, a.key), deriveKey().key)).toBe(SECRET);
  });

  it.each([
    ['too short', randomBytes(16).toString('base64')],
    ['too long', randomBytes(33).toString('base64')],
    ['not base64', 'this is not a key!'],
    ['hex instead of base64', randomBytes(32).toString('hex')],
    ['mixed alphabets', `${randomBytes(32).toString('base64').slice(0, 40)}+-_/`],
  ])('throws a clear configuration error when the value is %s', (_name, value) => {
    expect(() => deriveKey(value)).toThrow(EncryptionKeyError);
    expect(() => deriveKey(value)).toThrow(/^ENCRYPTION_KEY must be 32 bytes encoded as base64/);
  });

  it('does not echo the configured value in the error', () => {
    const value = randomBytes(20).toString('base64');
    expect(() => deriveKey(value)).toThrow(expect.objectContaining({ message: expect.not.stringContaining(value) }));
  });
});
