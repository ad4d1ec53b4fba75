import { execFileSync } from 'node:child_process';
import { Agent } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { NO_OUTCOME } from '../../src/modules/webhook/delivery';
import { httpCall, seedCompany, startServerProcess, type ServerProcess } from '../helpers/server-process';
import { describeWithRedis } from '../helpers/redis';
import { cloneTestDatabase } from '../helpers/test-database';
import { WebhookReceiver } from '../helpers/webhook-receiver';

/**
 * Two real API processes on one database and one Redis, as `WORKERS=2` or two machines run
 * them: a time raced through both is booked once, the rate limit is one allowance, a pending
 * payment expires once, a change to a company reaches the cache of every process, and with
 * both delivery workers polling each webhook attempt is posted once.
 */
jest.setTimeout(180_000);

const RATE = { RATE_LIMIT_PER_SECOND: '5', RATE_LIMIT_BURST: '40' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeWithRedis('two API processes on one database and one Redis', (redisUrl) => {
  let db: Awaited<ReturnType<typeof cloneTestDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let seed: { cid: string; sid: string; rids: string[] };
  let rx: WebhookReceiver | undefined;

  beforeAll(async () => {
    db = await cloneTestDatabase();
    // Each process keeps its rate-limit windows under its own test run's prefix.
    const env = {
      DATABASE_URL: db.url,
      DATABASE_DIRECT_URL: db.directUrl,
      REDIS_URL: redisUrl,
      JWT_SECRET: 'multi-process-jwt-secret-0123456789abcdef',
      ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
      PAYMENT_TIMEOUT: '2',
      PAYMENT_SWEEP_INTERVAL_MS: '100',
      LOG_FORMAT: 'json',
      WEBHOOK_ALLOW_INSECURE: 'true',
      WEBHOOK_POLL_MS: '50',
      ...RATE,
    };
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    seed = await seedCompany(agent, a.base, a.key, 2);
  });
  afterAll(async () => {
    agent.destroy();
    await rx?.stop();
    a?.cleanup();
    b?.cleanup();
    await db?.drop();
  });

  const on = (s: ServerProcess, method: string, path: string, key: string | { bearer: string } | null, body?: unknown) =>
    httpCall(agent, s.base, method, path, key, body);

  it('books a time raced through both processes once', async () => {
    const body = { serviceID: seed.sid, resourceID: seed.rids[0], startTime: '2031-02-03T10:00:00Z' };
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => on(i % 2 ? b : a, 'POST', `/v1/companies/${seed.cid}/bookings`, a.key, body)),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201 || s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(11);
    const { rows } = await db.query(`select count(*)::int as n from booking where company_id = $1 and status <> 'cancelled'`, [seed.cid]);
    expect(rows[0].n).toBe(1);
  });

  /** The rate limiter's failed Redis commands, both processes together. */
  const storeFailures = async () => {
    let n = 0;
    for (const s of [a, b]) {
      const text = (await on(s, 'GET', '/metrics', null)).body as string;
      n += Number(/^rate_limit_store_failures_total (\d+)/m.exec(text)?.[1] ?? NaN);
    }
    return n;
  };

  it('spends one rate-limit allowance per key across both processes', async () => {
    const created = await on(a, 'POST', '/v1/api-keys', a.key, { name: 'limited', permissions: { '*': ['companies.read'] } });
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    const failed = await storeFailures();
    const statuses = (
      await Promise.all(Array.from({ length: 60 }, (_, i) => on(i % 2 ? b : a, 'GET', `/v1/companies/${seed.cid}`, key)))
    ).map((r) => r.status);
    // a Redis command that outlasts its timeout on a loaded machine lets its request through (the
    // limiter fails open, and counts it): those are the only passes beyond the one allowance, and
    // fewer when Redis still ran the command (it then spent the allowance too)
    const open = (await storeFailures()) - failed;
    expect(open).toBeLessThan(10);
    // 40 per 8 s window: each process alone would have let its 30 through
    const passed = statuses.filter((s) => s === 200).length;
    expect(passed).toBeGreaterThanOrEqual(40);
    expect(passed).toBeLessThanOrEqual(40 + open);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60 - passed);
  });

  it('expires each pending payment once, with both processes sweeping', async () => {
    await on(a, 'POST', `/v1/companies/${seed.cid}/services/${seed.sid}/prices`, a.key, {
      type: 'fixed',
      priority: 1,
      price: { price: 1500, comparedPrice: 1500 },
    }).then((r) => expect(r.status).toBe(201));
    expect((await on(a, 'PUT', `/v1/companies/${seed.cid}/payments/settings`, a.key, { preferredProvider: 'test' })).status).toBe(200);
    const provider = await on(b, 'PUT', `/v1/companies/${seed.cid}/payments/providers/test`, a.key, {
      success_redirect_url: null,
      failure_redirect_url: null,
      cancel_redirect_url: null,
      enable_url_templating: false,
    });
    expect(provider.status).toBe(200);
    const login = await on(b, 'POST', '/v1/client/auth/login', a.key, {
      companyID: seed.cid,
      email: 'payer@example.com',
      externalUserID: 'payer',
    });
    expect(login.status).toBe(200);
    const token = login.body.accessToken as string;
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await on(
        i % 2 ? a : b,
        'POST',
        '/v1/client/bookings',
        { bearer: token },
        {
          companyID: seed.cid,
          serviceID: seed.sid,
          resourceID: seed.rids[1],
          startTime: new Date(Date.UTC(2031, 1, 4, 8) + i * 30 * 60_000).toISOString(),
          spots: 1,
        },
      );
      expect(r.status).toBe(200);
      expect(r.body.status).toBe('pending');
      ids.push(r.body.id);
    }
    // PAYMENT_TIMEOUT is 2 s; both processes sweep every 100 ms
    let failed = 0;
    for (let i = 0; i < 100 && failed < ids.length; i++) {
      await sleep(200);
      const { rows } = await db.query(`select count(*)::int as n from booking where id = any($1) and status = 'failed'`, [ids]);
      failed = rows[0].n;
    }
    expect(failed).toBe(ids.length);
    const changes = await db.query(
      `select booking_id, count(*)::int as n from booking_status_change where company_id = $1 and booking_id = any($2) and new_status = 'failed' group by booking_id`,
      [seed.cid, ids],
    );
    expect(changes.rows.map((r) => r.n)).toEqual(ids.map(() => 1));
    const expiredBy = (s: ServerProcess) =>
      s.logs
        .map((l) => {
          try {
            return JSON.parse(l) as { msg?: string; expired?: number };
          } catch {
            return {};
          }
        })
        .filter((l) => l.msg === 'expired pending payments')
        .reduce((sum, l) => sum + (l.expired ?? 0), 0);
    // a process writes its log line after the sweep commits: give the lines a moment to arrive
    for (let i = 0; i < 50 && expiredBy(a) + expiredBy(b) < ids.length; i++) await sleep(100);
    expect(expiredBy(a) + expiredBy(b)).toBe(ids.length);
  });

  it('a change to a company reaches the cache of every process', async () => {
    // both processes have the company cached by now
    for (const s of [a, b]) expect((await on(s, 'GET', `/v1/companies/${seed.cid}`, a.key)).body.name).toBe('Process clinic');
    await db.query(`update company set name = 'Renamed clinic', time_zone = 'Europe/Riga' where id = $1`, [seed.cid]);
    for (const s of [a, b]) {
      let seen: { name?: string; timeZone?: string } = {};
      for (let i = 0; i < 50 && seen.name !== 'Renamed clinic'; i++) {
        seen = (await on(s, 'GET', `/v1/companies/${seed.cid}`, a.key)).body;
        if (seen.name !== 'Renamed clinic') await sleep(100);
      }
      expect(seen).toMatchObject({ name: 'Renamed clinic', timeZone: 'Europe/Riga' });
    }
  });

  it('a revoked or changed API key is refused by every process, though each caches it', async () => {
    const companyPath = `/v1/companies/${seed.cid}`;
    /** Asks `s` until it answers `status` (a change reaches the other process by a database notification). */
    const until = async (s: ServerProcess, key: string, status: number) => {
      let last = 0;
      for (let i = 0; i < 50 && last !== status; i++) {
        last = (await on(s, 'GET', companyPath, key)).status;
        if (last !== status) await sleep(100);
      }
      return last;
    };
    const created = await on(a, 'POST', '/v1/api-keys', a.key, { name: 'revoked soon', permissions: { '*': ['*'] } });
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    // both processes have the key cached by now
    for (const s of [a, b]) for (let i = 0; i < 2; i++) expect((await on(s, 'GET', companyPath, key)).status).toBe(200);
    expect((await on(a, 'DELETE', `/v1/api-keys/${created.body.id}`, a.key)).status).toBe(200);
    // the revoking process refuses it from the next request on; the other once it hears the change
    expect((await on(a, 'GET', companyPath, key)).body.code).toBe('unauthorized');
    expect(await until(b, key, 401)).toBe(401);

    // an operator's SQL change of the permissions reaches both processes too
    const other = await on(b, 'POST', '/v1/api-keys', a.key, { name: 'narrowed soon', permissions: { '*': ['*'] } });
    const otherKey = other.body.key as string;
    for (const s of [a, b]) expect((await on(s, 'GET', companyPath, otherKey)).status).toBe(200);
    await db.query(`update api_key set permissions = '{"*": ["bookings.read"]}'::jsonb where id = $1`, [other.body.id]);
    for (const s of [a, b]) expect(await until(s, otherKey, 403)).toBe(403);
    await db.query('delete from api_key where id = $1', [other.body.id]);
    for (const s of [a, b]) expect(await until(s, otherKey, 401)).toBe(401);
  });

  it('posts each webhook attempt once, with both processes delivering', async () => {
    // a key of its own: the earlier cases spent the admin key's rate-limit allowance
    const own = await on(a, 'POST', '/v1/api-keys', a.key, { name: 'webhooks', permissions: { '*': ['*'] } });
    expect(own.status).toBe(201);
    const key = own.body.key as string;
    rx = new WebhookReceiver();
    const url = await rx.start();
    const created = await on(a, 'POST', `/v1/companies/${seed.cid}/webhooks`, key, { url, eventTypes: ['booking.created'] });
    expect(created.status).toBe(201);
    const hook = created.body as { id: string; secret: string };
    // Booking i (starting i hours after the first) is answered 500 on its first (i % 3)
    // attempts, then 200. The receiver reads i from the event itself: the first attempt can
    // arrive before the booking's own answer has reached this test.
    const first = Date.UTC(2031, 4, 5, 6);
    const failuresAt = (startTime: unknown) =>
      typeof startTime === 'string' ? Math.round((Date.parse(startTime) - first) / 3600_000) % 3 : 0;
    const failuresOf = new Map<string, number>();
    rx.answer = (r) => {
      const id = r.headers['webhook-id'] as string;
      const seen = rx!.received.filter((x) => x.headers['webhook-id'] === id).length;
      return seen <= failuresAt(r.json?.data?.startTime) ? { status: 500, body: 'try again' } : { status: 200, body: 'ok' };
    };
    const N = 12;
    const bookings: string[] = [];
    for (let i = 0; i < N; i++) {
      const r = await on(i % 2 ? b : a, 'POST', `/v1/companies/${seed.cid}/bookings`, key, {
        serviceID: seed.sid,
        resourceID: seed.rids[0],
        startTime: new Date(first + i * 3600_000).toISOString(),
      });
      expect(r.status === 200 || r.status === 201).toBe(true);
      expect(failuresAt(r.body.startTime)).toBe(i % 3);
      failuresOf.set(r.body.id, i % 3);
      bookings.push(r.body.id);
    }
    const expected = bookings.reduce((sum, id) => sum + 1 + failuresOf.get(id)!, 0);
    // The first retry is due 8-12 s after a failure: a retry whose failure is recorded is made
    // due now instead (as the clock moving on would), and both workers race to claim it. On a
    // machine busy with other test files the two processes can take a while: up to a minute.
    for (let i = 0; i < 600 && rx.received.length < expected; i++) {
      await sleep(100);
      await db.query(
        `update webhook_delivery d set next_attempt_at = now()
          where d.company_id = $1 and d.status = 'pending' and d.next_attempt_at > now() and exists (
            select 1 from webhook_attempt t where t.company_id = d.company_id and t.delivery_id = d.id
              and t.attempt = d.attempts and t.error is distinct from $2)`,
        [seed.cid, NO_OUTCOME],
      );
    }
    // a few more polls of both workers: nothing is posted again
    await sleep(1000);
    expect(rx.received).toHaveLength(expected);

    const byId = new Map<string, typeof rx.received>();
    for (const r of rx.received) byId.set(r.headers['webhook-id'] as string, [...(byId.get(r.headers['webhook-id'] as string) ?? []), r]);
    expect(byId.size).toBe(N);
    const verifier = new Webhook(hook.secret);
    for (const [id, got] of byId) {
      const events = got.map(
        (r) => verifier.verify(r.body, r.headers as Record<string, string>) as { id: string; type: string; data: { id: string } },
      );
      for (const e of events) expect(e).toMatchObject({ id, type: 'booking.created', data: { id: events[0].data.id } });
      expect(got).toHaveLength(1 + failuresOf.get(events[0].data.id)!);
    }
    expect([...byId.values()].map((got) => got[0].json.data.id).sort()).toEqual([...bookings].sort());

    // the delivery log, read through the other process: one attempt per number, the last one succeeded
    const log = await on(b, 'GET', `/v1/companies/${seed.cid}/webhooks/${hook.id}/deliveries`, key);
    expect(log.status).toBe(200);
    expect(log.body.total).toBe(N);
    for (const d of log.body.items as {
      eventID: string;
      status: string;
      attemptCount: number;
      attempts: { attempt: number; succeeded: boolean; responseStatus: number }[];
    }[]) {
      const got = byId.get(d.eventID)!;
      expect(d.status).toBe('succeeded');
      expect(d.attemptCount).toBe(got.length);
      const attempts = [...d.attempts].sort((x, y) => x.attempt - y.attempt);
      expect(attempts.map((t) => t.attempt)).toEqual(got.map((_, k) => k + 1));
      expect(attempts.map((t) => t.responseStatus)).toEqual(got.map((_, k) => (k < got.length - 1 ? 500 : 200)));
      expect(attempts.map((t) => t.succeeded)).toEqual(got.map((_, k) => k === got.length - 1));
    }
  }, 120_000);
});

