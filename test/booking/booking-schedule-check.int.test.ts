import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';

/**
 * The schedule check of a new booking reads the availability document loaded with the service
 * and resource in one statement; these pin what it must still see.
 */
let t: TestApp;
let s: Shop;
const clock = new TestClock(Date.parse('2026-03-01T00:00:00Z'));

beforeAll(async () => {
  t = await createTestApp({ clock });
  s = await Shop.open(t, 'Check shop', 'UTC');
});
afterAll(async () => t?.close());

const statements = async (): Promise<number> => {
  const m = await t.call('GET', '/metrics', { key: null });
  return Number(/^db_statements_total (\d+)/m.exec(m.text)?.[1]);
};

describe('the schedule check of a new booking', () => {
  it('costs three statements (key, service with resource and schedule, insert) and still refuses a taken time before the insert', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const before = await statements();
    const first = await s.book({ serviceID: sid, resourceID: rids[0], startTime: '2026-03-05T10:00:00Z' });
    expect(first.status).toBe(200);
    expect((await statements()) - before).toBe(3);
    const again = await s.book({ serviceID: sid, resourceID: rids[0], startTime: '2026-03-05T10:30:00Z' });
    expect(again.status).toBe(409);
    // refused by the check ("not available"), not only by the database constraint ("no longer available")
    expect(again.body).toMatchObject({ code: 'time_unavailable', message: 'the requested time is not available' });
  });

  it('sees bookings further ahead than the document loaded ahead reaches, for a booking longer than a day', async () => {
    const long = await s.service('fixed', { duration: 'PT100H' }, 'Long hire');
    const short = await s.service('fixed', { duration: 'PT1H' }, 'Short hire');
    const rid = await s.resource('Boat');
    await s.link(long, rid);
    await s.link(short, rid);
    await s.hours(rid);
    // 84 hours after the long booking would start: beyond start + 1 day + the 2-day margin
    expect((await s.book({ serviceID: short, resourceID: rid, startTime: '2026-03-13T12:00:00Z' })).status).toBe(200);
    const r = await s.book({ serviceID: long, resourceID: rid, startTime: '2026-03-10T00:00:00Z' });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'time_unavailable', message: 'the requested time is not available' });
    expect((await s.book({ serviceID: long, resourceID: rid, startTime: '2026-03-14T00:00:00Z' })).status).toBe(200);
  });

  it('checks working hours and closings from the same document', async () => {
    const sid = await s.service('fixed', { duration: 'PT1H' }, 'Day only');
    const rid = await s.resource('Desk');
    await s.link(sid, rid);
    await s.hours(rid, '09:00', '17:00');
    const night = await s.book({ serviceID: sid, resourceID: rid, startTime: '2026-03-06T20:00:00Z' });
    expect(night.status).toBe(409);
    expect((await s.book({ serviceID: sid, resourceID: rid, startTime: '2026-03-06T09:00:00Z' })).status).toBe(200);
  });
});
