import { GIFT_CODE_ALPHABET, newGiftCode, normaliseGiftCode } from './gift-code';

describe('gift card codes', () => {
  it('are three groups of four symbols from an alphabet without look-alikes', () => {
    for (let i = 0; i < 200; i++)
      expect(newGiftCode()).toMatch(/^[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}(-[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}){2}$/);
    for (const ch of '01ILOU') expect(GIFT_CODE_ALPHABET).not.toContain(ch);
    expect(GIFT_CODE_ALPHABET).toHaveLength(30);
  });

  it('draw every symbol with the same chance (bytes above the last whole alphabet are drawn again)', () => {
    // 240 = 8 * 30: bytes 240-255 would favour the first 16 symbols, so they are skipped.
    const bytes = [240, 255, 0, 29, 30, 239, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18];
    const code = newGiftCode((n) => Buffer.from(bytes.slice(0, n)));
    expect(code).toBe(['2Z2Z', '3456', '789A'].join('-'));
  });

  it('are unique in practice', () => {
    const seen = new Set(Array.from({ length: 5000 }, () => newGiftCode()));
    expect(seen.size).toBe(5000);
  });

  it('are typed in any case, with or without hyphens and spaces', () => {
    expect(normaliseGiftCode('k7qm-x2hd-9ptw')).toBe('K7QM-X2HD-9PTW');
    expect(normaliseGiftCode('K7QM X2HD 9PTW')).toBe('K7QM-X2HD-9PTW');
    expect(normaliseGiftCode('K7QMX2HD9PTW')).toBe('K7QM-X2HD-9PTW');
    expect(normaliseGiftCode('K7QM-X2HD-9PT')).toBeNull();
    expect(normaliseGiftCode('K7QM-X2HD-9PTO')).toBeNull();
    expect(normaliseGiftCode('SUMMER10')).toBeNull();
  });
});
