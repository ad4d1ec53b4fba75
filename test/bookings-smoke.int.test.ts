import { createTestApp, TestClock, type TestApp } from './helpers/app';
import { Shop, occupancyOf } from './bookings-fixtures';

let t: TestApp;
const clock = new TestClock(Date.parse('2026-03-01T00:00:00Z'));
beforeAll(async () => { t = await createTestApp({ clock }); });
afterAll(async () => t?.close());

it('smoke', async () => {
  const s = await Shop.open(t);
  const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
  await s.price(sid, 'fixed', 2500);
  const r = await s.book({ serviceID: sid, resourceID: rids[0], startTime: '2026-03-02T08:00:00Z' });
  console.log(r.status, JSON.stringify(r.body, null, 1));
  console.log(await occupancyOf(t, r.body.id));
  const r2 = await s.book({ serviceID: sid, resourceID: rids[0], startTime: '2026-03-02T08:30:00Z', ignoreSchedule: true });
  console.log(r2.status, r2.body);
  const l = await s.list();
  console.log(l.status, JSON.stringify(l.body).slice(0, 500));
  const g = await s.get(r.body.id);
  console.log(g.status, JSON.stringify(g.body).slice(0, 300));
  const p = await s.patch(r.body.id, { startTime: '2026-03-02T10:00:00Z' });
  console.log(p.status, JSON.stringify(p.body).slice(0, 300));
  console.log(await occupancyOf(t, r.body.id));
  const c = await s.patch(r.body.id, { status: 'cancelled' });
  console.log(c.status, JSON.stringify(c.body.statusChanges));
  console.log(await occupancyOf(t, r.body.id));
});
