import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { Client } from 'pg';
import { createHash } from 'node:crypto';
import { startRuntime } from '../../src/app/bootstrap';
import { loadConfig } from '../../src/config/env';
import { decryptSecret } from '../../src/modules/payment/redirect/secret-box';
import { createTestApp, type TestApp } from '../helpers/app';
import { configurePayments, SECRET } from '../helpers/payments-fixtures';

/** The key every installation without ENCRYPTION_KEY used before keys were generated. */
const OLD_CONSTANT_KEY = createHash('sha256').update('booking-platform development encryption key').digest();

let dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'booking-data-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** Starts the runtime as `npm start` does, on the database of `t`, and returns the key it chose. */
async function startOn(t: TestApp, dir: string, env: Record<string, string> = {}): Promise<{ key: Buffer; logs: string }> {
  let logs = '';
  const stream = new Writable({
    write(chunk, _enc, cb) {
      logs += chunk;
      cb();
    },
  });
  const url = t.deps.orm.config.getClientUrl();
  const runtime = await startRuntime(
    loadConfig({ DATABASE_URL: url, DATA_DIR: dir, JWT_SECRET: 'x'.repeat(40), ...env }),
    pino({ level: 'info' }, stream) as never,
  );
  const key = runtime.deps.encryptionKey;
  await runtime.close();
  return { key, logs };
}

describe('the key of secrets at rest without ENCRYPTION_KEY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('is generated per data directory on first start (0600), reused on the next, never the old constant', async () => {
    const a = dataDir();
    const first = await startOn(t, a);
    expect(first.key.equals(OLD_CONSTANT_KEY)).toBe(false);
    expect(first.key).toHaveLength(32);
    const file = join(a, 'encryption-key');
    expect(Buffer.from(readFileSync(file, 'utf8'), 'base64').equals(first.key)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.logs).toMatch(/ENCRYPTION_KEY is not set/);
    const again = await startOn(t, a);
    expect(again.key.equals(first.key)).toBe(true);
    expect(again.logs).toMatch(/ENCRYPTION_KEY is not set/);
    const other = await startOn(t, dataDir());
    expect(other.key.equals(first.key)).toBe(false);
  });

  it('uses ENCRYPTION_KEY when set, and writes no key file', async () => {
    const d = dataDir();
    const explicit = Buffer.alloc(32, 3);
    const r = await startOn(t, d, { ENCRYPTION_KEY: explicit.toString('base64') });
    expect(r.key.equals(explicit)).toBe(true);
    expect(existsSync(join(d, 'encryption-key'))).toBe(false);
  });

  it('reports webhook signing secrets that no known key can read, and keeps the old key when they use it', async () => {
    const c = await t.company('Hooks shop');
    const key = t.deps.encryptionKey;
    const hook = () =>
      t.call('POST', `/v1/companies/${c.id}/webhooks`, { body: { url: 'https://hooks.example.com/in', eventTypes: ['booking.created'] } });
    try {
      (t.deps as { encryptionKey: Buffer }).encryptionKey = Buffer.alloc(32, 9); // a generated key, since lost
      const lost = await hook();
      expect(lost.status).toBe(201);
      const r = await startOn(t, dataDir());
      expect(r.logs).toMatch(/1 stored webhook signing secrets cannot be decrypted .*rotate them/);
      (t.deps as { encryptionKey: Buffer }).encryptionKey = OLD_CONSTANT_KEY;
      expect((await hook()).status).toBe(201);
      const old = await startOn(t, dataDir());
      expect(old.key.equals(OLD_CONSTANT_KEY)).toBe(true);
    } finally {
      (t.deps as { encryptionKey: Buffer }).encryptionKey = key;
      await t.deps.orm.em.fork().getConnection().execute('delete from webhook_endpoint');
    }
  });

  it('refuses to start with a damaged key file instead of replacing the key', async () => {
    const d = dataDir();
    await startOn(t, d);
    writeFileSync(join(d, 'encryption-key'), 'short');
    await expect(startOn(t, d)).rejects.toThrow(/encryption-key must hold 32 bytes/);
  });
});

describe('an installation whose secrets were encrypted with the old constant key', () => {
  let t: TestApp;
  let cid: string;
  beforeAll(async () => {
    t = await createTestApp();
    // Saved as earlier versions did without ENCRYPTION_KEY.
    (t.deps as { encryptionKey: Buffer }).encryptionKey = OLD_CONSTANT_KEY;
    cid = (await t.company('Old shop')).id;
    expect(
      (await configurePayments(t, cid, { success: 'https://shop.example/ok?id={{.ID}}', templating: true, secret: SECRET })).status,
    ).toBe(200);
  });
  afterAll(async () => t?.close());

  const storedBox = async () => {
    const c = new Client({ connectionString: t.deps.orm.config.getClientUrl() });
    await c.connect();
    const r = await c.query('select signing_secret_enc from payment_provider_settings where company_id = $1', [cid]);
    await c.end();
    return r.rows[0].signing_secret_enc as string;
  };

  it('keeps working: the old key stays in use (with a warning), whether or not DATA_DIR survived', async () => {
    for (const d of [dataDir(), dataDir()]) {
      const r = await startOn(t, d);
      expect(r.key.equals(OLD_CONSTANT_KEY)).toBe(true);
      expect(decryptSecret(await storedBox(), r.key, `payment_provider_settings/${cid}/test`)).toBe(SECRET);
      expect(existsSync(join(d, 'encryption-key'))).toBe(false);
      expect(r.logs).toMatch(/old built-in development key/);
    }
  });

  it('reports secrets no known key can read, when a generated key was lost', async () => {
    const c = new Client({ connectionString: t.deps.orm.config.getClientUrl() });
    await c.connect();
    const before = await storedBox();
    // As if saved under a generated key whose DATA_DIR was since lost.
    (t.deps as { encryptionKey: Buffer }).encryptionKey = Buffer.alloc(32, 1);
    await configurePayments(t, cid, { success: 'https://shop.example/ok?id={{.ID}}', templating: true, secret: SECRET });
    try {
      const r = await startOn(t, dataDir());
      expect(r.key.equals(OLD_CONSTANT_KEY)).toBe(false);
      expect(r.logs).toMatch(/1 stored payment signing secrets cannot be decrypted/);
    } finally {
      await c.query('update payment_provider_settings set signing_secret_enc = $1 where company_id = $2', [before, cid]);
      await c.end();
    }
  });
});
