import { randomBytes } from 'node:crypto';

/**
 * Gift card codes: 12 symbols in three groups of four (`K7QM-X2HD-9PTW`) from an alphabet
 * without the characters people confuse when typing or reading a code aloud (no 0/O, 1/I/L)
 * and without U (fewer accidental words), as in Crockford's base 32. 30 symbols ^ 12 = 5.3 * 10^17
 * possibilities (about 59 bits) from the system's cryptographic random source, so codes
 * cannot be guessed; uniqueness per company is the database's unique constraint.
 */

export const GIFT_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
export const GIFT_CODE_GROUPS = 3;
export const GIFT_CODE_GROUP_LENGTH = 4;
const LENGTH = GIFT_CODE_GROUPS * GIFT_CODE_GROUP_LENGTH;
// The largest multiple of the alphabet's size below 256: bytes above it are drawn again, so every symbol is equally likely.
const LIMIT = 256 - (256 % GIFT_CODE_ALPHABET.length);

const grouped = (symbols: string): string => symbols.match(new RegExp(`.{${GIFT_CODE_GROUP_LENGTH}}`, 'g'))!.join('-');

/** A new random code, `XXXX-XXXX-XXXX`. */
export function newGiftCode(random: (n: number) => Buffer = randomBytes): string {
  let out = '';
  while (out.length < LENGTH) {
    for (const b of random(LENGTH * 2)) {
      if (b >= LIMIT) continue;
      out += GIFT_CODE_ALPHABET[b % GIFT_CODE_ALPHABET.length];
      if (out.length === LENGTH) break;
    }
  }
  return grouped(out);
}

/**
 * The stored form of a typed code: case, spaces and hyphens do not matter (`k7qm x2hd 9ptw`
 * is `K7QM-X2HD-9PTW`). Null when the text cannot be a gift card code.
 */
export function normaliseGiftCode(text: string): string | null {
  const symbols = text.toUpperCase().replace(/[\s-]/g, '');
  if (symbols.length !== LENGTH) return null;
  for (const ch of symbols) if (!GIFT_CODE_ALPHABET.includes(ch)) return null;
  return grouped(symbols);
}
