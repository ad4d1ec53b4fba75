import { compileLimitation } from './limitation';
import { normaliseLimitation } from '../../../shared/limitation';

const paths = (raw: unknown): string[] => (normaliseLimitation(raw).errors ?? []).map((e) => e.path);

describe('normaliseLimitation', () => {
  it.each([null, undefined])('reads %p as no limitation', (raw) => {
    expect(normaliseLimitation(raw)).toEqual({});
  });

  it.each([5, 'x', [], true])('refuses a non-object %p', (raw) => {
    expect(normaliseLimitation(raw)).toEqual({ errors: [{ path: 'limitation', message: 'must be an object' }] });
  });

  it('normalises both time-range shapes, drops the id and unknown keys, and keeps the rest', () => {
    const out = normaliseLimitation({
      id: 'lim-1',
      extra: 1,
      daysOfWeek: 124,
      resourceIDs: ['r1', 'r2'],
      times: [
        { start: '09:00', end: '12:00' },
        { startTime: '13:00', endTime: '24:00' },
      ],
      dates: [{ start: '2026-03-01', end: '2026-03-31' }],
    });
    expect(out).toEqual({
      value: {
        daysOfWeek: 124,
        resourceIDs: ['r1', 'r2'],
        times: [
          { start: '09:00', end: '12:00' },
          { start: '13:00', end: '24:00' },
        ],
        dates: [{ start: '2026-03-01', end: '2026-03-31' }],
      },
    });
  });

  it('leaves null parts out and keeps empty lists and a zero mask', () => {
    expect(normaliseLimitation({ daysOfWeek: null, times: null, dates: [], resourceIDs: [] })).toEqual({
      value: { dates: [], resourceIDs: [] },
    });
    expect(normaliseLimitation({ daysOfWeek: 0 })).toEqual({ value: { daysOfWeek: 0 } });
    expect(normaliseLimitation({})).toEqual({ value: {} });
  });

  it('accepts the same value from both shapes', () => {
    const a = normaliseLimitation({ times: [{ start: '08:00', end: '09:30' }] });
    const b = normaliseLimitation({ times: [{ startTime: '08:00', endTime: '09:30' }] });
    expect(a).toEqual(b);
  });

  it.each([
    [{ start: '9:00', end: '10:00' }, 'limitation.times[0].start'],
    [{ start: '09:00', end: '10:60' }, 'limitation.times[0].end'],
    [{ start: '24:00', end: '24:00' }, 'limitation.times[0].start'],
    [{ start: '10:00', end: '10:00' }, 'limitation.times[0].end'],
    [{ start: '10:00', end: '09:00' }, 'limitation.times[0].end'],
    [{ startTime: '10:00', endTime: '09:00' }, 'limitation.times[0].endTime'],
    [{ startTime: '25:00', endTime: '23:00' }, 'limitation.times[0].startTime'],
    [{ end: '10:00' }, 'limitation.times[0].start'],
    [{ start: '09:00' }, 'limitation.times[0].end'],
    [{ start: 900, end: '10:00' }, 'limitation.times[0].start'],
    [{ start: '09:00', startTime: '10:00', end: '11:00' }, 'limitation.times[0].start'],
  ])('refuses time range %p at %s', (range, path) => {
    expect(paths({ times: [range] })).toEqual([path]);
  });

  it('accepts both spellings carrying the same value', () => {
    expect(normaliseLimitation({ times: [{ start: '09:00', startTime: '09:00', end: '10:00' }] })).toEqual({
      value: { times: [{ start: '09:00', end: '10:00' }] },
    });
  });

  it('explains the end-before-start error with the key the client sent', () => {
    expect(normaliseLimitation({ times: [{ startTime: '10:00', endTime: '10:00' }] }).errors).toEqual([
      { path: 'limitation.times[0].endTime', message: 'must be after startTime' },
    ]);
  });

  it('reports the index of the bad entry', () => {
    expect(paths({ times: [{ start: '08:00', end: '09:00' }, 'x', { start: '10:00', end: '09:00' }] })).toEqual([
      'limitation.times[1]',
      'limitation.times[2].end',
    ]);
  });

  it.each([128, -1, 1.5, '64', true])('refuses daysOfWeek %p', (mask) => {
    expect(paths({ daysOfWeek: mask })).toEqual(['limitation.daysOfWeek']);
  });

  it.each([0, 1, 3, 64, 124, 127])('accepts daysOfWeek %p', (mask) => {
    expect(normaliseLimitation({ daysOfWeek: mask })).toEqual({ value: { daysOfWeek: mask } });
  });

  it('checks resourceIDs', () => {
    expect(paths({ resourceIDs: 'r1' })).toEqual(['limitation.resourceIDs']);
    expect(paths({ resourceIDs: ['r1', 2, ''] })).toEqual(['limitation.resourceIDs[1]', 'limitation.resourceIDs[2]']);
  });

  it('checks the optional id', () => {
    expect(paths({ id: 5 })).toEqual(['limitation.id']);
    expect(normaliseLimitation({ id: null })).toEqual({ value: {} });
  });

  it('normalises instants to UTC and keeps dates as given', () => {
    expect(
      normaliseLimitation({
        dates: [
          { start: '2026-03-01T10:00:00+02:00', end: '2026-03-01T23:30:00.250-05:00' },
          { start: '2026-03-05', end: '2026-03-05' },
          { start: '2026-03-06', end: '2026-03-07t12:00:00z' },
        ],
      }),
    ).toEqual({
      value: {
        dates: [
          { start: '2026-03-01T08:00:00Z', end: '2026-03-02T04:30:00.250Z' },
          { start: '2026-03-05', end: '2026-03-05' },
          { start: '2026-03-06', end: '2026-03-07T12:00:00Z' },
        ],
      },
    });
  });

  it.each([
    [{ start: '2026-02-29', end: '2026-03-01' }, 'limitation.dates[0].start'],
    [{ start: '2028-02-29', end: '2028-02-28' }, 'limitation.dates[0].end'],
    [{ start: '2026-03-01', end: '2026-13-01' }, 'limitation.dates[0].end'],
    [{ start: '2026-03-01T10:00:00', end: '2026-03-02' }, 'limitation.dates[0].start'],
    [{ start: '2026-03-01T10:00Z', end: '2026-03-02' }, 'limitation.dates[0].start'],
    [{ start: '2026-03-01T24:00:00Z', end: '2026-03-02' }, 'limitation.dates[0].start'],
    [{ start: '2026-03-01T10:00:00+24:00', end: '2026-03-02' }, 'limitation.dates[0].start'],
    [{ start: '2026/03/01', end: '2026-03-02' }, 'limitation.dates[0].start'],
    [{ end: '2026-03-02' }, 'limitation.dates[0].start'],
    [{ start: '2026-03-02', end: '2026-03-01' }, 'limitation.dates[0].end'],
    [{ start: '2026-03-01T12:00:00Z', end: '2026-03-01T13:00:00+02:00' }, 'limitation.dates[0].end'],
    [{ start: '2026-03-02', end: '2026-03-01T23:00:00Z' }, 'limitation.dates[0].end'],
    [{ start: '2026-03-02T00:30:00+02:00', end: '2026-03-01' }, 'limitation.dates[0].end'],
  ])('refuses date range %p at %s', (range, path) => {
    expect(paths({ dates: [range] })).toEqual([path]);
  });

  it('accepts a range whose bounds are equal, leap days and mixed kinds in order', () => {
    expect(normaliseLimitation({ dates: [{ start: '2028-02-29', end: '2028-02-29' }] }).errors).toBeUndefined();
    expect(normaliseLimitation({ dates: [{ start: '2026-03-01T10:00:00Z', end: '2026-03-01T10:00:00Z' }] }).errors).toBeUndefined();
    expect(normaliseLimitation({ dates: [{ start: '2026-03-01', end: '2026-03-01T10:00:00Z' }] }).errors).toBeUndefined();
  });

  it('collects every error at once', () => {
    expect(paths({ daysOfWeek: 200, times: [{ start: 'x', end: 'y' }], dates: 'today' })).toEqual([
      'limitation.daysOfWeek',
      'limitation.times[0].start',
      'limitation.times[0].end',
      'limitation.dates',
    ]);
  });

  it('prefixes paths as asked', () => {
    expect(normaliseLimitation({ daysOfWeek: -1 }, 'rules[2].limitation').errors).toEqual([
      { path: 'rules[2].limitation.daysOfWeek', message: 'must be an integer from 0 to 127 (Mon 64 ... Sun 1)' },
    ]);
  });

  it('refuses oversized lists', () => {
    expect(paths({ resourceIDs: Array.from({ length: 1001 }, (_, i) => `r${i}`) })).toEqual(['limitation.resourceIDs']);
  });

  it('produces values the matcher compiles', () => {
    const { value } = normaliseLimitation({
      daysOfWeek: 3,
      times: [{ startTime: '10:00', endTime: '24:00' }],
      dates: [{ start: '2026-03-01T00:00:00+02:00', end: '2026-03-31' }],
    });
    const m = compileLimitation(value, 'Europe/Riga');
    expect(m({ resourceID: 'r', instant: Date.parse('2026-03-07T08:00:00Z'), date: '2026-03-07', weekday: 6, minuteOfDay: 600 })).toBe(
      true,
    );
    expect(m({ resourceID: 'r', instant: Date.parse('2026-03-06T08:00:00Z'), date: '2026-03-06', weekday: 5, minuteOfDay: 600 })).toBe(
      false,
    );
  });
});
