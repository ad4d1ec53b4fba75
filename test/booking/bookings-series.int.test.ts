import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { countRows, occupancyOf, Shop } from '../helpers/bookings-fixtures';

let t: TestApp;
let s: Shop;
const clock = new TestClock(Date.parse('2026-03-01T00:00:00Z'));

beforeAll(async () => {
  t = await createTestApp({ clock });
  s = await Shop.open(t, 'Series shop', 'Europe/Riga');
});
afterAll(async () => t?.close());

const at = (month: number, day: number, hour: number, minute = 0) =>
  new Date(Date.UTC(2026, month - 1, day, hour, minute)).toISOString().replace('.000Z', 'Z');
const seriesOf = (recurringId: string) =>
  s.list({ includeFailures: true, limit: 100 }).then((r) => r.body.bookings.filter((b: any) => b.recurringID === recurringId));

describe('recurring series', () => {
  it('creates every occurrence with one recurringID, keeping the local wall time across DST', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const r = await s.book({
      serviceID: sid,
      resourceID: rids[0],
      startTime: '2026-03-27T10:00:00+02:00',
      repeat: { rrule: 'FREQ=DAILY;COUNT=4', timeZone: 'Europe/Riga' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ startTime: at(3, 27, 8), rrule: 'FREQ=DAILY;COUNT=4', recurringID: expect.any(String) });
    const all = await seriesOf(r.body.recurringID);
    // 10:00 in Riga is 08:00Z before the change on March 29 and 07:00Z after it.
    expect(all.map((b: any) => b.startTime)).toEqual([at(3, 27, 8), at(3, 28, 8), at(3, 29, 7), at(3, 30, 7)]);
    expect(new Set(all.map((b: any) => b.rrule))).toEqual(new Set(['FREQ=DAILY;COUNT=4']));
  });

  it('creates nothing when one occurrence is taken, and names it', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H', timeInterval: 'PT30M' });
    await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(4, 8, 9, 30) });
    const r = await s.book({
      serviceID: sid,
      resourceID: rids[0],
      startTime: at(4, 6, 9),
      repeat: { rrule: 'FREQ=DAILY', timeZone: 'UTC', until: '2026-04-10T23:59:59Z' },
    });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'time_unavailable', details: [{ path: 'repeat', message: `${at(4, 8, 9)} is not available` }] });
    expect(await countRows(t, 'select count(*) as n from booking where service_id = ? and recurring_id is not null', [sid])).toBe(0);
  });

  it('lets the database refuse occurrences that overlap each other, atomically', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT2H', timeInterval: 'PT1H' });
    const r = await s.book({
      serviceID: sid,
      resourceID: rids[0],
      startTime: at(5, 4, 9),
      repeat: { rrule: 'FREQ=DAILY;BYHOUR=9,10;COUNT=4', timeZone: 'UTC' },
    });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'time_unavailable', details: [{ path: 'repeat', message: `${at(5, 4, 10)} is not available` }] });
    expect(await countRows(t, 'select count(*) as n from booking where service_id = ?', [sid])).toBe(0);
    expect(await countRows(t, 'select count(*) as n from booking_occupancy where resource_id = ?', [rids[0]])).toBe(0);
  });

  it('refuses unbounded series and series of more than 366 occurrences', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const body = { serviceID: sid, resourceID: rids[0], startTime: at(6, 1, 9) };
    for (const repeat of [
      { rrule: 'FREQ=DAILY', timeZone: 'UTC' },
      { rrule: 'FREQ=DAILY;COUNT=367', timeZone: 'UTC' },
      { rrule: 'FREQ=DAILY', timeZone: 'UTC', until: '2028-01-01T00:00:00Z' },
    ]) {
      const r = await s.book({ ...body, repeat });
      expect([r.status, r.body.code, r.body.details[0].path]).toEqual([400, 'invalid_request', 'repeat']);
    }
    expect(await countRows(t, 'select count(*) as n from booking where service_id = ?', [sid])).toBe(0);
  });
});

