import { TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';
import { mailTestApp } from '../helpers/smtp-inbox';

/**
 * The client's `language` (BCP 47, optional): set on create, update and client login (REST and
 * GraphQL), shown on the client, refused (400) when malformed, and the language of the
 * client's messages when a template exists for it (or its primary language), else the
 * company's language, else English.
 */
jest.setTimeout(60_000);

const clock = new TestClock(Date.parse('2031-03-20T09:00:00Z'));
let t: TestApp;
let shop: Shop;
let sid: string;
let rid: string;
let loginKey: string;

const mail = mailTestApp(clock, async (m) => {
  t = m.t;
  shop = await Shop.open(t, 'Salon Riga', 'Europe/Riga');
  ({
    sid,
    rids: [rid],
  } = await shop.bookable('fixed', { duration: 'PT1H', currency: 'EUR' }));
  loginKey = await t.keyWith({ [shop.companyId]: ['client.login'] });
});
const { inbox } = mail;

const deliver = () => mail.deliver();
let n = 0;
const nextStart = () => new Date(Date.parse('2031-04-01T07:00:00Z') + ++n * 86_400_000).toISOString();

/** Books a confirmed booking for the client and returns the confirmation the client received, with its log entry. */
async function confirmation(clientID: string, email: string) {
  const b = await t.call('POST', `${shop.base}/bookings`, { body: { serviceID: sid, resourceID: rid, startTime: nextStart(), clientID } });
  expect(b.status).toBe(200);
  await deliver();
  const mail = inbox.to(email).at(-1)!;
  const log = await t.call('GET', `${shop.base}/notifications/messages`, { query: { bookingID: b.body.id, event: 'booking.confirmed' } });
  return { mail, logged: log.body.items[0] };
}

describe('REST', () => {
  it('create, read, update and clear the language; a malformed tag is 400 and changes nothing', async () => {
    const created = await t.call('POST', `${shop.base}/clients`, {
      body: { externalUserID: 'lang-1', email: 'ilze@example.com', language: 'lv-lv' },
    });
    expect(created.status).toBe(201);
    expect(created.body.language).toBe('lv-LV');
    const id = created.body.id;
    expect((await t.call('GET', `${shop.base}/clients/${id}`)).body.language).toBe('lv-LV');

    for (const language of ['not a tag', 'en_US', '', 'x'.repeat(40), 42]) {
      const bad = await t.call('PATCH', `${shop.base}/clients/${id}`, { body: { language } });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('invalid_request');
    }
    const refused = await t.call('POST', `${shop.base}/clients`, {
      body: { externalUserID: 'lang-bad', email: 'bad@example.com', language: 'en_US' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([{ path: 'language', message: expect.stringContaining('BCP 47') }]);
    expect((await t.call('GET', `${shop.base}/clients/search`, { query: { externalUserID: 'lang-bad' } })).body).toEqual([]);
    expect((await t.call('GET', `${shop.base}/clients/${id}`)).body.language).toBe('lv-LV');

    const changed = await t.call('PATCH', `${shop.base}/clients/${id}`, { body: { language: 'EN-gb' } });
    expect(changed.status).toBe(200);
    expect(changed.body.language).toBe('en-GB');
    const cleared = await t.call('PATCH', `${shop.base}/clients/${id}`, { body: { language: null } });
    expect(cleared.body.language).toBeNull();
    const untouched = await t.call('PATCH', `${shop.base}/clients/${id}`, { body: { firstName: 'Ilze' } });
    expect(untouched.body).toMatchObject({ firstName: 'Ilze', language: null });
    // a client created without one has none
    const plain = await t.call('POST', `${shop.base}/clients`, { body: { externalUserID: 'lang-2', email: 'plain@example.com' } });
    expect(plain.body.language).toBeNull();
  });

  it('client login sets the language of a new client and updates it on a later login; the profile shows it', async () => {
    const login = (body: Record<string, unknown>) =>
      t.call('POST', '/v1/client/auth/login', {
        key: loginKey,
        body: { companyID: shop.companyId, externalUserID: 'login-1', email: 'login@example.com', ...body },
      });
    const first = await login({ language: 'lv' });
    expect(first.status).toBe(200);
    const profile = () => t.call('GET', '/v1/client/profile', { token: first.body.accessToken });
    expect((await profile()).body.language).toBe('lv');
    expect((await login({})).status).toBe(200);
    expect((await profile()).body.language).toBe('lv'); // left out: kept
    expect((await login({ language: 'de-AT' })).status).toBe(200);
    expect((await profile()).body.language).toBe('de-AT');
    const bad = await login({ language: 'de AT' });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ path: 'language', message: expect.stringContaining('BCP 47') }]);
    expect((await profile()).body.language).toBe('de-AT');
  });
});

describe('GraphQL', () => {
  const CLIENT = 'id language';
  it('createClient, updateClient and clientLogin take the language; Client.language shows it; a malformed one is invalid_request', async () => {
    const created = await t.gql(
      `mutation($cid: ID!) { createClient(companyID: $cid, input: {externalUserID: "g-1", email: "g1@example.com", language: "LV"}) { ${CLIENT} } }`,
      { cid: shop.companyId },
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createClient.language).toBe('lv');
    const id = created.body.data.createClient.id;
    const update = (language: string | null) =>
      t.gql(`mutation($cid: ID!, $id: ID!, $l: String) { updateClient(companyID: $cid, id: $id, input: {language: $l}) { ${CLIENT} } }`, {
        cid: shop.companyId,
        id,
        l: language,
      });
    expect((await update('en-us')).body.data.updateClient.language).toBe('en-US');
    const bad = await update('en--US');
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'invalid_request', details: [{ path: 'language' }] });
    expect(
      (await t.gql(`query($cid: ID!, $id: ID!) { client(companyID: $cid, id: $id) { language } }`, { cid: shop.companyId, id })).body.data,
    ).toEqual({ client: { language: 'en-US' } });
    expect((await update(null)).body.data.updateClient.language).toBeNull();

    const login = await t.gql(
      `mutation($in: ClientLoginInput!) { clientLogin(input: $in) { accessToken } }`,
      { in: { companyID: shop.companyId, externalUserID: 'g-2', email: 'g2@example.com', language: 'lv' } },
      { key: loginKey },
    );
    expect(login.body.errors).toBeUndefined();
    const profile = await t.gql(`{ clientProfile { language } }`, {}, { token: login.body.data.clientLogin.accessToken, key: null });
    expect(profile.body.data.clientProfile.language).toBe('lv');
  });
});

