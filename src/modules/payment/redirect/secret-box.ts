/**
 * Encryption at rest for provider signing secrets: AES-256-GCM with a 32-byte key from
 * ENCRYPTION_KEY. The stored form is `v1:<iv>:<tag>:<ciphertext>` (standard base64 each) so the
 * scheme can change later without guessing what an old row holds.
 *
 * Error messages never include the secret, the key or the ciphertext: they end up in logs.
 */

import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12; // the GCM nonce size that needs no extra hashing
const TAG_BYTES = 16;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A fixed key for machines without ENCRYPTION_KEY; anything encrypted with it is not protected. */
const DEVELOPMENT_KEY_SEED = 'booking-platform/development-only/signing-secret-key';

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export class EncryptionKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EncryptionKeyError';
  }
}

function checkKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length !== KEY_BYTES) throw new SecretBoxError(`the encryption key must be ${KEY_BYTES} bytes`);
}

/**
 * Encrypts with a fresh random IV, so equal secrets give different boxes. `context`, when
 * given, is authenticated but not stored (e.g. company and provider ids): a box copied to
 * another row then fails to decrypt instead of silently lending its secret.
 */
export function encryptSecret(plain: string, key: Buffer, context = ''): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  if (context) cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(':');
}

/** Throws SecretBoxError for a malformed box, a wrong key, a wrong context or tampering. */
export function decryptSecret(box: string, key: Buffer, context = ''): string {
  checkKey(key);
  const parts = typeof box === 'string' ? box.split(':') : [];
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError('unsupported or malformed encrypted secret');
  const [, ivText, tagText, ciphertextText] = parts;
  if (![ivText, tagText, ciphertextText].every((p) => BASE64.test(p))) throw new SecretBoxError('malformed encrypted secret');
  const iv = Buffer.from(ivText, 'base64');
  const tag = Buffer.from(tagText, 'base64');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('malformed encrypted secret');
  try {
    const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    if (context) decipher.setAAD(Buffer.from(context, 'utf8'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertextText, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError('the encrypted secret cannot be decrypted: wrong key or altered data');
  }
}

/**
 * The encryption key from ENCRYPTION_KEY (32 bytes, standard or URL-safe base64). When the
 * variable is absent or blank a fixed development key is derived and `derived` is true so the
 * caller can warn; a present but malformed value throws instead of silently using the
 * development key, which would make existing secrets undecryptable.
 */
export function deriveKey(envValue?: string): { key: Buffer; derived: boolean } {
  const text = envValue?.trim() ?? '';
  if (text === '') return { key: createHash('sha256').update(DEVELOPMENT_KEY_SEED, 'utf8').digest(), derived: true };
  const urlSafe = /[-_]/.test(text);
  const key = Buffer.from(text, urlSafe ? 'base64url' : 'base64');
  // Node's decoder skips characters it does not know; re-encoding catches such values.
  const canonical = key.toString(urlSafe ? 'base64url' : 'base64').replace(/=+$/, '');
  if (canonical !== text.replace(/=+$/, ''))
    throw new EncryptionKeyError(`ENCRYPTION_KEY must be ${KEY_BYTES} bytes encoded as base64; the value is not base64`);
  if (key.length !== KEY_BYTES)
    throw new EncryptionKeyError(`ENCRYPTION_KEY must be ${KEY_BYTES} bytes encoded as base64; it decodes to ${key.length} bytes`);
  return { key, derived: false };
}
