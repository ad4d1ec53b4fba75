import { formatDate, formatDateTime, formatMoney, formatPlainMoney, formatRate, formatValue, minorDigits } from './format';

describe('formatting printed values', () => {
  it('writes amounts from the smallest unit with the currency digits', () => {
    expect(formatPlainMoney(2500, 'EUR')).toBe('25.00 EUR');
    expect(formatPlainMoney(5, 'EUR')).toBe('0.05 EUR');
    expect(formatPlainMoney(2500, 'JPY')).toBe('2500 JPY');
    expect(formatPlainMoney(12345, 'KWD')).toBe('12.345 KWD');
    expect(minorDigits('USD')).toBe(2);
  });

  it('formats amounts for people with Intl', () => {
    expect(formatMoney(2500, 'EUR')).toBe('€25.00');
    expect(formatMoney(-500, 'EUR')).toBe('-€5.00');
    expect(formatMoney(123456, 'GBP')).toBe('£1,234.56');
    expect(formatMoney(2500, 'JPY')).toBe('JP¥2,500');
  });

  it('writes dates in the company time zone', () => {
    const at = new Date('2026-12-31T22:30:00Z');
    expect(formatDate(at, 'Europe/Riga')).toBe('2027-01-01');
    expect(formatDate(at, 'America/New_York')).toBe('2026-12-31');
    expect(formatDateTime(at, 'Europe/Riga')).toBe('2027-01-01 00:30 EET');
    expect(formatDateTime(new Date('2026-07-01T10:00:00Z'), 'UTC')).toBe('2026-07-01 10:00 UTC');
  });

  it('formats document values by kind', () => {
    expect(formatValue({ kind: 'text', text: 'Ķēniņš' }, 'UTC')).toBe('Ķēniņš');
    expect(formatValue({ kind: 'money', amount: 2500, currency: 'EUR' }, 'UTC')).toBe('25.00 EUR');
    expect(formatValue({ kind: 'date', at: new Date('2026-03-29T23:30:00Z') }, 'Europe/Riga')).toBe('2026-03-30');
    expect(formatValue(null, 'UTC')).toBe('');
    expect(formatRate(21)).toBe('21%');
    expect(formatRate(9.5)).toBe('9.5%');
  });
});
