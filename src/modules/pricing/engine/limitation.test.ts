import { matchContextAt } from './context';
import { compileLimitation, MATCH_ANY } from './limitation';
import type { MatchContext } from './types';
import type { LimitationInput } from '../../../shared/limitation';

const ZONE = 'Europe/Riga';

/** A context for a local wall time; the instant is only meaningful for instant-bound tests. */
function ctx(date: string, time = '10:00', resourceID = 'r1', weekday?: number): MatchContext {
  const [h, m] = time.split(':').map(Number);
  const wd = weekday ?? isoWeekday(date);
  return { resourceID, instant: Date.parse(`${date}T${time}:00Z`), date, weekday: wd, minuteOfDay: h * 60 + m };
}

/** ISO weekday of a date, computed in UTC so the process zone cannot shift it. */
function isoWeekday(date: string): number {
  const d = new Date(`${date}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
}

const match = (lim: LimitationInput | null | undefined, c: MatchContext, zone = ZONE): boolean => compileLimitation(lim, zone)(c);

// 2026-03-02 is a Monday; the week runs to Sunday 2026-03-08.
const WEEK = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08'];

describe('compileLimitation: absent parts', () => {
  it.each([
    null,
    undefined,
    {},
    { daysOfWeek: 0, resourceIDs: [], times: [], dates: [] },
    { daysOfWeek: null, resourceIDs: null, times: null, dates: null },
  ])('puts no restriction for %p', (lim) => {
    expect(compileLimitation(lim as LimitationInput, ZONE)).toBe(MATCH_ANY);
    expect(match(lim as LimitationInput, ctx('2026-03-02', '00:00', 'any'))).toBe(true);
  });
  it('treats a full day and a full week as no restriction', () => {
    expect(compileLimitation({ daysOfWeek: 127, times: [{ start: '00:00', end: '24:00' }] }, ZONE)).toBe(MATCH_ANY);
  });
});

describe('compileLimitation: daysOfWeek', () => {
  it.each([
    [64, [1]],
    [1, [7]],
    [2, [6]],
    [127, [1, 2, 3, 4, 5, 6, 7]],
    [124, [1, 2, 3, 4, 5]],
    [3, [6, 7]],
    [64 + 4, [1, 5]],
    [0, [1, 2, 3, 4, 5, 6, 7]],
  ])('mask %i matches ISO weekdays %p', (mask, weekdays) => {
    const matched = WEEK.filter((d) => match({ daysOfWeek: mask }, ctx(d))).map(isoWeekday);
    expect(matched).toEqual(weekdays);
  });
  it('never matches a weekday outside 1..7', () => {
    expect(match({ daysOfWeek: 124 }, ctx('2026-03-02', '10:00', 'r1', 0))).toBe(false);
    expect(match({ daysOfWeek: 124 }, ctx('2026-03-02', '10:00', 'r1', 8))).toBe(false);
  });
  it.each([128, -1, 1.5, Number.NaN])('refuses mask %p', (mask) => {
    expect(() => compileLimitation({ daysOfWeek: mask }, ZONE)).toThrow(RangeError);
  });
});

describe('compileLimitation: resourceIDs', () => {
  it('matches a single listed resource', () => {
    expect(match({ resourceIDs: ['r1'] }, ctx('2026-03-02', '10:00', 'r1'))).toBe(true);
    expect(match({ resourceIDs: ['r1'] }, ctx('2026-03-02', '10:00', 'r2'))).toBe(false);
  });
  it('matches any of several resources', () => {
    const lim = { resourceIDs: ['a', 'b', 'c'] };
    expect(['a', 'b', 'c', 'd'].map((r) => match(lim, ctx('2026-03-02', '10:00', r)))).toEqual([true, true, true, false]);
  });
});

describe('compileLimitation: times', () => {
  const morning = { times: [{ start: '09:00', end: '12:00' }] };
  it.each([
    ['08:59', false],
    ['09:00', true],
    ['11:59', true],
    ['12:00', false],
  ])('start inclusive, end exclusive: %s -> %p', (time, ok) => {
    expect(match(morning, ctx('2026-03-02', time))).toBe(ok);
  });
  it('lets 24:00 close the day without reaching the next one', () => {
    const evening = { times: [{ start: '22:00', end: '24:00' }] };
    expect(match(evening, ctx('2026-03-02', '21:59'))).toBe(false);
    expect(match(evening, ctx('2026-03-02', '22:00'))).toBe(true);
    expect(match(evening, ctx('2026-03-02', '23:59'))).toBe(true);
    expect(match(evening, ctx('2026-03-03', '00:00'))).toBe(false);
  });
  it('matches any of several ranges', () => {
    const split = {
      times: [
        { start: '08:00', end: '10:00' },
        { start: '14:00', end: '16:30' },
      ],
    };
    const got = ['07:59', '08:00', '09:59', '10:00', '13:59', '14:00', '16:29', '16:30'].map((t) => match(split, ctx('2026-03-02', t)));
    expect(got).toEqual([false, true, true, false, false, true, true, false]);
  });
  it('reads stored capacity ranges in the {startTime, endTime} shape', () => {
    const stored = { times: [{ startTime: '09:00', endTime: '10:00' }] } as unknown as LimitationInput;
    expect(match(stored, ctx('2026-03-02', '09:30'))).toBe(true);
    expect(match(stored, ctx('2026-03-02', '10:00'))).toBe(false);
  });
  it.each([
    [{ start: '10:00', end: '10:00' }],
    [{ start: '10:00', end: '09:00' }],
    [{ start: '24:00', end: '24:00' }],
    [{ start: '9:00', end: '10:00' }],
  ])('refuses %p', (range) => {
    expect(() => compileLimitation({ times: [range] }, ZONE)).toThrow(RangeError);
  });
});

describe('compileLimitation: dates', () => {
  it('treats YYYY-MM-DD bounds as whole local days, both inclusive', () => {
    const march = { dates: [{ start: '2026-03-01', end: '2026-03-31' }] };
    expect(match(march, ctx('2026-02-28', '23:59'))).toBe(false);
    expect(match(march, ctx('2026-03-01', '00:00'))).toBe(true);
    expect(match(march, ctx('2026-03-31', '23:59'))).toBe(true);
    expect(match(march, ctx('2026-04-01', '00:00'))).toBe(false);
  });
  it('allows a single-day range', () => {
    const day = { dates: [{ start: '2026-03-05', end: '2026-03-05' }] };
    expect(WEEK.filter((d) => match(day, ctx(d)))).toEqual(['2026-03-05']);
  });
  it('matches any of several ranges', () => {
    const lim = {
      dates: [
        { start: '2026-03-02', end: '2026-03-03' },
        { start: '2026-03-07', end: '2026-03-08' },
      ],
    };
    expect(WEEK.filter((d) => match(lim, ctx(d)))).toEqual(['2026-03-02', '2026-03-03', '2026-03-07', '2026-03-08']);
  });
  it('compares the local date, not the UTC date, for date bounds', () => {
    const lim = { dates: [{ start: '2026-03-01', end: '2026-03-01' }] };
    // 03:00Z on 1 March is still 28 February, 22:00 in New York
    const ny = matchContextAt('America/New_York', Date.parse('2026-03-01T03:00:00Z'), 'r1');
    expect(ny.date).toBe('2026-02-28');
    expect(match(lim, ny, 'America/New_York')).toBe(false);
    // ...and already 1 March, 05:00 in Riga
    expect(match(lim, matchContextAt(ZONE, Date.parse('2026-03-01T03:00:00Z'), 'r1'))).toBe(true);
  });
  it('compares instants for RFC 3339 bounds, both inclusive', () => {
    const lim = { dates: [{ start: '2026-03-01T10:00:00Z', end: '2026-03-01T12:00:00+00:00' }] };
    const at = (iso: string): MatchContext => matchContextAt(ZONE, Date.parse(iso), 'r1');
    expect(match(lim, at('2026-03-01T09:59:59.999Z'))).toBe(false);
    expect(match(lim, at('2026-03-01T10:00:00Z'))).toBe(true);
    expect(match(lim, at('2026-03-01T12:00:00Z'))).toBe(true);
    expect(match(lim, at('2026-03-01T12:00:00.001Z'))).toBe(false);
  });
  it('honours the offset of an instant bound', () => {
    const lim = { dates: [{ start: '2026-03-01T12:00:00+02:00', end: '2026-03-01T13:00:00+02:00' }] };
    expect(match(lim, matchContextAt(ZONE, Date.parse('2026-03-01T10:00:00Z'), 'r1'))).toBe(true);
    expect(match(lim, matchContextAt(ZONE, Date.parse('2026-03-01T09:59:00Z'), 'r1'))).toBe(false);
  });
  it('judges each bound of a mixed range by its own kind', () => {
    const lim = { dates: [{ start: '2026-03-02', end: '2026-03-04T12:00:00Z' }] };
    const at = (iso: string): MatchContext => matchContextAt('UTC', Date.parse(iso), 'r1');
    expect(match(lim, at('2026-03-01T23:59:00Z'), 'UTC')).toBe(false);
    expect(match(lim, at('2026-03-02T00:00:00Z'), 'UTC')).toBe(true);
    expect(match(lim, at('2026-03-04T12:00:00Z'), 'UTC')).toBe(true);
    expect(match(lim, at('2026-03-04T12:01:00Z'), 'UTC')).toBe(false);
  });
  it('reads a stored offset-less timestamp as a wall time of the company zone', () => {
    const lim = { dates: [{ start: '2026-03-29T10:00', end: '2026-03-29T11:00:00' }] };
    // Riga is on summer time (UTC+3) after 03:00 on 29 March 2026
    expect(match(lim, matchContextAt(ZONE, Date.parse('2026-03-29T07:00:00Z'), 'r1'))).toBe(true);
    expect(match(lim, matchContextAt(ZONE, Date.parse('2026-03-29T06:59:00Z'), 'r1'))).toBe(false);
    expect(match(lim, matchContextAt('UTC', Date.parse('2026-03-29T07:00:00Z'), 'r1'), 'UTC')).toBe(false);
  });
  it.each([
    [{ start: '2026-02-30', end: '2026-03-01' }],
    [{ start: '2026-03-02', end: '2026-03-01' }],
    [{ start: '2026-03-01T12:00:00Z', end: '2026-03-01T11:00:00Z' }],
    [{ start: 'soon', end: '2026-03-01' }],
  ])('refuses %p', (range) => {
    expect(() => compileLimitation({ dates: [range] }, ZONE)).toThrow(RangeError);
  });
});

describe('compileLimitation: parts combined', () => {
  const lim: LimitationInput = {
    daysOfWeek: 124,
    resourceIDs: ['r1', 'r2'],
    times: [{ start: '09:00', end: '17:00' }],
    dates: [{ start: '2026-03-01', end: '2026-03-31' }],
  };
  it('applies when every part matches', () => {
    expect(match(lim, ctx('2026-03-02', '09:00', 'r2'))).toBe(true);
  });
  it.each([
    ['weekday', ctx('2026-03-07', '09:00', 'r1')],
    ['resource', ctx('2026-03-02', '09:00', 'r3')],
    ['time', ctx('2026-03-02', '17:00', 'r1')],
    ['date', ctx('2026-04-01', '09:00', 'r1')],
  ])('fails when only the %s does not match', (_part, c) => {
    expect(match(lim, c)).toBe(false);
  });
  it('uses local wall time across a DST change', () => {
    const morning = compileLimitation({ daysOfWeek: 1, times: [{ start: '09:00', end: '10:00' }] }, ZONE);
    // Sunday 29 March 2026: Riga moves from UTC+2 to UTC+3 at 03:00
    expect(morning(matchContextAt(ZONE, Date.parse('2026-03-29T06:00:00Z'), 'r1'))).toBe(true);
    expect(morning(matchContextAt(ZONE, Date.parse('2026-03-29T07:00:00Z'), 'r1'))).toBe(false);
    // Sunday a week earlier, still on winter time: 09:00 is 07:00Z
    expect(morning(matchContextAt(ZONE, Date.parse('2026-03-22T07:00:00Z'), 'r1'))).toBe(true);
  });
  it('gives the same answers for a week of half-hour starts whatever the process zone', () => {
    const weekdayEvenings = compileLimitation({ daysOfWeek: 124, times: [{ start: '18:00', end: '24:00' }] }, ZONE);
    const from = Date.parse('2026-03-26T00:00:00Z');
    const hits: string[] = [];
    for (let t = from; t < from + 7 * 86_400_000; t += 1_800_000) {
      const c = matchContextAt(ZONE, t, 'r1');
      if (weekdayEvenings(c)) hits.push(new Date(t).toISOString().slice(5, 16));
    }
    // Thu 26, Fri 27 (UTC+2), then Mon 30, Tue 31, Wed 1 April (UTC+3): 12 half-hours each
    expect(hits).toHaveLength(60);
    expect(hits[0]).toBe('03-26T16:00');
    expect(hits[12]).toBe('03-27T16:00');
    expect(hits[24]).toBe('03-30T15:00');
    expect(hits[59]).toBe('04-01T20:30');
  });
});
