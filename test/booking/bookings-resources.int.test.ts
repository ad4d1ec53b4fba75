import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { countRows, occupancyOf, Shop } from '../helpers/bookings-fixtures';

let t: TestApp;
let s: Shop;
const clock = new TestClock(Date.parse('2026-03-01T00:00:00Z'));

beforeAll(async () => {
  t = await createTestApp({ clock });
  s = await Shop.open(t, 'Resource shop', 'UTC');
});
afterAll(async () => t?.close());
beforeEach(() => clock.set('2026-03-01T00:00:00Z'));

const at = (day: number, hour: number, minute = 0) => new Date(Date.UTC(2026, 2, day, hour, minute)).toISOString().replace('.000Z', 'Z');

async function open(name: string): Promise<string> {
  const rid = await s.resource(name);
  await s.hours(rid);
  return rid;
}

describe('related resources', () => {
  it('occupies every `all` resource, lists them as blocked times and releases them together', async () => {
    const sid = await s.service('fixed', { duration: 'PT1H' });
    const room = await open('Room');
    const [a, b] = [await open('Projector'), await open('Assistant')];
    await s.link(sid, room, { all: [a, b] });
    const solo = await s.service('fixed', { duration: 'PT1H' }, 'Projector rental');
    await s.link(solo, a);

    const r = await s.book({ serviceID: sid, resourceID: room, startTime: at(2, 10) });
    expect(r.status).toBe(200);
    expect([...r.body.relatedResourceIDs].sort()).toEqual([a, b].sort());
    const rows = await occupancyOf(t, r.body.id);
    expect(rows.map((o) => [o.resource_id, o.source])).toEqual(
      expect.arrayContaining([
        [room, 'booking'],
        [a, 'related_resource'],
        [b, 'related_resource'],
      ]),
    );
    expect(rows).toHaveLength(3);

    const clash = await s.book({ serviceID: solo, resourceID: a, startTime: at(2, 10, 0) });
    expect([clash.status, clash.body.code]).toEqual([409, 'time_unavailable']);

    const list = await s.list({ resourceIDs: a });
    expect(list.body.bookings.map((x: any) => x.id)).toEqual([r.body.id]);
    expect(list.body.blockedTimes).toEqual(
      expect.arrayContaining([
        {
          id: expect.any(String),
          bookingID: r.body.id,
          resourceID: a,
          startTime: at(2, 10),
          endTime: at(2, 11),
          source: 'related_resource',
        },
        {
          id: expect.any(String),
          bookingID: r.body.id,
          resourceID: b,
          startTime: at(2, 10),
          endTime: at(2, 11),
          source: 'related_resource',
        },
      ]),
    );
    expect(list.body.resources.map((x: any) => x.id).sort()).toEqual([room, a, b].sort());

    await s.patch(r.body.id, { status: 'cancelled' });
    expect(await occupancyOf(t, r.body.id)).toEqual([]);
    expect((await s.book({ serviceID: solo, resourceID: a, startTime: at(2, 10) })).status).toBe(200);
  });

  it('takes one free `any` resource, in order, and refuses when none is free', async () => {
    const sid = await s.service('fixed', { duration: 'PT1H' });
    const [room1, room2, room3] = [await open('Room 1'), await open('Room 2'), await open('Room 3')];
    const [x, y] = [await open('Helper X'), await open('Helper Y')];
    for (const room of [room1, room2, room3]) await s.link(sid, room, { any: [x, y] });
    const solo = await s.service('fixed', { duration: 'PT1H' }, 'Helper hour');
    await s.link(solo, x);

    const first = await s.book({ serviceID: sid, resourceID: room1, startTime: at(3, 10) });
    expect(first.body.relatedResourceIDs).toEqual([x]);
    const second = await s.book({ serviceID: sid, resourceID: room2, startTime: at(3, 10) });
    expect(second.body.relatedResourceIDs).toEqual([y]);
    const third = await s.book({ serviceID: sid, resourceID: room3, startTime: at(3, 10) });
    expect([third.status, third.body.code]).toEqual([409, 'time_unavailable']);

    // X busy elsewhere: the booking skips it for Y
    expect((await s.book({ serviceID: solo, resourceID: x, startTime: at(4, 10) })).status).toBe(200);
    const skip = await s.book({ serviceID: sid, resourceID: room1, startTime: at(4, 10) });
    expect(skip.body.relatedResourceIDs).toEqual([y]);
    expect((await occupancyOf(t, skip.body.id)).map((o) => o.resource_id).sort()).toEqual([room1, y].sort());
  });
});

