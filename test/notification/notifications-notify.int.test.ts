import { TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';
import { mailTestApp } from '../helpers/smtp-inbox';

/**
 * `notify: false` on a booking the merchant creates (REST and GraphQL): its client gets no
 * e-mail, neither at creation nor about any later change of that booking, and no reminder; the
 * merchant's messages about it go as usual.
 */
jest.setTimeout(60_000);

const clock = new TestClock(Date.parse('2031-03-20T09:00:00Z'));
const MERCHANT = 'desk@salon.example';
let t: TestApp;
let shop: Shop;
let sid: string;
let rid: string;

const mail = mailTestApp(clock, async (m) => {
  t = m.t;
  shop = await Shop.open(t, 'Salon Riga', 'Europe/Riga');
  ({
    sid,
    rids: [rid],
  } = await shop.bookable('fixed', { duration: 'PT1H', currency: 'EUR' }));
  const s = await t.call('PUT', `${shop.base}/notifications/settings`, { body: { merchantEmail: MERCHANT } });
  expect(s.status).toBe(200);
});
const { inbox } = mail;

const deliver = () => mail.deliver();

async function client(email: string): Promise<string> {
  const r = await t.call('POST', `${shop.base}/clients`, { body: { externalUserID: `ext-${email}`, email } });
  expect(r.status).toBe(201);
  return r.body.id;
}

const messages = async (bookingID: string) => {
  const r = await t.call('GET', `${shop.base}/notifications/messages`, { query: { bookingID } });
  expect(r.status).toBe(200);
  return (r.body.items as any[]).map((m) => ({ event: m.event, to: m.to, status: m.status, lastError: m.lastError })).reverse();
};

it('REST: a booking made with notify false sends its client nothing, now or when it moves or is cancelled; the merchant hears of it', async () => {
  const cid = await client('quiet@example.com');
  const r = await t.call('POST', `${shop.base}/bookings`, {
    body: { serviceID: sid, resourceID: rid, startTime: '2031-04-02T07:00:00Z', clientID: cid, notify: false },
  });
  expect(r.status).toBe(200);
  const id = r.body.id;
  const moved = await t.call('POST', `${shop.base}/bookings/${id}/move`, { body: { resourceID: rid, startTime: '2031-04-03T07:00:00Z' } });
  expect(moved.status).toBe(200);
  const cancelled = await t.call('PATCH', `${shop.base}/bookings/${id}`, { body: { status: 'cancelled' } });
  expect(cancelled.status).toBe(200);
  await deliver();

  expect(inbox.to('quiet@example.com')).toEqual([]);
  expect(
    inbox
      .to(MERCHANT)
      .map((m) => m.subject)
      .sort(),
  ).toEqual([expect.stringMatching(/^Booking cancelled/), expect.stringMatching(/^New booking/)]);
  const muted = 'the booking was made with notify: false';
  const log = await messages(id);
  const byEvent = (x: { event: string; to: string }, y: { event: string; to: string }) =>
    x.event.localeCompare(y.event) || x.to.localeCompare(y.to);
  expect(log.sort(byEvent)).toEqual([
    { event: 'booking.cancelled', to: MERCHANT, status: 'sent', lastError: null },
    { event: 'booking.cancelled', to: 'quiet@example.com', status: 'skipped', lastError: muted },
    { event: 'booking.confirmed', to: 'quiet@example.com', status: 'skipped', lastError: muted },
    { event: 'booking.created', to: MERCHANT, status: 'sent', lastError: null },
    { event: 'booking.moved', to: 'quiet@example.com', status: 'skipped', lastError: muted },
  ]);
  // no reminder was ever queued
  expect(log.some((m) => m.event === 'booking.reminder')).toBe(false);
  // the merchant can still send one of them on purpose: a resend of the skipped confirmation goes
  const all = (await t.call('GET', `${shop.base}/notifications/messages`, { query: { bookingID: id, event: 'booking.confirmed' } })).body
    .items;
  const resent = await t.call('POST', `${shop.base}/notifications/messages/${all[0].id}/resend`);
  expect(resent.status).toBe(202);
  await deliver();
  expect(inbox.to('quiet@example.com').map((m) => m.subject)).toEqual([expect.stringMatching(/^Your booking is confirmed/)]);
});

it('GraphQL: createBooking with notify false is quiet for the client; notify true (the default) is not', async () => {
  const cid = await client('gql@example.com');
  const create = (startTime: string, notify?: boolean) =>
    t.gql(`mutation($cid: ID!, $in: CreateBookingInput!) { createBooking(companyID: $cid, input: $in) { id } }`, {
      cid: shop.companyId,
      in: { serviceID: sid, resourceID: rid, startTime, clientID: cid, ...(notify === undefined ? {} : { notify }) },
    });
  const quiet = await create('2031-04-05T07:00:00Z', false);
  expect(quiet.body.errors).toBeUndefined();
  const loud = await create('2031-04-06T07:00:00Z');
  expect(loud.body.errors).toBeUndefined();
  await deliver();
  const got = inbox.to('gql@example.com');
  expect(got).toHaveLength(1);
  expect(got[0].subject).toMatch(/confirmed/i);
  expect((await messages(quiet.body.data.createBooking.id)).map((m) => [m.event, m.status]).sort()).toEqual([
    ['booking.confirmed', 'skipped'],
    ['booking.created', 'sent'],
  ]);
  expect((await messages(loud.body.data.createBooking.id)).map((m) => [m.event, m.status]).sort()).toEqual([
    ['booking.confirmed', 'sent'],
    ['booking.created', 'sent'],
    ['booking.reminder', 'queued'],
  ]);
});

it('a recurring series made with notify false is quiet for every occurrence', async () => {
  const cid = await client('series@example.com');
  const r = await t.call('POST', `${shop.base}/bookings`, {
    body: {
      serviceID: sid,
      resourceID: rid,
      startTime: '2031-05-01T07:00:00Z',
      clientID: cid,
      notify: false,
      repeat: { rrule: 'FREQ=WEEKLY;COUNT=3', timeZone: 'Europe/Riga' },
    },
  });
  expect(r.status).toBe(200);
  await deliver();
  expect(inbox.to('series@example.com')).toEqual([]);
  const [n] = await t.deps.orm.em
    .fork()
    .getConnection()
    .execute(`select count(*)::int as n from notification_message where company_id = ? and to_address = ? and status = 'skipped'`, [
      shop.companyId,
      'series@example.com',
    ]);
  expect(n.n).toBe(3);
});

it('notify must be a boolean: anything else is 400 and books nothing', async () => {
  const count = async () =>
    (await t.deps.orm.em.fork().getConnection().execute('select count(*)::int as n from booking where company_id = ?', [shop.companyId]))[0]
      .n;
  const before = await count();
  for (const notify of ['false', 0, null]) {
    const r = await t.call('POST', `${shop.base}/bookings`, {
      body: { serviceID: sid, resourceID: rid, startTime: '2031-06-02T07:00:00Z', notify },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
  }
  expect(await count()).toBe(before);
});
