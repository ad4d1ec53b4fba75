import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { countRows, occupancyOf, Shop } from '../helpers/bookings-fixtures';
import { tally } from '../helpers/tally';
import { tablesReadBy } from '../helpers/db-functions';

/**
 * A booking of a grid service is checked against the catalog its process keeps, and the insert
 * writes it only while the company's catalog is still at the version it was checked at
 * (src/modules/booking/booking-kept-catalog.ts). These tests change the catalog behind the process's
 * back (plain SQL, as another process would) and expect every answer the full check gives.
 */

let t: TestApp;
let s: Shop;
const clock = new TestClock(Date.parse('2026-05-01T00:00:00Z'));

beforeAll(async () => {
  t = await createTestApp({ clock });
  s = await Shop.open(t, 'Kept catalog shop', 'UTC');
});
afterAll(async () => t?.close());

const sql = (text: string, params: unknown[] = []) => t.deps.orm.em.fork().getConnection().execute(text, params);
const version = async (companyId: string): Promise<string | null> =>
  ((await sql('select version::text as v from catalog_version where company_id = ?', [companyId])) as { v: string }[])[0]?.v ?? null;
const statements = (fn: () => Promise<unknown>) => t.countStatements(fn);
const resourcesOf = async (companyId: string): Promise<string[]> =>
  ((await sql('select id from resource where company_id = ?', [companyId])) as { id: string }[]).map((r) => r.id);
/** booking_checks_total by outcome and the kept documents read, from /metrics */
const counts = async () => {
  const text = (await t.call('GET', '/metrics')).text as string;
  const n = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 'NaN');
  return {
    written: n('booking_checks_total\\{outcome="written"\\}'),
    occupied: n('booking_checks_total\\{outcome="occupied"\\}'),
    changed: n('booking_checks_total\\{outcome="changed"\\}'),
    rechecked: n('booking_checks_total\\{outcome="rechecked"\\}'),
    full: n('booking_checks_total\\{outcome="full"\\}'),
    loads: n('booking_kept_catalog_loads_total'),
  };
};

describe('the catalog version', () => {
  it('changes with every catalog table, once per transaction, and not with bookings', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    let before = await version(s.companyId);
    expect(before).not.toBeNull();
    // the catalog: every table the kept catalog is read from, but the version itself
    const catalogTables = (await tablesReadBy((text, params) => sql(text, params) as Promise<any[]>, 'booking_kept_catalog')).filter(
      (x) => x !== 'catalog_version',
    );
    expect(catalogTables).toContain('working_hours_rule');
    for (const table of catalogTables) {
      // an update that changes nothing still counts: the row was written
      await sql(
        `update ${table} set company_id = company_id where company_id = ? and ctid = (select ctid from ${table} where company_id = ? limit 1)`,
        [s.companyId, s.companyId],
      );
      const rows = await countRows(t, `select count(*) as n from ${table} where company_id = ?`, [s.companyId]);
      const after = await version(s.companyId);
      if (rows > 0) expect({ table, changed: after !== before }).toEqual({ table, changed: true });
      else expect({ table, changed: after !== before }).toEqual({ table, changed: false });
      before = after;
    }
    // several changes in one transaction: one new version
    const em = t.deps.orm.em.fork();
    await em.transactional(async (tx) => {
      await tx.getConnection().execute('update service set name = name where company_id = ?', [s.companyId]);
      await tx.getConnection().execute('update resource set name = name where company_id = ?', [s.companyId]);
    });
    const afterTx = await version(s.companyId);
    expect(BigInt(afterTx!)).toBeGreaterThan(BigInt(before!));
    const rowVersions = await countRows(t, 'select count(*) as n from catalog_version where company_id = ?', [s.companyId]);
    expect(rowVersions).toBe(1);

    // bookings, their moves and cancellations leave the catalog alone
    const booked = await s.book({ serviceID: sid, resourceID: rids[0], startTime: '2026-05-04T10:00:00Z' });
    expect(booked.status).toBe(200);
    await s.patch(booked.body.id, { status: 'cancelled' });
    expect(await version(s.companyId)).toBe(afterTx);
  });

  it('is given to a new company with its first catalog row, and goes with the company', async () => {
    const other = await Shop.open(t, 'New shop', 'UTC');
    expect(await version(other.companyId)).toBeNull();
    await other.service('fixed', { duration: 'PT1H' });
    expect(await version(other.companyId)).not.toBeNull();
    // and loses it with the company (its catalog goes with it)
    await sql('delete from company where id = ?', [other.companyId]);
    expect(await countRows(t, 'select count(*) as n from catalog_version where company_id = ?', [other.companyId])).toBe(0);
  });
});

