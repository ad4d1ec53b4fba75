import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { countRows, Shop } from '../helpers/bookings-fixtures';
import { recordEvents } from '../../src/kernel/events';
import { systemCtx } from '../../src/kernel/context';

/**
 * The outbox's enqueue is one database function (`webhook_enqueue`), called by
 * `kernel/events.ts` and from inside `booking_insert`: a new booking's event still rides in its
 * one insert statement, and a row is written only for an enabled endpoint that listens.
 */

let t: TestApp;
const clock = new TestClock(Date.parse('2031-03-03T09:00:00Z'));

beforeAll(async () => {
  t = await createTestApp({ clock, config: { webhookAllowInsecure: true } });
});
afterAll(async () => t?.close());

const events = (companyId: string) => countRows(t, 'select count(*) as n from webhook_event where company_id = ?', [companyId]);
const deliveries = (companyId: string) => countRows(t, 'select count(*) as n from webhook_delivery where company_id = ?', [companyId]);

async function endpoint(s: Shop, eventTypes: string[], enabled = true): Promise<string> {
  const r = await t.call('POST', `${s.base}/webhooks`, { body: { url: 'http://127.0.0.1:9/hooks', eventTypes, enabled } });
  expect(r.status).toBe(201);
  return r.body.id;
}

let hour = 0;
async function bookingStatements(s: Shop, svc: { sid: string; rids: string[] }): Promise<number> {
  const startTime = new Date(Date.parse('2031-04-01T06:00:00Z') + hour++ * 3600_000).toISOString();
  return t.countStatements(async () => expect((await s.book({ serviceID: svc.sid, resourceID: svc.rids[0], startTime })).status).toBe(200));
}

describe('the enqueue', () => {
  it('a new booking costs the same statements whether an endpoint listens or not, and its event is written in them', async () => {
    const quiet = await Shop.open(t, 'No endpoints', 'UTC');
    const hooked = await Shop.open(t, 'Listening', 'UTC');
    const a = await quiet.bookable('fixed', { duration: 'PT30M' });
    const b = await hooked.bookable('fixed', { duration: 'PT30M' });
    await endpoint(hooked, ['booking.created']);
    await endpoint(hooked, ['booking.created', 'booking.cancelled']);
    await endpoint(hooked, ['booking.created'], false); // disabled: gets nothing
    await endpoint(hooked, ['payment.paid']); // listens to another type: gets nothing
    // the first booking of each loads the kept catalog
    await bookingStatements(quiet, a);
    await bookingStatements(hooked, b);
    const without = await bookingStatements(quiet, a);
    const withEndpoints = await bookingStatements(hooked, b);
    expect(withEndpoints).toBe(without);
    expect(await events(quiet.companyId)).toBe(0);
    expect(await events(hooked.companyId)).toBe(2);
    expect(await deliveries(hooked.companyId)).toBe(4); // two listening endpoints, two bookings
  });

  it('recordEvents takes named fields and writes only the types an enabled endpoint listens to', async () => {
    const s = await Shop.open(t, 'Direct', 'UTC');
    await endpoint(s, ['giftcard.paid']);
    const ctx = systemCtx(t.deps, 'test');
    const data = { id: 'x' };
    const at = new Date(clock.now());
    await recordEvents(ctx, {
      companyId: s.companyId,
      events: [
        { type: 'giftcard.paid', data },
        { type: 'giftcard.purchased', data },
      ],
      at,
    });
    const rows = (await ctx.em
      .getConnection()
      .execute('select type, payload, occurred_at from webhook_event where company_id = ?', [s.companyId])) as {
      type: string;
      payload: { id: string; type: string; occurredAt: string; data: unknown };
      occurred_at: Date;
    }[];
    expect(rows.map((r) => r.type)).toEqual(['giftcard.paid']);
    expect(rows[0].payload).toMatchObject({ type: 'giftcard.paid', occurredAt: at.toISOString(), data });
    expect(new Date(rows[0].occurred_at).toISOString()).toBe(at.toISOString());
    expect(await deliveries(s.companyId)).toBe(1);
    // a company without an enabled endpoint: nothing
    const none = await Shop.open(t, 'Quiet', 'UTC');
    await recordEvents(ctx, { companyId: none.companyId, events: [{ type: 'giftcard.paid', data }], at });
    expect(await events(none.companyId)).toBe(0);
  });
});
