import { occurrenceStarts, shiftExdates, type SlotSeries } from './slot-expand';
import { normaliseWeek } from './working-hours.checks';

const at = (iso: string) => Date.parse(iso);

describe('occurrenceStarts', () => {
  const weekly: SlotSeries = {
    id: 's',
    resourceId: null,
    start: at('2026-03-21T07:00:00Z'),
    durationSec: 3600,
    rrule: 'FREQ=WEEKLY;BYDAY=SA,SU',
    timeZone: 'Europe/Riga',
    until: null,
    exdates: [at('2026-03-22T07:00:00Z')],
  };

  it('follows local time across DST, skips exdates and includes an occurrence running across `from`', () => {
    expect(
      occurrenceStarts(weekly, at('2026-03-21T07:30:00Z'), at('2026-03-30T00:00:00Z'), 100).map((t) => new Date(t).toISOString()),
    ).toEqual(['2026-03-21T07:00:00.000Z', '2026-03-28T07:00:00.000Z', '2026-03-29T06:00:00.000Z']);
  });

  it('treats a single slot as one occurrence with half-open overlap', () => {
    const single: SlotSeries = { ...weekly, rrule: null, timeZone: null, exdates: [] };
    expect(occurrenceStarts(single, at('2026-03-21T08:00:00Z'), at('2026-03-22T00:00:00Z'), 10)).toEqual([]);
    expect(occurrenceStarts(single, at('2026-03-20T00:00:00Z'), at('2026-03-21T07:00:00Z'), 10)).toEqual([]);
    expect(occurrenceStarts(single, at('2026-03-21T07:59:59Z'), at('2026-03-22T00:00:00Z'), 10)).toEqual([weekly.start]);
  });
});

describe('shiftExdates', () => {
  it('keeps an excluded date at the same local offset from the moved start, across DST', () => {
    // the series moves from 09:00 (EET, 07:00Z) to 10:00; an exclusion after the change is 09:00 EEST (06:00Z)
    expect(shiftExdates('Europe/Riga', [at('2026-04-11T06:00:00Z')], at('2026-03-21T07:00:00Z'), at('2026-03-21T08:00:00Z'))).toEqual([
      at('2026-04-11T07:00:00Z'),
    ]);
    expect(shiftExdates('Europe/Riga', [at('2026-04-11T06:00:00Z')], at('2026-03-21T07:00:00Z'), at('2026-03-21T07:00:00Z'))).toEqual([
      at('2026-04-11T06:00:00Z'),
    ]);
  });
});

describe('normaliseWeek', () => {
  it('merges per weekday and groups weekdays with equal hours, Monday first', () => {
    expect(
      normaliseWeek([
        {
          daysOfWeek: 3,
          hours: [
            [600, 720],
            [720, 780],
          ],
        },
        { daysOfWeek: 65, hours: [[540, 600]] },
        { daysOfWeek: 2, hours: [[540, 600]] },
      ]),
    ).toEqual([
      { daysOfWeek: 64, hours: [{ start: '09:00', end: '10:00' }] },
      { daysOfWeek: 3, hours: [{ start: '09:00', end: '13:00' }] },
    ]);
    expect(normaliseWeek([{ daysOfWeek: 127, hours: [] }])).toEqual([]);
  });
});