describe('a booking checked against the kept catalog', () => {
  it('costs one statement once the catalog is kept', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const first = await statements(() => s.book({ serviceID: sid, resourceID: rids[0], startTime: '2026-05-05T08:00:00Z' }));
    const second = await statements(() => s.book({ serviceID: sid, resourceID: rids[0], startTime: '2026-05-05T09:00:00Z' }));
    // the first loads the kept catalog: one statement more than every booking after it
    expect(first - second).toBe(1);
    const third = await statements(() => s.book({ serviceID: sid, resourceID: rids[0], startTime: '2026-05-05T10:00:00Z' }));
    expect(third).toBe(second);
  });

  it('sees working hours changed by another process: the insert refuses the old version, the full check answers', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const rid = rids[0];
    expect((await s.book({ serviceID: sid, resourceID: rid, startTime: '2026-05-06T08:00:00Z' })).status).toBe(200);
    // close the resource from 12:00 on, behind the process's back
    await sql(
      `update working_hours_rule set working_hours = '[{"daysOfWeek":127,"hours":[{"start":"00:00","end":"12:00"}]}]' where resource_id = ?`,
      [rid],
    );
    const refused = await s.book({ serviceID: sid, resourceID: rid, startTime: '2026-05-06T13:00:00Z' });
    expect([refused.status, refused.body.code]).toEqual([409, 'time_unavailable']);
    expect(await countRows(t, 'select count(*) as n from booking where resource_id = ?', [rid])).toBe(1);
    // and open it again: the kept catalog (closed) is not trusted with a refusal
    await sql(
      `update working_hours_rule set working_hours = '[{"daysOfWeek":127,"hours":[{"start":"00:00","end":"24:00"}]}]' where resource_id = ?`,
      [rid],
    );
    const booked = await s.book({ serviceID: sid, resourceID: rid, startTime: '2026-05-06T14:00:00Z' });
    expect(booked.status).toBe(200);
  });

  it('sees a catalog table truncated by an operator', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const before = await version(s.companyId);
    expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: '2026-05-06T20:00:00Z' })).status).toBe(200);
    // every resource loses its working hours: nothing is bookable any more
    await sql('truncate working_hours_rule');
    expect(await version(s.companyId)).not.toBe(before);
    const r = await s.book({ serviceID: sid, resourceID: rids[0], startTime: '2026-05-06T21:00:00Z' });
    expect([r.status, r.body.code]).toEqual([409, 'time_unavailable']);
    // the working hours back for the tests after this one
    for (const rid of await resourcesOf(s.companyId)) await s.hours(rid);
  });

  it('sees a closing added by another process', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const rid = rids[0];
    expect((await s.book({ serviceID: sid, resourceID: rid, startTime: '2026-05-07T08:00:00Z' })).status).toBe(200);
    await sql(
      `insert into closing_period (id, company_id, resource_id, start_time, end_time, service_ids, created_at, updated_at)
       values (gen_random_uuid(), ?, ?, '2026-05-07T10:00:00Z', '2026-05-07T12:00:00Z', '[]', now(), now())`,
      [s.companyId, rid],
    );
    const refused = await s.book({ serviceID: sid, resourceID: rid, startTime: '2026-05-07T10:30:00Z' });
    expect([refused.status, refused.body.code]).toEqual([409, 'time_unavailable']);
    expect((await s.book({ serviceID: sid, resourceID: rid, startTime: '2026-05-07T12:00:00Z' })).status).toBe(200);
  });

  it('sees a price changed by another process', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    await s.price(sid, 'fixed', 1500);
    const first = await s.book({ serviceID: sid, resourceID: rids[0], startTime: '2026-05-08T08:00:00Z' });
    expect(first.body.price).toBe(1500);
    await sql('update price_rule set price = price + 700 where service_id = ?', [sid]);
    const second = await s.book({ serviceID: sid, resourceID: rids[0], startTime: '2026-05-08T09:00:00Z' });
    expect(second.status).toBe(200);
    expect(second.body.price - first.body.price).toBe(700);
  });

  it('refuses an occupied time with the answer of the full check, and writes nothing', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H', timeInterval: 'PT30M', bufferAfter: 'PT30M' });
    const rid = rids[0];
    const a = await s.book({ serviceID: sid, resourceID: rid, startTime: '2026-05-09T10:00:00Z' });
    expect(a.status).toBe(200);
    expect(await occupancyOf(t, a.body.id)).toEqual([
      { resource_id: rid, source: 'booking', lower: '2026-05-09T10:00:00Z', upper: '2026-05-09T11:30:00Z' },
    ]);
    const audits = await countRows(t, 'select count(*) as n from audit_entry where company_id = ?', [s.companyId]);
    // inside the booking, then inside its buffer: refused by the exclusion constraint
    for (const startTime of ['2026-05-09T10:30:00Z', '2026-05-09T11:00:00Z']) {
      const r = await s.book({ serviceID: sid, resourceID: rid, startTime });
      expect([r.status, r.body.code, r.body.message]).toEqual([409, 'time_unavailable', 'the requested time is not available']);
    }
    expect(await countRows(t, 'select count(*) as n from booking where resource_id = ?', [rid])).toBe(1);
    expect(await countRows(t, 'select count(*) as n from audit_entry where company_id = ?', [s.companyId])).toBe(audits);
    // right after the buffer: free
    expect((await s.book({ serviceID: sid, resourceID: rid, startTime: '2026-05-09T11:30:00Z' })).status).toBe(200);
  });

  it('answers like a process that never kept the catalog when a resource is unlinked or the service disabled', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' }, 2);
    const [kept, fresh] = rids;
    // `kept` is in this process's keeping, `fresh` never was
    expect((await s.book({ serviceID: sid, resourceID: kept, startTime: '2026-05-10T08:00:00Z' })).status).toBe(200);
    const answer = async (rid: string, startTime: string) => {
      const r = await s.book({ serviceID: sid, resourceID: rid, startTime });
      return [r.status, r.body.code, String(r.body.message).replace(rid, '<resource>')];
    };
    await sql('delete from service_resource_link where service_id = ?', [sid]);
    const unlinked = await answer(fresh, '2026-05-10T09:00:00Z');
    expect(unlinked[0]).toBeGreaterThanOrEqual(400);
    expect(await answer(kept, '2026-05-10T09:00:00Z')).toEqual(unlinked);
    await sql(
      'insert into service_resource_link (id, company_id, service_id, resource_id) select gen_random_uuid(), company_id, ?, id from resource where id in (?, ?)',
      [sid, kept, fresh],
    );
    expect((await s.book({ serviceID: sid, resourceID: kept, startTime: '2026-05-10T10:00:00Z' })).status).toBe(200);
    await sql('update service set disabled_at = now() where id = ?', [sid]);
    const disabled = await answer(fresh, '2026-05-10T11:00:00Z');
    expect(disabled[0]).toBeGreaterThanOrEqual(400);
    expect(await answer(kept, '2026-05-10T11:00:00Z')).toEqual(disabled);
    expect(await countRows(t, 'select count(*) as n from booking where service_id = ?', [sid])).toBe(2);
  });

  it('with an idempotency key, a repeat after the catalog changed is answered with the first response', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const body = { serviceID: sid, resourceID: rids[0], startTime: '2026-05-11T08:00:00Z' };
    const headers = { 'idempotency-key': 'kept-catalog-1' };
    const first = await s.book(body, { headers });
    await sql('update service set name = ? where id = ?', ['Renamed', sid]);
    const again = await s.book(body, { headers });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body.id).toBe(first.body.id);
    expect(await countRows(t, 'select count(*) as n from booking where service_id = ?', [sid])).toBe(1);
  });
});

