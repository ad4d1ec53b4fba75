import type { DocumentValue } from '../../kernel/documents';

/** How printed values are written: one place, so templates, default documents and receipts agree. */

const digitsCache = new Map<string, number>();

/** Decimal places of a currency's minor unit (EUR 2, JPY 0, KWD 3), from Intl's currency data. */
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

/** An amount in the smallest unit as a person reads it (`€25.00`, `-€5.00`), formatted by Intl. */
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

/** The calendar date of an instant in a time zone: `2026-12-31`. */
export function formatDate(at: Date, timeZone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** Date and time of an instant in a time zone, with the zone's abbreviation: `2026-12-01 09:30 EET`. */
export function formatDateTime(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatToParts(at);
  const p = (type: string) => parts.find((x) => x.type === type)?.value ?? '';
  return `${p('year')}-${p('month')}-${p('day')} ${p('hour')}:${p('minute')} ${p('timeZoneName')}`;
}

/** A printable value as text; null and absent values print as nothing. */
export function formatValue(v: DocumentValue | null | undefined, timeZone: string): string {
  if (!v) return '';
  switch (v.kind) {
    case 'text':
      return v.text;
    case 'money':
      return formatPlainMoney(v.amount, v.currency);
    case 'date':
      return formatDate(v.at, timeZone);
  }
}

/** Tax rate as written on a receipt: `21%`, `9.5%`. */
export function formatRate(rate: number): string {
  return `${Number(rate.toFixed(4))}%`;
}
