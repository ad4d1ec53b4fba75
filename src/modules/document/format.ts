import type { DocumentValue } from '../../kernel/documents';
import { formatPlainMoney } from '../../shared/money';

export { formatMoney, formatPlainMoney, minorDigits } from '../../shared/money';

/** How printed values are written: one place, so templates, default documents and receipts agree. */

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