describe('a client booking checked against the kept catalog', () => {
  const guest = async (key: string, body: Record<string, unknown>) =>
    t.call('POST', '/v1/client/bookings', { key, body: { companyID: s.companyId, client: { email: 'guest@example.com' }, ...body } });

  it('is checked against the kept catalog, sees catalog changes made behind the process, and answers 409 like the full check', async () => {
    const key = await t.keyWith({ [s.companyId]: ['client.create'] });
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const rid = rids[0];
    const at = (h: number) => `2026-06-10T${String(h).padStart(2, '0')}:00:00Z`;
    expect((await guest(key, { serviceID: sid, resourceID: rid, startTime: at(8) })).status).toBe(200);
    const before = await counts();
    expect((await guest(key, { serviceID: sid, resourceID: rid, startTime: at(9) })).status).toBe(200);
    const after = await counts();
    expect({ written: after.written - before.written, loads: after.loads - before.loads, full: after.full - before.full }).toEqual({
      written: 1,
      loads: 0,
      full: 0,
    });
    // occupied: the same answer as the full check's
    const taken = await guest(key, { serviceID: sid, resourceID: rid, startTime: at(9) });
    expect([taken.status, taken.body.code, taken.body.message]).toEqual([409, 'time_unavailable', 'the requested time is not available']);
    // a closing added behind the process
    await sql(
      `insert into closing_period (id, company_id, resource_id, start_time, end_time, service_ids, created_at, updated_at)
       values (gen_random_uuid(), ?, ?, ?, ?, '[]', now(), now())`,
      [s.companyId, rid, at(12), at(14)],
    );
    const closed = await guest(key, { serviceID: sid, resourceID: rid, startTime: at(12) });
    expect([closed.status, closed.body.code]).toEqual([409, 'time_unavailable']);
    // a price set behind the process is charged
    await sql(
      `insert into price_rule (id, company_id, service_id, type, priority, price, compared_price, created_at, updated_at)
       values (gen_random_uuid(), ?, ?, 'fixed', 5, 4200, 4200, now(), now())`,
      [s.companyId, sid],
    );
    const priced = await guest(key, { serviceID: sid, resourceID: rid, startTime: at(15) });
    expect([priced.status, priced.body.price]).toEqual([200, 4200]);
    expect(await countRows(t, 'select count(*) as n from booking where service_id = ?', [sid])).toBe(3);
  });
});

