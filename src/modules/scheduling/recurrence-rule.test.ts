import { parseRepeat, parseTimestamp } from './recurrence-rule';

// Expectations are literal UTC instants so that a run under any process TZ checks the same thing:
// run with TZ=UTC, TZ=America/New_York and TZ=Asia/Kolkata.

const t = (iso: string) => Date.parse(iso);
const RIGA = 'Europe/Riga';
const NY = 'America/New_York';

function errorsOf(raw: unknown) {
  const result = parseRepeat(raw);
  expect(result.value).toBeUndefined();
  return result.errors ?? [];
}

/** The messages about the rule, one per line. */
function rruleError(rrule: string): string {
  const errors = errorsOf({ rrule, timeZone: RIGA });
  expect(errors.length).toBeGreaterThan(0);
  expect(errors.every((e) => e.path === 'repeat.rrule')).toBe(true);
  return errors.map((e) => e.message).join('\n');
}

describe('parseRepeat', () => {
  it('accepts a rule with or without the RRULE: prefix and normalises it', () => {
    const plain = parseRepeat({ rrule: 'FREQ=WEEKLY;BYDAY=MO', timeZone: RIGA });
    const prefixed = parseRepeat({ rrule: ' rrule:freq=weekly;byday=mo; ', timeZone: RIGA });
    expect(plain).toEqual({ value: { rrule: 'FREQ=WEEKLY;BYDAY=MO', timeZone: RIGA, until: null } });
    expect(prefixed).toEqual(plain);
  });

  it('orders parts canonically and keeps UNTIL in the form given', () => {
    const { value } = parseRepeat({ rrule: 'WKST=SU;BYSETPOS=-1;BYDAY=MO,TU,+2WE;UNTIL=20261231;INTERVAL=2;FREQ=MONTHLY', timeZone: NY });
    expect(value?.rrule).toBe('FREQ=MONTHLY;INTERVAL=2;UNTIL=20261231;BYDAY=MO,TU,2WE;BYSETPOS=-1;WKST=SU');
    expect(parseRepeat({ rrule: value!.rrule, timeZone: NY }).value?.rrule).toBe(value!.rrule);
    expect(parseRepeat({ rrule: 'FREQ=DAILY;UNTIL=20261231T120000Z', timeZone: NY }).value?.rrule).toBe(
      'FREQ=DAILY;UNTIL=20261231T120000Z',
    );
    expect(parseRepeat({ rrule: 'FREQ=DAILY;BYHOUR=17,8,8;BYMINUTE=0,30', timeZone: NY }).value?.rrule).toBe(
      'FREQ=DAILY;BYHOUR=17,8;BYMINUTE=0,30',
    );
  });

  it('parses until as an instant with its offset', () => {
    const { value } = parseRepeat({ rrule: 'FREQ=DAILY', timeZone: RIGA, until: '2026-12-31T23:59:59+02:00' });
    expect(value?.until).toBe(t('2026-12-31T21:59:59Z'));
    expect(parseRepeat({ rrule: 'FREQ=DAILY', timeZone: RIGA, until: null }).value?.until).toBeNull();
    expect(parseTimestamp('2026-06-01T10:00:00.250Z')).toBe(t('2026-06-01T10:00:00.250Z'));
  });

  it('rejects values that are not a repeat object', () => {
    expect(errorsOf(null)).toEqual([{ path: 'repeat', message: expect.any(String) }]);
    expect(errorsOf('FREQ=DAILY')).toHaveLength(1);
    expect(parseRepeat([], 'input.repeat').errors?.[0].path).toBe('input.repeat');
    expect(errorsOf({ timeZone: RIGA }).map((e) => e.path)).toEqual(['repeat.rrule']);
  });

  it('reports every bad field', () => {
    const errors = errorsOf({ rrule: 'FREQ=FORTNIGHTLY', timeZone: 'Mars/Base', until: '2026-12-31T23:59:59' });
    expect(errors.map((e) => e.path)).toEqual(['repeat.rrule', 'repeat.timeZone', 'repeat.until']);
  });

  it.each<[unknown, string]>([
    ['2026-12-31', 'date only'],
    ['2026-02-30T10:00:00Z', 'no such day'],
    ['2026-12-31T24:00:00Z', 'hour 24'],
    ['2026-12-31T10:00:00+25:00', 'offset out of range'],
    [1767225599000, 'a number'],
  ])('rejects until %p (%s)', (until, _why) => {
    expect(errorsOf({ rrule: 'FREQ=DAILY', timeZone: RIGA, until }).map((e) => e.path)).toEqual(['repeat.until']);
  });

  it('rejects garbage', () => {
    expect(rruleError('garbage')).toBe("invalid rule part 'garbage' (expected NAME=VALUE)\nFREQ is required");
    expect(rruleError('')).toMatch(/empty/);
    expect(rruleError('FREQ=DAILY;COUNT=abc')).toMatch(/COUNT must be an integer/);
    expect(rruleError('FREQ=DAILY;BYDAY=XX')).toMatch(/BYDAY must list weekdays/);
    expect(rruleError('FREQ=DAILY;BYHOUR=24')).toMatch(/BYHOUR/);
    expect(rruleError('FREQ=DAILY;X-NAME=1')).toMatch(/unknown rule part 'X-NAME'/);
    expect(rruleError('FREQ=DAILY;FREQ=WEEKLY')).toMatch(/more than once/);
    expect(rruleError('FREQ=DAILY;UNTIL=2026-12-31')).toMatch(/UNTIL must be a date/);
    expect(rruleError('FREQ=DAILY;UNTIL=20260230')).toMatch(/UNTIL must be a date/);
    expect(rruleError('FREQ=DAILY\nFREQ=WEEKLY')).toMatch(/single RRULE line/);
    expect(rruleError('FREQ=DAILY;'.repeat(60))).toMatch(/at most/);
  });

  it('rejects DTSTART and TZID inside the rule', () => {
    expect(rruleError('DTSTART:20260101T090000Z\nRRULE:FREQ=DAILY')).toMatch(/must not contain DTSTART or TZID/);
    expect(rruleError('FREQ=WEEKLY;DTSTART=20260101T090000Z')).toMatch(/DTSTART/);
    expect(rruleError('DTSTART;TZID=Europe/Riga:20260101T090000')).toMatch(/DTSTART/);
    expect(rruleError('FREQ=DAILY;TZID=Europe/Riga')).toMatch(/TZID/);
  });

  it('requires FREQ and rejects unsupported frequencies and parts', () => {
    expect(rruleError('BYDAY=MO;COUNT=3')).toBe('FREQ is required');
    expect(rruleError('FREQ=FORTNIGHTLY')).toMatch(/FREQ must be one of DAILY, WEEKLY, MONTHLY, YEARLY/);
    expect(rruleError('FREQ=HOURLY')).toMatch(/FREQ=HOURLY is not supported: use FREQ=DAILY with BYHOUR/);
    expect(rruleError('FREQ=YEARLY;BYWEEKNO=20')).toBe('BYWEEKNO is not supported');
    expect(rruleError('FREQ=DAILY;BYSECOND=30')).toBe('BYSECOND is not supported');
  });

  it('rejects out-of-range and contradictory parts', () => {
    expect(rruleError('FREQ=DAILY;COUNT=0')).toMatch(/COUNT must be an integer from 1 to 10000/);
    expect(rruleError('FREQ=DAILY;COUNT=10001')).toMatch(/COUNT/);
    expect(rruleError('FREQ=DAILY;INTERVAL=0')).toMatch(/INTERVAL must be an integer from 1/);
    expect(rruleError('FREQ=MONTHLY;BYMONTHDAY=0')).toMatch(/BYMONTHDAY/);
    expect(rruleError('FREQ=MONTHLY;BYMONTHDAY=32')).toMatch(/BYMONTHDAY/);
    expect(rruleError('FREQ=DAILY;COUNT=3;UNTIL=20261231')).toBe('COUNT and UNTIL must not both be given');
    expect(rruleError('FREQ=WEEKLY;BYDAY=1MO')).toMatch(/needs FREQ=MONTHLY or FREQ=YEARLY/);
    expect(rruleError('FREQ=MONTHLY;BYDAY=6MO')).toMatch(/from -5 to 5/);
    expect(rruleError('FREQ=MONTHLY;BYDAY=0MO')).toMatch(/BYDAY must list weekdays/);
    expect(rruleError('FREQ=WEEKLY;BYMONTHDAY=1')).toMatch(/must not be used with FREQ=WEEKLY/);
    expect(rruleError('FREQ=MONTHLY;BYSETPOS=1')).toMatch(/BYSETPOS needs another/);
    expect(rruleError('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30')).toBe('BYMONTH and BYMONTHDAY never coincide');
    expect(parseRepeat({ rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29', timeZone: RIGA }).errors).toBeUndefined();
  });
});
