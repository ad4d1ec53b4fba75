import { divRoundHalfAway, taxLine, taxLines } from './tax';

describe('tax', () => {
  it('rounds half away from zero', () => {
    expect(divRoundHalfAway(25n, 2n)).toBe(13n);
    expect(divRoundHalfAway(-25n, 2n)).toBe(-13n);
    expect(divRoundHalfAway(24n, 2n)).toBe(12n);
    expect(divRoundHalfAway(149n, 100n)).toBe(1n);
    expect(divRoundHalfAway(150n, 100n)).toBe(2n);
    expect(() => divRoundHalfAway(1n, 0n)).toThrow(RangeError);
  });

  it('adds tax when exclusive', () => {
    expect(taxLine(10000, 21, false)).toEqual({ price: 10000, tax: 2100, total: 12100 });
    // 250 * 5% = 12.5 -> 13; 249 * 5% = 12.45 -> 12
    expect(taxLine(250, 5, false)).toEqual({ price: 250, tax: 13, total: 263 });
    expect(taxLine(249, 5, false)).toEqual({ price: 249, tax: 12, total: 261 });
    expect(taxLine(0, 21, false)).toEqual({ price: 0, tax: 0, total: 0 });
  });

  it('extracts tax when inclusive', () => {
    // 12100 * 21 / 121 = 2100 exactly
    expect(taxLine(12100, 21, true)).toEqual({ price: 12100, tax: 2100, total: 12100 });
    // 105 * 5 / 105 = 5; 21 * 5 / 105 = 1.0; 31.5 boundary: 661.5 -> 662 (6615 * 10 / 110 = 601.36...) checked below
    expect(taxLine(105, 5, true).tax).toBe(5);
    // 1050 * 10 / 110 = 95.4545... -> 95
    expect(taxLine(1050, 10, true).tax).toBe(95);
    // 11 * 10 / 110 = 1; 33 * 10 / 110 = 3; 55 * 10 / 110 = 5 exactly; 16.5 boundary: 181.5 * 10 / 110 = 16.5 is not an integer price,
    // so use rate 100: 3 * 100 / 200 = 1.5 -> 2, 5 * 100 / 200 = 2.5 -> 3
    expect(taxLine(3, 100, true)).toEqual({ price: 3, tax: 2, total: 3 });
    expect(taxLine(5, 100, true)).toEqual({ price: 5, tax: 3, total: 5 });
    expect(taxLine(1, 100, true).tax).toBe(1); // 0.5 -> 1
  });

  it('handles fractional rates without floating point drift', () => {
    // 1000 * 7.25% = 72.5 -> 73
    expect(taxLine(1000, 7.25, false).tax).toBe(73);
    // 200 * 0.25% = 0.5 -> 1
    expect(taxLine(200, 0.25, false).tax).toBe(1);
    // 199 * 0.25% = 0.4975 -> 0
    expect(taxLine(199, 0.25, false).tax).toBe(0);
    expect(taxLine(1000, 0, true).tax).toBe(0);
  });

  it('refuses what cannot be money or a rate', () => {
    expect(() => taxLine(1.5, 21, false)).toThrow(RangeError);
    expect(() => taxLine(100, -1, false)).toThrow(RangeError);
    expect(() => taxLine(100, 101, true)).toThrow(RangeError);
    expect(() => taxLine(100, Number.NaN, true)).toThrow(RangeError);
  });

  it('taxes per line and sums the lines', () => {
    // two lines of 250 at 5%: 13 + 13 = 26 (taxing the sum 500 would give 25)
    const out = taxLines([250, 250], 5, false);
    expect(out.tax).toBe(26);
    expect(out.total).toBe(526);
    expect(out.lines).toHaveLength(2);
    expect(taxLines([], 21, true)).toEqual({ lines: [], tax: 0, total: 0 });
  });
});
