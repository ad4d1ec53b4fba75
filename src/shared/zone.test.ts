import { addDays, epochToLocal, isValidZone, localDate, localToEpoch, weekdayBit, weekdayOf } from './zone';

describe('zone helpers', () => {
  it('validates IANA names', () => {
    expect(isValidZone('Europe/Riga')).toBe(true);
    expect(isValidZone('UTC')).toBe(true);
    expect(isValidZone('Mars/Base')).toBe(false);
    expect(isValidZone('UTC+3')).toBe(false);
    expect(isValidZone('')).toBe(false);
  });
  it('converts across the Riga spring-forward gap (2026-03-29 03:00 -> 04:00)', () => {
    expect(new Date(localToEpoch('Europe/Riga', 2026, 3, 29, 2 * 60)).toISOString()).toBe('2026-03-29T00:00:00.000Z');
    // 03:30 does not exist; it moves forward by the gap
    expect(new Date(localToEpoch('Europe/Riga', 2026, 3, 29, 3 * 60 + 30)).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(new Date(localToEpoch('Europe/Riga', 2026, 3, 29, 4 * 60)).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(new Date(localToEpoch('Europe/Riga', 2026, 3, 29, 1440)).toISOString()).toBe('2026-03-29T21:00:00.000Z');
  });
  it('resolves the New York fall-back overlap to the earlier instant', () => {
    expect(new Date(localToEpoch('America/New_York', 2026, 11, 1, 90)).toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });
  it('reads local parts', () => {
    const p = epochToLocal('Europe/Riga', Date.parse('2026-03-29T07:00:00Z'));
    expect(p).toEqual({ year: 2026, month: 3, day: 29, weekday: 7, minuteOfDay: 600 });
    expect(localDate('America/New_York', Date.parse('2026-03-29T03:00:00Z'))).toBe('2026-03-28');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(weekdayOf('2026-11-23')).toBe(1);
    expect(weekdayBit(1)).toBe(64);
    expect(weekdayBit(7)).toBe(1);
  });
});