describe('/metrics', () => {
  it('counts single bookings by how they were checked', async () => {
    const before = await counts();
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const at = (h: number) => `2026-06-01T${String(h).padStart(2, '0')}:00:00Z`;
    expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(8) })).status).toBe(200); // loads, written
    expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(8) })).status).toBe(409); // occupied
    await sql('update service set name = name where id = ?', [sid]);
    expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(9) })).status).toBe(200); // changed, then in full
    expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: at(10) })).status).toBe(200); // loads, written
    expect((await s.book({ serviceID: sid, resourceID: rids[0], startTime: '2026-06-01T10:30:00Z' })).status).toBe(409); // rechecked
    const days = await s.bookable('days', {});
    await s.book({ serviceID: days.sid, resourceID: days.rids[0], startTime: '2026-06-02T00:00:00Z' }); // full
    const after = await counts();
    const diff = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k as keyof typeof before]]));
    expect(diff).toEqual({ written: 2, occupied: 1, changed: 1, rechecked: 1, full: 1, loads: 3 });
  });
});

describe('the edges of the calendar', () => {
  it('books in the first and the last years the API accepts, where a document or a kept year reaches beyond them', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    for (const startTime of [
      '0001-01-01T00:00:00Z',
      '0001-01-02T00:00:00Z',
      '0001-01-05T00:00:00Z',
      '0001-01-05T01:00:00Z',
      '9998-12-30T00:00:00Z',
      '9998-12-30T01:00:00Z',
    ]) {
      const r = await s.book({ serviceID: sid, resourceID: rids[0], startTime });
      expect({ startTime, status: r.status }).toEqual({ startTime, status: 200 });
    }
    // and the times of the first day, whose document reaches before it: none (they are past), but an answer
    const times = await t.call('POST', `${s.base}/services/${sid}/times`, {
      key: s.key,
      body: { from: '0001-01-01T00:00:00Z', to: '0001-01-01T06:00:00Z' },
    });
    expect([times.status, times.body.times?.[rids[0]]]).toEqual([200, []]);
  });
});

