import { createServer, type Server, type AddressInfo } from 'node:net';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { WebhookReceiver } from '../helpers/webhook-receiver';
import { Shop } from '../helpers/bookings-fixtures';
import { deliverDue } from '../../src/modules/webhook/delivery';
import { NOT_PUBLIC } from '../../src/modules/webhook/webhook-url';

/**
 * Webhook URLs into the server's own network: refused when saved (literal addresses in every
 * spelling, and names that resolve to one) and again at each delivery, after resolution, without
 * connecting; a delivery connects to the address that was checked. Host names are resolved by a
 * resolver the test configures (the server's `lookupHost`): the same code path as the system
 * resolver, with names this machine has no DNS for.
 */

/** The test's DNS: name -> addresses; a missing name does not resolve. */
const dns = new Map<string, string[]>();
let lookups: string[] = [];
const lookupHost = async (hostname: string) => {
  lookups.push(hostname);
  const a = dns.get(hostname);
  if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return a.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

let clock: TestClock;
let strict: TestApp; // WEBHOOK_ALLOW_INSECURE unset
let shop: Shop;
let svc: { sid: string; rids: string[] };
/** A loopback listener that counts the connections it gets (none may come). */
let trap: Server;
let trapPort: number;
let connections = 0;

const rows = (t: TestApp, sql: string, params: unknown[] = []) => t.deps.orm.em.fork().getConnection().execute(sql, params);

let slot = 0;
const nextStart = () => new Date(Date.parse('2031-04-01T06:00:00Z') + slot++ * 3600_000).toISOString();

beforeAll(async () => {
  clock = new TestClock(Date.parse('2031-03-03T09:00:00Z'));
  strict = await createTestApp({ clock, config: { webhookAllowInsecure: false, webhookTimeoutMs: 2000 }, lookupHost });
  shop = await Shop.open(strict, 'Strict', 'UTC');
  svc = await shop.bookable('fixed', { duration: 'PT30M' }, 1);
  trap = createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  trapPort = (trap.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => trap?.close(resolve));
  await strict?.close();
});
beforeEach(async () => {
  await rows(strict, 'delete from webhook_endpoint');
  dns.clear();
  lookups = [];
  connections = 0;
});

const create = (url: string) =>
  strict.call('POST', `${shop.base}/webhooks`, { key: shop.key, body: { url, eventTypes: ['booking.created'] } });

describe('at save time, without WEBHOOK_ALLOW_INSECURE', () => {
  const literal = [
    'https://127.0.0.1/hooks',
    'https://[::1]/hooks',
    'https://localhost/hooks',
    'https://169.254.169.254/latest/meta-data',
    'https://10.0.0.1/',
    'https://[::ffff:127.0.0.1]/',
    'https://2130706433/',
    'https://0x7f000001/',
    'https://0177.0.0.1/',
    'https://127.1/',
    'https://100.64.0.1/',
    'https://[fd00::1]/',
    'https://0.0.0.0/',
    'https://224.0.0.1/',
  ];
  it.each(literal)('refuses %s with 400, and stores nothing', async (url) => {
    const r = await create(url);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid_request', details: [{ path: 'url', message: NOT_PUBLIC }] });
    expect((await rows(strict, 'select count(*)::int as n from webhook_endpoint'))[0].n).toBe(0);
  });

  it('refuses a name that resolves to loopback, to a private address, or to one internal address among public ones', async () => {
    dns.set('loop.test', ['127.0.0.1']);
    dns.set('inside.test', ['10.1.2.3']);
    dns.set('v6.test', ['fe80::1']);
    dns.set('mixed.test', ['93.184.216.34', '127.0.0.1']);
    for (const host of ['loop.test', 'inside.test', 'v6.test', 'mixed.test']) {
      const r = await create(`https://${host}/hooks`);
      expect(r.status).toBe(400);
      expect(r.body.details).toEqual([{ path: 'url', message: NOT_PUBLIC }]);
    }
    expect(lookups).toEqual(['loop.test', 'inside.test', 'v6.test', 'mixed.test']);
    expect((await rows(strict, 'select count(*)::int as n from webhook_endpoint'))[0].n).toBe(0);
  });

  it('accepts a public name, and a name that does not resolve yet (its deliveries check it)', async () => {
    dns.set('public.test', ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
    expect((await create('https://public.test/hooks')).status).toBe(201);
    expect((await create('https://not-yet.test/hooks')).status).toBe(201);
  });

  it('refuses a change of URL to an internal host, and leaves the URL as it was', async () => {
    dns.set('public.test', ['93.184.216.34']);
    dns.set('loop.test', ['127.0.0.1']);
    const e = (await create('https://public.test/hooks')).body;
    for (const url of ['https://loop.test/', 'https://0x0a000001/']) {
      const r = await strict.call('PATCH', `${shop.base}/webhooks/${e.id}`, { key: shop.key, body: { url } });
      expect(r.status).toBe(400);
    }
    expect((await strict.call('GET', `${shop.base}/webhooks/${e.id}`, { key: shop.key })).body.url).toBe('https://public.test/hooks');
  });

  it('GraphQL refuses the same', async () => {
    dns.set('loop.test', ['::1']);
    for (const url of ['https://loop.test/h', 'https://0177.0.0.1/h']) {
      const r = await strict.gql(
        `mutation($c: ID!, $u: String!) { createWebhookEndpoint(companyID: $c, input: {url: $u, eventTypes: ["booking.created"]}) { id } }`,
        { c: shop.companyId, u: url },
        { key: shop.key },
      );
      expect(r.body.errors[0].extensions.code).toBe('invalid_request');
    }
  });
});

describe('at delivery time', () => {
  /** A new event (a second later: the log's newest first is then this one), delivered; its attempts. */
  async function logged(id: string): Promise<any[]> {
    clock.advance(1000);
    await shop.book({ serviceID: svc.sid, resourceID: svc.rids[0], startTime: nextStart() });
    lookups = [];
    expect(await deliverDue(strict.deps, { random: () => 0.5 })).toBe(1);
    const log = await strict.call('GET', `${shop.base}/webhooks/${id}/deliveries`, { key: shop.key });
    expect(log.status).toBe(200);
    return log.body.items[0].attempts;
  }

  it('refuses a name that resolved to a public address when saved and to loopback now (rebinding), without connecting', async () => {
    dns.set('rebind.test', ['93.184.216.34']);
    const e = (await create(`https://rebind.test:${trapPort}/hooks`)).body;
    dns.set('rebind.test', ['127.0.0.1']);
    const [a] = await logged(e.id);
    expect(a).toMatchObject({ attempt: 1, succeeded: false, responseStatus: null, latencyMs: 0, responseExcerpt: null });
    expect(a.error).toBe(`refused: the endpoint's host ${NOT_PUBLIC}`);
    expect(a.error).not.toMatch(/127\.0\.0\.1|ECONN|port/);
    expect(lookups).toEqual(['rebind.test']);
    expect(connections).toBe(0);
  });

  it('refuses a URL stored under WEBHOOK_ALLOW_INSECURE (http to loopback) when delivered by a server without it', async () => {
    dns.set('public.test', ['93.184.216.34']);
    const e = (await create('https://public.test/hooks')).body;
    // As a server with WEBHOOK_ALLOW_INSECURE=true saved it, on the same database.
    await rows(strict, 'update webhook_endpoint set url = ? where id = ?', [`http://127.0.0.1:${trapPort}/hooks`, e.id]);
    const [a] = await logged(e.id);
    expect(a).toMatchObject({ succeeded: false, responseStatus: null, latencyMs: 0 });
    expect(a.error).toBe("refused: the endpoint's URL must be an https URL");
    await rows(strict, 'update webhook_endpoint set url = ? where id = ?', [`https://[::ffff:7f00:1]:${trapPort}/hooks`, e.id]);
    const [b] = await logged(e.id);
    expect(b.error).toBe(`refused: the endpoint's URL ${NOT_PUBLIC}`);
    expect(connections).toBe(0);
  });

  it('a name that does not resolve fails the attempt (and is tried again later)', async () => {
    const e = (await create('https://gone.test/hooks')).body;
    const [a] = await logged(e.id);
    expect(a).toMatchObject({ succeeded: false, responseStatus: null, error: 'the host name could not be resolved (ENOTFOUND)' });
    const [d] = (await strict.call('GET', `${shop.base}/webhooks/${e.id}/deliveries`, { key: shop.key })).body.items;
    expect(d.status).toBe('pending');
  });
});

describe('with WEBHOOK_ALLOW_INSECURE', () => {
  let dev: TestApp;
  let rx: WebhookReceiver;
  beforeAll(async () => {
    dev = await createTestApp({ clock, config: { webhookAllowInsecure: true, webhookTimeoutMs: 2000 }, lookupHost });
    rx = new WebhookReceiver(() => clock.now());
    await rx.start();
  });
  afterAll(async () => {
    await rx?.stop();
    await dev?.close();
  });

  it('connects to the address the name resolved to, once per attempt, keeping the name in the Host header', async () => {
    const devShop = await Shop.open(dev, 'Dev', 'UTC');
    const devSvc = await devShop.bookable('fixed', { duration: 'PT30M' }, 1);
    const port = new URL(rx.url).port;
    // No resolver on this machine knows the name: only the configured lookup can lead there.
    dns.set('hooks.localhost', ['127.0.0.1']);
    const r = await dev.call('POST', `${devShop.base}/webhooks`, {
      key: devShop.key,
      body: { url: `http://hooks.localhost:${port}/hooks`, eventTypes: ['booking.created'] },
    });
    expect(r.status).toBe(201);
    await devShop.book({ serviceID: devSvc.sid, resourceID: devSvc.rids[0], startTime: nextStart() });
    lookups = [];
    expect(await deliverDue(dev.deps, { random: () => 0.5 })).toBe(1);
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0].headers.host).toBe(`hooks.localhost:${port}`);
    expect(lookups).toEqual(['hooks.localhost']);
  });

  it('still accepts http to loopback and https to internal addresses when saving', async () => {
    const devShop = await Shop.open(dev, 'Dev 2', 'UTC');
    for (const url of ['http://127.0.0.1:9/h', 'https://10.0.0.1/h', 'https://[::1]/h']) {
      const r = await dev.call('POST', `${devShop.base}/webhooks`, { key: devShop.key, body: { url, eventTypes: ['booking.created'] } });
      expect(r.status).toBe(201);
    }
  });
});
