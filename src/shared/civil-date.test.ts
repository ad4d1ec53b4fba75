import { civilFromDays, daysFromCivil } from './civil-date';

describe('civil dates', () => {
  it('counts days like Date.UTC', () => {
    for (const [y, m, d] of [
      [1970, 1, 1],
      [2000, 2, 29],
      [2026, 3, 29],
      [1969, 12, 31],
      [2100, 3, 1],
    ]) {
      expect(daysFromCivil(y, m, d)).toBe(Date.UTC(y, m - 1, d) / 86_400_000);
    }
  });

  it('keeps years below 100 literal (Date.UTC would read 50 as 1950)', () => {
    const d = new Date(0);
    d.setUTCFullYear(50, 0, 1);
    expect(daysFromCivil(50, 1, 1)).toBe(d.getTime() / 86_400_000);
  });

  it('rolls an overflowing day into the next month, as recurrence expansion expects', () => {
    expect(daysFromCivil(2026, 2, 29)).toBe(daysFromCivil(2026, 3, 1));
    expect(daysFromCivil(2024, 2, 30)).toBe(daysFromCivil(2024, 3, 1));
  });

  it('round-trips every day of four centuries', () => {
    const from = daysFromCivil(1900, 1, 1);
    const to = daysFromCivil(2300, 1, 1);
    for (let n = from; n < to; n += 1) {
      const c = civilFromDays(n);
      if (daysFromCivil(c.year, c.month, c.day) !== n) throw new Error(`day ${n} did not round-trip`);
    }
    expect(civilFromDays(daysFromCivil(2026, 12, 31))).toEqual({ year: 2026, month: 12, day: 31 });
  });
});
