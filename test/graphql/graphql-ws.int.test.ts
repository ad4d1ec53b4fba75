import { Client } from 'pg';
import WebSocket from 'ws';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { EVERY_DAY, Fixtures } from '../helpers/fixtures';
import { liveClient, settled, subscribed, wsUrl, type LiveClient } from '../helpers/live-client';

/**
 * GraphQL subscriptions over real WebSockets (graphql-ws's client, the one Apollo Client wraps),
 * on a server that listens to the database's change announcements as a server process does:
 * what is sent and to whom, credentials, limits and shutdown. Two processes on one database:
 * test/faults/live-updates.int.test.ts.
 */
jest.setTimeout(120_000);

const BOOKING_CHANGED = `subscription($c: ID!) { bookingChanged(companyID: $c) { type occurredAt booking { id status startTime resourceID } } }`;
const AVAILABILITY_CHANGED = `subscription($c: ID!, $s: ID!, $from: DateTime!, $to: DateTime!) {
  availabilityChanged(companyID: $c, serviceID: $s, from: $from, to: $to) { serviceID resourceIDs from to } }`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A company with a 1-hour service on two resources open every day, 08:00-20:00 UTC. */
async function clinic(t: TestApp, name: string) {
  const cid = (await t.company(name, 'UTC')).id;
  const f = new Fixtures(t, cid);
  const sid = await f.service('fixed', { duration: 'PT1H' });
  const rids = [await f.resource('Room A'), await f.resource('Room B')];
  for (const rid of rids) {
    await f.link(sid, rid);
    await f.hours(rid, [{ daysOfWeek: EVERY_DAY, hours: [{ start: '08:00', end: '20:00' }] }]);
  }
  return { cid, sid, rids, f };
}

const book = (t: TestApp, cid: string, body: Record<string, unknown>, key?: string) =>
  t.call('POST', `/v1/companies/${cid}/bookings`, { body, key });

