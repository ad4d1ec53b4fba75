import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';

/**
 * `availability_snapshot` as it is now against the version before it (occupancy sorted per
 * aggregate, epoch milliseconds through `numeric`; test/helpers/availability_snapshot_before.sql),
 * installed beside it under another name:
 * the same document for the same data, bounds of every precision and range included, except
 * that with wanted resources only their links and the service's first link are written.
 */
let t: TestApp;
let s: Shop;
const clock = new TestClock(Date.parse('2026-03-01T00:00:00Z'));
const sql = <T = any>(q: string, params: unknown[] = []) => t.deps.orm.em.fork().getConnection().execute<T[]>(q, params);

const WINDOW = ['2026-02-26T00:00:00Z', '2026-04-04T00:00:00Z', '2026-02-27T00:00:00Z', '2026-04-02T00:00:00Z'];

let sid: string;
const rids: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ clock });
  s = await Shop.open(t, 'Snapshot shop', 'Europe/Riga');
  await sql(readFileSync(join(__dirname, '..', 'helpers', 'availability_snapshot_before.sql'), 'utf8'));
  sid = await s.service('fixed', { duration: 'PT1H', timeInterval: 'PT15M', bufferAfter: 'PT15M' });
  for (const name of ['Cedar', 'Alder', 'Birch']) {
    const rid = await s.resource(name);
    await s.link(sid, rid);
    await s.hours(rid, '09:00', '19:00');
    rids.push(rid);
  }
  await t.call('POST', `${s.base}/resources/${rids[0]}/closing-periods`, {
    body: { startTime: '2026-03-03T10:00:00.123+02:00', endTime: '2026-03-03T12:00:00+02:00', serviceIDs: [] },
    key: s.key,
  });
  // bookings through the API, on quarter hours
  for (let d = 2; d < 20; d++) {
    for (const [i, rid] of rids.entries()) {
      const startTime = `2026-03-${String(d).padStart(2, '0')}T${String(8 + ((d * 3 + i) % 9)).padStart(2, '0')}:15:00Z`;
      const r = await s.book({ serviceID: sid, resourceID: rid, startTime, ignoreSchedule: true });
      expect(r.status).toBe(200);
    }
  }
  // and occupancy no booking through the API writes: microseconds, an open end, before 1970, beyond 2255
  const bounds: [string, string | null][] = [
    ['2026-03-20 09:59:59.999999+00', '2026-03-20 10:00:00.5+00'],
    ['2026-03-21 10:00:00.123456+00', '2026-03-21 11:00:00.000001+00'],
    ['2026-03-22 10:00:00.0005+00', null],
  ];
  for (const [lower, upper] of bounds) await occupy(rids[1], lower, upper);
  await occupy(rids[2], '1969-12-31 23:59:59.999+00', '2026-02-28 00:00:00.000007+00');
  await occupy(rids[2], '2026-03-31 12:00:00+00', '2301-01-01 00:00:00.000001+00');
});
afterAll(async () => t?.close());

async function occupy(rid: string, lower: string, upper: string | null): Promise<void> {
  const id = randomUUID();
  await sql(
    `insert into booking (id, company_id, service_id, resource_id, type, status, start_time, end_time, duration_sec, price, currency, created_at, updated_at)
     values (?, ?, ?, ?, 'fixed', 'confirmed', ?::timestamptz, ?::timestamptz, 3600, 0, 'EUR', now(), now())`,
    [id, s.companyId, sid, rid, lower, upper ?? '2400-01-01T00:00:00Z'],
  );
  await sql(
    `insert into booking_occupancy (company_id, booking_id, resource_id, source, during) values (?, ?, ?, 'booking', tstzrange(?::timestamptz, ?::timestamptz, '[)'))`,
    [s.companyId, id, rid, lower, upper],
  );
}

const call = async (fn: string, wanted: string[] | null, exclude: string[] | null = null): Promise<string> => {
  const rows = await sql<{ doc: string }>(
    `select ${fn}(?::uuid, ?::uuid, ?::timestamptz, ?::timestamptz, ?::timestamptz, ?::timestamptz, ?::uuid[], ?::uuid[])::text as doc`,
    [s.companyId, sid, ...WINDOW, exclude ? `{${exclude.join(',')}}` : null, wanted ? `{${wanted.join(',')}}` : null],
  );
  return rows[0].doc;
};

describe('availability_snapshot', () => {
  it('writes the same document as before for every resource, bounds of every precision and range alike', async () => {
    const now = await call('availability_snapshot', null);
    const before = await call('availability_snapshot_before', null);
    expect(now).toBe(before);
    const doc = JSON.parse(now);
    // the checks below would mean nothing without these in the document
    const starts = doc.occupancy.flatMap((o: any) => o.s);
    expect(starts).toContain(Date.parse('2026-03-21T10:00:00.123Z') + 0.456);
    expect(starts).toContain(-1);
    expect(doc.occupancy.flatMap((o: any) => o.e)).toContain(null);
    expect(doc.occupancy.flatMap((o: any) => o.e)).toContain(Date.parse('2301-01-01T00:00:00Z') + 0.001);
    expect(doc.closings[0].start).toBe(Date.parse('2026-03-03T08:00:00.123Z'));
  });

  it('with wanted resources, writes their links and the first one only; everything else as before', async () => {
    const [cedar, alder] = rids;
    for (const wanted of [[cedar], [alder, cedar], [rids[2]]]) {
      const now = JSON.parse(await call('availability_snapshot', wanted));
      const before = JSON.parse(await call('availability_snapshot_before', wanted));
      const first = before.links[0].resourceId;
      expect(first).toBe(alder); // links are in name order
      expect(now.links).toEqual(before.links.filter((l: any) => wanted.includes(l.resourceId) || l.resourceId === first));
      expect({ ...now, links: null }).toEqual({ ...before, links: null });
    }
  });

  it('leaves out excluded bookings as before', async () => {
    const [one] = await sql<{ id: string }>('select booking_id as id from booking_occupancy where company_id = ? limit 1', [s.companyId]);
    expect(await call('availability_snapshot', null, [one.id])).toBe(await call('availability_snapshot_before', null, [one.id]));
  });
});
