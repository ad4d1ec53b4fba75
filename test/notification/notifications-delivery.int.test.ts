import type * as IcalJs from 'ical.js' with { 'resolution-mode': 'import' };
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';
import { mailTestApp } from '../helpers/smtp-inbox';
import { deliverDueMessages, Mailer } from '../../src/modules/notification/delivery';

// ical.js ships CommonJS beside its ES module; the tests run as CommonJS
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ICAL = require('ical.js') as typeof IcalJs.default;

/**
 * E-mail notifications through the real stack: bookings over HTTP write messages in their own
 * transaction, the delivery worker renders and sends them over SMTP to a local server, and the
 * messages are parsed back (mailparser, ical.js).
 */
jest.setTimeout(60_000);

const clock = new TestClock(Date.parse('2031-03-20T09:00:00Z'));
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
});
const { inbox } = mail;

async function client(body: Record<string, unknown>): Promise<string> {
  const r = await t.call('POST', `${shop.base}/clients`, { body: { externalUserID: `ext-${Math.random()}`, ...body } });
  expect(r.status).toBe(201);
  return r.body.id;
}

async function book(clientID: string | null, startTime: string, extra: Record<string, unknown> = {}): Promise<any> {
  const r = await t.call('POST', `${shop.base}/bookings`, { body: { serviceID: sid, resourceID: rid, startTime, clientID, ...extra } });
  expect(r.status).toBe(200);
  return r.body;
}

const messages = async (query: Record<string, string> = {}) => {
  const r = await t.call('GET', `${shop.base}/notifications/messages`, { query });
  expect(r.status).toBe(200);
  return r.body.items as any[];
};

const deliver = () => mail.deliver();

