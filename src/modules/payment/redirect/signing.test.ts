import { createHmac } from 'node:crypto';
import { canonicalString, computeSignature, signaturesEqual } from './signing';

const SECRET = '0123456789abcdef0123456789abcdef';

describe('canonical string', () => {
  it('matches the documented example', () => {
    const params = [
      { key: 'ref', value: 'x=y' },
      { key: 'booking', value: 'b 1' },
    ];
    expect(canonicalString(params, 1700000000)).toBe('keys=7:booking,3:ref\n7:booking=3:b 1\n3:ref=3:x=y\nts=1700000000');
  });

  it('pins the signature of the documented example (known-answer test)', () => {
    const params = [
      { key: 'booking', value: 'b 1' },
      { key: 'ref', value: 'x=y' },
    ];
    expect(computeSignature(SECRET, params, 1700000000)).toBe('83199a163e8e321567ab97b97689cf8c94a8f63d3f649ce040f513987d96422c');
  });

  it('is HMAC-SHA256 of the canonical string in lowercase hex', () => {
    const params = [{ key: 'id', value: 'abc' }];
    const expected = createHmac('sha256', SECRET).update('keys=2:id\n2:id=3:abc\nts=5').digest('hex');
    expect(computeSignature(SECRET, params, '5')).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is an empty key set and the timestamp when no query parameter is templated', () => {
    expect(canonicalString([], 42)).toBe('keys=\nts=42');
  });

  it('does not depend on the order of the parameters', () => {
    const a = [
      { key: 'b', value: '2' },
      { key: 'a', value: '1' },
      { key: 'c', value: '3' },
    ];
    const b = [
      { key: 'c', value: '3' },
      { key: 'a', value: '1' },
      { key: 'b', value: '2' },
    ];
    expect(canonicalString(a, 1)).toBe(canonicalString(b, 1));
  });

  it('orders keys bytewise on UTF-8, not by UTF-16 code units', () => {
    // In UTF-16 units the emoji (0xD83D...) sorts first; in UTF-8 bytes U+FF21 (EF...) does.
    const wide = { key: '\uFF21', value: '' }; // EF BC A1
    const astral = { key: '\u{1F600}', value: '' }; // F0 9F 98 80
    expect(canonicalString([astral, wide], 1)).toBe(canonicalString([wide, astral], 1));
    expect(canonicalString([astral, wide], 1).startsWith('keys=3:\uFF21,4:\u{1F600}\n3:\uFF21')).toBe(true);
  });

  it('counts UTF-8 bytes, not characters', () => {
    expect(canonicalString([{ key: 'n', value: 'ä€' }], 1)).toBe('keys=1:n\n1:n=5:ä€\nts=1');
  });

  it('keeps empty values distinct from absent ones', () => {
    expect(canonicalString([{ key: 'a', value: '' }], 1)).toBe('keys=1:a\n1:a=0:\nts=1');
    expect(canonicalString([{ key: 'a', value: '' }], 1)).not.toBe(canonicalString([], 1));
  });

  type P = { key: string; value: string }[];
  const join = (sep: string, eq: string) => (ps: P) => ps.map((p) => `${p.key}${eq}${p.value}`).join(sep);
  it.each<[string, (ps: P) => string, P, P]>([
    [
      'a value swallowing the next pair',
      join('&', '='),
      [{ key: 'a', value: '1&b=2' }],
      [
        { key: 'a', value: '1' },
        { key: 'b', value: '2' },
      ],
    ],
    ['a key swallowing the separator', join('&', '='), [{ key: 'a=1', value: '' }], [{ key: 'a', value: '1=' }]],
    [
      'a value holding a newline and another entry',
      join('\n', '='),
      [{ key: 'a', value: '1\nb=2' }],
      [
        { key: 'a', value: '1' },
        { key: 'b', value: '2' },
      ],
    ],
    [
      'a value imitating a length-prefixed entry',
      join('\n', '='),
      [{ key: 'a', value: '1\n1:b=1:2' }],
      [
        { key: 'a', value: '1' },
        { key: '1:b', value: '1:2' },
      ],
    ],
    ['the split point moved between key and value', join('', ''), [{ key: 'ab', value: 'c' }], [{ key: 'a', value: 'bc' }]],
  ])('separates sets a naive join confuses: %s', (_name, naive, left, right) => {
    expect(naive(left)).toBe(naive(right));
    expect(canonicalString(left, 1)).not.toBe(canonicalString(right, 1));
    expect(computeSignature(SECRET, left, 1)).not.toBe(computeSignature(SECRET, right, 1));
  });

  it('keeps a value imitating the timestamp line apart from the real one', () => {
    expect(canonicalString([{ key: 'a', value: 'x\nts=9' }], 1)).not.toBe(canonicalString([{ key: 'a', value: 'x' }], 9));
  });

  it('covers the key set: a value imitating the key line or another key set stays apart', () => {
    expect(canonicalString([{ key: 'a', value: '1' }], 1)).not.toBe(
      canonicalString(
        [
          { key: 'a', value: '1' },
          { key: 'b', value: '' },
        ],
        1,
      ),
    );
    expect(canonicalString([], 1)).not.toBe(canonicalString([{ key: 'keys', value: '' }], 1));
    expect(canonicalString([{ key: 'a', value: 'x\nkeys=' }], 1)).not.toBe(canonicalString([{ key: 'a', value: 'x' }], 1));
  });

  it('changes with the timestamp and with the secret', () => {
    const params = [{ key: 'id', value: 'x' }];
    expect(computeSignature(SECRET, params, 1)).not.toBe(computeSignature(SECRET, params, 2));
    expect(computeSignature(SECRET, params, 1)).not.toBe(computeSignature(`${SECRET}!`, params, 1));
  });

  it('refuses an empty secret', () => {
    expect(() => computeSignature('', [], 1)).toThrow(/secret/);
  });
});

describe('signature comparison', () => {
  const sig = computeSignature(SECRET, [{ key: 'id', value: 'x' }], 1);

  it('accepts the same signature in either case', () => {
    expect(signaturesEqual(sig, sig)).toBe(true);
    expect(signaturesEqual(sig, sig.toUpperCase())).toBe(true);
  });

  it('rejects a different, short, long or non-hex signature without throwing', () => {
    const flipped = (sig[0] === '0' ? '1' : '0') + sig.slice(1);
    expect(signaturesEqual(sig, flipped)).toBe(false);
    expect(signaturesEqual(sig, sig.slice(2))).toBe(false);
    expect(signaturesEqual(sig, `${sig}00`)).toBe(false);
    expect(signaturesEqual(sig, `${sig.slice(0, 63)}g`)).toBe(false);
    expect(signaturesEqual(sig, '')).toBe(false);
  });
});
