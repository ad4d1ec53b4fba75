import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Fixtures } from '../helpers/fixtures';
import { upload } from '../helpers/pdf-fixtures';
import { makeTemplate, readPdf } from '../../src/modules/document/testkit';
import { sweepSubscriptions } from '../../src/modules/subscription/subscription.sweeper';

/** Subscriptions and contracts on the merchant side, over REST and GraphQL: validation, tenancy, transitions, search. */

const T0 = Date.parse('2026-01-31T10:00:00Z');
const clock = new TestClock(T0);
let t: TestApp;
let cid: string;
let other: string;
let fx: Fixtures;
let serviceId: string;
let resourceId: string;
let ticketId: string;
let otherService: string;
let clientId: string;
const CODE = /^[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}-[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}-[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}$/;

const base = (companyId = cid) => `/v1/companies/${companyId}/plugins/subscription`;

beforeAll(async () => {
  t = await createTestApp({ clock });
  cid = (await t.company('Gym', 'Europe/Riga')).id;
  other = (await t.company('Other gym', 'Europe/Riga')).id;
  fx = new Fixtures(t, cid);
  serviceId = await fx.service('ticket', {});
  resourceId = await fx.resource('Hall');
  ticketId = await fx.ticket(serviceId, 'Adult');
  otherService = await new Fixtures(t, other).service('fixed', {});
  const c = await t.call('POST', `/v1/companies/${cid}/clients`, {
    body: { email: 'anna@example.com', externalUserID: 'anna', firstName: 'Anna', lastName: 'Bērziņa' },
  });
  expect(c.status).toBe(201);
  clientId = c.body.id;
});
afterAll(async () => t?.close());
beforeEach(() => clock.set(T0));

async function subscription(body: Record<string, unknown> = {}, companyId = cid): Promise<any> {
  const r = await t.call('POST', `${base(companyId)}/list`, { body: { title: 'Monthly', duration: 'P1M', ...body } });
  if (r.status !== 201) throw new Error(`subscription: ${r.status} ${r.text}`);
  return r.body;
}
async function contract(subscriptionId: string, body: Record<string, unknown> = {}, companyId = cid): Promise<any> {
  const r = await t.call('POST', `${base(companyId)}/list/${subscriptionId}/contracts`, { body });
  if (r.status !== 201) throw new Error(`contract: ${r.status} ${r.text}`);
  return r.body;
}
const create = (body: Record<string, unknown>) => t.call('POST', `${base()}/list`, { body: { title: 'X', duration: 'P1M', ...body } });
const paths = (r: { body: { details?: { path: string }[] } }) => (r.body.details ?? []).map((d) => d.path);

