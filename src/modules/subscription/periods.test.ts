import { DateTime } from 'luxon';
import { isUsableRRule, nextPeriod, periodAt, rolloverVisits, type PeriodPlan } from './periods';

const RIGA = 'Europe/Riga';
const at = (iso: string) => DateTime.fromISO(iso, { zone: RIGA }).toMillis();
const iso = (ms: number | null) => (ms === null ? null : DateTime.fromMillis(ms, { zone: RIGA }).toISO({ suppressMilliseconds: true }));

describe('periods', () => {
  it('monthly periods keep the start wall time across a DST change and month ends', () => {
    const plan: PeriodPlan = { start: at('2026-01-31T09:00'), end: at('2027-01-31T09:00'), recurringInterval: 'month' };
    const p = periodAt(plan, RIGA, at('2026-03-30T12:00'))!;
    // Jan 31 + 2 months = Mar 31 (counted from the start, not from Feb 28)
    expect(p.index).toBe(1);
    expect(iso(p.start)).toBe('2026-02-28T09:00:00+02:00');
    expect(iso(p.end)).toBe('2026-03-31T09:00:00+03:00');
    const next = nextPeriod(plan, RIGA, p)!;
    expect(next.index).toBe(2);
    expect(iso(next.start)).toBe('2026-03-31T09:00:00+03:00');
  });

  it('the period boundary belongs to the later period', () => {
    const plan: PeriodPlan = { start: at('2026-03-23T00:00'), end: null, recurringInterval: 'week' };
    const boundary = at('2026-03-30T00:00'); // after the spring-forward night of 29 March
    expect(periodAt(plan, RIGA, boundary - 60_000)!.index).toBe(0);
    expect(periodAt(plan, RIGA, boundary)!.index).toBe(1);
    // the DST week is an hour shorter in real time, not in wall time
    const p0 = periodAt(plan, RIGA, at('2026-03-29T12:00'))!;
    expect(p0.end! - p0.start).toBe(7 * 86_400_000 - 3_600_000);
  });

  it('every second week, counted from the start', () => {
    const plan: PeriodPlan = { start: at('2026-01-05T00:00'), end: null, recurringInterval: 'week', recurringIntervalCount: 2 };
    const p = periodAt(plan, RIGA, at('2026-06-01T10:00'))!;
    expect(iso(p.start)).toBe('2026-05-25T00:00:00+03:00');
    expect(iso(p.end)).toBe('2026-06-08T00:00:00+03:00');
  });

  it('rRule occurrences start periods, in the zone', () => {
    // starts mid-month; periods begin on the 1st of every month at 00:00 local
    const plan: PeriodPlan = {
      start: at('2026-03-15T10:00'),
      end: at('2026-06-15T10:00'),
      rRule: 'FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=0;BYMINUTE=0;BYSECOND=0',
    };
    const first = periodAt(plan, RIGA, at('2026-03-20T10:00'))!;
    expect(first.index).toBe(0);
    expect(iso(first.start)).toBe('2026-03-15T10:00:00+02:00');
    expect(iso(first.end)).toBe('2026-04-01T00:00:00+03:00');
    const last = periodAt(plan, RIGA, at('2026-06-10T10:00'))!;
    expect(iso(last.start)).toBe('2026-06-01T00:00:00+03:00');
    expect(iso(last.end)).toBe('2026-06-15T10:00:00+03:00'); // cut at the contract's end
    expect(nextPeriod(plan, RIGA, last)).toBeNull();
    expect(periodAt(plan, RIGA, at('2026-06-15T10:00'))).toBeNull();
  });

  it('RRULE: prefix and a rule that ends', () => {
    const plan: PeriodPlan = { start: at('2026-01-01T00:00'), end: null, rRule: 'RRULE:FREQ=DAILY;COUNT=3' };
    // occurrences Jan 1 (the start), Jan 2, Jan 3: period 2 runs from Jan 3 with no end
    const p = periodAt(plan, RIGA, at('2026-02-01T00:00'))!;
    expect(p.index).toBe(2);
    expect(p.end).toBeNull();
  });

  it('fixed durations and a single period', () => {
    const start = at('2026-01-01T00:00');
    const plan: PeriodPlan = { start, end: start + 30 * 86_400_000, duration: 'P10D' };
    expect(periodAt(plan, RIGA, start + 25 * 86_400_000)).toEqual({
      index: 2,
      start: start + 20 * 86_400_000,
      end: start + 30 * 86_400_000,
    });
    expect(periodAt({ start, end: null }, RIGA, start + 1e12)).toEqual({ index: 0, start, end: null });
    expect(periodAt({ start, end: null }, RIGA, start - 1)).toBeNull();
  });

  it('recognises usable rules', () => {
    expect(isUsableRRule('FREQ=WEEKLY;BYDAY=MO')).toBe(true);
    expect(isUsableRRule('FREQ=NOPE')).toBe(false);
  });

  it('rolls over per settings', () => {
    expect(rolloverVisits({ rollOverType: 'none', settings: {} }, 5)).toBe(0);
    expect(rolloverVisits({ rollOverType: 'all', settings: {} }, 5)).toBe(5);
    expect(rolloverVisits({ rollOverType: 'capped', settings: { maxVisits: 2 } }, 5)).toBe(2);
    expect(rolloverVisits({ rollOverType: 'capped', settings: { maxVisits: 9 } }, 5)).toBe(5);
    expect(rolloverVisits({ rollOverType: 'capped', settings: {} }, 5)).toBe(0);
    expect(rolloverVisits({ rollOverType: 'all', settings: {} }, -2)).toBe(0);
    expect(rolloverVisits(null, 3)).toBe(0);
  });
});
