import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/app/server';
import { RedisRateLimiter } from '../../src/app/rate-limit';
import { createTestApp, type TestApp } from '../helpers/app';
import { describeWithRedis } from '../helpers/redis';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';

/**
 * REDIS_URL: the rate limit is one allowance for every process. Two servers here share one
 * database and one Redis (reached through a relay the test can cut): what one spends, the other
 * cannot; while Redis is away requests are served and counted; limits come back with Redis.
 */
describeWithRedis('rate limits shared through Redis', (redisUrl) => {
  const BURST = 4;
  let t: TestApp;
  let second: FastifyInstance;
  let relay: TcpProxy;
  // addresses are new on every run: Redis keeps the buckets of earlier runs for a while
  const run = Math.floor(Math.random() * 250);
  let n = 0;
  const address = () => `10.${run}.${Math.floor(++n / 250)}.${n % 250}`;

  beforeAll(async () => {
    const target = new URL(redisUrl);
    relay = await startTcpProxy(target.hostname, Number(target.port || 6379));
    t = await createTestApp({
      config: { redisUrl: `redis://127.0.0.1:${relay.port}`, rateLimitPerSecond: 1, rateLimitBurst: BURST },
    });
    second = await buildServer(t.deps, { logger: false });
    await second.ready();
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    await relay?.close();
  });

  const onSecond = async (key: string | null, remoteAddress: string) =>
    (await second.inject({ method: 'GET', url: '/v1/companies', headers: key ? { 'x-api-key': key } : {}, remoteAddress })).statusCode;
  const failuresIn = (text: string) => Number(/^rate_limit_store_failures_total (\d+)/m.exec(text)?.[1] ?? NaN);
  /** requests let through unchecked, counted by both servers (each keeps its own /metrics) */
  const failures = async () =>
    failuresIn((await t.call('GET', '/metrics')).text) + failuresIn((await second.inject({ method: 'GET', url: '/metrics' })).body);
  /** until both servers' clients have (re)connected */
  const waitForRedis = async () => {
    for (let i = 0; i < 100; i++) {
      const probe = address();
      await t.call('GET', '/v1/companies', { key: null, remoteAddress: probe });
      const before = await failures();
      await onSecond(null, probe);
      await t.call('GET', '/v1/companies', { key: null, remoteAddress: probe });
      if ((await failures()) === before) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('Redis did not come back');
  };

  it('an API key spends one allowance on both servers, in parallel', async () => {
    await waitForRedis();
    const key = await t.keyWith({ '*': ['companies.read'] });
    const ip = address();
    const failed = await failures();
    const started = Date.now();
    const statuses = await Promise.all(
      Array.from({ length: BURST * 3 }, (_, i) =>
        i % 2 ? onSecond(key, ip) : t.call('GET', '/v1/companies', { key, remoteAddress: ip }).then((r) => r.status),
      ),
    );
    // The allowance is a window of BURST requests per BURST / perSecond seconds, opened by the
    // key's first request: a burst that a loaded machine stretches past a window's end may spend
    // the next window too. A command that outlasts its timeout lets its request through (the
    // limiter fails open, and either server counts it): those are the only other passes beyond the
    // allowance, and fewer when Redis still ran the command (it then spent the allowance too).
    const windows = 1 + Math.floor((Date.now() - started) / (BURST * 1000));
    const open = (await failures()) - failed;
    expect(open).toBeLessThan(BURST);
    const passed = statuses.filter((s) => s === 200).length;
    expect(passed).toBeGreaterThanOrEqual(BURST);
    expect(passed).toBeLessThanOrEqual(BURST * windows + open);
    expect(statuses.filter((s) => s === 429)).toHaveLength(BURST * 3 - passed);
    // another key has its own allowance
    const other = await t.keyWith({ '*': ['companies.read'] });
    expect(await onSecond(other, ip)).toBe(200);
  });

  it('requests without credentials share the address allowance across servers; 429 carries Retry-After', async () => {
    await waitForRedis();
    const ip = address();
    const before = await failures();
    for (let i = 0; i < BURST; i++) expect(await onSecond(null, ip)).toBe(401);
    // the first server refuses the next one; a request either server let through unchecked (a
    // command that outlasted its timeout, counted) spent nothing, so it may take one more each
    let r = await t.call('GET', '/v1/companies', { key: null, remoteAddress: ip });
    for (let extra = 0; r.status === 401 && extra < (await failures()) - before; extra++) {
      r = await t.call('GET', '/v1/companies', { key: null, remoteAddress: ip });
    }
    expect(r.status).toBe(429);
    expect(r.body.code).toBe('rate_limited');
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('serves every request while Redis is away, counts them in /metrics, and limits again once it is back', async () => {
    await waitForRedis();
    const key = await t.keyWith({ '*': ['companies.read'] });
    const before = await failures();
    await relay.down();
    try {
      const ip = address();
      const statuses: number[] = [];
      for (let i = 0; i < BURST * 2; i++) {
        statuses.push((await t.call('GET', '/v1/companies', { key, remoteAddress: ip })).status, await onSecond(key, ip));
      }
      expect(statuses).toEqual(Array(BURST * 4).fill(200));
      expect((await failures()) - before).toBeGreaterThanOrEqual(BURST * 2);
      const metrics = (await t.call('GET', '/metrics')).text;
      expect(metrics).toMatch(/^rate_limit_store_up 0/m);
    } finally {
      await relay.up();
    }
    await waitForRedis();
    const ip = address();
    const fresh = await t.keyWith({ '*': ['companies.read'] });
    const failed = await failures();
    const statuses: number[] = [];
    for (let i = 0; i < BURST + 2; i++) statuses.push(await onSecond(fresh, ip));
    // as above: only a request let through unchecked (counted) passes beyond the allowance
    const open = (await failures()) - failed;
    expect(open).toBeLessThan(2);
    expect(statuses.slice(0, BURST)).toEqual(Array(BURST).fill(200));
    expect(statuses.slice(BURST).filter((s) => s === 429).length).toBeGreaterThanOrEqual(2 - open);
    expect((await t.call('GET', '/metrics')).text).toMatch(/^rate_limit_store_up 1/m);
  });

  it('lets a request through, counted, when Redis does not answer in time; limits apply again once it answers', async () => {
    await waitForRedis();
    // an address without credentials: answered 401 while its allowance lasts, then 429
    const ip = address();
    const send = () => t.call('GET', '/v1/companies', { key: null, remoteAddress: ip });
    let spent = 0;
    while ((await send()).status === 401 && spent < BURST * 3) spent++;
    expect(spent).toBeGreaterThanOrEqual(BURST);
    const before = await failures();
    relay.hold();
    try {
      const started = Date.now();
      expect((await send()).status).toBe(401);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect((await failures()) - before).toBe(1);
    } finally {
      relay.release();
    }
    // the late answer is read and ignored; the next request is limited again
    const r = await send();
    expect([r.status, r.body.code]).toEqual([429, 'rate_limited']);
  });

  it('counts an answer that came while the process was busy: a long turn of the event loop lets nothing through unchecked', async () => {
    const events = { failures: 0, onStoreFailure: () => events.failures++, onStoreBack: () => undefined };
    const limiter = new RedisRateLimiter(redisUrl, 1, 1, events, { keyPrefix: `rl-busy-${run}-${Date.now()}` });
    try {
      // until it is connected and has spent its one request for 'warm-up'
      for (let i = 0; i < 100 && (await limiter.take('warm-up')) === 0; i++) await new Promise((r) => setTimeout(r, 20));
      events.failures = 0;
      const key = `key:${Math.random()}`;
      expect(await limiter.take(key)).toBe(0);
      // from a turn's last phase: the next turn runs its timers before it reads what arrived
      await new Promise((r) => setImmediate(r));
      // Redis answers within a millisecond, but this process only reads the answer after a turn
      // of its event loop longer than the command's time-out (a storm, a long synchronous task)
      const answer = limiter.take(key);
      const until = Date.now() + 600;
      while (Date.now() < until);
      expect(await answer).toBeGreaterThanOrEqual(1);
      expect(events.failures).toBe(0);
    } finally {
      await limiter.close();
    }
  });
});