describe('buffers', () => {
  it('occupy [start - before, end + after); neighbouring buffered intervals may touch, not overlap', async () => {
    const { sid, rids } = await s.bookable('fixed', {
      duration: 'PT1H',
      bufferBefore: 'PT15M',
      bufferAfter: 'PT30M',
      timeInterval: 'PT15M',
    });
    const b = (await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(5, 10) })).body;
    expect(b).toMatchObject({ startTime: at(5, 10), endTime: at(5, 11) });
    expect(await occupancyOf(t, b.id)).toEqual([{ resource_id: rids[0], source: 'booking', lower: at(5, 9, 45), upper: at(5, 11, 30) }]);
    for (const start of [at(5, 11, 30), at(5, 8, 30), at(5, 9)])
      expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: start, ignoreSchedule: true })).status).toBe(409);
    expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(5, 11, 45) })).status).toBe(200);
    expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(5, 8, 15) })).status).toBe(200);
  });
});

describe('group and ticket capacity', () => {
  it('takes spots at a slot up to the capacity and gives them back', async () => {
    const sid = await s.service('group', { duration: 'PT1H' });
    const hall = await open('Hall');
    await s.link(sid, hall);
    await s.capacity(sid, 'group', 5);
    await s.slot(sid, hall, at(6, 18));
    const usage = () => countRows(t, 'select coalesce(sum(booked_spots), 0) as n from slot_usage where service_id = ?', [sid]);
    const a = await s.book({ serviceID: sid, resourceID: hall, startTime: at(6, 18), spots: 3 });
    expect(a.body).toMatchObject({ spots: 3, type: 'group', relatedResourceIDs: [] });
    expect(await occupancyOf(t, a.body.id)).toEqual([]);
    expect((await s.book({ serviceID: sid, resourceID: hall, startTime: at(6, 18), spots: 3 })).body.code).toBe('time_unavailable');
    const b = await s.book({ serviceID: sid, resourceID: hall, startTime: at(6, 18), spots: 2 });
    expect(b.status).toBe(200);
    expect(await usage()).toBe(5);
    expect((await s.book({ serviceID: sid, resourceID: hall, startTime: at(6, 19) })).status).toBe(409);

    expect((await s.patch(a.body.id, { spots: 4 })).status).toBe(409);
    expect((await s.patch(a.body.id, { spots: 1 })).body.spots).toBe(1);
    expect(await usage()).toBe(3);
    expect((await s.patch(a.body.id, { spots: 3 })).body.spots).toBe(3);
    expect(await usage()).toBe(5);
    await s.patch(a.body.id, { status: 'cancelled' });
    expect(await usage()).toBe(2);

    const list = await s.list({ serviceIDs: sid });
    expect(list.body.slots).toEqual([expect.objectContaining({ serviceID: sid, resourceID: hall, startTime: at(6, 18) })]);
  });

  it('books tickets within the total and per-ticket limits, with a per-ticket price snapshot', async () => {
    const sid = await s.service('ticket', { duration: 'PT2H' });
    const stage = await open('Stage');
    await s.link(sid, stage);
    const adult = await s.ticket(sid, 'Adult');
    const child = await s.ticket(sid, 'Child');
    await s.capacity(sid, 'ticket', 6, { [adult]: 4 });
    await s.price(sid, 'ticket', 1500, { ticketID: adult });
    await s.price(sid, 'ticket', 800, { ticketID: child });
    await s.slot(sid, stage, at(7, 18), 'PT2H');
    const r = await s.book({ serviceID: sid, resourceID: stage, startTime: at(7, 18), tickets: { [adult]: 3, [child]: 2 } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      spots: 5,
      price: 3 * 1500 + 2 * 800,
      tickets: { [adult]: { spots: 3, price: 1500 }, [child]: { spots: 2, price: 800 } },
    });
    expect((await s.book({ serviceID: sid, resourceID: stage, startTime: at(7, 18), tickets: { [adult]: 2 } })).status).toBe(409);
    expect((await s.book({ serviceID: sid, resourceID: stage, startTime: at(7, 18), tickets: { [child]: 2 } })).status).toBe(409);
    expect((await s.book({ serviceID: sid, resourceID: stage, startTime: at(7, 18), tickets: { [adult]: 1 } })).status).toBe(200);
    for (const tickets of [undefined, {}, { [adult]: 0 }])
      expect((await s.book({ serviceID: sid, resourceID: stage, startTime: at(7, 18), tickets })).status).toBe(400);
    expect((await s.book({ serviceID: sid, resourceID: stage, startTime: at(7, 18), tickets: { [sid]: 1 } })).status).toBe(400);
    expect((await s.book({ serviceID: sid, resourceID: stage, startTime: at(7, 18), tickets: { [adult]: 1 }, spots: 3 })).status).toBe(400);
    const list = await s.list({ serviceIDs: sid });
    expect(list.body.tickets.map((x: any) => x.id).sort()).toEqual([adult, child].sort());
  });
});

