import { Check } from '../../shared/validate';
import {
  addDuration,
  checkIsoDuration,
  checkLimitations,
  checkRollOver,
  checkRRule,
  checkSubscriptionFields,
  newSubscriptionDefaults,
} from './subscription.checks';
import { newContractCode, normaliseContractCode } from './contract.service';

const run = <T>(fn: (c: Check) => T): { value: T; paths: string[] } => {
  const c = new Check();
  const value = fn(c);
  return { value, paths: c.details.map((d) => d.path) };
};

describe('checkIsoDuration', () => {
  it.each(['P1M', 'P1Y', 'PT90M', 'P2W', 'p1d', 'P1DT2H'])('accepts %s', (d) => {
    expect(run((c) => checkIsoDuration(c, 'd', d)).paths).toEqual([]);
  });
  it.each(['1M', 'P', 'PT', 'P1.5D', 'PT0S', 'P0D', 'P200Y', 'soon', 12])('refuses %s', (d) => {
    expect(run((c) => checkIsoDuration(c, 'd', d)).paths).toEqual(['d']);
  });
  it('keeps calendar units and upper-cases', () => {
    expect(run((c) => checkIsoDuration(c, 'd', 'p1m')).value).toBe('P1M');
  });
  it('treats null as cleared and undefined as absent, both refused when required', () => {
    expect(run((c) => checkIsoDuration(c, 'd', null)).value).toBeNull();
    expect(run((c) => checkIsoDuration(c, 'd', undefined, true)).paths).toEqual(['d']);
    expect(run((c) => checkIsoDuration(c, 'd', null, true)).paths).toEqual(['d']);
  });
});