describe('live updates', () => {
  let t: TestApp;
  let url: string;
  let shop: Awaited<ReturnType<typeof clinic>>;
  const clients: LiveClient[] = [];
  const connect = (params: Record<string, unknown>) => {
    const c = liveClient(url, params);
    clients.push(c);
    return c;
  };
  const metrics = async () => (await t.call('GET', '/metrics')).text;
  beforeAll(async () => {
    t = await createTestApp({ changeFeed: true });
    url = wsUrl(await t.listen());
    shop = await clinic(t, 'Live clinic');
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
    await settled(metrics);
  });
  afterAll(async () => t?.close());

  it("sends each committed change of the company's bookings, with the booking and the cost", async () => {
    const c = connect({ 'X-API-Key': t.adminKey });
    const sub = await subscribed(c, metrics, BOOKING_CHANGED, { c: shop.cid });
    const first = await book(t, shop.cid, { serviceID: shop.sid, resourceID: shop.rids[0], startTime: '2031-03-03T09:00:00Z' });
    expect(first.status).toBe(200);
    const created = await sub.take();
    expect(created).toEqual({
      data: {
        bookingChanged: {
          type: 'created',
          occurredAt: expect.any(String),
          booking: { id: first.body.id, status: first.body.status, startTime: '2031-03-03T09:00:00Z', resourceID: shop.rids[0] },
        },
      },
      extensions: { cost: { requested: expect.any(Number), limit: 5000 } },
    });
    const moved = await t.call('POST', `/v1/companies/${shop.cid}/bookings/${first.body.id}/move`, {
      body: { resourceID: shop.rids[0], startTime: '2031-03-03T11:00:00Z' },
    });
    expect(moved.status).toBe(200);
    expect((await sub.take()).data.bookingChanged).toMatchObject({ type: 'moved', booking: { startTime: '2031-03-03T11:00:00Z' } });
    const meta = await t.call('PATCH', `/v1/companies/${shop.cid}/bookings/${first.body.id}`, { body: { metaData: { note: 'x' } } });
    expect(meta.status).toBe(200);
    expect((await sub.take()).data.bookingChanged.type).toBe('updated');
    const cancelled = await t.call('PATCH', `/v1/companies/${shop.cid}/bookings/${first.body.id}`, { body: { status: 'cancelled' } });
    expect(cancelled.status).toBe(200);
    expect((await sub.take()).data.bookingChanged).toMatchObject({ type: 'cancelled', booking: { status: 'cancelled' } });
    // a series in one transaction: one `created` per booking
    const series = await book(t, shop.cid, {
      serviceID: shop.sid,
      resourceID: shop.rids[1],
      startTime: '2031-03-10T09:00:00Z',
      repeat: { rrule: 'FREQ=DAILY;COUNT=3', timeZone: 'UTC' },
    });
    expect(series.status).toBe(200);
    const three = [await sub.take(), await sub.take(), await sub.take()].map((e) => e.data.bookingChanged);
    expect(three.map((e) => e.type)).toEqual(['created', 'created', 'created']);
    expect(new Set(three.map((e) => e.booking.id)).size).toBe(3);
    // a booking of a service confirmed by hand: made pending, then confirmed
    const manual = await shop.f.service('fixed', { duration: 'PT1H', bookingPolicy: 'manual' }, 'By request');
    await shop.f.link(manual, shop.rids[0]);
    const requested = await book(t, shop.cid, { serviceID: manual, resourceID: shop.rids[0], startTime: '2031-03-20T09:00:00Z' });
    expect(requested.status).toBe(200);
    expect((await sub.take()).data.bookingChanged).toMatchObject({
      type: 'created',
      booking: { id: requested.body.id, status: 'pending' },
    });
    const confirmed = await t.call('PATCH', `/v1/companies/${shop.cid}/bookings/${requested.body.id}`, { body: { status: 'confirmed' } });
    expect(confirmed.status).toBe(200);
    expect((await sub.take()).data.bookingChanged).toMatchObject({
      type: 'confirmed',
      booking: { id: requested.body.id, status: 'confirmed' },
    });
    await sub.quiet(300);
  });

  it('sends nothing for a change that rolled back, nor for another company', async () => {
    const other = await clinic(t, 'Other clinic');
    const c = connect({ 'x-api-key': t.adminKey });
    const sub = await subscribed(c, metrics, BOOKING_CHANGED, { c: shop.cid });
    const held = await book(t, shop.cid, { serviceID: shop.sid, resourceID: shop.rids[0], startTime: '2031-04-01T09:00:00Z' });
    expect(held.status).toBe(200);
    expect((await sub.take()).data.bookingChanged.booking.id).toBe(held.body.id);
    // the same time: refused by the exclusion constraint, its transaction rolled back
    const refused = await book(t, shop.cid, { serviceID: shop.sid, resourceID: shop.rids[0], startTime: '2031-04-01T09:30:00Z' });
    expect(refused.status).toBe(409);
    const elsewhere = await book(t, other.cid, { serviceID: other.sid, resourceID: other.rids[0], startTime: '2031-04-01T09:00:00Z' });
    expect(elsewhere.status).toBe(200);
    await sub.quiet(1000);
  });

  it('tells which part of a watched window to fetch again', async () => {
    const c = connect({ 'x-api-key': t.adminKey });
    const window = { c: shop.cid, s: shop.sid, from: '2031-05-01T00:00:00Z', to: '2031-05-08T00:00:00Z' };
    const sub = await subscribed(c, metrics, AVAILABILITY_CHANGED, window);
    const b = await book(t, shop.cid, { serviceID: shop.sid, resourceID: shop.rids[0], startTime: '2031-05-03T10:00:00Z' });
    expect(b.status).toBe(200);
    // the booking's hour, widened by the service's 1-hour span on each side
    const around = { serviceID: shop.sid, resourceIDs: [shop.rids[0]], from: '2031-05-03T09:00:00Z', to: '2031-05-03T12:00:00Z' };
    expect((await sub.take()).data.availabilityChanged).toEqual(around);
    // its cancellation frees the same part
    const cancelled = await t.call('PATCH', `/v1/companies/${shop.cid}/bookings/${b.body.id}`, { body: { status: 'cancelled' } });
    expect(cancelled.status).toBe(200);
    expect((await sub.take()).data.availabilityChanged).toEqual(around);
    // outside the window: nothing
    expect((await book(t, shop.cid, { serviceID: shop.sid, resourceID: shop.rids[1], startTime: '2031-06-03T10:00:00Z' })).status).toBe(
      200,
    );
    await sub.quiet(500);
    // a closing period of one resource, clipped to the window
    const closing = await t.call('POST', `/v1/companies/${shop.cid}/resources/${shop.rids[1]}/closing-periods`, {
      body: { startTime: '2031-05-07T00:00:00Z', endTime: '2031-05-20T00:00:00Z' },
    });
    expect(closing.status).toBe(201);
    expect((await sub.take()).data.availabilityChanged).toEqual({
      serviceID: shop.sid,
      resourceIDs: [shop.rids[1]],
      from: '2031-05-06T23:00:00Z',
      to: '2031-05-08T00:00:00Z',
    });
    // working hours of a resource: its whole window
    await shop.f.hours(shop.rids[0], [{ daysOfWeek: EVERY_DAY, hours: [{ start: '07:00', end: '21:00' }] }]);
    expect((await sub.take()).data.availabilityChanged).toEqual({
      ...{ serviceID: shop.sid, resourceIDs: [shop.rids[0]] },
      from: window.from,
      to: window.to,
    });
    await sub.quiet(300);
  });

  it('announces the changes of watched companies only, as long as they are watched', async () => {
    const listener = new Client({ connectionString: t.deps.orm.config.getClientUrl() });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(JSON.parse(n.payload!).c));
    await listener.query('listen booking_changed');
    try {
      const watched = await clinic(t, 'Watched');
      const unwatched = await clinic(t, 'Unwatched');
      const c = connect({ 'x-api-key': t.adminKey });
      const sub = await subscribed(c, metrics, BOOKING_CHANGED, { c: watched.cid });
      const rows = async (cid: string) =>
        Number(
          (await t.deps.orm.em.fork().getConnection().execute('select count(*) as n from live_watch where company_id = ?', [cid]))[0].n,
        );
      expect(await rows(watched.cid)).toBe(1);
      const start = '2031-10-01T09:00:00Z';
      expect((await book(t, watched.cid, { serviceID: watched.sid, resourceID: watched.rids[0], startTime: start })).status).toBe(200);
      expect((await book(t, unwatched.cid, { serviceID: unwatched.sid, resourceID: unwatched.rids[0], startTime: start })).status).toBe(
        200,
      );
      await sub.take();
      await sleep(300);
      expect(heard).toEqual([watched.cid]);
      // the last subscription of the company ends: its changes are no longer announced
      sub.dispose();
      for (let i = 0; i < 100 && (await rows(watched.cid)) > 0; i++) await sleep(50);
      expect(await rows(watched.cid)).toBe(0);
      expect((await book(t, watched.cid, { serviceID: watched.sid, resourceID: watched.rids[1], startTime: start })).status).toBe(200);
      await sleep(300);
      expect(heard).toEqual([watched.cid]);
    } finally {
      await listener.end();
    }
  });

  it('a client token watches availability of its company, not bookings', async () => {
    const loginKey = await t.keyWith({ '*': ['client.login'] });
    const login = await t.call('POST', '/v1/client/auth/login', {
      key: loginKey,
      body: { companyID: shop.cid, email: 'live@example.com', externalUserID: 'live-1' },
    });
    const c = connect({ authorization: `Bearer ${login.body.accessToken}` });
    const bookings = c.subscribe(BOOKING_CHANGED, { c: shop.cid });
    expect((await bookings.take()).errors).toEqual([expect.objectContaining({ extensions: { code: 'forbidden' } })]);
    expect(await bookings.ended).toEqual({});
    const times = await subscribed(c, metrics, AVAILABILITY_CHANGED, {
      c: shop.cid,
      s: shop.sid,
      from: '2031-07-01T00:00:00Z',
      to: '2031-07-02T00:00:00Z',
    });
    expect((await book(t, shop.cid, { serviceID: shop.sid, resourceID: shop.rids[1], startTime: '2031-07-01T12:00:00Z' })).status).toBe(
      200,
    );
    expect((await times.take()).data.availabilityChanged.resourceIDs).toEqual([shop.rids[1]]);
    // another company's service is not the token's to watch
    const other = await clinic(t, 'Not the token’s');
    const refused = c.subscribe(AVAILABILITY_CHANGED, {
      c: other.cid,
      s: other.sid,
      from: '2031-07-01T00:00:00Z',
      to: '2031-07-02T00:00:00Z',
    });
    expect((await refused.take()).errors[0].extensions.code).toBe('forbidden');
  });

  it('refuses missing or wrong credentials, and a key without the permission', async () => {
    expect(await connect({}).closed).toEqual({ code: 4401, reason: expect.stringMatching(/credentials required/) });
    expect(await connect({ 'x-api-key': 'not-a-key-0123456789' }).closed).toEqual({ code: 4401, reason: 'invalid or revoked API key' });
    expect(await connect({ authorization: 'Bearer not.a.token' }).closed).toEqual({
      code: 4401,
      reason: 'invalid or expired access token',
    });
    const readsServices = await t.keyWith({ [shop.cid]: ['services.read'] });
    const c = connect({ 'x-api-key': readsServices });
    const sub = c.subscribe(BOOKING_CHANGED, { c: shop.cid });
    expect((await sub.take()).errors).toEqual([
      expect.objectContaining({ message: 'missing permission bookings.read', extensions: { code: 'forbidden' } }),
    ]);
    expect(await sub.ended).toEqual({});
    // the connection stays usable
    const window = { c: shop.cid, s: shop.sid, from: '2031-08-01T00:00:00Z', to: '2031-08-02T00:00:00Z' };
    const times = c.subscribe(AVAILABILITY_CHANGED, window);
    expect((await times.take()).errors[0].extensions.code).toBe('forbidden'); // client.read is missing too
  });

  it('ends the subscriptions of a key revoked through the API (any process) with 4401', async () => {
    const key = await t.call('POST', '/v1/api-keys', { body: { name: 'to revoke', permissions: { [shop.cid]: ['bookings.read'] } } });
    const c = connect({ 'x-api-key': key.body.key });
    const sub = await subscribed(c, metrics, BOOKING_CHANGED, { c: shop.cid });
    expect((await book(t, shop.cid, { serviceID: shop.sid, resourceID: shop.rids[0], startTime: '2031-09-01T09:00:00Z' })).status).toBe(
      200,
    );
    await sub.take();
    expect((await t.call('DELETE', `/v1/api-keys/${key.body.id}`)).status).toBeLessThan(300);
    expect(await c.closed).toEqual({ code: 4401, reason: 'the API key was revoked' });
    expect((await sub.ended).error).toBeDefined();
  });

  it('checks the key again for each subscription: permissions an operator narrowed apply on the open connection', async () => {
    const permissions = (p: string[]) => JSON.stringify({ [shop.cid]: p });
    const key = await t.call('POST', '/v1/api-keys', {
      body: { name: 'to narrow', permissions: { [shop.cid]: ['bookings.read', 'client.read'] } },
    });
    const c = connect({ 'x-api-key': key.body.key });
    const sub = await subscribed(c, metrics, BOOKING_CHANGED, { c: shop.cid });
    // no route edits a key's permissions: an operator's SQL, announced like any change of the key
    let heard: () => void = () => undefined;
    const announced = new Promise<void>((resolve) => (heard = resolve));
    const unfollow = t.deps.changes!.subscribe('api_key_changed', (id) => id === key.body.id && heard());
    await t.deps.orm.em
      .fork()
      .getConnection()
      .execute('update api_key set permissions = ?::jsonb where id = ?', [permissions(['client.read']), key.body.id]);
    await announced;
    await unfollow();
    const again = c.subscribe(BOOKING_CHANGED, { c: shop.cid });
    expect((await again.take()).errors).toEqual([
      expect.objectContaining({ message: 'missing permission bookings.read', extensions: { code: 'forbidden' } }),
    ]);
    // the running subscription sends no booking any more; the connection and what the key may still watch go on
    const times = await subscribed(
      c,
      metrics,
      AVAILABILITY_CHANGED,
      { c: shop.cid, s: shop.sid, from: '2031-11-01T00:00:00Z', to: '2031-11-02T00:00:00Z' },
      2,
    );
    expect((await book(t, shop.cid, { serviceID: shop.sid, resourceID: shop.rids[0], startTime: '2031-11-01T09:00:00Z' })).status).toBe(
      200,
    );
    expect((await times.take()).data.availabilityChanged.resourceIDs).toEqual([shop.rids[0]]);
    const event = await sub.take();
    expect(event.data).toBeNull();
    expect(event.errors).toEqual([expect.objectContaining({ extensions: { code: 'forbidden' } })]);
  });

  it('serves only subscriptions over WebSocket, and only queries and mutations over HTTP', async () => {
    const c = connect({ 'x-api-key': t.adminKey });
    const query = c.subscribe('{ companies { total } }');
    expect(await query.ended).toEqual({
      error: [
        expect.objectContaining({
          message: expect.stringMatching(/only subscriptions are served over WebSocket/),
          extensions: { code: 'invalid_request' },
        }),
      ],
    });
    const invalid = c.subscribe('subscription { bookingChanged(companyID: 1) { nope } }');
    expect(
      ((await invalid.ended).error as { extensions: unknown }[]).every(
        (e) => (e.extensions as { code: string }).code === 'invalid_request',
      ),
    ).toBe(true);
    const http = await t.gql(BOOKING_CHANGED, { c: shop.cid });
    expect(http.body.errors[0]).toEqual({
      message: expect.stringMatching(/served over WebSocket/),
      extensions: { code: 'invalid_request' },
    });
  });

  it('refuses an upgrade from a browser page of another origin, and on another path', async () => {
    const foreign = liveClient(url, { 'x-api-key': t.adminKey }, { origin: 'https://evil.example' });
    expect((await foreign.closed).code).toBe(1006);
    const own = liveClient(url, { 'x-api-key': t.adminKey }, { origin: url.replace(/^ws/, 'http').replace(/\/graphql$/, '') });
    await own.connected;
    await own.dispose();
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(url.replace(/\/graphql$/, '/v1/companies'), 'graphql-transport-ws');
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => undefined);
    });
    expect(status).toBe(404);
  });
});