describe('sharable and flexible services', () => {
  it('a sharable booking runs until it is finished, then is priced by elapsed whole steps', async () => {
    const { sid, rids } = await s.bookable('sharable', { timeInterval: 'PT15M' });
    await s.price(sid, 'sharable', 300, { duration: 'PT15M' });
    const b = (await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(8, 10) })).body;
    expect(b).toMatchObject({ endTime: null, duration: null, price: 0, status: 'confirmed', type: 'sharable' });
    expect(await occupancyOf(t, b.id)).toEqual([{ resource_id: rids[0], source: 'booking', lower: at(8, 10), upper: null }]);
    expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(20, 10), ignoreSchedule: true })).status).toBe(409);

    clock.set(at(8, 10, 40));
    const done = await s.patch(b.id, { status: 'finished' });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'finished', endTime: at(8, 10, 40), duration: 'PT40M', price: 900 });
    expect(await occupancyOf(t, b.id)).toEqual([]);
    expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(8, 11) })).status).toBe(200);
  });

  it('a duration closes a running sharable booking and shrinks its occupancy', async () => {
    const { sid, rids } = await s.bookable('sharable', { timeInterval: 'PT15M', bufferAfter: 'PT15M' });
    await s.price(sid, 'sharable', 500, { duration: 'PT30M' });
    const b = (await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(9, 10) })).body;
    const closed = await s.patch(b.id, { duration: 'PT45M' });
    expect(closed.body).toMatchObject({ status: 'confirmed', endTime: at(9, 10, 45), duration: 'PT45M', price: 1000 });
    expect(await occupancyOf(t, b.id)).toEqual([{ resource_id: rids[0], source: 'booking', lower: at(9, 10), upper: at(9, 11) }]);
    expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(9, 11) })).status).toBe(200);
  });

  it('a days booking runs from check-in to check-out and is priced per night', async () => {
    const { sid, rids } = await s.bookable('days', { checkInTime: '15:00', checkOutTime: '11:00' });
    await s.price(sid, 'days', 9000, { duration: 'P1D' });
    const r = await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(12, 15), duration: 'P2D' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ type: 'days', startTime: at(12, 15), endTime: at(14, 11), price: 18000 });
    expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(13, 15), duration: 'P1D' })).status).toBe(409);
    expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(14, 15), duration: 'P1D' })).status).toBe(200);
  });

  it('a flexible booking takes whole steps of its price rule', async () => {
    const { sid, rids } = await s.bookable('flexible', { timeInterval: 'PT30M' });
    await s.price(sid, 'flexible', 1000, { duration: 'PT30M', minDuration: 'PT30M', maxDuration: 'PT2H' });
    const r = await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(10, 9), duration: 'PT1H30M' });
    expect(r.body).toMatchObject({ duration: 'PT1H30M', endTime: at(10, 10, 30), price: 3000 });
    for (const duration of ['PT45M', 'PT3H', undefined]) {
      const bad = await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(10, 14), duration });
      expect([bad.status, bad.body.details?.[0]?.path]).toEqual([400, 'duration']);
    }
  });
});