it('a confirmed booking sends its confirmation with invite.ics in the company zone across DST; cancelling sends CANCEL; both logged sent', async () => {
  const cid = await client({ email: 'anna@example.com', firstName: 'Anna' });
  // Riga moves to summer time on 2031-03-30: the booking is after the change, the message is sent before it
  const b = await book(cid, '2031-03-31T07:00:00Z');
  await deliver();
  const mail = inbox.mails.at(-1)!;
  expect(mail.to).toMatchObject({ value: [{ address: 'anna@example.com' }] });
  expect(mail.from).toMatchObject({ value: [{ address: 'bookings@example.com', name: 'Salon Riga' }] });
  expect(mail.subject).toContain('Your booking is confirmed');
  expect(mail.text).toContain('10:00');
  const invite = mail.attachments.find((a) => a.filename === 'invite.ics')!;
  const cal = new ICAL.Component(ICAL.parse(invite.content.toString('utf8')));
  expect(cal.getFirstPropertyValue('method')).toBe('REQUEST');
  for (const z of cal.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(z);
  const vevent = cal.getFirstSubcomponent('vevent')!;
  const ev = new ICAL.Event(vevent);
  expect(ev.uid).toBe(`${b.id}@localhost`);
  expect(vevent.getFirstProperty('dtstart')!.getParameter('tzid')).toBe('Europe/Riga');
  expect(ev.startDate.toString()).toBe('2031-03-31T10:00:00');
  expect(ev.startDate.toJSDate().toISOString()).toBe('2031-03-31T07:00:00.000Z');

  const cancelled = await t.call('PATCH', `${shop.base}/bookings/${b.id}`, { body: { status: 'cancelled' } });
  expect(cancelled.status).toBe(200);
  await deliver();
  const cancel = inbox.mails.at(-1)!;
  const ics = cancel.attachments.find((a) => a.filename === 'cancel.ics')!;
  const cc = new ICAL.Component(ICAL.parse(ics.content.toString('utf8')));
  expect(cc.getFirstPropertyValue('method')).toBe('CANCEL');
  expect(new ICAL.Event(cc.getFirstSubcomponent('vevent')!).uid).toBe(`${b.id}@localhost`);

  const log = await messages({ bookingID: b.id });
  expect(
    log
      .filter((m) => m.status === 'sent')
      .map((m) => m.event)
      .sort(),
  ).toEqual(['booking.cancelled', 'booking.confirmed']);
  // the reminder was withdrawn with the cancellation
  expect(log.find((m) => m.event === 'booking.reminder')).toMatchObject({
    status: 'skipped',
    lastError: 'withdrawn: the booking was cancelled',
  });
});

it('a hostile first name arrives escaped in html and cannot add a header', async () => {
  const put = await t.call('PUT', `${shop.base}/notifications/templates/booking.confirmed/en`, {
    body: { subject: 'Hi {{client.firstName}}', text: 'Hi {{client.firstName}}', html: '<p>Hi {{client.firstName}}</p>' },
  });
  expect(put.status).toBe(200);
  const cid = await client({ email: 'eve@example.com', firstName: 'Eve<script>x</script>' });
  await t.deps.orm.em
    .fork()
    .getConnection()
    .execute(`update client set first_name = ? where id = ?`, ['<script>Eve\r\nBcc: victim@example.com', cid]);
  await book(cid, '2031-04-02T07:00:00Z');
  await deliver();
  const mail = inbox.mails.at(-1)!;
  expect(mail.html).toContain('&lt;script&gt;Eve');
  expect(mail.html).not.toContain('<script>');
  expect(mail.headers.has('bcc')).toBe(false);
  expect(mail.subject).toBe('Hi <script>Eve Bcc: victim@example.com');
  expect(inbox.raw.at(-1)!.split(/\r?\n\r?\n/)[0]).not.toMatch(/^Bcc:/im);
  await t.call('DELETE', `${shop.base}/notifications/templates/booking.confirmed/en`);
});

it("the company's own lv template is used for a client whose language is lv", async () => {
  const put = await t.call('PUT', `${shop.base}/notifications/templates/booking.confirmed/lv`, {
    body: { subject: 'Apstiprināts: {{service.name}}', text: 'Sveiki, {{client.firstName}}! {{booking.date}}', html: '<p>Sveiki</p>' },
  });
  expect(put.status).toBe(200);
  const cid = await client({ email: 'janis@example.com', firstName: 'Jānis' });
  await t.deps.orm.em.fork().getConnection().execute(`update client set language = 'lv' where id = ?`, [cid]);
  const b = await book(cid, '2031-04-03T07:00:00Z');
  await deliver();
  const mail = inbox.mails.at(-1)!;
  expect(mail.subject).toBe('Apstiprināts: fixed service');
  expect(mail.text).toContain('Sveiki, Jānis!');
  expect(mail.text).toMatch(/aprīlis|aprīļ/);
  const [m] = (await messages({ bookingID: b.id, event: 'booking.confirmed' })) as any[];
  expect(m).toMatchObject({ language: 'lv', status: 'sent', subject: 'Apstiprināts: fixed service' });
});

it('a booking that fails (the time is taken) writes no message', async () => {
  const cid = await client({ email: 'late@example.com' });
  await book(cid, '2031-04-04T07:00:00Z');
  const before = (await messages()).length;
  const r = await t.call('POST', `${shop.base}/bookings`, {
    body: { serviceID: sid, resourceID: rid, startTime: '2031-04-04T07:00:00Z', clientID: cid },
  });
  expect(r.status).toBe(409);
  expect((await messages()).length).toBe(before);
});

it('SMTP down, then up: retried with backoff, delivered once, with the same Message-ID', async () => {
  const cid = await client({ email: 'retry@example.com' });
  const port = inbox.port;
  await inbox.stop();
  const b = await book(cid, '2031-04-07T07:00:00Z');
  await deliver();
  let [m] = await messages({ bookingID: b.id, event: 'booking.confirmed' });
  expect(m).toMatchObject({ status: 'queued', attempts: 1 });
  expect(m.lastError).toBeTruthy();
  await deliver(); // not due yet
  [m] = await messages({ bookingID: b.id, event: 'booking.confirmed' });
  expect(m.attempts).toBe(1);
  await inbox.start(port);
  const before = inbox.mails.length;
  clock.advance(2 * 60_000);
  await deliver();
  [m] = await messages({ bookingID: b.id, event: 'booking.confirmed' });
  expect(m).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
  const sent = inbox.mails.slice(before).filter((x) => x.to && (x.to as any).value[0].address === 'retry@example.com');
  expect(sent).toHaveLength(1);
  expect(sent[0].messageId).toBe(`<${m.id}@localhost>`);
});

it('reminders: due reminderHours before start (whole days keep the local time across DST), moved with the booking, none inside the window', async () => {
  const cid = await client({ email: 'remind@example.com' });
  // 2031-03-30 is the DST change in Riga: a 24-hour reminder of 11:00 on the 31st is due at 11:00 local on the 30th
  // (08:00Z, 23 hours before)
  const b = await book(cid, '2031-03-31T08:00:00Z');
  const due = async () =>
    (
      await t.deps.orm.em
        .fork()
        .getConnection()
        .execute(`select status, next_attempt_at from notification_message where booking_id = ? and event = 'booking.reminder'`, [b.id])
    )[0];
  expect(new Date((await due()).next_attempt_at).toISOString()).toBe('2031-03-30T08:00:00.000Z');
  const moved = await t.call('POST', `${shop.base}/bookings/${b.id}/move`, {
    body: { resourceID: rid, startTime: '2031-04-01T08:00:00Z' },
  });
  expect(moved.status).toBe(200);
  expect(new Date((await due()).next_attempt_at).toISOString()).toBe('2031-03-31T08:00:00.000Z');
  // a booking made inside the window gets none
  const soon = await book(cid, '2031-03-20T12:00:00Z');
  expect(await messages({ bookingID: soon.id, event: 'booking.reminder' })).toEqual([]);
  // sent once when due
  clock.set('2031-03-31T08:00:01Z');
  await deliver();
  await deliver();
  const sent = inbox.mails.filter((x) => /Reminder/.test(x.subject ?? '') && (x.to as any).value[0].address === 'remind@example.com');
  expect(sent).toHaveLength(1);
  // the database holds "once": a second reminder of the booking is refused whatever writes it
  const again = t.deps.orm.em
    .fork()
    .getConnection()
    .execute(
      `insert into notification_message (id, company_id, event, recipient, to_address, client_id, booking_id, status,
         next_attempt_at, created_at, updated_at)
       select gen_random_uuid(), company_id, event, recipient, to_address, client_id, booking_id, 'queued', now(), now(), now()
         from notification_message where booking_id = ? and event = 'booking.reminder'`,
      [b.id],
    );
  await expect(again).rejects.toMatchObject({ code: '23505' });
  clock.set('2031-03-21T09:00:00Z');
});

it('template validation: an unknown variable or a broken template is 400 with its position, and nothing is saved', async () => {
  const bad = await t.call('PUT', `${shop.base}/notifications/templates/booking.moved/en`, {
    body: { subject: 'Moved', text: 'Hello\n{{client.password}}', html: '<p>{{#if booking.date}}</p>' },
  });
  expect(bad.status).toBe(400);
  expect(bad.body.code).toBe('invalid_request');
  expect(bad.body.details).toEqual([
    { path: 'text', message: 'line 2, column 1: unknown variable client.password' },
    { path: 'html', message: expect.stringMatching(/^line 1, column \d+: the template does not compile/) },
  ]);
  const got = await t.call('GET', `${shop.base}/notifications/templates/booking.moved/en`);
  expect(got.body.custom).toBe(false);
  const preview = await t.call('POST', `${shop.base}/notifications/templates/booking.moved/lv/preview`, { body: {} });
  expect(preview.status).toBe(200);
  expect(preview.body.subject).toContain('Jūsu rezervācija ir pārcelta: Haircut');
});

it('two servers on one database deliver each message once', async () => {
  const dbName = t.deps.orm.config.get('dbName');
  const t2 = await createTestApp({
    clock,
    config: t.deps.config,
    rewriteUrl: (u) => {
      u.pathname = `/${dbName}`;
      return u;
    },
  });
  const mailer2 = new Mailer(t.deps.config.smtpUrl);
  try {
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await client({ email: `pair${i}@example.com` }));
    for (let i = 0; i < 6; i++) await book(ids[i], `2031-04-1${i}T07:00:00Z`);
    const before = inbox.mails.length;
    await Promise.all([
      deliverDueMessages(t.deps, mail.mailer),
      deliverDueMessages(t2.deps, mailer2),
      deliverDueMessages(t.deps, mail.mailer),
    ]);
    const got = inbox.mails
      .slice(before)
      .map((m) => (m.to as any).value[0].address)
      .filter((a: string) => a.startsWith('pair'));
    expect(got.sort()).toEqual(ids.map((_, i) => `pair${i}@example.com`).sort());
  } finally {
    mailer2.close();
    await t2.close();
  }
});