describe('limits', () => {
  let t: TestApp;
  let url: string;
  let shop: Awaited<ReturnType<typeof clinic>>;
  beforeAll(async () => {
    t = await createTestApp({
      changeFeed: true,
      config: { wsMaxSubscriptions: 2, wsMaxSubscriptionsPerCaller: 3, wsIdleTimeoutMs: 400, wsPingIntervalMs: 300, wsMaxQueuedEvents: 2 },
    });
    url = wsUrl(await t.listen());
    shop = await clinic(t, 'Limited clinic');
  });
  afterAll(async () => t?.close());
  const metrics = async () => (await t.call('GET', '/metrics')).text;
  afterEach(async () => settled(metrics));

  it('subscriptions per connection and per key', async () => {
    const a = liveClient(url, { 'x-api-key': t.adminKey });
    const b = liveClient(url, { 'x-api-key': t.adminKey });
    const subs = [a.subscribe(BOOKING_CHANGED, { c: shop.cid }), a.subscribe(BOOKING_CHANGED, { c: shop.cid })];
    const third = a.subscribe(BOOKING_CHANGED, { c: shop.cid });
    expect(await third.ended).toEqual({
      error: [{ message: 'at most 2 subscriptions on one connection', extensions: { code: 'rate_limited' } }],
    });
    subs.push(b.subscribe(BOOKING_CHANGED, { c: shop.cid }));
    const fourth = b.subscribe(BOOKING_CHANGED, { c: shop.cid });
    expect(await fourth.ended).toEqual({
      error: [{ message: 'at most 3 subscriptions for one API key or client', extensions: { code: 'rate_limited' } }],
    });
    // one ended makes room
    subs[0].dispose();
    await sleep(200);
    const again = await subscribed(b, metrics, BOOKING_CHANGED, { c: shop.cid }, 3);
    expect((await book(t, shop.cid, { serviceID: shop.sid, resourceID: shop.rids[0], startTime: '2031-03-03T09:00:00Z' })).status).toBe(
      200,
    );
    expect((await again.take()).data.bookingChanged.type).toBe('created');
    await Promise.all([a.dispose(), b.dispose()]);
  });

  it('closes a connection without subscriptions after the idle timeout, and one that does not answer pings', async () => {
    const idle = liveClient(url, { 'x-api-key': t.adminKey });
    expect(await idle.closed).toEqual({ code: 1000, reason: 'no subscription for 400 ms' });
    // (a client that keeps its connection without subscriptions, graphql-ws's `lazy: false`, connects again)
    await idle.dispose();
    // a socket that never answers the server's pings
    const silent = new WebSocket(url, 'graphql-transport-ws', { autoPong: false });
    await new Promise((resolve) => silent.once('open', resolve));
    silent.send(JSON.stringify({ type: 'connection_init', payload: { 'x-api-key': t.adminKey } }));
    await new Promise((resolve) => silent.once('message', resolve)); // connection_ack
    silent.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: BOOKING_CHANGED, variables: { c: shop.cid } } }));
    const code = await new Promise<number>((resolve) => silent.once('close', (c) => resolve(c)));
    expect(code).toBe(1006); // ended by the server, without a close frame
  });

  it('drops a client that does not keep up with 4413, instead of keeping its events', async () => {
    const slow = liveClient(url, { 'x-api-key': t.adminKey });
    const sub = await subscribed(slow, metrics, BOOKING_CHANGED, { c: shop.cid });
    // six bookings in one transaction: more events at once than the two that may wait
    const series = await book(t, shop.cid, {
      serviceID: shop.sid,
      resourceID: shop.rids[1],
      startTime: '2031-04-10T09:00:00Z',
      repeat: { rrule: 'FREQ=DAILY;COUNT=6', timeZone: 'UTC' },
    });
    expect(series.status).toBe(200);
    expect(await slow.closed).toEqual({ code: 4413, reason: 'more than 2 events waiting: the client does not keep up' });
    expect(sub.items.length).toBeLessThan(6);
  });
});

