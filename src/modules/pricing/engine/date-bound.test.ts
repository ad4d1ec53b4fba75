import { matchContextAt } from './context';
import { formatInstant, parseDateBound } from '../../../shared/date-bound';

describe('parseDateBound', () => {
  it('reads calendar dates with leap-year rules', () => {
    expect(parseDateBound('2028-02-29')).toEqual({ kind: 'date', date: '2028-02-29' });
    expect(parseDateBound('2000-02-29')).toEqual({ kind: 'date', date: '2000-02-29' });
    expect(parseDateBound('1900-02-29')).toBeNull();
    expect(parseDateBound('2026-04-31')).toBeNull();
    expect(parseDateBound('2026-00-10')).toBeNull();
  });
  it('reads instants with their offset', () => {
    expect(parseDateBound('2026-03-01T10:00:00+02:00')).toEqual({
      kind: 'instant',
      ms: Date.parse('2026-03-01T08:00:00Z'),
      writtenDate: '2026-03-01',
      rfc3339: true,
    });
    expect(parseDateBound('2026-03-01T00:30:00-05:30')).toMatchObject({ ms: Date.parse('2026-03-01T06:00:00Z') });
    expect(parseDateBound('2026-03-01T10:00:00.123456Z')).toMatchObject({ ms: Date.parse('2026-03-01T10:00:00.123Z') });
    expect(parseDateBound('2026-03-01T10:00:00.5Z')).toMatchObject({ ms: Date.parse('2026-03-01T10:00:00.500Z') });
  });
  it('keeps years below 100 where they are', () => {
    expect(formatInstant((parseDateBound('0050-06-01T00:00:00Z') as { ms: number }).ms)).toBe('0050-06-01T00:00:00Z');
  });
  it('marks second-less stamps as not RFC 3339 and offset-less ones as local', () => {
    expect(parseDateBound('2026-03-01T10:00Z')).toMatchObject({ kind: 'instant', rfc3339: false });
    expect(parseDateBound('2026-03-01T10:30')).toMatchObject({ kind: 'local', date: '2026-03-01', minuteOfDay: 630, ms: 0 });
  });
  it.each(['', '2026-3-1', '2026-03-01 10:00:00Z', '2026-03-01T10:00:60Z', '2026-03-01T10:00:00+05:60', 42, null])('refuses %p', (v) => {
    expect(parseDateBound(v)).toBeNull();
  });
});

describe('formatInstant', () => {
  it('renders UTC with Z and milliseconds only when present', () => {
    expect(formatInstant(Date.parse('2026-03-29T07:00:00Z'))).toBe('2026-03-29T07:00:00Z');
    expect(formatInstant(Date.parse('2026-03-29T07:00:00.250Z'))).toBe('2026-03-29T07:00:00.250Z');
  });
});

describe('matchContextAt', () => {
  it('describes a start in the company zone', () => {
    expect(matchContextAt('Europe/Riga', Date.parse('2026-03-29T07:00:00Z'), 'r1')).toEqual({
      resourceID: 'r1',
      instant: Date.parse('2026-03-29T07:00:00Z'),
      date: '2026-03-29',
      weekday: 7,
      minuteOfDay: 600,
    });
    expect(matchContextAt('Asia/Kolkata', Date.parse('2026-03-01T18:45:00Z'), 'r1')).toMatchObject({
      date: '2026-03-02',
      weekday: 1,
      minuteOfDay: 15,
    });
  });
});