describe('parallel bookings with a kept catalog', () => {
  let base: string;
  beforeAll(async () => {
    base = await t.listen();
  });
  /** a booking of `resourceID` over a real connection */
  const poster = (serviceID: string, resourceID: string) => async (startTime: string) => {
    const res = await fetch(`${base}${s.base}/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': s.key },
      body: JSON.stringify({ serviceID, resourceID, startTime }),
    });
    return { status: res.status, body: (await res.json()) as { code?: string } };
  };

  it('30 requests for one time make one booking; 30 for distinct times make 30', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const post = poster(sid, rids[0]);
    // the catalog is kept before the race
    expect((await post('2026-05-12T00:00:00Z')).status).toBe(200);
    const same = await Promise.all(Array.from({ length: 30 }, () => post('2026-05-12T10:00:00Z')));
    expect(tally(same)).toEqual({ 200: 1, '409 time_unavailable': 29 });
    const distinct = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post(`2026-05-${i < 24 ? 13 : 14}T${String(i % 24).padStart(2, '0')}:00:00Z`)),
    );
    expect(tally(distinct)).toEqual({ 200: 30 });
    expect(await countRows(t, 'select count(*) as n from booking where service_id = ?', [sid])).toBe(32);
  });

  it('bookings arriving while a document is read share the read', async () => {
    const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
    const post = async (startTime: string) => (await poster(sid, rids[0])(startTime)).status;
    const hours = (day: string, n: number) => Array.from({ length: n }, (_, i) => `${day}T${String(i).padStart(2, '0')}:00:00Z`);
    // nothing kept yet for this resource: 20 bookings at once read its document once
    let before = await counts();
    expect(await Promise.all(hours('2026-06-02', 20).map(post))).toEqual(Array(20).fill(200));
    let after = await counts();
    expect({ loads: after.loads - before.loads, written: after.written - before.written }).toEqual({ loads: 1, written: 20 });
    // a catalog change: the next booking finds the kept document old and forgets it (the full
    // check writes it); the bookings after it read the new document once between them
    await sql('update resource set name = name where id = ?', [rids[0]]);
    before = await counts();
    expect(await post('2026-06-03T00:00:00Z')).toBe(200);
    expect(await Promise.all(hours('2026-06-04', 20).map(post))).toEqual(Array(20).fill(200));
    after = await counts();
    const diff = { changed: after.changed - before.changed, loads: after.loads - before.loads, written: after.written - before.written };
    expect(diff).toEqual({ changed: 1, loads: 1, written: 20 });
  });
});
