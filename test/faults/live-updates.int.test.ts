import { Agent, request } from 'node:http';
import { httpCall, seedCompany, startServerProcess, type ServerProcess } from '../helpers/server-process';
import { liveClient, subscribed, wsUrl, type LiveClient } from '../helpers/live-client';
import { cloneTestDatabase } from '../helpers/test-database';

/**
 * Live updates across two real API processes on one database, as `WORKERS=2` or two machines
 * run them: a change made through REST on one process reaches a GraphQL subscriber on the other
 * within a second of its answer, through PostgreSQL's LISTEN/NOTIFY; a change that rolled back
 * and another company's change reach nobody; credentials are checked on the subscriber's process
 * and a key revoked on the other ends its subscriptions; SIGTERM closes the WebSockets with 1001
 * once the HTTP requests in flight are answered.
 */
jest.setTimeout(180_000);

const BOOKING_CHANGED = `subscription($c: ID!) { bookingChanged(companyID: $c) { type booking { id startTime status } } }`;
const AVAILABILITY_CHANGED = `subscription($c: ID!, $s: ID!, $from: DateTime!, $to: DateTime!) {
  availabilityChanged(companyID: $c, serviceID: $s, from: $from, to: $to) { serviceID resourceIDs from to } }`;

describe('two API processes on one database', () => {
  let db: Awaited<ReturnType<typeof cloneTestDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;
  const agent = new Agent({ keepAlive: true });
  let seed: { cid: string; sid: string; rids: string[] };
  let other: { cid: string; sid: string; rids: string[] };
  const clients: LiveClient[] = [];
  const connect = (params: Record<string, unknown>) => {
    const c = liveClient(wsUrl(b.base), params);
    clients.push(c);
    return c;
  };
  const metricsOfB = async () => (await fetch(`${b.base}/metrics`)).text();
  const on = (s: ServerProcess, method: string, path: string, body?: unknown, key = a.key) =>
    httpCall(agent, s.base, method, path, key, body);

  beforeAll(async () => {
    db = await cloneTestDatabase();
    const env = {
      DATABASE_URL: db.url,
      DATABASE_DIRECT_URL: db.directUrl,
      JWT_SECRET: 'live-updates-jwt-secret-0123456789abcdef',
      ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
      LOG_FORMAT: 'json',
      SHUTDOWN_GRACE_MS: '20000',
    };
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    seed = await seedCompany(agent, a.base, a.key, 2);
    other = await seedCompany(agent, a.base, a.key, 1);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
  });
  afterAll(async () => {
    agent.destroy();
    a?.cleanup();
    b?.cleanup();
    await db?.drop();
  });

  it('a booking made on one process reaches a subscriber on the other within a second; a rolled-back one and another company’s do not', async () => {
    const c = connect({ 'x-api-key': a.key });
    const bookings = await subscribed(c, metricsOfB, BOOKING_CHANGED, { c: seed.cid });
    const times = await subscribed(
      c,
      metricsOfB,
      AVAILABILITY_CHANGED,
      { c: seed.cid, s: seed.sid, from: '2031-02-01T00:00:00Z', to: '2031-03-01T00:00:00Z' },
      2,
    );
    const made = await on(a, 'POST', `/v1/companies/${seed.cid}/bookings`, {
      serviceID: seed.sid,
      resourceID: seed.rids[0],
      startTime: '2031-02-03T10:00:00Z',
    });
    expect(made.status).toBe(200);
    const answered = Date.now();
    const event = await bookings.take(1000);
    const latency = Date.now() - answered;
    expect(event.data.bookingChanged).toEqual({
      type: 'created',
      booking: { id: made.body.id, startTime: '2031-02-03T10:00:00Z', status: made.body.status },
    });
    expect(latency).toBeLessThan(1000);
    // the booked half hour, widened by the service's 30 minutes on each side
    expect((await times.take(1000)).data.availabilityChanged).toEqual({
      serviceID: seed.sid,
      resourceIDs: [seed.rids[0]],
      from: '2031-02-03T09:30:00Z',
      to: '2031-02-03T11:00:00Z',
    });

    // the same time again: refused by the exclusion constraint, rolled back
    const refused = await on(a, 'POST', `/v1/companies/${seed.cid}/bookings`, {
      serviceID: seed.sid,
      resourceID: seed.rids[0],
      startTime: '2031-02-03T10:15:00Z',
    });
    expect(refused.status).toBe(409);
    const elsewhere = await on(a, 'POST', `/v1/companies/${other.cid}/bookings`, {
      serviceID: other.sid,
      resourceID: other.rids[0],
      startTime: '2031-02-03T10:00:00Z',
    });
    expect(elsewhere.status).toBe(200);
    await bookings.quiet(1000);
    expect(times.items).toHaveLength(1);
  });

  it('checks credentials on the subscriber’s process, and ends the subscriptions of a key revoked on the other', async () => {
    expect((await connect({}).closed).code).toBe(4401);
    expect(await connect({ 'x-api-key': 'not-a-key-0123456789' }).closed).toEqual({ code: 4401, reason: 'invalid or revoked API key' });
    const created = await on(a, 'POST', '/v1/api-keys', { name: 'watcher', permissions: { [seed.cid]: ['bookings.read'] } });
    const servicesOnly = await on(a, 'POST', '/v1/api-keys', { name: 'reader', permissions: { [seed.cid]: ['services.read'] } });
    const denied = connect({ 'x-api-key': servicesOnly.body.key }).subscribe(BOOKING_CHANGED, { c: seed.cid });
    expect((await denied.take()).errors[0].extensions.code).toBe('forbidden');

    const c = connect({ 'x-api-key': created.body.key });
    const sub = await subscribed(c, metricsOfB, BOOKING_CHANGED, { c: seed.cid });
    expect((await on(a, 'DELETE', `/v1/api-keys/${created.body.id}`)).status).toBe(200);
    expect(await c.closed).toEqual({ code: 4401, reason: 'the API key was revoked' });
    expect((await sub.ended).error).toBeDefined();
  });

  it('SIGTERM: the WebSockets close with 1001 once the request in flight is answered', async () => {
    const c = connect({ 'x-api-key': a.key });
    await subscribed(c, metricsOfB, BOOKING_CHANGED, { c: seed.cid });
    let wsClosedAt = 0;
    void c.closed.then(() => (wsClosedAt = Date.now()));
    // a request whose body is still being sent when the signal comes
    const body = JSON.stringify({ name: 'In flight', timeZone: 'UTC' });
    let openWhileInFlight = false;
    const answer = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: new URL(b.base).port,
          method: 'POST',
          path: '/v1/companies',
          headers: { 'x-api-key': b.key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        process.kill(b.pid, 'SIGTERM');
        // the connection stays open while the request is in flight
        setTimeout(() => {
          openWhileInFlight = wsClosedAt === 0;
          req.end(body.slice(10));
        }, 1000);
      }, 300);
    });
    expect(await answer).toBe(201);
    expect(await c.closed).toEqual({ code: 1001, reason: 'the server is shutting down' });
    expect(openWhileInFlight).toBe(true);
    expect(await b.exited).toEqual({ code: 0, signal: null });
  });
});
