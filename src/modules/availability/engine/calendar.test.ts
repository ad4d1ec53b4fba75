import { epochToLocal, localToEpoch } from '../../../shared/zone';
import { buildCalendar, calendarFor, dayIndexAt, minuteOfDay, wallToInstant } from './calendar';
import { at, iso } from './testkit';

describe('calendar', () => {
  it('builds the Riga spring-forward day (23 h, shift at 01:00Z)', () => {
    const cal = buildCalendar('Europe/Riga', '2026-03-28', 3);
    const [sat, sun, mon] = cal.days;
    expect([sat.date, sun.date, mon.date]).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
    expect([sat.weekday, sun.weekday, mon.weekday]).toEqual([6, 7, 1]);
    expect([sun.weekdayBit, mon.weekdayBit]).toEqual([1, 64]);
    expect(iso(sun.start)).toBe('2026-03-28T22:00:00Z');
    expect(iso(sun.end)).toBe('2026-03-29T21:00:00Z');
    expect(iso(sun.shiftAt)).toBe('2026-03-29T01:00:00Z');
    expect(sat.shiftAt).toBe(Infinity);
  });

  it('builds the New York fall-back day (25 h, shift at 06:00Z)', () => {
    const [day] = buildCalendar('America/New_York', '2026-11-01', 1).days;
    expect(iso(day.start)).toBe('2026-11-01T04:00:00Z');
    expect(iso(day.end)).toBe('2026-11-02T05:00:00Z');
    expect(iso(day.shiftAt)).toBe('2026-11-01T06:00:00Z');
  });

  it.each([
    ['Europe/Riga', '2026-03-28'],
    ['Europe/Riga', '2026-10-24'],
    ['America/New_York', '2026-03-07'],
    ['America/New_York', '2026-10-31'],
    ['Australia/Lord_Howe', '2026-04-04'],
    ['Australia/Lord_Howe', '2026-10-03'],
    ['America/Santiago', '2026-09-05'],
    ['Asia/Kolkata', '2026-03-28'],
  ])('maps instants to wall minutes like the zone helpers (%s from %s)', (zone, first) => {
    const cal = buildCalendar(zone, first, 3);
    for (const day of cal.days) {
      for (let t = day.start; t < day.end; t += 5 * 60_000) {
        const p = epochToLocal(zone, t);
        expect(minuteOfDay(day, t)).toBe(p.minuteOfDay);
        expect(cal.days[dayIndexAt(cal, t)].date).toBe(`${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`);
      }
    }
  });

  it.each([
    ['Europe/Riga', '2026-03-29'],
    ['Europe/Riga', '2026-10-25'],
    ['America/New_York', '2026-03-08'],
    ['America/New_York', '2026-11-01'],
    ['Australia/Lord_Howe', '2026-10-04'],
  ])('maps wall minutes to instants like localToEpoch outside DST gaps (%s %s)', (zone, date) => {
    const [day] = buildCalendar(zone, date, 1).days;
    for (let m = 0; m <= 1440; m += 5) {
      const expected = localToEpoch(zone, day.year, day.month, day.day, m);
      const inGap = m < 1440 && epochToLocal(zone, expected).minuteOfDay !== m;
      // a wall time in the gap maps to the first instant after it: its hours shrink
      expect(wallToInstant(day, m)).toBe(inGap ? day.shiftAt : expected);
    }
  });

  it('clamps the missing 03:00-04:00 of the Riga spring-forward day to the transition', () => {
    const [day] = buildCalendar('Europe/Riga', '2026-03-29', 1).days;
    expect(iso(wallToInstant(day, 3 * 60))).toBe('2026-03-29T01:00:00Z');
    expect(iso(wallToInstant(day, 3 * 60 + 30))).toBe('2026-03-29T01:00:00Z');
    expect(iso(wallToInstant(day, 4 * 60))).toBe('2026-03-29T01:00:00Z');
    expect(iso(wallToInstant(day, 9 * 60))).toBe('2026-03-29T06:00:00Z');
  });

  it('counts minutes by floor division for any instant: before 1970, off the whole millisecond, just below a minute', () => {
    const day = buildCalendar('UTC', '1970-01-01', 1).days[0];
    const exact = (t: number) => {
      const r = t % 60_000;
      return (t - r) / 60_000 - (r < 0 ? 1 : 0);
    };
    const instants = [0, -0, -1e-9, -1, -60_000, -60_001, 59_999.999, 60_000, 60_000 * 123_456_789 - 1e-3, 2 ** 31 * 60_000 - 1];
    for (let k = 0; k < 2000; k++) instants.push(Math.round((k * 7_919_993.7) % 1e13) - 5e12, 60_000 * (k * 1_234_567) - 0.5 ** (k % 30));
    for (const t of instants) expect(minuteOfDay(day, t)).toBe(exact(t));
  });

  it('covers the local dates of a range plus extra days', () => {
    const cal = calendarFor('America/New_York', at('2026-03-08T03:00:00Z'), at('2026-03-10T04:00:00Z'), 2, 800);
    expect(cal.days.map((d) => d.date)).toEqual(['2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10', '2026-03-11']);
    expect(dayIndexAt(cal, at('2026-03-01T00:00:00Z'))).toBe(-1);
  });
});
