import {
  HEAVY_STARTS,
  isHeavy,
  rowOpenResources,
  rowResources,
  THREAD_STARTS,
  worthAThread,
  type ParsedQuery,
} from './availability.compute';
import type { SnapshotRow } from './snapshot';

const DAY = 86_400_000;
const query = (days: number, resourceIds: string[] | null = null): ParsedQuery => ({
  from: 0,
  to: days * DAY,
  resourceIds,
  durationSec: null,
  spots: null,
  tickets: null,
  includePast: false,
});

function row(links: { id: string; disabled?: boolean }[], hours: { resourceId: string; days: SnapshotRow['hours'][number]['days'] }[]) {
  return {
    links: links.map((l) => ({ resourceId: l.id, name: l.id, disabled: !!l.disabled, related: null })),
    hours: hours.map((h, i) => ({
      id: `h${i}`,
      resourceId: h.resourceId,
      priority: 0,
      createdAt: 0,
      start: null,
      end: null,
      serviceIds: [],
      days: h.days,
    })),
  } as unknown as SnapshotRow;
}

const salon = (start: string, end: string) => [{ daysOfWeek: 126, hours: [{ start, end }] }];

describe('rowOpenResources: resources weighed by the share of a day they can be open', () => {
  test('a resource without working hours counts whole; disabled and unasked ones do not count', () => {
    const r = row([{ id: 'a' }, { id: 'b', disabled: true }, { id: 'c' }], []);
    expect(rowOpenResources(r, query(1))).toBe(2);
    expect(rowOpenResources(r, query(1, ['a']))).toBe(1);
    expect(rowOpenResources(r, query(1, ['b']))).toBe(0);
  });

  test('the largest day of any rule: 9 hours of two intervals is 0.375 of a day', () => {
    const days = [
      {
        daysOfWeek: 126,
        hours: [
          { start: '09:00', end: '13:00' },
          { start: '14:00', end: '19:00' },
        ],
      },
    ];
    expect(rowOpenResources(row([{ id: 'a' }], [{ resourceId: 'a', days }]), query(1))).toBe(0.375);
    // a second rule open longer on Sundays raises the bound
    const sunday = [{ daysOfWeek: 1, hours: [{ start: '06:00', end: '24:00' }] }];
    expect(
      rowOpenResources(
        row(
          [{ id: 'a' }],
          [
            { resourceId: 'a', days },
            { resourceId: 'a', days: sunday },
          ],
        ),
        query(1),
      ),
    ).toBe(0.75);
  });

  test('a whole day (00:00-24:00), an interval over midnight, and more than a day of intervals is at most 1', () => {
    expect(rowOpenResources(row([{ id: 'a' }], [{ resourceId: 'a', days: salon('00:00', '24:00') }]), query(1))).toBe(1);
    expect(rowOpenResources(row([{ id: 'a' }], [{ resourceId: 'a', days: salon('22:00', '02:00') }]), query(1))).toBe(4 / 24);
    const twice = [
      {
        daysOfWeek: 127,
        hours: [
          { start: '00:00', end: '24:00' },
          { start: '00:00', end: '24:00' },
        ],
      },
    ];
    expect(rowOpenResources(row([{ id: 'a' }], [{ resourceId: 'a', days: twice }]), query(1))).toBe(1);
  });

  test('closed days (no hours) weigh nothing', () => {
    expect(rowOpenResources(row([{ id: 'a' }], [{ resourceId: 'a', days: [{ daysOfWeek: 127, hours: [] }] }]), query(1))).toBe(0);
  });
});

describe('rowResources: every linked, enabled resource asked counts whole', () => {
  test('disabled and unasked ones do not count, working hours do not matter', () => {
    const r = row([{ id: 'a' }, { id: 'b', disabled: true }, { id: 'c' }], [{ resourceId: 'a', days: salon('09:00', '10:00') }]);
    expect(rowResources(r, query(1))).toBe(2);
    expect(rowResources(r, query(1, ['c', 'b']))).toBe(1);
  });
});

describe('isHeavy and worthAThread: the bound of start times against HEAVY_STARTS and THREAD_STARTS', () => {
  test('the boundaries: exactly the limit is below, one step more is above', () => {
    const step = 900;
    for (const [limit, check] of [
      [HEAVY_STARTS, isHeavy],
      [THREAD_STARTS, worthAThread],
    ] as const) {
      const days = (limit * step) / 86_400; // one resource: 96 starts a day
      expect(check(1, step, query(days))).toBe(false);
      expect(check(1, step, { ...query(days), to: days * DAY + step * 1000 })).toBe(true);
    }
  });

  test('the month of 20 resources open 9 hours a day on a 15-minute grid: expensive, but not worth a thread; open around the clock it is', () => {
    expect(isHeavy(20, 900, query(30))).toBe(true);
    expect(worthAThread(20 * 0.375, 900, query(30))).toBe(false);
    expect(worthAThread(20, 900, query(30))).toBe(true);
  });

  test('the step is at least 5 minutes, and unknown means 15', () => {
    expect(isHeavy(1, 60, query(90))).toBe(isHeavy(1, 300, query(90)));
    expect(isHeavy(1, null, query(300))).toBe(isHeavy(1, 900, query(300)));
  });
});
