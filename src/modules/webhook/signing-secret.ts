import { randomBytes, randomInt } from 'node:crypto';

/** A Standard Webhooks signing secret: `whsec_` and the base64 of 24 to 32 random bytes. */
export function newSigningSecret(random: (n: number) => Buffer = randomBytes): string {
  return `whsec_${random(randomInt(24, 33)).toString('base64')}`;
}

const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/** True for a secret of that form whose key is 24 to 32 bytes. */
export function isSigningSecret(s: string): boolean {
  if (!SECRET.test(s)) return false;
  const n = Buffer.from(s.slice(6), 'base64').length;
  return n >= 24 && n <= 32;
}
