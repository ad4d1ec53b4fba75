import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';
import { complete, configurePayments } from '../helpers/payments-fixtures';
import { ALLOWED, recordStatements, shape, takeStatements, unscopedStatements } from '../helpers/sql-audit';
import { liveClient, settled, subscribed, wsUrl } from '../helpers/live-client';

/**
 * docs/design/scaling.md claims the schema distributes by `company_id` without changing a query.
 * Every statement the server sends while this file drives the catalog, rules, client
 * bookings with payments, refunds, merchant bookings, lists, availability and GraphQL is
 * recorded at the driver and checked: on a tenant table it constrains `company_id`, or it is
 * in the reviewed allow-list (test/helpers/sql-audit.ts).
 */
let t: TestApp;
const clock = new TestClock(Date.parse('2026-03-01T08:00:00Z'));
let tenant: Set<string>;

beforeAll(async () => {
  recordStatements();
  t = await createTestApp({ clock, changeFeed: true });
  const rows = await t.deps.orm.em
    .fork()
    .getConnection()
    .execute<{ table_name: string }[]>(
      `select table_name from information_schema.columns where column_name = 'company_id' and table_schema = current_schema()`,
    );
  tenant = new Set(rows.map((r) => r.table_name));
});
afterAll(async () => t?.close());

describe('the company_id check', () => {
  it('flags a statement on a tenant table without company_id, and passes scoped ones', () => {
    const tables = new Set(['booking', 'service']);
    expect(
      unscopedStatements(
        [
          'select * from booking where id = ?',
          'select "b0".* from "booking" as "b0" where "b0"."id" = ? and "b0"."company_id" = ?',
          'select "b0".* from "booking" as "b0" where ("b0"."company_id", "b0"."id") in ((?, ?))',
          'insert into "service" ("id", "company_id", "name") values (?, ?, ?)',
          'insert into "service" ("id", "name") values (?, ?)',
          'select company_id, id from service where name = ?',
          'select 1',
        ],
        tables,
      ),
    ).toEqual([
      'select * from booking where id = ?',
      'insert into "service" ("id", "name") values (?, ?)',
      'select company_id, id from service where name = ?',
    ]);
    expect(shape(`select * from booking where id = 'a''b' and n = 12`)).toBe('select * from booking where id = ? and n = ?');
  });
});

describe('statements sent by the server', () => {
  it('every statement on a tenant table constrains company_id, or is in the reviewed allow-list', async () => {
    takeStatements();
    const shop = await Shop.open(t, 'Audited salon', 'UTC');
    const { sid, rids } = await shop.bookable('fixed', { duration: 'PT1H' }, 2);
    await shop.price(sid, 'fixed', 2000);
    expect((await configurePayments(t, shop.companyId)).status).toBe(200);
    const base = shop.base;
    const ok = async (p: Promise<{ status: number; text: string }>, status = 200) => {
      const r = await p;
      if (r.status !== status) throw new Error(`${r.status} ${r.text}`);
      return r as unknown as { status: number; body: any };
    };
    await ok(t.call('PATCH', `${base}/services/${sid}`, { body: { name: 'Renamed' } }));
    await ok(t.call('PATCH', `${base}/resources/${rids[1]}`, { body: { name: 'Room B' } }));
    await ok(t.call('GET', `${base}/services`));
    await ok(t.call('GET', `${base}/resources/${rids[0]}/links`));
    await ok(t.call('POST', `${base}/closing-periods/search`, { body: { from: '2026-03-01T00:00:00Z', to: '2026-04-01T00:00:00Z' } }));
    await ok(
      t.call('POST', `${base}/services/${sid}/times`, {
        key: t.adminKey,
        body: { from: '2026-03-02T00:00:00Z', to: '2026-03-03T00:00:00Z', spots: 1 },
      }),
    );
    const token = await shop.login('audited@example.com', t.adminKey);
    const booked = await ok(
      t.call('POST', '/v1/client/bookings', {
        token,
        body: { companyID: shop.companyId, serviceID: sid, resourceID: rids[0], startTime: '2026-03-02T09:00:00Z', spots: 1 },
      }),
    );
    const tx = (booked.body.paymentURL as string).split('/').pop()!;
    expect([200, 303]).toContain((await complete(t, tx, 'success')).status);
    await ok(t.call('POST', `${base}/payments/${tx}/refunds`, { body: { itemID: booked.body.id, percent: 50 } }), 201);
    await ok(t.call('GET', `/v1/refunds/${booked.body.id}`));
    // live updates: a merchant's and a booking page's subscriptions, and an event of each
    const live = liveClient(wsUrl(await t.listen()), { 'x-api-key': t.adminKey });
    const metrics = async () => (await t.call('GET', '/metrics')).text;
    const bookings = await subscribed(
      live,
      metrics,
      `subscription($c: ID!) { bookingChanged(companyID: $c) { type booking { id client { id } } } }`,
      {
        c: shop.companyId,
      },
    );
    const times = await subscribed(
      live,
      metrics,
      `subscription($c: ID!, $s: ID!) { availabilityChanged(companyID: $c, serviceID: $s, from: "2026-03-02T00:00:00Z", to: "2026-03-03T00:00:00Z") { from } }`,
      { c: shop.companyId, s: sid },
      2,
    );
    const merchant = await shop.book({ serviceID: sid, resourceID: rids[1], startTime: '2026-03-02T11:00:00Z' });
    expect([200, 201]).toContain(merchant.status);
    expect((await bookings.take()).data.bookingChanged.type).toBe('created');
    expect((await times.take()).data.availabilityChanged.from).toBeDefined();
    await live.dispose();
    await settled(metrics);
    await ok(t.call('GET', `${base}/bookings`));
    await ok(t.call('GET', '/v1/client/bookings', { token }));
    await ok(t.call('GET', `${base}/payments`));
    const gql = await t.gql(`query($id: ID!) { company(id: $id) { id name } }`, { id: shop.companyId });
    expect(gql.status).toBe(200);

    const statements = takeStatements();
    const touched = new Set(
      statements.flatMap((s) => [...s.toLowerCase().matchAll(/\b(?:from|join|into|update)\s+"?([a-z_]+)"?/g)].map((m) => m[1])),
    );
    // the recording saw the writes and reads of the flows above
    for (const table of [
      'service',
      'resource',
      'booking',
      'booking_occupancy',
      'payment_transaction',
      'refund',
      'client',
      'price_rule',
      'live_watch',
    ])
      expect(touched).toContain(table);
    expect(unscopedStatements(statements, tenant)).toEqual([]);
    // every allow-list entry is still needed by some statement (a stale entry would hide nothing but mislead)
    const used = ALLOWED.filter((a) => statements.some((s) => a.pattern.test(s.toLowerCase())));
    expect(used.length).toBeGreaterThanOrEqual(2);
  });
});
