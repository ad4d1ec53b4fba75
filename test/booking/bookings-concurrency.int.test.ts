import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { countRows, Shop } from '../helpers/bookings-fixtures';
import { tally } from '../helpers/tally';

/** Real parallel HTTP requests against a listening server: the database decides who wins. */

let t: TestApp;
let s: Shop;
let base: string;
const clock = new TestClock(Date.parse('2026-03-01T00:00:00Z'));

beforeAll(async () => {
  t = await createTestApp({ clock });
  s = await Shop.open(t, 'Busy shop', 'UTC');
  base = await t.listen();
});
afterAll(async () => t?.close());

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': s.key, ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe('concurrent booking requests', () => {
  it('40 requests for the same fixed-service time make exactly one booking', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const body = { serviceID: sid, resourceID: rids[0], startTime: '2026-03-02T10:00:00Z' };
    const results = await Promise.all(Array.from({ length: 40 }, () => post(`${s.base}/bookings`, body)));
    expect(tally(results)).toEqual({ 200: 1, '409 time_unavailable': 39 });
    expect(await countRows(t, 'select count(*) as n from booking where service_id = ?', [sid])).toBe(1);
    expect(await countRows(t, 'select count(*) as n from booking_occupancy where resource_id = ?', [rids[0]])).toBe(1);
  });

  it('20 one-spot requests on a 5-spot group slot make exactly five bookings', async () => {
    const sid = await s.service('group', { duration: 'PT1H' });
    const hall = await s.resource('Hall');
    await s.link(sid, hall);
    await s.hours(hall);
    await s.capacity(sid, 'group', 5);
    await s.slot(sid, hall, '2026-03-03T18:00:00Z');
    const key = await t.keyWith({ [s.companyId]: ['client.create'] });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(
          '/v1/client/bookings',
          {
            companyID: s.companyId,
            serviceID: sid,
            resourceID: hall,
            startTime: '2026-03-03T18:00:00Z',
            spots: 1,
            client: { email: `guest${i}@example.com` },
          },
          { 'x-api-key': key },
        ),
      ),
    );
    expect(tally(results)).toEqual({ 200: 5, '409 time_unavailable': 15 });
    expect(await countRows(t, 'select count(*) as n from booking where service_id = ?', [sid])).toBe(5);
    expect(await countRows(t, 'select booked_spots as n from slot_usage where service_id = ?', [sid])).toBe(5);
  });

  it("10 overlapping requests that all need a link's `all` resource make exactly one booking", async () => {
    const sid = await s.service('fixed', { duration: 'PT1H', timeInterval: 'PT15M' });
    const shared = await s.resource('Shared projector');
    await s.hours(shared);
    const rooms: string[] = [];
    for (let i = 0; i < 10; i++) {
      const room = await s.resource(`Room ${i}`);
      await s.hours(room);
      await s.link(sid, room, { all: [shared] });
      rooms.push(room);
    }
    const results = await Promise.all(
      rooms.map((room, i) =>
        post(`${s.base}/bookings`, {
          serviceID: sid,
          resourceID: room,
          startTime: `2026-03-04T10:${String((i % 4) * 15).padStart(2, '0')}:00Z`,
        }),
      ),
    );
    expect(tally(results)).toEqual({ 200: 1, '409 time_unavailable': 9 });
    expect(await countRows(t, 'select count(*) as n from booking_occupancy where resource_id = ?', [shared])).toBe(1);
    expect(await countRows(t, 'select count(*) as n from booking where service_id = ?', [sid])).toBe(1);
  });

  it('concurrent requests with one Idempotency-Key make one booking and all get its answer', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const body = { serviceID: sid, resourceID: rids[0], startTime: '2026-03-05T10:00:00Z' };
    const results = await Promise.all(
      Array.from({ length: 10 }, () => post(`${s.base}/bookings`, body, { 'idempotency-key': 'same-key' })),
    );
    expect(tally(results)).toEqual({ 200: 10 });
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await countRows(t, 'select count(*) as n from booking where service_id = ?', [sid])).toBe(1);
  });
});