describe('the language of a message', () => {
  it("the client's language when a template exists for it or its primary language, else the company's, else English", async () => {
    const make = async (email: string, language?: string) =>
      (await t.call('POST', `${shop.base}/clients`, { body: { externalUserID: `m-${email}`, email, ...(language ? { language } : {}) } }))
        .body.id;

    // lv-LV: the built-in lv template
    const lv = await confirmation(await make('lv@example.com', 'lv-LV'), 'lv@example.com');
    expect(lv.mail.subject).toMatch(/^Jūsu rezervācija ir apstiprināta/);
    expect(lv.mail.headers.get('content-language')).toBe('lv');
    expect(lv.logged).toMatchObject({ language: 'lv', status: 'sent' });

    // de: no template in German; the company's language (default en)
    const de = await make('de@example.com', 'de');
    const inEnglish = await confirmation(de, 'de@example.com');
    expect(inEnglish.mail.subject).toMatch(/^Your booking is confirmed/);
    expect(inEnglish.logged.language).toBe('en');

    // the company's language lv: the German client is written to in Latvian, an English one in English
    expect((await t.call('PUT', `${shop.base}/notifications/settings`, { body: { language: 'lv' } })).status).toBe(200);
    const inLatvian = await confirmation(de, 'de@example.com');
    expect(inLatvian.mail.subject).toMatch(/^Jūsu rezervācija/);
    expect(inLatvian.logged.language).toBe('lv');
    const en = await confirmation(await make('en@example.com', 'en-GB'), 'en@example.com');
    expect(en.logged.language).toBe('en');
    // no language on the client: the company's
    expect((await confirmation(await make('none@example.com'), 'none@example.com')).logged.language).toBe('lv');

    // the company's own German template makes German the client's language
    const put = await t.call('PUT', `${shop.base}/notifications/templates/booking.confirmed/de`, {
      body: { subject: 'Bestätigt: {{service.name}}', text: 'Hallo {{client.name}}', html: '<p>Hallo</p>' },
    });
    expect(put.status).toBe(200);
    const german = await confirmation(de, 'de@example.com');
    expect(german.mail.subject).toBe('Bestätigt: fixed service');
    expect(german.logged.language).toBe('de');
    // a language changed later applies to the next message
    await t.call('PATCH', `${shop.base}/clients/${de}`, { body: { language: 'en' } });
    expect((await confirmation(de, 'de@example.com')).logged.language).toBe('en');
    await t.call('PUT', `${shop.base}/notifications/settings`, { body: { language: 'en' } });
  });
});