describe('move', () => {
  it('moves one booking to another resource and time, freeing the old time', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' }, 2);
    const b = (await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(7, 1, 9) })).body;
    const r = await s.move(b.id, { resourceID: rids[1], startTime: at(7, 1, 11) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: b.id, resourceID: rids[1], startTime: at(7, 1, 11), endTime: at(7, 1, 12), status: 'confirmed' });
    expect(r.body.statusChanges).toHaveLength(1);
    expect(await occupancyOf(t, b.id)).toEqual([{ resource_id: rids[1], source: 'booking', lower: at(7, 1, 11), upper: at(7, 1, 12) }]);
    expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(7, 1, 9) })).status).toBe(200);
  });

  it('may overlap its own old time', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H', timeInterval: 'PT30M' });
    const b = (await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(7, 2, 9) })).body;
    expect((await s.move(b.id, { resourceID: rids[0], startTime: at(7, 2, 9, 30) })).status).toBe(200);
  });

  it('refuses a busy target, the schedule unless ignoreSchedule, and non-holding bookings', async () => {
    const sid = await s.service('fixed', { duration: 'PT1H' });
    const rid = await s.resource('Mornings');
    await s.link(sid, rid);
    await s.hours(rid, '09:00', '12:00');
    const b = (await s.book({ serviceID: sid, resourceID: rid, startTime: '2026-07-03T09:00:00+03:00' })).body;
    const other = (await s.book({ serviceID: sid, resourceID: rid, startTime: '2026-07-03T11:00:00+03:00' })).body;
    const busy = await s.move(b.id, { resourceID: rid, startTime: '2026-07-03T10:30:00+03:00' });
    expect([busy.status, busy.body.code]).toEqual([409, 'time_unavailable']);
    const late = await s.move(b.id, { resourceID: rid, startTime: '2026-07-03T18:00:00+03:00' });
    expect(late.status).toBe(409);
    expect((await s.get(b.id)).body.startTime).toBe(at(7, 3, 6));
    const forced = await s.move(b.id, { resourceID: rid, startTime: '2026-07-03T18:00:00+03:00', ignoreSchedule: true });
    expect(forced.status).toBe(200);
    await s.patch(other.id, { status: 'cancelled' });
    expect((await s.move(other.id, { resourceID: rid, startTime: '2026-07-03T10:00:00+03:00' })).body.code).toBe('conflict');
    for (const body of [
      { startTime: at(7, 3, 9) },
      { resourceID: rid },
      { resourceID: rid, startTime: at(7, 3, 9), recurringUpdateStrategy: 'all' },
      { resourceID: rid, startTime: at(7, 3, 9), recalculatePrice: 'yes' },
    ]) {
      expect((await s.move(b.id, body)).status).toBe(400);
    }
  });

  it('keeps the price unless recalculatePrice', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    await s.price(sid, 'fixed', 1000);
    const b = (await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(7, 4, 9) })).body;
    await s.price(sid, 'fixed', 1500, { priority: 9 });
    expect((await s.move(b.id, { resourceID: rids[0], startTime: at(7, 4, 11) })).body.price).toBe(1000);
    expect((await s.move(b.id, { resourceID: rids[0], startTime: at(7, 4, 13), recalculatePrice: true })).body.price).toBe(1500);
  });

  it('moves this and every later booking of a series with upcoming, all or nothing', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' }, 2);
    const first = (
      await s.book({
        serviceID: sid,
        resourceID: rids[0],
        startTime: at(8, 3, 9),
        repeat: { rrule: 'FREQ=DAILY;COUNT=4', timeZone: 'UTC' },
      })
    ).body;
    const series = await seriesOf(first.recurringID);
    expect(series).toHaveLength(4);
    const second = series[1];

    // A booking in the way of the last occurrence's new time stops the whole move.
    const blocker = (await s.book({ serviceID: sid, resourceID: rids[1], startTime: at(8, 6, 11) })).body;
    const blocked = await s.move(second.id, { resourceID: rids[1], startTime: at(8, 4, 11), recurringUpdateStrategy: 'upcoming' });
    expect(blocked.status).toBe(409);
    expect(blocked.body.details).toEqual([{ path: 'startTime', message: `${at(8, 6, 11)} is not available` }]);
    expect((await seriesOf(first.recurringID)).map((b: any) => [b.resourceID, b.startTime])).toEqual(
      series.map((b: any) => [b.resourceID, b.startTime]),
    );

    await s.patch(blocker.id, { status: 'cancelled' });
    const moved = await s.move(second.id, { resourceID: rids[1], startTime: at(8, 4, 11), recurringUpdateStrategy: 'upcoming' });
    expect(moved.status).toBe(200);
    expect((await seriesOf(first.recurringID)).map((b: any) => [b.resourceID === rids[1], b.startTime])).toEqual([
      [false, at(8, 3, 9)],
      [true, at(8, 4, 11)],
      [true, at(8, 5, 11)],
      [true, at(8, 6, 11)],
    ]);

    // single moves only the one booking
    const third = (await seriesOf(first.recurringID))[2];
    await s.move(third.id, { resourceID: rids[0], startTime: at(8, 5, 15), recurringUpdateStrategy: 'single' });
    expect((await seriesOf(first.recurringID)).map((b: any) => b.startTime)).toEqual([
      at(8, 3, 9),
      at(8, 4, 11),
      at(8, 5, 15),
      at(8, 6, 11),
    ]);
  });

  it('moves a series onto its own old times (shifting by less than the length)', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT2H', timeInterval: 'PT1H' });
    const first = (
      await s.book({
        serviceID: sid,
        resourceID: rids[0],
        startTime: at(9, 1, 9),
        repeat: { rrule: 'FREQ=DAILY;COUNT=3', timeZone: 'UTC' },
      })
    ).body;
    const r = await s.move(first.id, { resourceID: rids[0], startTime: at(9, 1, 10), recurringUpdateStrategy: 'upcoming' });
    expect(r.status).toBe(200);
    expect((await seriesOf(first.recurringID)).map((b: any) => b.startTime)).toEqual([at(9, 1, 10), at(9, 2, 10), at(9, 3, 10)]);
  });
});
