import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { httpCall, startServerProcess, type ServerProcess } from '../helpers/server-process';

/**
 * `npm run cli -- demo:seed` on a new installation: the real server process on a fresh
 * embedded PostgreSQL (whose first start says what it does), the command run beside it on the
 * same database, and everything checked over HTTP with the key it prints.
 */
jest.setTimeout(300_000);

const root = join(__dirname, '..', '..');

function seed(dataDir: string, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['-r', join(root, 'test/helpers/swc-register.cjs'), join(root, 'src/cli.ts'), 'demo:seed', ...args],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, ADMIN_API_KEY: '', LOG_LEVEL: 'warn' },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

const keyOf = (stdout: string) => /API key of the demo merchant \(send it as X-API-Key\): (\S+)/.exec(stdout)?.[1];

describe('demo:seed', () => {
  let server: ServerProcess;
  const agent = new Agent({ keepAlive: true });
  let key: string;

  beforeAll(async () => {
    server = await startServerProcess({ LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
  }, 180_000);
  afterAll(() => {
    agent.destroy();
    server?.cleanup();
  });

  it('the first start says what it does: the embedded database, each migration, where it listens', () => {
    const messages = server.logs.map((l) => {
      try {
        return (JSON.parse(l) as { msg: string }).msg;
      } catch {
        return l;
      }
    });
    const at = (re: RegExp) => messages.findIndex((m) => re.test(m));
    expect(at(/^starting the embedded PostgreSQL/)).toBeGreaterThanOrEqual(0);
    expect(at(/^initialising PostgreSQL in /)).toBeGreaterThan(at(/^starting the embedded PostgreSQL/));
    expect(at(/^applying \d+ pending migrations \(in one transaction\)$/)).toBeGreaterThan(at(/^embedded PostgreSQL running/));
    expect(messages.filter((m) => /^migration applied: Migration\d+\w+$/.test(m)).length).toBeGreaterThan(20);
    expect(at(/^listening on http:/)).toBeGreaterThan(at(/^migration applied/));
  });

  it('creates the demo merchant, prints its key and what to open; the data is there over HTTP', async () => {
    const first = await seed(server.dataDir);
    if (first.status !== 0) throw new Error(`demo:seed failed (${first.status}): ${first.stdout}\n${first.stderr}`);
    expect(first.stdout).toMatch(
      /demo data created: Linden Hair Salon and Riverside Tennis Club, with \d+ bookings over the coming 3 weeks/,
    );
    expect(first.stdout).toContain('http://localhost:4000/graphql');
    expect(first.stdout).toContain('http://localhost:4000/docs');
    expect(first.stdout).toMatch(/curl -s http:\/\/localhost:4000\/v1\/companies -H "X-API-Key: bpk_/);
    key = keyOf(first.stdout)!;
    expect(key).toMatch(/^bpk_/);
    expect(statSync(join(server.dataDir, 'demo-api-key')).mode & 0o777).toBe(0o600);

    const get = async (path: string) => {
      const r = await httpCall(agent, server.base, 'GET', path, key);
      expect(r.status).toBe(200);
      return r.body;
    };
    const companies = (await get('/v1/companies')) as { id: string; name: string }[];
    expect(companies.map((c) => c.name).sort()).toEqual(['Linden Hair Salon', 'Riverside Tennis Club']);
    const types = new Set<string>();
    for (const c of companies) {
      const services = (await get(`/v1/companies/${c.id}/services`)) as { id: string; name: string; type: string }[];
      for (const s of services) types.add(s.type);
      const bookings = await get(`/v1/companies/${c.id}/bookings?limit=100`);
      expect(bookings.total).toBeGreaterThan(10);
      // the available times of the first service, next week
      const from = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
      const to = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
      const fixed = services.find((s) => s.type === 'fixed')!;
      const times = await httpCall(agent, server.base, 'POST', `/v1/companies/${c.id}/services/${fixed.id}/times`, key, {
        from: `${from}T00:00:00Z`,
        to: `${to}T00:00:00Z`,
      });
      expect(times.status).toBe(200);
      const offered = Object.values(times.body.times as Record<string, { price: { amount: number } }[]>).flat();
      expect(offered.length).toBeGreaterThan(0);
      // priced: the times carry the service's price
      expect(offered[0].price.amount).toBeGreaterThan(0);
    }
    expect([...types].sort()).toEqual(['days', 'fixed', 'flexible', 'group', 'sharable', 'ticket']);
    const salon = companies.find((c) => c.name === 'Linden Hair Salon')!;
    const club = companies.find((c) => c.name === 'Riverside Tennis Club')!;
    const items = (body: any): any[] => (Array.isArray(body) ? body : body.items);
    expect(items(await get(`/v1/companies/${salon.id}/plugins/promocodes/codes`)).map((p) => p.code)).toContain('WELCOME10');
    expect(items(await get(`/v1/companies/${salon.id}/plugins/giftcards/giftcards`))).toHaveLength(1);
    expect(items(await get(`/v1/companies/${club.id}/plugins/subscription/list`)).map((p) => p.title)).toEqual(['8 court hours a month']);
    const webhooks = await get(`/v1/companies/${club.id}/webhooks`);
    expect(webhooks.items).toEqual([expect.objectContaining({ url: 'http://localhost:4001/hooks', enabled: false })]);
  });

  it('a second run changes nothing and prints the same key', async () => {
    const count = async () => {
      let total = 0;
      for (const c of (await httpCall(agent, server.base, 'GET', '/v1/companies', key)).body)
        total += (await httpCall(agent, server.base, 'GET', `/v1/companies/${c.id}/bookings?limit=1`, key)).body.total;
      return total;
    };
    const before = await count();
    const again = await seed(server.dataDir);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('the demo data exists already; nothing changed');
    expect(keyOf(again.stdout)).toBe(key);
    expect(await count()).toBe(before);
  });

  it("refuses a database that holds other merchants' companies, unless --force", async () => {
    const other = await httpCall(agent, server.base, 'POST', '/v1/companies', server.key, { name: 'A real shop', timeZone: 'UTC' });
    expect(other.status).toBe(201);
    const refused = await seed(server.dataDir);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toContain('holds 1 company of other merchants');
    expect(refused.stdout).toContain('demo:seed --force');
    const forced = await seed(server.dataDir, '--force');
    expect(forced.status).toBe(0);
    expect(keyOf(forced.stdout)).toBe(key);
  });
});