describe('WORKERS=2', () => {
  it('runs two API processes on one port, and SIGTERM stops them all with exit 0', async () => {
    const db = await cloneTestDatabase();
    const s = await startServerProcess({
      DATABASE_URL: db.url,
      DATABASE_DIRECT_URL: db.directUrl,
      WORKERS: '2',
      JWT_SECRET: 'cluster-jwt-secret-0123456789abcdefghij',
    });
    const agent = new Agent({ keepAlive: false });
    try {
      // both workers listen: the primary logs once per worker
      for (let i = 0; i < 100 && s.logs.filter((l) => l.includes('listening on')).length < 2; i++) await sleep(100);
      expect(s.logs.filter((l) => l.includes('listening on'))).toHaveLength(2);
      const children = execFileSync('pgrep', ['-P', String(s.pid)])
        .toString()
        .trim()
        .split('\n');
      expect(children).toHaveLength(2);
      const answers = await Promise.all(Array.from({ length: 6 }, () => httpCall(agent, s.base, 'GET', '/v1/companies', s.key)));
      expect(answers.map((r) => r.status)).toEqual(Array(6).fill(200));
      process.kill(s.pid, 'SIGTERM');
      expect(await s.exited).toEqual({ code: 0, signal: null });
      for (const pid of children) expect(() => process.kill(Number(pid), 0)).toThrow();
    } finally {
      agent.destroy();
      s.cleanup();
      await db.drop();
    }
  });
});
