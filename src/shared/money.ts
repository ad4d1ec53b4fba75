/** An amount in the smallest currency unit, with the amount it is compared with (a struck-through price). */
export interface Money {
  amount: number;
  comparedAmount: number;
  currency: string;
}

const digitsCache = new Map<string, number>();

/** Decimal places of a currency's minor unit (EUR 2, JPY 0, KWD 3), from Intl's currency data; 2 when unknown. */
export function minorDigits(currency: string): number {
  let d = digitsCache.get(currency);
  if (d === undefined) {
    try {
      d = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      d = 2;
    }
    digitsCache.set(currency, d);
  }
  return d;
}

/** An amount in the smallest unit as the contract writes it on a template: `25.00 EUR`. */
export function formatPlainMoney(amount: number, currency: string): string {
  const d = minorDigits(currency);
  return `${(amount / 10 ** d).toFixed(d)} ${currency}`;
}

/** An amount in the smallest unit as a person reads it in `locale` (`€25.00`, `25,00 €`, `-€5.00`), formatted by Intl. */
export function formatMoney(amount: number, currency: string, locale = 'en-GB'): string {
  const d = minorDigits(currency);
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: d, maximumFractionDigits: d }).format(
      amount / 10 ** d,
    );
  } catch {
    return formatPlainMoney(amount, currency);
  }
}

/** The tax contained in an amount that includes it, at `rate` percent, rounded as receipts round it. */
export function taxContained(amount: number, rate: number): number {
  return rate > 0 ? Math.round((amount * rate) / (100 + rate)) : 0;
}
