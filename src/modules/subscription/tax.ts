/**
 * Tax on subscription sales, per the company's subscription settings (`taxInclusive`,
 * `taxRate` in percent, 0-100, up to four decimals). Amounts are integers in the smallest
 * currency unit, and tax is computed per line (per contract) and then summed, so the lines
 * always add up to the total.
 *
 * - Inclusive: the price already contains the tax. tax = round(price * rate / (100 + rate)),
 *   total = price.
 * - Exclusive: tax is added. tax = round(price * rate / 100), total = price + tax.
 *
 * Rounding is half away from zero on the exact quotient (no floating point: the rate is scaled
 * to an integer of ten-thousandths first), so 12.5 cents of tax is 13 and -12.5 is -13.
 */

export interface TaxedLine {
  /** the price as set by the price rule */
  price: number;
  tax: number;
  /** what is paid for the line */
  total: number;
}

const RATE_SCALE = 10_000n;

/** round(n / d) half away from zero, for bigint n and positive d. */
export function divRoundHalfAway(n: bigint, d: bigint): bigint {
  if (d <= 0n) throw new RangeError('divisor must be positive');
  const sign = n < 0n ? -1n : 1n;
  const a = n < 0n ? -n : n;
  const q = a / d;
  const r = a % d;
  return sign * (r * 2n >= d ? q + 1n : q);
}

function scaledRate(rate: number): bigint {
  if (!Number.isFinite(rate) || rate < 0 || rate > 100) throw new RangeError('tax rate must be between 0 and 100');
  return BigInt(Math.round(rate * Number(RATE_SCALE)));
}

/** Tax and total of one line. */
export function taxLine(price: number, rate: number, inclusive: boolean): TaxedLine {
  if (!Number.isSafeInteger(price)) throw new RangeError('price must be an integer in the smallest currency unit');
  const r = scaledRate(rate);
  const p = BigInt(price);
  if (inclusive) {
    const tax = Number(divRoundHalfAway(p * r, 100n * RATE_SCALE + r));
    return { price, tax, total: price };
  }
  const tax = Number(divRoundHalfAway(p * r, 100n * RATE_SCALE));
  return { price, tax, total: price + tax };
}

/** Every line taxed, and their sums. */
export function taxLines(prices: readonly number[], rate: number, inclusive: boolean): { lines: TaxedLine[]; tax: number; total: number } {
  const lines = prices.map((p) => taxLine(p, rate, inclusive));
  return { lines, tax: lines.reduce((s, l) => s + l.tax, 0), total: lines.reduce((s, l) => s + l.total, 0) };
}