describe('addDuration', () => {
  it('counts calendar months in the zone (31 January + 1 month = end of February)', () => {
    expect(addDuration(new Date('2026-01-31T10:00:00Z'), 'P1M', 'Europe/Riga').toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addDuration(new Date('2028-01-31T10:00:00Z'), 'P1M', 'Europe/Riga').toISOString()).toBe('2028-02-29T10:00:00.000Z');
  });
  it('keeps the local time across a DST change (a day is 23 hours there)', () => {
    // Riga moves to summer time on 29 March 2026 at 03:00
    expect(addDuration(new Date('2026-03-28T22:00:00Z'), 'P1D', 'Europe/Riga').toISOString()).toBe('2026-03-29T21:00:00.000Z');
    expect(addDuration(new Date('2026-03-28T22:00:00Z'), 'PT24H', 'Europe/Riga').toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });
});

describe('checkRRule', () => {
  it.each(['FREQ=MONTHLY;INTERVAL=1', 'RRULE:FREQ=WEEKLY;BYDAY=MO', 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY;COUNT=3', 'FREQ=YEARLY'])(
    'accepts %j',
    (r) => {
      expect(run((c) => checkRRule(c, 'rRule', r)).paths).toEqual([]);
    },
  );
  it.each([
    'garbage',
    'INTERVAL=2',
    'FREQ=SOMETIMES',
    'FREQ=HOURLY',
    'FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30',
    'FREQ=DAILY;COUNT=x',
    'FREQ=DAILY;INTERVAL=0',
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30',
    'x'.repeat(1001),
  ])('refuses %j', (r) => {
    expect(run((c) => checkRRule(c, 'rRule', r)).paths).toEqual(['rRule']);
  });
  it('clears with null or an empty string', () => {
    expect(run((c) => checkRRule(c, 'rRule', '')).value).toBeNull();
  });
});

describe('checkLimitations', () => {
  const T = '123e4567-e89b-42d3-a456-426614174000';
  it('accepts every part and drops a zero day mask', () => {
    const { value, paths } = run((c) =>
      checkLimitations(c, {
        bookingsCount: 8,
        daysOfWeek: 0,
        maxDuration: 'pt90m',
        maxSpotsPerBooking: 2,
        maxTicketsPerBooking: { [T.toUpperCase()]: 2 },
        times: [
          { startTime: '00:00', endTime: '00:01' },
          { startTime: '23:59', endTime: '24:00' },
        ],
      }),
    );
    expect(paths).toEqual([]);
    expect(value).toEqual({
      bookingsCount: 8,
      maxDuration: 'PT90M',
      maxSpotsPerBooking: 2,
      maxTicketsPerBooking: { [T]: 2 },
      times: [
        { startTime: '00:00', endTime: '00:01' },
        { startTime: '23:59', endTime: '24:00' },
      ],
    });
  });
  it.each([
    [{ daysOfWeek: 127 }, []],
    [{ daysOfWeek: 128 }, ['limitations.daysOfWeek']],
    [{ bookingsCount: 0 }, ['limitations.bookingsCount']],
    [{ times: [{ startTime: '24:00', endTime: '24:00' }] }, ['limitations.times[0].startTime']],
    [{ times: [{ startTime: '10:00' }] }, ['limitations.times[0].endTime']],
    [{ times: 'mornings' }, ['limitations.times']],
    [{ times: Array.from({ length: 51 }, () => ({ startTime: '08:00', endTime: '09:00' })) }, ['limitations.times']],
    [{ maxTicketsPerBooking: { [T]: 0 } }, [`limitations.maxTicketsPerBooking.${T}`]],
    [{ maxTicketsPerBooking: [] }, ['limitations.maxTicketsPerBooking']],
    [{ visits: 3 }, ['limitations.visits']],
  ])('%j -> %j', (raw, paths) => {
    expect(run((c) => checkLimitations(c, raw)).paths).toEqual(paths);
  });
  it('reads null as no limitation', () => {
    expect(run((c) => checkLimitations(c, null)).value).toEqual({});
  });
});

describe('checkRollOver', () => {
  it.each([
    [{ rollOverType: 'none' }, []],
    [{ rollOverType: 'all', settings: {} }, []],
    [{ rollOverType: 'capped', settings: { maxVisits: 0 } }, []],
    [{ rollOverType: 'capped' }, ['rollOverSettings.settings.maxVisits']],
    [
      { rollOverType: 'capped', settings: { maxVisits: 1.5 } },
      ['rollOverSettings.settings.maxVisits', 'rollOverSettings.settings.maxVisits'],
    ],
    [{}, ['rollOverSettings.rollOverType']],
    [{ rollOverType: 'all', settings: 3 }, ['rollOverSettings.settings']],
  ])('%j -> %j', (raw, paths) => {
    expect(run((c) => checkRollOver(c, raw)).paths).toEqual(paths);
  });
});

describe('checkSubscriptionFields', () => {
  const base = { ...newSubscriptionDefaults(), title: 'A', duration: 'P1M' };
  it('defaults the interval count to 1 and clears it without an interval', () => {
    expect(run((c) => checkSubscriptionFields(c, base, { recurringInterval: 'month' })).value.recurringIntervalCount).toBe(1);
    expect(
      run((c) =>
        checkSubscriptionFields(c, { ...base, recurringInterval: 'month', recurringIntervalCount: 3 }, { recurringInterval: null }),
      ).value.recurringIntervalCount,
    ).toBeNull();
  });
  it('wants an ordered window and one recurrence when recurring', () => {
    const t = new Date('2026-01-01T00:00:00Z');
    expect(run((c) => checkSubscriptionFields(c, base, { availableFrom: t, availableTo: t })).paths).toEqual(['availableTo']);
    expect(run((c) => checkSubscriptionFields(c, base, { recurringEnabled: true })).paths).toEqual(['recurringEnabled']);
    expect(run((c) => checkSubscriptionFields(c, base, { rRule: 'FREQ=DAILY', recurringInterval: 'day' })).paths).toEqual([
      'recurringInterval',
    ]);
  });
});

describe('contract codes and statuses', () => {
  it('draws codes of the gift card shape that normalise to themselves', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const code = newContractCode();
      expect(code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}-[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}-[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}$/);
      expect(normaliseContractCode(code.toLowerCase().replace(/-/g, ' '))).toBe(code);
      seen.add(code);
    }
    expect(seen.size).toBe(500);
    expect(normaliseContractCode('K7QM-X2HD-9PT0')).toBeNull();
    expect(normaliseContractCode('K7QM-X2HD')).toBeNull();
  });
});