describe('shutdown', () => {
  it('closes the connections with 1001 once the server closes', async () => {
    const t = await createTestApp({ changeFeed: true });
    const url = wsUrl(await t.listen());
    const c = liveClient(url, { 'x-api-key': t.adminKey });
    const sub = c.subscribe(BOOKING_CHANGED, { c: (await t.company('Closing')).id });
    await c.connected;
    await t.close();
    expect(await c.closed).toEqual({ code: 1001, reason: 'the server is shutting down' });
    expect((await sub.ended).error).toBeDefined();
  });
});

describe('a client token', () => {
  it('ends its connection with 4401 when it expires', async () => {
    const clock = new TestClock();
    const t = await createTestApp({ changeFeed: true, clock, config: { accessTokenTtlSec: 2 } });
    try {
      const url = wsUrl(await t.listen());
      const { cid, sid } = await clinic(t, 'Short tokens');
      const loginKey = await t.keyWith({ '*': ['client.login'] });
      const login = await t.call('POST', '/v1/client/auth/login', {
        key: loginKey,
        body: { companyID: cid, email: 'brief@example.com', externalUserID: 'brief' },
      });
      const c = liveClient(url, { Authorization: `Bearer ${login.body.accessToken}` });
      c.subscribe(AVAILABILITY_CHANGED, { c: cid, s: sid, from: '2031-07-01T00:00:00Z', to: '2031-07-02T00:00:00Z' });
      await c.connected;
      const at = Date.now();
      expect(await c.closed).toEqual({ code: 4401, reason: 'the access token expired' });
      expect(Date.now() - at).toBeLessThan(5000);
    } finally {
      await t.close();
    }
  });
});
