import { TestClock, type Res, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';
import { mailTestApp } from '../helpers/smtp-inbox';
import { Mailer } from '../../src/modules/notification/delivery';

/**
 * The notification API around the messages: every GraphQL operation answers what its REST twin
 * does; a key never reads or changes another company's settings, templates or messages (403
 * for a company of another merchant or one the key does not cover, 404 for a record of another
 * company); notifications.read reads and previews, notifications.write changes and resends; and
 * /metrics counts messages by event and status.
 */
jest.setTimeout(90_000);

const clock = new TestClock(Date.parse('2031-03-20T09:00:00Z'));
let t: TestApp;
let a: Shop;
let b: Shop;
let bKey: string;
let bookingA: string;
let bookingB: string;

async function seed(shop: Shop, email: string, startTime: string): Promise<string> {
  const { sid, rids } = await shop.bookable('fixed', { duration: 'PT1H', currency: 'EUR' });
  const c = await t.call('POST', `${shop.base}/clients`, { key: shop.key, body: { externalUserID: email, email } });
  expect(c.status).toBe(201);
  const r = await t.call('POST', `${shop.base}/bookings`, {
    key: shop.key,
    body: { serviceID: sid, resourceID: rids[0], startTime, clientID: c.body.id },
  });
  expect(r.status).toBe(200);
  return r.body.id;
}

const mail = mailTestApp(clock, async (m) => {
  t = m.t;
  a = await Shop.open(t, 'Salon A', 'Europe/Riga');
  bKey = await t.newMerchant('Merchant B');
  b = await Shop.open(t, 'Salon B', 'Europe/Riga', bKey);
  bookingA = await seed(a, 'anna@example.com', '2031-04-01T07:00:00Z');
  bookingB = await seed(b, 'berta@example.com', '2031-04-01T07:00:00Z');
  expect((await t.call('PUT', `${b.base}/notifications/templates/booking.moved/en`, { key: bKey, body: TEMPLATE })).status).toBe(200);
  expect((await t.call('PUT', `${b.base}/notifications/settings`, { key: bKey, body: { merchantEmail: 'b@salon.example' } })).status).toBe(
    200,
  );
});
const { inbox } = mail;

const TEMPLATE = { subject: 'Moved: {{service.name}}', text: 'Now {{booking.date}}', html: '<p>Now {{booking.date}}</p>' };
const deliver = (through?: Mailer) => mail.deliver(through);
const messagesOf = async (shop: Shop, query: Record<string, string> = {}, key = shop.key) =>
  (await t.call('GET', `${shop.base}/notifications/messages`, { key, query })).body.items as any[];

const SETTINGS = 'enabled events { event enabled } merchantEmail replyTo senderName reminderHours language';
const TEMPLATE_FIELDS = 'event language subject text html custom updatedAt';
const MESSAGE = 'id event to subject language status attempts lastError bookingID createdAt sentAt';

/** Every notification operation in GraphQL, by name, with the variables it needs. */
const OPS: Record<string, { doc: string; vars: (companyID: string) => Record<string, unknown> }> = {
  notificationSettings: { doc: `query($c: ID!) { notificationSettings(companyID: $c) { ${SETTINGS} } }`, vars: (c) => ({ c }) },
  notificationTemplates: { doc: `query($c: ID!) { notificationTemplates(companyID: $c) { ${TEMPLATE_FIELDS} } }`, vars: (c) => ({ c }) },
  notificationMessages: {
    doc: `query($c: ID!, $b: ID) { notificationMessages(companyID: $c, bookingID: $b) { total messages { ${MESSAGE} } } }`,
    vars: (c) => ({ c }),
  },
  updateNotificationSettings: {
    doc: `mutation($c: ID!) { updateNotificationSettings(companyID: $c, input: {replyTo: "desk@example.com"}) { replyTo } }`,
    vars: (c) => ({ c }),
  },
  setNotificationTemplate: {
    doc: `mutation($c: ID!) { setNotificationTemplate(companyID: $c, event: "booking.moved", language: "en", input: {subject: "x", text: "x", html: "x"}) { custom } }`,
    vars: (c) => ({ c }),
  },
  deleteNotificationTemplate: {
    doc: `mutation($c: ID!) { deleteNotificationTemplate(companyID: $c, event: "booking.moved", language: "en") }`,
    vars: (c) => ({ c }),
  },
  previewNotificationTemplate: {
    doc: `mutation($c: ID!) { previewNotificationTemplate(companyID: $c, event: "booking.moved", language: "en") { subject } }`,
    vars: (c) => ({ c }),
  },
  resendNotification: {
    doc: `mutation($c: ID!, $id: ID!) { resendNotification(companyID: $c, id: $id) { id } }`,
    vars: (c) => ({ c }),
  },
};

/** Every notification route of REST, as [method, path, body] for a company and a message id. */
const routes = (companyBase: string, messageId: string): [string, string, unknown][] => [
  ['GET', `${companyBase}/notifications/settings`, undefined],
  ['PUT', `${companyBase}/notifications/settings`, { replyTo: 'desk@example.com' }],
  ['GET', `${companyBase}/notifications/templates`, undefined],
  ['GET', `${companyBase}/notifications/templates/booking.moved/en`, undefined],
  ['PUT', `${companyBase}/notifications/templates/booking.moved/en`, { subject: 'x', text: 'x', html: 'x' }],
  ['DELETE', `${companyBase}/notifications/templates/booking.moved/en`, undefined],
  ['POST', `${companyBase}/notifications/templates/booking.moved/en/preview`, {}],
  ['GET', `${companyBase}/notifications/messages`, undefined],
  ['POST', `${companyBase}/notifications/messages/${messageId}/resend`, undefined],
];

/** What company B's notifications look like: its settings, templates and message log. */
async function stateOf(shop: Shop): Promise<unknown> {
  const get = (path: string) => t.call('GET', `${shop.base}/notifications/${path}`, { key: shop.key }).then((r: Res) => r.body);
  return { settings: await get('settings'), templates: await get('templates'), messages: await get('messages') };
}

describe('GraphQL', () => {
  it('every operation answers what its REST twin does', async () => {
    const c = a.companyId;
    const updated = await t.gql(
      `mutation($c: ID!, $i: NotificationSettingsInput!) { updateNotificationSettings(companyID: $c, input: $i) { ${SETTINGS} } }`,
      {
        c,
        i: {
          merchantEmail: 'a@salon.example',
          reminderHours: 12,
          language: 'LV',
          senderName: 'Salon A desk',
          events: [{ event: 'booking.reminder', enabled: false }],
        },
      },
    );
    expect(updated.body.errors).toBeUndefined();
    const rest = (await t.call('GET', `${a.base}/notifications/settings`)).body;
    expect(rest).toMatchObject({ merchantEmail: 'a@salon.example', reminderHours: 12, language: 'lv', senderName: 'Salon A desk' });
    expect(rest.events['booking.reminder']).toBe(false);
    const asGraphql = (s: any) => ({ ...s, events: Object.entries(s.events).map(([event, enabled]) => ({ event, enabled })) });
    expect(updated.body.data.updateNotificationSettings).toEqual(asGraphql(rest));
    const read = await t.gql(OPS.notificationSettings.doc, { c });
    expect(read.body.data.notificationSettings).toEqual(asGraphql(rest));
    const badSettings = await t.gql(
      `mutation($c: ID!) { updateNotificationSettings(companyID: $c, input: {reminderHours: 0}) { enabled } }`,
      {
        c,
      },
    );
    expect(badSettings.body.errors[0].extensions).toMatchObject({ code: 'invalid_request', details: [{ path: 'reminderHours' }] });

    const set = await t.gql(
      `mutation($c: ID!, $i: NotificationTemplateInput!) { setNotificationTemplate(companyID: $c, event: "booking.confirmed", language: "lv", input: $i) { ${TEMPLATE_FIELDS} } }`,
      { c, i: { subject: 'Apstiprināts {{service.name}}', text: 'Sveiki {{client.firstName}}', html: '<b>{{client.firstName}}</b>' } },
    );
    expect(set.body.errors).toBeUndefined();
    expect(set.body.data.setNotificationTemplate).toEqual(
      (await t.call('GET', `${a.base}/notifications/templates/booking.confirmed/lv`)).body,
    );
    const broken = await t.gql(
      `mutation($c: ID!) { setNotificationTemplate(companyID: $c, event: "booking.confirmed", language: "lv", input: {subject: "x", text: "{{client.password}}", html: "x"}) { custom } }`,
      { c },
    );
    expect(broken.body.errors[0].extensions).toMatchObject({
      code: 'invalid_request',
      details: [{ path: 'text', message: expect.stringMatching(/^line 1, column \d+: unknown variable client.password$/) }],
    });
    const list = await t.gql(OPS.notificationTemplates.doc, { c });
    expect(list.body.data.notificationTemplates).toEqual((await t.call('GET', `${a.base}/notifications/templates`)).body);
    expect(list.body.data.notificationTemplates.map((x: any) => [x.event, x.language])).toEqual([['booking.confirmed', 'lv']]);

    const preview = await t.gql(
      `mutation($c: ID!) { previewNotificationTemplate(companyID: $c, event: "booking.confirmed", language: "lv", input: {subject: "Hi {{client.name}}"}) { subject text html } }`,
      { c },
    );
    const restPreview = await t.call('POST', `${a.base}/notifications/templates/booking.confirmed/lv/preview`, {
      body: { subject: 'Hi {{client.name}}' },
    });
    expect(preview.body.data.previewNotificationTemplate).toEqual(restPreview.body);
    expect(restPreview.body).toMatchObject({ subject: 'Hi Jane Doe', text: expect.stringContaining('Sveiki Jane') });

    const del = await t.gql(`mutation($c: ID!) { deleteNotificationTemplate(companyID: $c, event: "booking.confirmed", language: "lv") }`, {
      c,
    });
    expect(del.body.data.deleteNotificationTemplate).toBe(true);
    expect((await t.call('GET', `${a.base}/notifications/templates/booking.confirmed/lv`)).body.custom).toBe(false);
    const again = await t.gql(
      `mutation($c: ID!) { deleteNotificationTemplate(companyID: $c, event: "booking.confirmed", language: "lv") }`,
      { c },
    );
    expect(again.body.errors[0].extensions.code).toBe('not_found');

    await deliver();
    const page = await t.gql(
      `query($c: ID!, $b: ID) { notificationMessages(companyID: $c, bookingID: $b, status: "sent", event: "booking.confirmed", limit: 5, offset: 0) { limit offset total messages { ${MESSAGE} } } }`,
      { c, b: bookingA },
    );
    const restPage = (
      await t.call('GET', `${a.base}/notifications/messages`, {
        query: { bookingID: bookingA, status: 'sent', event: 'booking.confirmed', limit: 5, offset: 0 },
      })
    ).body;
    expect(page.body.data.notificationMessages).toEqual({ ...restPage, messages: restPage.items, items: undefined });
    expect(restPage.items).toHaveLength(1);
    const badFilter = await t.gql(`query($c: ID!) { notificationMessages(companyID: $c, status: "lost") { total } }`, { c });
    expect(badFilter.body.errors[0].extensions).toMatchObject({ code: 'invalid_request', details: [{ path: 'status' }] });

    const resent = await t.gql(`mutation($c: ID!, $id: ID!) { resendNotification(companyID: $c, id: $id) { ${MESSAGE} } }`, {
      c,
      id: restPage.items[0].id,
    });
    expect(resent.body.errors).toBeUndefined();
    expect(resent.body.data.resendNotification).toMatchObject({ event: 'booking.confirmed', status: 'queued', to: 'anna@example.com' });
    const listed = (await messagesOf(a, { status: 'queued', event: 'booking.confirmed' })).find(
      (m) => m.id === resent.body.data.resendNotification.id,
    );
    expect(resent.body.data.resendNotification).toEqual(listed);
    const missing = await t.gql(OPS.resendNotification.doc, { c, id: '00000000-0000-4000-8000-000000000000' });
    expect(missing.body.errors[0].extensions.code).toBe('not_found');
  });
});

describe('tenancy', () => {
  it("another merchant's key is 403 on every REST route and GraphQL operation of a company, and changes nothing", async () => {
    const [mine] = await messagesOf(a);
    const before = await stateOf(a);
    for (const [method, path, body] of routes(a.base, mine.id)) {
      const r = await t.call(method, path, { key: bKey, body });
      expect([method, path, r.status, r.body.code]).toEqual([method, path, 403, 'forbidden']);
    }
    for (const [name, op] of Object.entries(OPS)) {
      const r = await t.gql(op.doc, { ...op.vars(a.companyId), id: mine.id }, { key: bKey });
      expect([name, r.body.errors?.[0]?.extensions?.code]).toEqual([name, 'forbidden']);
    }
    expect(await stateOf(a)).toEqual(before);
  });

  it("a message of another company is 404 through one's own company, and never listed", async () => {
    await deliver();
    const [theirs] = await messagesOf(a, { bookingID: bookingA });
    const resend = await t.call('POST', `${b.base}/notifications/messages/${theirs.id}/resend`, { key: bKey });
    expect([resend.status, resend.body.code]).toEqual([404, 'not_found']);
    const gql = await t.gql(OPS.resendNotification.doc, { c: b.companyId, id: theirs.id }, { key: bKey });
    expect(gql.body.errors[0].extensions.code).toBe('not_found');
    // B's log never shows A's messages, whatever the filter
    expect(await messagesOf(b, { bookingID: bookingA })).toEqual([]);
    const bs = await messagesOf(b);
    expect(bs.length).toBeGreaterThan(0);
    expect(bs.every((m) => m.to !== 'anna@example.com' && m.bookingID !== bookingA)).toBe(true);
    const gqlList = await t.gql(OPS.notificationMessages.doc, { c: b.companyId, b: bookingA }, { key: bKey });
    expect(gqlList.body.data.notificationMessages).toEqual({ total: 0, messages: [] });
    // and A's log never B's
    expect((await messagesOf(a)).some((m) => m.bookingID === bookingB)).toBe(false);
    // B's own template is B's: A still has the built-in one
    expect((await t.call('GET', `${a.base}/notifications/templates/booking.moved/en`)).body.custom).toBe(false);
    expect((await t.call('GET', `${b.base}/notifications/templates/booking.moved/en`, { key: bKey })).body.custom).toBe(true);
  });

  it("a key for one company of a merchant is 403 on the merchant's other company", async () => {
    const other = await Shop.open(t, 'Salon A2', 'Europe/Riga');
    const scoped = await t.keyWith({ [a.companyId]: ['notifications.*'] });
    expect((await t.call('GET', `${a.base}/notifications/settings`, { key: scoped })).status).toBe(200);
    for (const [method, path, body] of routes(other.base, '00000000-0000-4000-8000-000000000000')) {
      const r = await t.call(method, path, { key: scoped, body });
      expect([method, path, r.status]).toEqual([method, path, 403]);
    }
    for (const [name, op] of Object.entries(OPS)) {
      const r = await t.gql(op.doc, { ...op.vars(other.companyId), id: '00000000-0000-4000-8000-000000000000' }, { key: scoped });
      expect([name, r.body.errors?.[0]?.extensions?.code]).toEqual([name, 'forbidden']);
    }
  });
});

describe('permissions', () => {
  it('notifications.read reads and previews; notifications.write changes and resends; each refused the other is 403 and changes nothing', async () => {
    const reader = await t.keyWith({ [b.companyId]: ['notifications.read'] }, bKey);
    const writer = await t.keyWith({ [b.companyId]: ['notifications.write'] }, bKey);
    const [message] = await messagesOf(b);
    const before = await stateOf(b);
    const reads = new Set(['GET', 'POST /preview']);
    const kind = (method: string, path: string) => (path.endsWith('/preview') ? 'POST /preview' : method);
    for (const [method, path, body] of routes(b.base, message.id)) {
      const asReader = await t.call(method, path, { key: reader, body });
      if (reads.has(kind(method, path))) expect([method, path, asReader.status]).toEqual([method, path, 200]);
      else expect([method, path, asReader.status, asReader.body.code]).toEqual([method, path, 403, 'forbidden']);
      if (reads.has(kind(method, path))) {
        const asWriter = await t.call(method, path, { key: writer, body });
        expect([method, path, asWriter.status, asWriter.body.code]).toEqual([method, path, 403, 'forbidden']);
      }
    }
    expect(await stateOf(b)).toEqual(before);
    const READS = ['notificationSettings', 'notificationTemplates', 'notificationMessages', 'previewNotificationTemplate'];
    for (const [name, op] of Object.entries(OPS)) {
      const vars = { ...op.vars(b.companyId), id: message.id };
      const asReader = await t.gql(op.doc, vars, { key: reader });
      const asWriter = await t.gql(op.doc, vars, { key: writer });
      const [allowed, refused] = READS.includes(name) ? [asReader, asWriter] : [asWriter, asReader];
      expect([name, allowed.body.errors]).toEqual([name, undefined]);
      expect([name, refused.body.errors?.[0]?.extensions?.code]).toEqual([name, 'forbidden']);
    }
    // the writer's changes took effect
    const after = (await t.call('GET', `${b.base}/notifications/settings`, { key: bKey })).body;
    expect(after.replyTo).toBe('desk@example.com');
  });
});

describe('/metrics', () => {
  const metric = (text: string, event: string, status: string): number => {
    const line = text.split('\n').find((l) => l.startsWith(`notification_messages_total{event="${event}",status="${status}"} `));
    return line ? Number(line.split(' ').pop()) : 0;
  };
  const scrape = async () => (await t.call('GET', '/metrics', { key: null })).text;

  it('counts messages by event and the status their attempts left them in', async () => {
    inbox.refuse = (to) => (to.endsWith('@busy.example') ? 450 : to.endsWith('@gone.example') ? 550 : null);
    try {
      await deliver(); // what earlier cases left queued
      const before = await scrape();
      const booked = await seed(a, 'ok@example.com', '2031-05-01T07:00:00Z');
      await seed(a, 'x@busy.example', '2031-05-02T07:00:00Z');
      await seed(a, 'x@gone.example', '2031-05-03T07:00:00Z');
      await deliver();
      const after = await scrape();
      const delta = (event: string, status: string) => metric(after, event, status) - metric(before, event, status);
      expect(delta('booking.confirmed', 'sent')).toBe(1);
      expect(delta('booking.confirmed', 'queued')).toBe(1);
      expect(delta('booking.confirmed', 'failed')).toBe(1);
      expect(delta('booking.created', 'sent')).toBe(3); // the merchant address set above
      expect(await messagesOf(a, { bookingID: booked, event: 'booking.confirmed' })).toMatchObject([{ status: 'sent' }]);

      // without SMTP_URL an attempt is not_sent
      clock.advance(2 * 60_000);
      const unconfigured = new Mailer(null);
      inbox.refuse = () => null;
      await seed(a, 'later@example.com', '2031-05-04T07:00:00Z');
      const mid = await scrape();
      await deliver(unconfigured);
      expect(metric(await scrape(), 'booking.confirmed', 'not_sent') - metric(mid, 'booking.confirmed', 'not_sent')).toBe(2);
    } finally {
      inbox.refuse = () => null;
    }
  });
});