it('a status change in a company without webhook endpoints costs its messages one statement, and reads no status history for them', async () => {
  const quiet = await Shop.open(t, 'Quiet Salon', 'Europe/Riga');
  const q = await quiet.bookable('fixed', { duration: 'PT1H' });
  const cid = (await t.call('POST', `${quiet.base}/clients`, { body: { externalUserID: 'ext-quiet', email: 'quiet@example.com' } })).body
    .id;
  const cancelOne = async (startTime: string) => {
    const b = await t.call('POST', `${quiet.base}/bookings`, {
      body: { serviceID: q.sid, resourceID: q.rids[0], startTime, clientID: cid },
    });
    expect(b.status).toBe(200);
    return t.countStatements(() => t.call('PATCH', `${quiet.base}/bookings/${b.body.id}`, { body: { status: 'cancelled' } }));
  };
  const off = await t.call('PUT', `${quiet.base}/notifications/settings`, { body: { enabled: false } });
  expect(off.status).toBe(200);
  const without = await cancelOne('2031-05-05T07:00:00Z');
  await t.call('PUT', `${quiet.base}/notifications/settings`, { body: { enabled: true } });
  const withMessages = await cancelOne('2031-05-06T07:00:00Z');
  expect(withMessages).toBe(without + 1);
  const [m] = await t.deps.orm.em
    .fork()
    .getConnection()
    .execute(`select status from notification_message where company_id = ? and event = 'booking.cancelled' and recipient = 'client'`, [
      quiet.companyId,
    ]);
  expect(m).toMatchObject({ status: 'queued' });
});
