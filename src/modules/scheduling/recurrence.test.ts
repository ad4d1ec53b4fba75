import { RRule } from 'rrule';
import {
  countOccurrences,
  excludeOccurrence,
  expandOccurrences,
  isOccurrence,
  parseRepeat,
  splitSeries,
  truncateBefore,
  type SeriesSpec,
} from './recurrence';

// Expectations are literal UTC instants so that a run under any process TZ checks the same thing:
// run with TZ=UTC, TZ=America/New_York and TZ=Asia/Kolkata.

const t = (iso: string) => Date.parse(iso);
const iso = (list: number[]) => list.map((ms) => new Date(ms).toISOString().replace('.000Z', 'Z'));
const RIGA = 'Europe/Riga';
const NY = 'America/New_York';

function expand(spec: SeriesSpec, from: string, to: string, limit?: number): string[] {
  return iso(expandOccurrences(spec, { from: t(from), to: t(to) }, limit));
}

describe('expandOccurrences in local wall time', () => {
  // Monday 2026-03-16 09:00 EET; Riga moves to EEST on 2026-03-29 and back on 2026-10-25.
  const rigaWeekly: SeriesSpec = { rrule: 'FREQ=WEEKLY;BYDAY=MO', timeZone: RIGA, start: t('2026-03-16T07:00:00Z') };

  it('keeps a weekly 09:00 class in Riga at 09:00 across both DST changes', () => {
    expect(expand(rigaWeekly, '2026-03-01T00:00:00Z', '2026-04-10T00:00:00Z')).toEqual([
      '2026-03-16T07:00:00Z',
      '2026-03-23T07:00:00Z',
      '2026-03-30T06:00:00Z',
      '2026-04-06T06:00:00Z',
    ]);
    expect(expand(rigaWeekly, '2026-10-12T00:00:00Z', '2026-11-03T00:00:00Z')).toEqual([
      '2026-10-12T06:00:00Z',
      '2026-10-19T06:00:00Z',
      '2026-10-26T07:00:00Z',
      '2026-11-02T07:00:00Z',
    ]);
  });

  it('keeps a daily 09:00 in New York at 09:00 across 2026-03-08 and 2026-11-01', () => {
    const daily: SeriesSpec = { rrule: 'FREQ=DAILY', timeZone: NY, start: t('2026-03-06T14:00:00Z') };
    expect(expand(daily, '2026-03-06T00:00:00Z', '2026-03-10T00:00:00Z')).toEqual([
      '2026-03-06T14:00:00Z',
      '2026-03-07T14:00:00Z',
      '2026-03-08T13:00:00Z',
      '2026-03-09T13:00:00Z',
    ]);
    expect(expand(daily, '2026-10-31T00:00:00Z', '2026-11-03T00:00:00Z')).toEqual([
      '2026-10-31T13:00:00Z',
      '2026-11-01T14:00:00Z',
      '2026-11-02T14:00:00Z',
    ]);
  });

  it('moves a wall time in the spring-forward gap forward (02:30 New York on 2026-03-08)', () => {
    const daily: SeriesSpec = { rrule: 'FREQ=DAILY', timeZone: NY, start: t('2026-03-06T07:30:00Z') };
    expect(expand(daily, '2026-03-06T00:00:00Z', '2026-03-10T00:00:00Z')).toEqual([
      '2026-03-06T07:30:00Z',
      '2026-03-07T07:30:00Z',
      '2026-03-08T07:30:00Z', // 03:30 EDT
      '2026-03-09T06:30:00Z',
    ]);
  });

  it('gives one occurrence when a gap wall time lands on another occurrence', () => {
    const twice: SeriesSpec = { rrule: 'FREQ=DAILY;BYHOUR=2,3;BYMINUTE=30', timeZone: NY, start: t('2026-03-07T07:30:00Z') };
    expect(expand(twice, '2026-03-07T00:00:00Z', '2026-03-09T00:00:00Z')).toEqual([
      '2026-03-07T07:30:00Z',
      '2026-03-07T08:30:00Z',
      '2026-03-08T07:30:00Z',
    ]);
  });

  it('resolves a wall time in the fall-back overlap to the earlier instant', () => {
    const daily: SeriesSpec = { rrule: 'FREQ=DAILY', timeZone: NY, start: t('2026-10-31T05:30:00Z') };
    expect(expand(daily, '2026-10-31T00:00:00Z', '2026-11-03T00:00:00Z')).toEqual([
      '2026-10-31T05:30:00Z',
      '2026-11-01T05:30:00Z', // 01:30 EDT, not 01:30 EST
      '2026-11-02T06:30:00Z',
    ]);
  });

  it('keeps a start on the second pass of an overlap as it is', () => {
    const daily: SeriesSpec = { rrule: 'FREQ=DAILY', timeZone: NY, start: t('2026-11-01T06:30:00Z') };
    expect(expand(daily, '2026-11-01T00:00:00Z', '2026-11-03T00:00:00Z')).toEqual(['2026-11-01T06:30:00Z', '2026-11-02T06:30:00Z']);
  });

  it('treats from as inclusive and to as exclusive', () => {
    expect(expand(rigaWeekly, '2026-03-23T07:00:00Z', '2026-03-30T06:00:00Z')).toEqual(['2026-03-23T07:00:00Z']);
    expect(expand(rigaWeekly, '2026-03-23T07:00:00.001Z', '2026-03-30T06:00:00.001Z')).toEqual(['2026-03-30T06:00:00Z']);
    expect(expand(rigaWeekly, '2026-03-23T07:00:00Z', '2026-03-23T07:00:00Z')).toEqual([]);
    expect(expand(rigaWeekly, '2026-01-01T00:00:00Z', '2026-03-16T07:00:00Z')).toEqual([]);
  });

  it('caps the result at limit', () => {
    expect(expand(rigaWeekly, '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z', 3)).toEqual([
      '2026-03-16T07:00:00Z',
      '2026-03-23T07:00:00Z',
      '2026-03-30T06:00:00Z',
    ]);
    expect(expandOccurrences(rigaWeekly, { from: t('2026-01-01T00:00:00Z'), to: t('2126-01-01T00:00:00Z') })).toHaveLength(5000);
  });

  it('keeps the milliseconds and seconds of the start', () => {
    const spec: SeriesSpec = { rrule: 'FREQ=DAILY', timeZone: RIGA, start: t('2026-03-28T07:00:30.250Z') };
    expect(iso(expandOccurrences(spec, { from: t('2026-03-28T00:00:00Z'), to: t('2026-03-30T00:00:00Z') }))).toEqual([
      '2026-03-28T07:00:30.250Z',
      '2026-03-29T06:00:30.250Z',
    ]);
  });

  it('includes the start even when the rule would not generate it', () => {
    const tuesdayStart: SeriesSpec = { rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=3', timeZone: RIGA, start: t('2026-03-17T07:00:00Z') };
    expect(expand(tuesdayStart, '2026-03-01T00:00:00Z', '2026-05-01T00:00:00Z')).toEqual([
      '2026-03-17T07:00:00Z',
      '2026-03-23T07:00:00Z',
      '2026-03-30T06:00:00Z',
    ]);
  });

  it('expands whole weeks so BYSETPOS picks the same weekday in the first week', () => {
    const midWeek: SeriesSpec = { rrule: 'FREQ=WEEKLY;BYDAY=MO,WE,FR;BYSETPOS=2', timeZone: RIGA, start: t('2026-03-18T07:00:00Z') };
    expect(expand(midWeek, '2026-03-01T00:00:00Z', '2026-04-02T00:00:00Z')).toEqual([
      '2026-03-18T07:00:00Z',
      '2026-03-25T07:00:00Z',
      '2026-04-01T06:00:00Z',
    ]);
  });

  it('handles monthly positions, intervals and week starts', () => {
    const lastFriday: SeriesSpec = { rrule: 'FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=18', timeZone: RIGA, start: t('2026-01-30T16:00:00Z') };
    expect(expand(lastFriday, '2026-01-01T00:00:00Z', '2026-05-01T00:00:00Z')).toEqual([
      '2026-01-30T16:00:00Z',
      '2026-02-27T16:00:00Z',
      '2026-03-27T16:00:00Z',
      '2026-04-24T15:00:00Z',
    ]);
    const every31st: SeriesSpec = { rrule: 'FREQ=MONTHLY;INTERVAL=2', timeZone: 'UTC', start: t('2026-01-31T10:00:00Z') };
    expect(expand(every31st, '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z')).toEqual([
      '2026-01-31T10:00:00Z',
      '2026-03-31T10:00:00Z',
      '2026-05-31T10:00:00Z',
      '2026-07-31T10:00:00Z',
    ]);
    const fortnightly: SeriesSpec = {
      rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,MO;WKST=SU',
      timeZone: 'UTC',
      start: t('2026-03-01T10:00:00Z'),
    };
    expect(expand(fortnightly, '2026-03-01T00:00:00Z', '2026-03-30T00:00:00Z')).toEqual([
      '2026-03-01T10:00:00Z',
      '2026-03-02T10:00:00Z',
      '2026-03-15T10:00:00Z',
      '2026-03-16T10:00:00Z',
      '2026-03-29T10:00:00Z',
    ]);
  });
});

describe('series bounds', () => {
  const nyDaily = (rrule: string, until?: number): SeriesSpec => ({ rrule, timeZone: NY, start: t('2026-03-06T14:00:00Z'), until });
  const march = (spec: SeriesSpec) => expand(spec, '2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z');
  const throughMarch9 = ['2026-03-06T14:00:00Z', '2026-03-07T14:00:00Z', '2026-03-08T13:00:00Z', '2026-03-09T13:00:00Z'];

  it('stops after COUNT occurrences, counted from the start even when the window starts later', () => {
    expect(march(nyDaily('FREQ=DAILY;COUNT=4'))).toEqual(throughMarch9);
    expect(expand(nyDaily('FREQ=DAILY;COUNT=4'), '2026-03-08T00:00:00Z', '2026-04-01T00:00:00Z')).toEqual(throughMarch9.slice(2));
  });

  it('treats UNTIL as inclusive in each of its forms', () => {
    expect(march(nyDaily('FREQ=DAILY;UNTIL=20260309T130000Z'))).toEqual(throughMarch9);
    expect(march(nyDaily('FREQ=DAILY;UNTIL=20260309T125959Z'))).toEqual(throughMarch9.slice(0, 3));
    expect(march(nyDaily('FREQ=DAILY;UNTIL=20260309'))).toEqual(throughMarch9);
    expect(march(nyDaily('FREQ=DAILY;UNTIL=20260309T090000'))).toEqual(throughMarch9);
    expect(march(nyDaily('FREQ=DAILY;UNTIL=20260309T085959'))).toEqual(throughMarch9.slice(0, 3));
  });

  it('treats the until field as inclusive and applies the earlier of until and UNTIL', () => {
    expect(march(nyDaily('FREQ=DAILY', t('2026-03-09T13:00:00Z')))).toEqual(throughMarch9);
    expect(march(nyDaily('FREQ=DAILY', t('2026-03-09T12:59:59Z')))).toEqual(throughMarch9.slice(0, 3));
    expect(march(nyDaily('FREQ=DAILY;UNTIL=20260308', t('2026-03-09T13:00:00Z')))).toEqual(throughMarch9.slice(0, 3));
    expect(march(nyDaily('FREQ=DAILY;COUNT=2', t('2026-03-09T13:00:00Z')))).toEqual(throughMarch9.slice(0, 2));
    expect(march(nyDaily('FREQ=DAILY', t('2026-03-01T00:00:00Z')))).toEqual([]);
  });

  it('skips exdates', () => {
    const spec = { ...nyDaily('FREQ=DAILY;COUNT=4'), exdates: [t('2026-03-07T14:00:00Z'), t('2026-03-08T14:00:00Z')] };
    expect(march(spec)).toEqual(['2026-03-06T14:00:00Z', '2026-03-08T13:00:00Z', '2026-03-09T13:00:00Z']);
  });
});

describe('unbounded rules far from their start', () => {
  // How long these take is measured by the benchmarks, not asserted here: a loaded machine would make a timed assertion flaky.
  it('jumps straight to a window centuries ahead', () => {
    const weekly: SeriesSpec = { rrule: 'FREQ=WEEKLY;BYDAY=MO', timeZone: RIGA, start: t('2026-03-16T07:00:00Z') };
    expect(expand(weekly, '2399-12-20T00:00:00Z', '2400-01-15T00:00:00Z')).toEqual([
      '2399-12-20T07:00:00Z',
      '2399-12-27T07:00:00Z',
      '2400-01-03T07:00:00Z',
      '2400-01-10T07:00:00Z',
    ]);
    const lastFriday: SeriesSpec = { rrule: 'FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=18', timeZone: RIGA, start: t('2026-01-30T16:00:00Z') };
    expect(expand(lastFriday, '2100-02-01T00:00:00Z', '2100-05-01T00:00:00Z')).toEqual([
      '2100-02-26T16:00:00Z',
      '2100-03-26T16:00:00Z',
      '2100-04-30T15:00:00Z',
    ]);
    const daily: SeriesSpec = { rrule: 'FREQ=DAILY;INTERVAL=3', timeZone: NY, start: t('2026-03-06T14:00:00Z') };
    // New York moves to EDT on 2100-03-14.
    expect(expand(daily, '2100-03-10T00:00:00Z', '2100-03-20T00:00:00Z')).toEqual([
      '2100-03-11T14:00:00Z',
      '2100-03-14T13:00:00Z',
      '2100-03-17T13:00:00Z',
    ]);
  });

  it('answers for rules that stop matching', () => {
    // Every seventh day from a Tuesday is never a Monday: only the start remains.
    const never: SeriesSpec = { rrule: 'FREQ=DAILY;INTERVAL=7;BYDAY=MO', timeZone: RIGA, start: t('2026-03-17T07:00:00Z') };
    expect(expand(never, '2026-01-01T00:00:00Z', '2126-01-01T00:00:00Z')).toEqual(['2026-03-17T07:00:00Z']);
    expect(expand(never, '3000-01-01T00:00:00Z', '3001-01-01T00:00:00Z')).toEqual([]);
    const onePerWeek: SeriesSpec = { rrule: 'FREQ=WEEKLY;BYDAY=MO;BYSETPOS=2', timeZone: RIGA, start: t('2026-03-16T07:00:00Z') };
    expect(expand(onePerWeek, '2026-01-01T00:00:00Z', '2076-01-01T00:00:00Z')).toEqual(['2026-03-16T07:00:00Z']);
    expect(countOccurrences({ ...never, rrule: 'FREQ=DAILY;INTERVAL=7;BYDAY=MO;COUNT=2' })).toMatchObject({ ok: false, reason: 'too_far' });
  });
});

describe('agreement with rrule (UTC, where wall time and instant coincide)', () => {
  // The windows cross the seams between the runs of years evaluated together, 2100 included.
  const cases: Array<[string, string]> = [
    ['FREQ=DAILY', '2026-03-06T09:00:00Z'],
    ['FREQ=DAILY;INTERVAL=3;BYHOUR=8,17;BYMINUTE=0,30', '2026-03-06T08:00:00Z'],
    ['FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO', '2044-02-29T10:00:00Z'],
    ['FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH', '2026-03-16T09:00:00Z'],
    ['FREQ=WEEKLY;INTERVAL=3;BYDAY=SA,SU;WKST=SU', '2026-03-01T12:00:00Z'],
    ['FREQ=WEEKLY;BYDAY=MO,WE,FR;BYSETPOS=-1', '2026-03-20T12:00:00Z'],
    ['FREQ=MONTHLY;BYDAY=-1FR', '2026-01-30T18:00:00Z'],
    ['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1', '2026-01-30T18:00:00Z'],
    ['FREQ=MONTHLY;INTERVAL=5;BYMONTHDAY=31,-1', '2026-01-31T07:00:00Z'],
    ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29', '2028-02-29T10:00:00Z'],
    ['FREQ=YEARLY;BYDAY=20MO', '2026-05-18T10:00:00Z'],
    ['FREQ=YEARLY;BYDAY=-1SU', '2026-12-27T10:00:00Z'],
    ['FREQ=YEARLY;INTERVAL=3;BYMONTH=1,7;BYDAY=1SU', '2026-01-04T10:00:00Z'],
  ];

  it.each(cases)('%s', (rrule, start) => {
    const reference = new RRule({ ...RRule.parseString(rrule), dtstart: new Date(start) });
    const windows = [
      ['2026-01-01', '2031-01-01'],
      ['2095-06-01', '2106-01-01'],
    ];
    if (!rrule.startsWith('FREQ=DAILY')) windows.push(['2026-01-01', '2230-01-01']);
    for (const [from, to] of windows.map((w) => w.map((d) => t(`${d}T00:00:00Z`)))) {
      const expected = reference
        .between(new Date(from), new Date(to), true)
        .map((d) => d.getTime())
        .filter((ms) => ms < to);
      expect(expandOccurrences({ rrule, timeZone: 'UTC', start: t(start) }, { from, to }, 100_000)).toEqual(expected);
    }
  });
});

describe('countOccurrences', () => {
  const weekly = (rrule: string, until?: number): SeriesSpec => ({ rrule, timeZone: RIGA, start: t('2026-03-16T07:00:00Z'), until });

  it('lists every occurrence of a bounded series', () => {
    expect(countOccurrences(weekly('FREQ=WEEKLY;COUNT=3'))).toEqual({
      ok: true,
      occurrences: [t('2026-03-16T07:00:00Z'), t('2026-03-23T07:00:00Z'), t('2026-03-30T06:00:00Z')],
    });
    const result = countOccurrences(weekly('FREQ=WEEKLY', t('2026-04-06T06:00:00Z')));
    expect(result.ok && iso(result.occurrences)).toEqual([
      '2026-03-16T07:00:00Z',
      '2026-03-23T07:00:00Z',
      '2026-03-30T06:00:00Z',
      '2026-04-06T06:00:00Z',
    ]);
  });

  it('allows 366 occurrences and refuses 367', () => {
    const daily = (rrule: string): SeriesSpec => ({ rrule, timeZone: NY, start: t('2026-03-06T14:00:00Z') });
    const ok = countOccurrences(daily('FREQ=DAILY;COUNT=366'), 366);
    expect(ok.ok && ok.occurrences.length).toBe(366);
    expect(ok.ok && iso(ok.occurrences.slice(-1))).toEqual(['2027-03-06T14:00:00Z']);
    expect(countOccurrences(daily('FREQ=DAILY;COUNT=367'), 366)).toMatchObject({ ok: false, reason: 'too_many' });
    expect(countOccurrences(daily('FREQ=DAILY;UNTIL=20300101'), 366)).toMatchObject({ ok: false, reason: 'too_many' });
    expect(countOccurrences({ ...daily('FREQ=DAILY;COUNT=367'), exdates: [t('2026-03-07T14:00:00Z')] }, 366)).toMatchObject({ ok: true });
  });

  it('refuses a series without an end', () => {
    expect(countOccurrences(weekly('FREQ=WEEKLY;BYDAY=MO'))).toMatchObject({
      ok: false,
      reason: 'unbounded',
      message: expect.stringMatching(/COUNT or UNTIL/),
    });
  });

  it('refuses a series that runs past the horizon', () => {
    expect(countOccurrences(weekly('FREQ=YEARLY;COUNT=30'), 366, 10)).toMatchObject({ ok: false, reason: 'too_far' });
    expect(countOccurrences(weekly('FREQ=YEARLY;COUNT=10'), 366, 10)).toMatchObject({ ok: true });
  });
});

describe('series edits', () => {
  const weekly: SeriesSpec = { rrule: 'FREQ=WEEKLY;BYDAY=MO', timeZone: RIGA, start: t('2026-03-16T07:00:00Z') };
  const spring = (spec: SeriesSpec) => expand(spec, '2026-03-01T00:00:00Z', '2026-05-01T00:00:00Z');

  it('truncateBefore ends an open rule with UNTIL just before the occurrence', () => {
    const cut = truncateBefore({ ...weekly, exdates: [t('2026-03-23T07:00:00Z'), t('2026-04-06T06:00:00Z')] }, t('2026-03-30T06:00:00Z'));
    expect(cut).toEqual({ ...weekly, rrule: 'FREQ=WEEKLY;UNTIL=20260330T055959Z;BYDAY=MO', exdates: [t('2026-03-23T07:00:00Z')] });
    expect(parseRepeat({ rrule: cut!.rrule, timeZone: RIGA }).errors).toBeUndefined();
    expect(spring(cut!)).toEqual(['2026-03-16T07:00:00Z']);
  });

  it('truncateBefore lowers COUNT instead when the rule counts', () => {
    const cut = truncateBefore({ ...weekly, rrule: 'FREQ=WEEKLY;COUNT=10' }, t('2026-04-06T06:00:00Z'));
    expect(cut?.rrule).toBe('FREQ=WEEKLY;COUNT=3');
    expect(truncateBefore({ ...weekly, rrule: 'FREQ=WEEKLY;COUNT=2' }, t('2026-04-06T06:00:00Z'))?.rrule).toBe('FREQ=WEEKLY;COUNT=2');
  });

  it('truncateBefore keeps an earlier UNTIL and returns null when nothing precedes the cut', () => {
    const early = { ...weekly, rrule: 'FREQ=WEEKLY;UNTIL=20260324' };
    expect(truncateBefore(early, t('2026-04-06T06:00:00Z'))?.rrule).toBe('FREQ=WEEKLY;UNTIL=20260324');
    expect(truncateBefore(weekly, weekly.start)).toBeNull();
    expect(truncateBefore({ ...weekly, exdates: [weekly.start] }, t('2026-03-23T07:00:00Z'))).toBeNull();
  });

  it('splitSeries divides the occurrences without loss or overlap', () => {
    const spec: SeriesSpec = {
      rrule: 'FREQ=WEEKLY;COUNT=6',
      timeZone: RIGA,
      start: weekly.start,
      exdates: [t('2026-03-23T07:00:00Z'), t('2026-04-13T06:00:00Z')],
    };
    const parts = splitSeries(spec, t('2026-04-06T06:00:00Z'));
    expect(parts?.before?.rrule).toBe('FREQ=WEEKLY;COUNT=3');
    expect(parts?.after).toEqual({
      ...spec,
      rrule: 'FREQ=WEEKLY;COUNT=3',
      start: t('2026-04-06T06:00:00Z'),
      exdates: [t('2026-04-13T06:00:00Z')],
    });
    expect([...spring(parts!.before!), ...spring(parts!.after)]).toEqual(spring(spec));
    expect(splitSeries(spec, spec.start)).toEqual({ before: null, after: spec });
    expect(splitSeries(spec, t('2026-03-23T07:00:00Z'))).toBeNull();
    expect(splitSeries(spec, t('2026-04-07T06:00:00Z'))).toBeNull();
  });

  it('splitSeries pins the time of day when the split occurrence was moved out of a DST gap', () => {
    const spec: SeriesSpec = { rrule: 'FREQ=DAILY', timeZone: NY, start: t('2026-03-06T07:30:00Z') };
    const parts = splitSeries(spec, t('2026-03-08T07:30:00Z'));
    expect(parts?.after.rrule).toBe('FREQ=DAILY;BYHOUR=2');
    expect(expand(parts!.after, '2026-03-01T00:00:00Z', '2026-03-11T00:00:00Z')).toEqual([
      '2026-03-08T07:30:00Z',
      '2026-03-09T06:30:00Z',
      '2026-03-10T06:30:00Z',
    ]);
  });

  it('excludeOccurrence removes one occurrence and refuses instants that are not occurrences', () => {
    expect(isOccurrence(weekly, t('2026-03-30T06:00:00Z'))).toBe(true);
    expect(isOccurrence(weekly, t('2026-03-30T07:00:00Z'))).toBe(false);
    const single = excludeOccurrence(weekly, t('2026-03-30T06:00:00Z'));
    expect(single?.exdates).toEqual([t('2026-03-30T06:00:00Z')]);
    expect(spring(single!).slice(0, 3)).toEqual(['2026-03-16T07:00:00Z', '2026-03-23T07:00:00Z', '2026-04-06T06:00:00Z']);
    expect(excludeOccurrence(single!, t('2026-03-30T06:00:00Z'))).toBeNull();
    expect(excludeOccurrence(weekly, t('2026-03-31T06:00:00Z'))).toBeNull();
  });
});

describe('stored values', () => {
  it('refuses an invalid stored rule or zone', () => {
    const window = { from: 0, to: t('2026-01-01T00:00:00Z') };
    expect(() => expandOccurrences({ rrule: 'FREQ=HOURLY', timeZone: RIGA, start: 0 }, window)).toThrow(RangeError);
    expect(() => expandOccurrences({ rrule: 'FREQ=DAILY', timeZone: 'Mars/Base', start: 0 }, window)).toThrow(RangeError);
  });
});
