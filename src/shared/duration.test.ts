import { formatDuration, normaliseDuration, parseDuration, parseLocalTime, formatLocalTime } from './duration';

describe('ISO 8601 durations', () => {
  it.each([
    ['PT30M', 1800],
    ['PT1H30M', 5400],
    ['P1D', 86400],
    ['P30D', 2592000],
    ['P1W', 604800],
    ['PT0S', 0],
    ['P1DT2H', 93600],
  ])('parses %s', (text, secs) => expect(parseDuration(text)).toBe(secs));
  it.each(['', 'P', 'PT', '30M', 'P1H', 'PT1D', 'pt30m', 'P-1D', 'PT1.5H', null, 5])('rejects %p', (text) =>
    expect(parseDuration(text)).toBeNull(),
  );
  it('normalises', () => {
    expect(normaliseDuration('PT90M')).toBe('PT1H30M');
    expect(normaliseDuration('PT24H')).toBe('P1D');
    expect(formatDuration(0)).toBe('PT0S');
    expect(formatDuration(3661)).toBe('PT1H1M1S');
  });
});

describe('HH:MM', () => {
  it('parses bounds', () => {
    expect(parseLocalTime('00:00')).toBe(0);
    expect(parseLocalTime('23:59')).toBe(1439);
    expect(parseLocalTime('24:00')).toBeNull();
    expect(parseLocalTime('24:00', true)).toBe(1440);
    expect(parseLocalTime('9:00')).toBeNull();
    expect(parseLocalTime('12:60')).toBeNull();
    expect(formatLocalTime(1440)).toBe('24:00');
    expect(formatLocalTime(545)).toBe('09:05');
  });
});
