import { formatLocalTime, formatTimestamp, isOutOfRangeTimestamp, parseTimestamp } from './time';

describe('timestamps', () => {
  it('formats like toISOString without zero milliseconds', () => {
    let seed = 1;
    const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 2000; i++) {
      const ms = Math.floor(rand() * 4_102_444_800_000);
      expect(formatTimestamp(ms)).toBe(new Date(ms).toISOString().replace('.000Z', 'Z'));
    }
    expect(formatTimestamp(Date.parse('2026-03-29T07:00:00Z'))).toBe('2026-03-29T07:00:00Z');
    expect(formatTimestamp(Date.parse('2026-03-29T07:00:00.120Z'))).toBe('2026-03-29T07:00:00.120Z');
    expect(formatTimestamp(0)).toBe('1970-01-01T00:00:00Z');
    expect(formatTimestamp(-1)).toBe('1969-12-31T23:59:59.999Z');
    expect(formatTimestamp(new Date('2026-12-31T23:59:59Z'))).toBe('2026-12-31T23:59:59Z');
    expect(formatTimestamp(null)).toBeNull();
    expect(formatTimestamp(NaN)).toBeNull();
  });
  it('parses RFC 3339 with an offset only', () => {
    expect(parseTimestamp('2026-03-29T09:00:00+02:00')).toBe(Date.parse('2026-03-29T07:00:00Z'));
    expect(parseTimestamp('2026-03-29T07:00:00Z')).toBe(Date.parse('2026-03-29T07:00:00Z'));
    expect(parseTimestamp('2026-03-29T07:00:00.5Z')).toBe(Date.parse('2026-03-29T07:00:00.500Z'));
    for (const bad of [
      '2026-03-29T07:00:00',
      '2026-03-29',
      '2026-02-31T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-03-29T24:00:00Z',
      'now',
      '',
      null,
      5,
    ]) {
      expect(parseTimestamp(bad)).toBeNull();
    }
  });
  it('takes years 0001 to 9998 only, judged by the written year and by the instant', () => {
    expect(parseTimestamp('9998-12-31T23:59:59Z')).toBe(Date.parse('9998-12-31T23:59:59Z'));
    expect(parseTimestamp('0001-01-01T00:00:00Z')).toBe(Date.parse('0001-01-01T00:00:00Z'));
    expect(parseTimestamp('9998-12-31T23:00:00-02:00')).toBeNull(); // 9999-01-01T01:00Z
    expect(parseTimestamp('0001-01-01T00:00:00+01:00')).toBeNull(); // year 0 in UTC
    for (const far of ['9999-12-31T23:00:00Z', '9999-01-01T00:00:00+14:00', '0000-01-01T00:00:00Z']) {
      expect(parseTimestamp(far)).toBeNull();
      expect(isOutOfRangeTimestamp(far)).toBe(true);
    }
    expect(isOutOfRangeTimestamp('9998-12-31T23:00:00-02:00')).toBe(true);
    expect(isOutOfRangeTimestamp('2026-03-29T07:00:00Z')).toBe(false);
    expect(isOutOfRangeTimestamp('9999-13-01')).toBe(false);
  });
});

describe('formatLocalTime', () => {
  it('shows the wall-clock time of the zone, on both sides of a DST change', () => {
    expect(formatLocalTime(Date.parse('2026-12-01T07:00:00Z'), 'Europe/Riga')).toBe('Tue, 1 Dec 2026, 09:00 (Europe/Riga)');
    // Riga switches to summer time on 2026-03-29 at 03:00 local
    expect(formatLocalTime(Date.parse('2026-03-29T00:30:00Z'), 'Europe/Riga')).toBe('Sun, 29 Mar 2026, 02:30 (Europe/Riga)');
    expect(formatLocalTime(Date.parse('2026-03-29T01:00:00Z'), 'Europe/Riga')).toBe('Sun, 29 Mar 2026, 04:00 (Europe/Riga)');
    expect(formatLocalTime(Date.parse('2026-12-01T23:30:00Z'), 'America/New_York')).toBe('Tue, 1 Dec 2026, 18:30 (America/New_York)');
    expect(formatLocalTime(Date.parse('2026-12-01T00:00:00Z'), 'UTC')).toBe('Tue, 1 Dec 2026, 00:00 (UTC)');
  });
});