describe('subscriptions', () => {
  it('creates with every field, reads, lists, updates and archives', async () => {
    const created = await t.call('POST', `${base()}/list`, {
      body: {
        title: 'Yoga 8',
        duration: 'P1M',
        availableFrom: '2026-01-01T00:00:00Z',
        availableTo: '2027-01-01T00:00:00Z',
        limitations: {
          bookingsCount: 8,
          daysOfWeek: 124,
          maxDuration: 'PT90M',
          maxSpotsPerBooking: 2,
          maxTicketsPerBooking: { [ticketId]: 2 },
          times: [{ startTime: '07:00', endTime: '24:00' }],
        },
        rRule: 'FREQ=MONTHLY;INTERVAL=1',
        recurringConfig: { provider: 'test' },
        recurringEnabled: true,
        recurringProvider: 'test',
        renewPeriod: 'P3D',
        serviceIDs: [serviceId],
        resourceIDs: [resourceId],
        ticketIDs: [ticketId],
        rollOverSettings: { rollOverType: 'capped', settings: { maxVisits: 4 } },
        metaData: { color: 'green' },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      companyID: cid,
      title: 'Yoga 8',
      duration: 'P1M',
      availableFrom: '2026-01-01T00:00:00Z',
      limitations: {
        bookingsCount: 8,
        daysOfWeek: 124,
        maxTicketsPerBooking: { [ticketId]: 2 },
        times: [{ startTime: '07:00', endTime: '24:00' }],
      },
      rRule: 'FREQ=MONTHLY;INTERVAL=1',
      recurringEnabled: true,
      recurringInterval: null,
      serviceIDs: [serviceId],
      resourceIDs: [resourceId],
      ticketIDs: [ticketId],
      rollOverSettings: { rollOverType: 'capped', settings: { maxVisits: 4 } },
      metaData: { color: 'green' },
      metaDataVersion: 1,
      archivedAt: null,
    });
    const id = created.body.id;
    expect((await t.call('GET', `${base()}/list/${id}`)).body).toEqual(created.body);
    expect((await t.call('GET', `${base()}/list`)).body.map((s: { id: string }) => s.id)).toContain(id);

    const updated = await t.call('PATCH', `${base()}/list/${id}`, {
      body: {
        title: 'Yoga 10',
        rRule: null,
        recurringInterval: 'week',
        recurringIntervalCount: 2,
        metaDataUpdate: { expectedVersion: 1, path: 'color', value: 'blue' },
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      title: 'Yoga 10',
      rRule: null,
      recurringInterval: 'week',
      recurringIntervalCount: 2,
      metaData: { color: 'blue' },
    });
    const archived = await t.call('PATCH', `${base()}/list/${id}`, { body: { archive: true } });
    expect(archived.body.archivedAt).toBe(new Date(T0).toISOString().replace('.000Z', 'Z'));
    expect((await t.call('PATCH', `${base()}/list/${id}`, { body: { archive: false } })).body.archivedAt).toBeNull();
    const stale = await t.call('PATCH', `${base()}/list/${id}`, { body: { metaDataUpdate: { expectedVersion: 1, path: 'x', value: 1 } } });
    expect(stale.status).toBe(409);
  });

  it.each([
    [{ title: '' }, 'title'],
    [{ duration: 'one month' }, 'duration'],
    [{ duration: 'PT0S' }, 'duration'],
    [{ duration: null }, 'duration'],
    [{ availableFrom: 'yesterday' }, 'availableFrom'],
    [{ availableFrom: '2026-02-01T00:00:00Z', availableTo: '2026-01-01T00:00:00Z' }, 'availableTo'],
    [{ limitations: [] }, 'limitations'],
    [{ limitations: { bookingsCount: 0 } }, 'limitations.bookingsCount'],
    [{ limitations: { bookingsCount: 1.5 } }, 'limitations.bookingsCount'],
    [{ limitations: { daysOfWeek: 128 } }, 'limitations.daysOfWeek'],
    [{ limitations: { daysOfWeek: -1 } }, 'limitations.daysOfWeek'],
    [{ limitations: { maxDuration: '90 minutes' } }, 'limitations.maxDuration'],
    [{ limitations: { maxSpotsPerBooking: 0 } }, 'limitations.maxSpotsPerBooking'],
    [{ limitations: { maxTicketsPerBooking: { 'not-a-uuid': 1 } } }, 'limitations.maxTicketsPerBooking.not-a-uuid'],
    [{ limitations: { times: [{ startTime: '10:00', endTime: '09:00' }] } }, 'limitations.times[0].endTime'],
    [{ limitations: { times: [{ startTime: '10:00', endTime: '10:00' }] } }, 'limitations.times[0].endTime'],
    [{ limitations: { times: [{ startTime: '25:00', endTime: '26:00' }] } }, 'limitations.times[0].startTime'],
    [{ limitations: { times: [{ startTime: '9:00', endTime: '10:00' }] } }, 'limitations.times[0].startTime'],
    [{ limitations: { bookingCount: 3 } }, 'limitations.bookingCount'],
    [{ rRule: 'FREQ=SOMETIMES' }, 'rRule'],
    [{ rRule: 'INTERVAL=2' }, 'rRule'],
    [{ rRule: 'FREQ=DAILY;COUNT=x' }, 'rRule'],
    [{ rRule: 'garbage' }, 'rRule'],
    [{ recurringInterval: 'fortnight' }, 'recurringInterval'],
    [{ recurringInterval: 'month', recurringIntervalCount: 0 }, 'recurringIntervalCount'],
    [{ recurringIntervalCount: 2 }, 'recurringIntervalCount'],
    [{ rRule: 'FREQ=MONTHLY', recurringInterval: 'month' }, 'recurringInterval'],
    [{ recurringEnabled: true }, 'recurringEnabled'],
    [{ recurringEnabled: 'yes' }, 'recurringEnabled'],
    [{ renewPeriod: 'soon' }, 'renewPeriod'],
    [{ serviceIDs: ['nope'] }, 'serviceIDs[0]'],
    [{ rollOverSettings: { rollOverType: 'some' } }, 'rollOverSettings.rollOverType'],
    [{ rollOverSettings: { rollOverType: 'capped', settings: {} } }, 'rollOverSettings.settings.maxVisits'],
    [{ rollOverSettings: { rollOverType: 'capped', settings: { maxVisits: -1 } } }, 'rollOverSettings.settings.maxVisits'],
    [{ recurringConfig: 'monthly' }, 'recurringConfig'],
  ])('refuses %j naming %s', async (body, path) => {
    const r = await create(body);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
    expect(paths(r)).toContain(path);
  });

  it('refuses services, resources and tickets of another company', async () => {
    const r = await create({
      serviceIDs: [serviceId, otherService],
      resourceIDs: [otherService],
      limitations: { maxTicketsPerBooking: { [otherService]: 1 } },
    });
    expect(r.status).toBe(400);
    expect(paths(r)).toEqual(
      expect.arrayContaining(['serviceIDs[1]', 'resourceIDs[0]', `limitations.maxTicketsPerBooking.${otherService}`]),
    );
    const count = await t.call('GET', `${base()}/list`);
    expect(count.body.some((s: { title: string }) => s.title === 'X')).toBe(false);
  });

  it('keeps another company out', async () => {
    const mine = await subscription();
    expect((await t.call('GET', `${base(other)}/list/${mine.id}`)).status).toBe(404);
    expect((await t.call('PATCH', `${base(other)}/list/${mine.id}`, { body: { title: 'Stolen' } })).status).toBe(404);
    expect((await t.call('POST', `${base(other)}/list/${mine.id}/contracts`, { body: {} })).status).toBe(404);
    expect((await t.call('GET', `${base(other)}/list`)).body.map((s: { id: string }) => s.id)).not.toContain(mine.id);
    const reader = await t.keyWith({ [cid]: ['subscriptions.read'] });
    expect((await t.call('POST', `${base()}/list`, { key: reader, body: { title: 'A', duration: 'P1M' } })).status).toBe(403);
    expect((await t.call('GET', `${base()}/list/${mine.id}`, { key: reader })).status).toBe(200);
  });
});

describe('contracts', () => {
  it('creates an active contract: code, expiry in the company zone, first allocation', async () => {
    const s = await subscription({ limitations: { bookingsCount: 5 }, serviceIDs: [serviceId] });
    // 31 January + P1M in Riga is 28 February (calendar month)
    const k = await contract(s.id, { clientID: clientId, activeFrom: '2026-01-31T10:00:00Z', metaData: { note: 'vip' } });
    expect(k).toMatchObject({
      subscriptionID: s.id,
      clientID: clientId,
      status: 'active',
      activeFrom: '2026-01-31T10:00:00Z',
      expiresAt: '2026-02-28T10:00:00Z',
      duration: 'P1M',
      limitations: { bookingsCount: 5 },
      serviceIDs: [serviceId],
      periodStart: '2026-01-31T10:00:00Z',
      periodEnd: '2026-02-28T10:00:00Z',
      usages: [],
      metaData: { note: 'vip' },
    });
    expect(k.code).toMatch(CODE);
    const ledger = await t.call('GET', `${base()}/contracts/${k.id}/visits-ledger`);
    expect(ledger.body).toEqual([
      expect.objectContaining({ amount: 5, transactionType: 'ALLOCATION', subscriptionItemID: k.id, expiresAt: '2026-02-28T10:00:00Z' }),
    ]);
    expect((await t.call('GET', `${base()}/contracts/${k.id}`)).body).toEqual(k);
    // a duration of its own; across the DST change of Riga (29 March) a day stays a calendar day
    const own = await contract(s.id, { activeFrom: '2026-03-28T22:00:00Z', duration: 'P2D' });
    expect(own.expiresAt).toBe('2026-03-30T21:00:00Z');
  });

  it('codes are unique', async () => {
    const s = await subscription();
    const codes = new Set<string>();
    for (let i = 0; i < 20; i++) codes.add((await contract(s.id)).code);
    expect(codes.size).toBe(20);
  });

  it.each([
    [{ status: 'expired' }, 'status'],
    [{ status: 'bogus' }, 'status'],
    [{ clientID: 'x' }, 'clientID'],
    [{ activeFrom: 'now' }, 'activeFrom'],
    [{ duration: 'P1' }, 'duration'],
    [{ expiresAt: '2026-03-01T00:00:00Z' }, 'expiresAt'],
    [{ status: 'pending_payment', expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt'],
    [{ metaData: [] }, 'metaData'],
  ])('refuses contract input %j naming %s', async (body, path) => {
    const s = await subscription();
    const r = await t.call('POST', `${base()}/list/${s.id}/contracts`, { body });
    expect(r.status).toBe(400);
    expect(paths(r)).toContain(path);
  });

  it('refuses a client of another company and an archived subscription', async () => {
    const s = await subscription();
    const stranger = await t.call('POST', `/v1/companies/${other}/clients`, { body: { email: 'x@example.com', externalUserID: 'x' } });
    expect((await t.call('POST', `${base()}/list/${s.id}/contracts`, { body: { clientID: stranger.body.id } })).status).toBe(404);
    await t.call('PATCH', `${base()}/list/${s.id}`, { body: { archive: true } });
    const r = await t.call('POST', `${base()}/list/${s.id}/contracts`, { body: {} });
    expect(r.status).toBe(400);
  });

  it('checks status transitions', async () => {
    const s = await subscription({ limitations: { bookingsCount: 3 } });
    const pending = await contract(s.id, { status: 'pending_payment', expiresAt: '2026-02-01T10:00:00Z' });
    expect(pending).toMatchObject({ status: 'pending_payment', pendingExpiresAt: '2026-02-01T10:00:00Z', periodStart: null });
    expect((await t.call('GET', `${base()}/contracts/${pending.id}/visits-ledger`)).body).toEqual([]);
    const patch = (id: string, body: Record<string, unknown>) => t.call('PATCH', `${base()}/contracts/${id}`, { body });
    expect((await patch(pending.id, { status: 'expired' })).status).toBe(409);
    clock.set(T0 + 3_600_000);
    const active = await patch(pending.id, { status: 'active' });
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({
      status: 'active',
      pendingExpiresAt: null,
      activeFrom: '2026-01-31T10:00:00Z',
      expiresAt: '2026-02-28T10:00:00Z',
    });
    expect((await t.call('GET', `${base()}/contracts/${pending.id}/visits-ledger`)).body.map((v: { amount: number }) => v.amount)).toEqual([
      3,
    ]);
    expect((await patch(pending.id, { status: 'pending_payment' })).status).toBe(409);
    expect((await patch(pending.id, { status: 'active' })).status).toBe(200);
    const cancelled = await patch(pending.id, { status: 'cancelled' });
    expect(cancelled.body.status).toBe('cancelled');
    // the unused visits expire with the contract
    const ledger = (await t.call('GET', `${base()}/contracts/${pending.id}/visits-ledger`)).body;
    expect(ledger.map((v: { amount: number; transactionType: string }) => [v.transactionType, v.amount])).toEqual([
      ['ALLOCATION', 3],
      ['EXPIRATION', -3],
    ]);
    for (const status of ['active', 'expired', 'pending_payment']) expect((await patch(pending.id, { status })).status).toBe(409);
    expect((await patch(pending.id, { duration: 'P2M' })).status).toBe(409);
    expect((await patch(pending.id, { metaDataUpdate: { expectedVersion: 1, path: 'a', value: 1 } })).status).toBe(200);

    const k = await contract(s.id);
    expect((await patch(k.id, { status: 'expired' })).body.status).toBe('expired');
    expect((await patch(k.id, { status: 'cancelled' })).status).toBe(409);
    // a pending contract can be cancelled; an active one past its end stands expired
    expect((await patch((await contract(s.id, { status: 'pending_payment' })).id, { status: 'cancelled' })).body.status).toBe('cancelled');
    const late = await contract(s.id);
    clock.set(Date.parse('2026-03-01T00:00:00Z'));
    expect((await t.call('GET', `${base()}/contracts/${late.id}`)).body.status).toBe('expired');
    expect((await patch(late.id, { status: 'cancelled' })).status).toBe(409);
  });

  it('a pending_payment contract lapses at the expiresAt it was given, else after the payment timeout (sweeper)', async () => {
    const s = await subscription({ limitations: { bookingsCount: 2 } });
    const soon = new Date(T0 + 5000).toISOString().replace('.000Z', 'Z');
    const given = await contract(s.id, { status: 'pending_payment', expiresAt: soon, clientID: clientId });
    expect(given).toMatchObject({ status: 'pending_payment', expiresAt: soon, pendingExpiresAt: soon });
    const timeout = t.deps.config.paymentTimeoutSec * 1000;
    const plain = await contract(s.id, { status: 'pending_payment' });
    const deadline = new Date(T0 + timeout).toISOString().replace('.000Z', 'Z');
    expect(plain).toMatchObject({ status: 'pending_payment', expiresAt: deadline, pendingExpiresAt: deadline });
    // stored, and read back as given
    const stored = await t.deps.orm.em
      .fork()
      .getConnection()
      .execute(
        `select id, status, pending_expires_at from subscription_contract where company_id = ? and id in (?, ?) order by created_at, id`,
        [cid, given.id, plain.id],
      );
    expect(Object.fromEntries(stored.map((r: any) => [r.id, new Date(r.pending_expires_at).getTime()]))).toEqual({
      [given.id]: T0 + 5000,
      [plain.id]: T0 + timeout,
    });
    expect((await t.call('GET', `${base()}/contracts/${given.id}`)).body).toMatchObject({ status: 'pending_payment', expiresAt: soon });
    const sweep = async () => {
      await sweepSubscriptions(t.deps);
      const rows = await t.deps.orm.em
        .fork()
        .getConnection()
        .execute(`select id, status from subscription_contract where company_id = ? and id in (?, ?)`, [cid, given.id, plain.id]);
      return Object.fromEntries(rows.map((r: any) => [r.id, r.status]));
    };
    clock.set(T0 + 4999);
    expect(await sweep()).toEqual({ [given.id]: 'pending_payment', [plain.id]: 'pending_payment' });
    clock.set(T0 + 5000);
    expect(await sweep()).toEqual({ [given.id]: 'cancelled', [plain.id]: 'pending_payment' });
    const lapsed = (await t.call('GET', `${base()}/contracts/${given.id}`)).body;
    expect(lapsed).toMatchObject({ status: 'cancelled', expiresAt: soon });
    expect((await t.call('GET', `${base()}/contracts/${given.id}/visits-ledger`)).body).toEqual([]);
    clock.set(T0 + timeout);
    expect(await sweep()).toEqual({ [given.id]: 'cancelled', [plain.id]: 'cancelled' });
    // paid in time instead (activated by the merchant): the term starts, and the deadline is gone
    clock.set(T0);
    const paid = await contract(s.id, { status: 'pending_payment', expiresAt: soon });
    const active = await t.call('PATCH', `${base()}/contracts/${paid.id}`, { body: { status: 'active' } });
    expect(active.body).toMatchObject({
      status: 'active',
      pendingExpiresAt: null,
      activeFrom: '2026-01-31T10:00:00Z',
      expiresAt: '2026-02-28T10:00:00Z',
    });
    clock.set(T0 + 60_000);
    await sweepSubscriptions(t.deps);
    expect((await t.call('GET', `${base()}/contracts/${paid.id}`)).body.status).toBe('active');
  });

  it.each([
    ['in the past', '2026-01-31T09:59:59Z'],
    ['now', '2026-01-31T10:00:00Z'],
    ['malformed', 'tomorrow'],
    ['without an offset', '2026-02-01T10:00:00'],
    ['of the wrong type', 1767261600000],
  ])('refuses a pending_payment expiresAt %s (400, nothing created)', async (_name, expiresAt) => {
    const s = await subscription();
    const r = await t.call('POST', `${base()}/list/${s.id}/contracts`, { body: { status: 'pending_payment', expiresAt } });
    expect([r.status, r.body.code]).toEqual([400, 'invalid_request']);
    expect(paths(r)).toContain('expiresAt');
    const found = await t.call('POST', `${base()}/contracts/search`, { body: { subscriptionIDs: [s.id] } });
    expect(found.body.total).toBe(0);
  });

  it('updates duration, client and subscription', async () => {
    const s = await subscription({ limitations: { bookingsCount: 2 } });
    const s2 = await subscription({ limitations: { bookingsCount: 9 }, serviceIDs: [serviceId] });
    const k = await contract(s.id, { activeFrom: '2026-01-31T10:00:00Z' });
    const r = await t.call('PATCH', `${base()}/contracts/${k.id}`, {
      body: { duration: 'P2M', clientID: clientId, subscriptionID: s2.id },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      duration: 'P2M',
      expiresAt: '2026-03-31T09:00:00Z',
      clientID: clientId,
      subscriptionID: s2.id,
      limitations: { bookingsCount: 9 },
      serviceIDs: [serviceId],
    });
    const bad = await t.call('PATCH', `${base()}/contracts/${k.id}`, { body: { duration: 'x', subscriptionID: 'y', status: 'z' } });
    expect(bad.status).toBe(400);
    expect(paths(bad)).toEqual(expect.arrayContaining(['duration', 'subscriptionID', 'status']));
    const foreign = await subscription({}, other);
    expect((await t.call('PATCH', `${base()}/contracts/${k.id}`, { body: { subscriptionID: foreign.id } })).status).toBe(404);
  });

  it('keeps another company out of contracts', async () => {
    const s = await subscription();
    const k = await contract(s.id);
    expect((await t.call('GET', `${base(other)}/contracts/${k.id}`)).status).toBe(404);
    expect((await t.call('PATCH', `${base(other)}/contracts/${k.id}`, { body: { status: 'cancelled' } })).status).toBe(404);
    expect((await t.call('GET', `${base(other)}/contracts/${k.id}/visits-ledger`)).status).toBe(404);
    expect((await t.call('POST', `${base(other)}/contracts/search`, { body: { ids: [k.id] } })).body.total).toBe(0);
    expect((await t.call('GET', `${base()}/contracts/not-a-uuid`)).status).toBe(400);
  });
});

describe('contract search', () => {
  let s1: any;
  let s2: any;
  let a: any;
  let b: any;
  let c: any;
  beforeAll(async () => {
    const resource2 = await fx.resource('Pool');
    s1 = await subscription({ title: 'Search A', serviceIDs: [serviceId] });
    s2 = await subscription({ title: 'Search B', resourceIDs: [resource2] });
    a = await contract(s1.id, { clientID: clientId, activeFrom: '2026-05-01T00:00:00Z', metaData: { tier: 'gold' } });
    clock.advance(1000);
    b = await contract(s2.id, { activeFrom: '2026-07-01T00:00:00Z', metaData: { tier: 'silver' } });
    clock.advance(1000);
    c = await contract(s2.id, { status: 'pending_payment' });
  });
  const search = async (body: Record<string, unknown>) => {
    const r = await t.call('POST', `${base()}/contracts/search`, { body: { subscriptionIDs: [s1.id, s2.id], ...body } });
    expect(r.status).toBe(200);
    return r.body;
  };
  const ids = (page: { items: { id: string }[] }) => page.items.map((k) => k.id);

  it('filters by every field and pages', async () => {
    expect(ids(await search({}))).toEqual([a.id, b.id, c.id]);
    expect(ids(await search({ subscriptionIDs: [s2.id] }))).toEqual([b.id, c.id]);
    expect(ids(await search({ ids: [b.id] }))).toEqual([b.id]);
    expect(ids(await search({ clientIDs: [clientId] }))).toEqual([a.id]);
    expect(ids(await search({ code: a.code.toLowerCase().replace(/-/g, '') }))).toEqual([a.id]);
    expect(ids(await search({ status: ['pending_payment'] }))).toEqual([c.id]);
    expect(ids(await search({ status: 'active' }))).toEqual([a.id, b.id]);
    // s1 names the service; s2 names no service and so allows every one
    expect(ids(await search({ serviceIDs: [serviceId] }))).toEqual([a.id, b.id, c.id]);
    expect(ids(await search({ resourceIDs: [resourceId] }))).toEqual([a.id]);
    // a: May 1 - Jun 1, b: Jul 1 - Aug 1 (validity overlapping the range)
    expect(ids(await search({ fromDate: '2026-05-15T00:00:00Z', toDate: '2026-07-15T00:00:00Z' }))).toEqual([a.id, b.id]);
    expect(ids(await search({ fromDate: '2026-06-01T00:00:00Z', toDate: '2026-07-01T00:00:00Z' }))).toEqual([]);
    expect(ids(await search({ toDate: '2026-06-01T00:00:00Z', status: 'active' }))).toEqual([a.id]);
    expect(ids(await search({ metaDataQuery: { op: 'eq', path: 'tier', value: 'silver' } }))).toEqual([b.id]);
    const page = await search({ limit: 2, offset: 1 });
    expect(page).toMatchObject({ limit: 2, offset: 1, total: 3 });
    expect(ids(page)).toEqual([b.id, c.id]);
  });

  it.each([
    [{ ids: ['x'] }, 'ids[0]'],
    [{ status: ['sleeping'] }, 'status[0]'],
    [{ fromDate: '2026-02-01T00:00:00Z', toDate: '2026-01-01T00:00:00Z' }, 'toDate'],
    [{ metaDataQuery: { op: 'gt', path: 'a', value: 1 } }, 'metaDataQuery.op'],
    [{ limit: 101 }, 'limit'],
  ])('refuses %j', async (body, path) => {
    const r = await t.call('POST', `${base()}/contracts/search`, { body });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain(path.replace(/\[0\]$/, ''));
  });
});

describe('GraphQL', () => {
  it('creates a subscription and a contract and searches them like REST', async () => {
    const created = await t.gql(
      `mutation($c: ID!, $input: CreateSubscriptionInput!) {
        createSubscription(companyID: $c, input: $input) {
          id title duration limitations { bookingsCount daysOfWeek maxTicketsPerBooking { ticketID count } times { startTime endTime } }
          rollOverSettings { rollOverType settings { maxVisits } } serviceIDs recurringInterval recurringIntervalCount
        }
      }`,
      {
        c: cid,
        input: {
          title: 'GQL',
          duration: 'P1M',
          limitations: {
            bookingsCount: 4,
            daysOfWeek: 3,
            maxTicketsPerBooking: [{ ticketID: ticketId, count: 2 }],
            times: [{ startTime: '08:00', endTime: '12:00' }],
          },
          rollOverSettings: { rollOverType: 'all' },
          serviceIDs: [serviceId],
          recurringEnabled: true,
          recurringInterval: 'month',
        },
      },
    );
    expect(created.body.errors).toBeUndefined();
    const s = created.body.data.createSubscription;
    expect(s).toMatchObject({
      title: 'GQL',
      limitations: {
        bookingsCount: 4,
        daysOfWeek: 3,
        maxTicketsPerBooking: [{ ticketID: ticketId, count: 2 }],
        times: [{ startTime: '08:00', endTime: '12:00' }],
      },
      rollOverSettings: { rollOverType: 'all', settings: { maxVisits: null } },
      recurringInterval: 'month',
      recurringIntervalCount: 1,
    });
    const rest = await t.call('GET', `${base()}/list/${s.id}`);
    expect(rest.body.limitations.maxTicketsPerBooking).toEqual({ [ticketId]: 2 });

    const bad = await t.gql(
      `mutation($c: ID!) { createSubscription(companyID: $c, input: {title: "B", duration: "P1M", rRule: "FREQ=NEVER"}) { id } }`,
      { c: cid },
    );
    expect(bad.body.errors[0].extensions.code).toBe('invalid_request');

    const k = await t.gql(
      `mutation($c: ID!, $s: ID!) { createSubscriptionContract(companyID: $c, subscriptionID: $s, input: {clientID: "${clientId}"}) { id code status pdfUrl } }`,
      { c: cid, s: s.id },
    );
    expect(k.body.errors).toBeUndefined();
    const made = k.body.data.createSubscriptionContract;
    expect(made.pdfUrl).toBe(`${t.deps.config.publicUrl}/v1/companies/${cid}/pdf-templates/membership/${s.id}/items/${made.id}/pdf`);
    const found = await t.gql(
      `query($c: ID!, $s: ID!) { subscriptionContracts(companyID: $c, filter: {subscriptionIDs: [$s]}) { total limit offset subscriptionContracts { id status } } }`,
      { c: cid, s: s.id },
    );
    expect(found.body.data.subscriptionContracts).toEqual({
      total: 1,
      limit: 100,
      offset: 0,
      subscriptionContracts: [{ id: made.id, status: 'active' }],
    });
    const one = await t.gql(`query($c: ID!, $id: ID!) { subscriptionContract(companyID: $c, id: $id) { id usages { id } } }`, {
      c: other,
      id: made.id,
    });
    expect(one.body.data.subscriptionContract).toBeNull();
    expect(one.body.errors[0].extensions.code).toBe('not_found');
  });
});

describe('membership card', () => {
  it('prints the default card and a template, and nothing for another company or subscription', async () => {
    const s = await subscription({ title: 'Sporta klubs: ģimenes abonements' });
    const k = await contract(s.id, { clientID: clientId, activeFrom: '2026-02-01T10:00:00Z' });
    const pdf = (entityId = s.id, item = k.id, companyId = cid) =>
      t.call('GET', `/v1/companies/${companyId}/pdf-templates/membership/${entityId}/items/${item}/pdf`);
    const card = await pdf();
    expect(card.status).toBe(200);
    expect(card.headers['content-type']).toBe('application/pdf');
    const strs = (await readPdf(card.raw)).pages[0].items.map((i) => i.str);
    for (const v of [k.code, 'Sporta klubs: ģimenes abonements', 'Anna Bērziņa', '2026-02-01', '2026-03-01', 'active'])
      expect(strs).toContain(v);

    const fields = [
      { name: 'code', x: 40, y: 250, fontSize: 18 },
      { name: 'title', x: 40, y: 210 },
      { name: 'clientName', x: 40, y: 180 },
      { name: 'activeFrom', x: 40, y: 150 },
      { name: 'expiresAt', x: 200, y: 150 },
      { name: 'status', x: 360, y: 150 },
    ];
    const created = await upload(t, 'POST', `/v1/companies/${cid}/pdf-templates/membership/${s.id}`, {
      file: await makeTemplate(500, 300, 'Membership design'),
      fields,
    });
    expect(created.status).toBe(201);
    const filled = await pdf();
    expect(filled.status).toBe(200);
    const [page] = (await readPdf(filled.raw)).pages;
    expect([Math.round(page.width), Math.round(page.height)]).toEqual([500, 300]);
    const at = (text: string) => page.items.find((i) => i.str === text);
    expect(at(k.code)).toMatchObject({ x: expect.closeTo(40, 0), y: expect.closeTo(250, -1) });
    expect(at('Anna Bērziņa')).toMatchObject({ x: expect.closeTo(40, 0) });
    expect(at('2026-03-01')).toMatchObject({ x: expect.closeTo(200, 0) });
    expect(at('active')).toMatchObject({ x: expect.closeTo(360, 0) });

    // an unpaid contract prints without its code
    const pending = await contract(s.id, { status: 'pending_payment', clientID: clientId });
    const unpaid = (await readPdf((await pdf(s.id, pending.id)).raw)).pages[0].items.map((i) => i.str);
    expect(unpaid).not.toContain(pending.code);
    expect(unpaid).toContain('pending_payment');

    const otherSubscription = await subscription();
    expect((await pdf(otherSubscription.id)).status).toBe(404);
    expect((await pdf(s.id, k.id, other)).status).toBe(404);
  });
});
