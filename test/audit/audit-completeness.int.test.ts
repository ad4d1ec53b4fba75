import { Client } from 'pg';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';
import { modules, startModules } from '../../src/app/registry';

/**
 * The audit log is complete by construction (docs/audit-log.md): every table that holds merchant
 * data carries the `audit_record` row trigger, read here from the database's own catalog, and
 * the writes that once went unrecorded leave their entry with the actor and request id of the
 * request that made them.
 */

/**
 * The tables that hold no records of their own, each with the reason. Every other table of the
 * schema must carry the audit trigger: a new table fails this test until it is given the
 * trigger (src/db/functions/audit_record.sql) or a line here.
 */
const NOT_RECORDS: Record<string, string> = {
  audit_entry: 'the audit log itself',
  booking_occupancy: "a booking's time on its resources, written and released with the booking, whose entry records them",
  booking_status_change: "a booking's status history: the booking's own entry records each change (`status`)",
  catalog_version: 'a counter the catalog triggers move on every catalog change',
  db_function_checksum: 'the checksums of the database function files',
  idempotency_key: 'stored answers of idempotent requests',
  live_watch: 'which companies the live GraphQL subscriptions of each process watch, renewed and expired by the processes',
  occupancy_version: "versions of a resource's occupancy per week, moved by the occupancy triggers for kept availability",
  mikro_orm_migrations: 'the migrations that ran',
  slot_usage: "a slot's booked counts, kept with the slot's bookings",
  stripe_event: 'the Stripe events already handled, so that each is handled once',
  webhook_attempt: 'the log of webhook delivery attempts',
  webhook_delivery: 'the webhook delivery queue',
  webhook_event: 'the webhook outbox',
};

/** Records above companies, which have no `company_id`. */
const ABOVE_COMPANIES = ['api_key', 'company', 'merchant'];

const T0 = Date.parse('2026-06-01T08:00:00Z');
const clock = new TestClock(T0);
let t: TestApp;
let db: Client;

beforeAll(async () => {
  t = await createTestApp({ clock });
  // the test's own connection: straight to the test's database, as an operator's would be
  const [{ name }] = await t.deps.orm.em.fork().getConnection().execute<{ name: string }[]>('select current_database() as name');
  const url = new URL(process.env.BOOKING_TEST_ADMIN_URL!);
  url.pathname = `/${name}`;
  db = new Client({ connectionString: url.toString() });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await t?.close();
});

const rows = async <T = any>(text: string, params: unknown[] = []): Promise<T[]> => (await db.query(text, params)).rows as T[];

/** Tables of the schema carrying an enabled `audit_record` trigger after every insert, update and delete of a row. */
async function auditedTables(): Promise<Map<string, string>> {
  const found = await rows<{ table: string; def: string }>(
    `select c.relname as table, pg_get_triggerdef(t.oid) as def
       from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where c.relnamespace = 'public'::regnamespace and not t.tgisinternal and t.tgenabled <> 'D'
        and t.tgfoid = 'audit_record'::regproc
        -- a row trigger (1), after (not 2), on insert (4), delete (8) and update (16)
        and t.tgtype & 1 = 1 and t.tgtype & 2 = 0 and t.tgtype & 28 = 28`,
  );
  return new Map(found.map((r) => [r.table, r.def]));
}

describe('every table that holds merchant data carries the audit trigger', () => {
  it('lists the tables from the catalog: each is audited or named as holding no records', async () => {
    const tables = (
      await rows<{ name: string }>(
        `select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p') order by 1`,
      )
    ).map((r) => r.name);
    const withCompany = (
      await rows<{ name: string }>(
        `select table_name as name from information_schema.columns
          where table_schema = 'public' and column_name = 'company_id' order by 1`,
      )
    ).map((r) => r.name);
    const audited = await auditedTables();
    // the lists name real tables
    for (const name of [...Object.keys(NOT_RECORDS), ...ABOVE_COMPANIES])
      expect({ name, exists: tables.includes(name) }).toEqual({ name, exists: true });
    expect(withCompany.length).toBeGreaterThan(30);

    const merchantData = [...new Set([...withCompany, ...ABOVE_COMPANIES, ...tables])].filter((name) => !(name in NOT_RECORDS)).sort();
    const unaudited = merchantData.filter((name) => !audited.has(name));
    expect(unaudited).toEqual([]);
    // and nothing that holds no records is audited
    expect([...audited.keys()].filter((name) => name in NOT_RECORDS)).toEqual([]);
  });

  it("names each recorded field as the table's entity names its property", async () => {
    const audited = await auditedTables();
    const camel = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    const problems: string[] = [];
    let checked = 0;
    for (const meta of Object.values(t.deps.orm.getMetadata().getAll())) {
      const def = meta.tableName ? audited.get(meta.tableName) : undefined;
      if (!def) continue;
      const args = [...(/execute function audit_record\((.*)\)$/i.exec(def)?.[1] ?? '').matchAll(/'([^']*)'/g)].map((m) => m[1]);
      const leftOut = new Set(args.filter((a) => a.startsWith('-')).map((a) => a.slice(1)));
      const renamed = new Map(args.filter((a) => a.includes(':')).map((a) => a.split(':') as [string, string]));
      const columns = new Set<string>();
      for (const p of meta.props) {
        if (p.persist === false || p.formula || p.fieldNames?.length !== 1) continue;
        const column = p.fieldNames[0];
        columns.add(column);
        if (leftOut.has(column)) continue;
        const field = renamed.get(column) ?? camel(column);
        if (field !== p.name) problems.push(`${meta.tableName}.${column} is recorded as ${field}, the entity calls it ${p.name}`);
      }
      const real = new Set(
        (
          await rows<{ c: string }>(
            `select column_name as c from information_schema.columns where table_schema = 'public' and table_name = $1`,
            [meta.tableName],
          )
        ).map((r) => r.c),
      );
      for (const column of [...leftOut, ...renamed.keys()]) if (!real.has(column)) problems.push(`${meta.tableName}: no column ${column}`);
      checked++;
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });
});

describe('the trigger', () => {
  /** Runs `fn` in a transaction of the test's connection that is rolled back. */
  async function rolledBack(fn: () => Promise<void>): Promise<void> {
    await db.query('begin');
    try {
      await fn();
    } finally {
      await db.query('rollback');
    }
  }
  const scope = {
    actorType: 'api_key',
    actorId: 'key-1',
    actorName: 'Ops',
    merchantId: '00000000-0000-4000-8000-00000000000a',
    requestId: 'req-probe-1',
    at: '2026-06-01T08:00:00.000Z',
  };
  const probeEntries = () =>
    rows(
      `select company_id, merchant_id, actor_type, actor_id, actor_name, action, record_type, record_id, changes, request_id, created_at
         from audit_entry where record_type = 'audit_probe' order by seq`,
    );

  it("records creates, updates and deletes as the API shows them: names, masks, times, sizes, the scope's actor", async () => {
    await rolledBack(async () => {
      await db.query(`create temporary table audit_probe (
        id uuid primary key, company_id uuid, status text, name text, signing_secret_enc text, key_hash text, access_token text,
        password text, private_key text, webhook_secret text, key_prefix text, success_redirect_url text,
        starts_at timestamptz, ends_at timestamptz, content bytea, counter bigint, meta_data jsonb, related_ids jsonb, hidden text,
        updated_at timestamptz)`);
      await db.query(
        `create trigger audit_record after insert or update or delete on audit_probe for each row execute function audit_record('related_ids:relatedIDs', '-hidden')`,
      );
      await db.query('select audit_begin($1::jsonb)', [JSON.stringify(scope)]);
      const id = '00000000-0000-4000-8000-000000000001';
      const company = '00000000-0000-4000-8000-0000000000c1';
      await db.query(
        `insert into audit_probe values ($1, $2, 'pending', 'A', 'whsec_1', 'h1', null, 'pw', 'pk', 'whsec_9', 'kp_1', 'https://shop.example/ok', '2026-06-01 10:00:00.123456+02', 'infinity',
           '\\x00010203'::bytea, 9007199254740993, '{"a": 1}', '["r1"]', 'never', now())`,
        [id, company],
      );
      await db.query(`update audit_probe set updated_at = now() + interval '1 minute', hidden = 'still never' where id = $1`, [id]);
      await db.query(`update audit_probe set name = 'B', signing_secret_enc = 'whsec_2', meta_data = '{"a": 2}' where id = $1`, [id]);
      await db.query(`update audit_probe set status = 'confirmed', key_hash = null where id = $1`, [id]);
      await db.query(`delete from audit_probe where id = $1`, [id]);
      const entries = await probeEntries();
      expect(entries.map((e) => e.action)).toEqual(['create', 'update', 'status', 'delete']);
      for (const e of entries)
        expect(e).toMatchObject({
          company_id: company,
          merchant_id: scope.merchantId,
          actor_type: 'api_key',
          actor_id: 'key-1',
          actor_name: 'Ops',
          record_type: 'audit_probe',
          record_id: id,
          request_id: 'req-probe-1',
          created_at: new Date(scope.at),
        });
      expect(entries[0].changes).toEqual({
        id: { after: id },
        companyId: { after: company },
        status: { after: 'pending' },
        name: { after: 'A' },
        signingSecretEnc: { after: '[masked]' },
        keyHash: { after: '[masked]' },
        accessToken: { after: null },
        password: { after: '[masked]' },
        privateKey: { after: '[masked]' },
        webhookSecret: { after: '[masked]' },
        keyPrefix: { after: 'kp_1' },
        successRedirectUrl: { after: 'https://shop.example/ok' },
        startsAt: { after: '2026-06-01T08:00:00.123Z' },
        endsAt: { after: null },
        content: { after: '[4 bytes]' },
        counter: { after: '9007199254740993' },
        metaData: { after: { a: 1 } },
        relatedIDs: { after: ['r1'] },
      });
      expect(entries[1].changes).toEqual({
        name: { before: 'A', after: 'B' },
        signingSecretEnc: { before: '[masked]', after: '[masked]' },
        metaData: { before: { a: 1 }, after: { a: 2 } },
      });
      // clearing a secret shows: null stays null
      expect(entries[2].changes).toEqual({
        status: { before: 'pending', after: 'confirmed' },
        keyHash: { before: '[masked]', after: null },
      });
      expect(Object.keys(entries[3].changes)).toHaveLength(18);
      expect(entries[3].changes.signingSecretEnc).toEqual({ before: '[masked]' });
      expect(JSON.stringify(entries)).not.toMatch(/whsec_|never|"pw"|"pk"/);
    });
  });

  it('names a record without an id by its primary key, and a write with no scope as the database', async () => {
    await rolledBack(async () => {
      await db.query(
        'create temporary table audit_probe (company_id uuid, booking_id uuid, note text, primary key (company_id, booking_id))',
      );
      await db.query(
        'create trigger audit_record after insert or update or delete on audit_probe for each row execute function audit_record()',
      );
      const [company, booking] = ['00000000-0000-4000-8000-0000000000c2', '00000000-0000-4000-8000-0000000000b2'];
      await db.query(`insert into audit_probe values ($1, $2, 'x')`, [company, booking]);
      const [e] = await probeEntries();
      expect(e).toMatchObject({
        company_id: company,
        record_id: `${company}:${booking}`,
        actor_type: 'system',
        actor_id: 'database',
        merchant_id: null,
        request_id: null,
      });
      expect(e.actor_name).toMatch(/^direct database write/);
    });
  });

  it('keeps the scope to its transaction: the next transaction on the connection has none', async () => {
    await rolledBack(async () => {
      await db.query('create temporary table audit_probe (id uuid primary key, company_id uuid, note text)');
      await db.query(
        'create trigger audit_record after insert or update or delete on audit_probe for each row execute function audit_record()',
      );
      await db.query('savepoint s');
      await db.query('select audit_begin($1::jsonb)', [JSON.stringify(scope)]);
      await db.query('rollback to savepoint s');
      await db.query(`insert into audit_probe values ('00000000-0000-4000-8000-000000000003', null, 'x')`);
      expect((await probeEntries()).map((e) => e.actor_id)).toEqual(['database']);
    });
    // a scope set in a statement of its own transaction is gone once it commits
    await db.query(`select audit_begin($1::jsonb)`, [JSON.stringify(scope)]);
    expect((await rows(`select current_setting('audit.actor_id', true) as a`))[0].a ?? '').toBe('');
  });
});

describe('writes once made without an entry leave one, with the actor and request id', () => {
  let shop: Shop;
  const log = async (recordID: string) => {
    const r = await t.call('GET', `${shop.base}/audit-log`, { query: { recordID } });
    expect(r.status).toBe(200);
    return (r.body.items as any[]).reverse();
  };
  const keyId = async (key: string) =>
    ((await t.call('GET', '/v1/api-keys')).body as any[]).find((k) => key.startsWith(k.keyPrefix))?.id as string;

  beforeAll(async () => {
    shop = await Shop.open(t, 'Complete', 'UTC');
  });

  it('a client created at its first login, by the login key', async () => {
    const loginKey = await t.keyWith({ [shop.companyId]: ['client.login'] });
    const login = await t.call('POST', '/v1/client/auth/login', {
      key: loginKey,
      headers: { 'x-request-id': 'req-login-1' },
      body: { companyID: shop.companyId, email: 'first@example.com', externalUserID: 'first-1', firstName: 'First' },
    });
    expect(login.status).toBe(200);
    const me = (await t.call('GET', '/v1/client/profile', { token: login.body.accessToken })).body;
    const entries = await log(me.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'create',
      recordType: 'client',
      actor: { type: 'api_key', id: await keyId(loginKey) },
      requestID: 'req-login-1',
      changes: { externalUserId: { after: 'first-1' }, email: { after: 'first@example.com' }, firstName: { after: 'First' } },
    });
  });

  it("a company's first subscription settings", async () => {
    const r = await t.call('PATCH', `${shop.base}/plugins/subscription/settings`, {
      headers: { 'x-request-id': 'req-settings-1' },
      body: { currency: 'EUR', taxRate: 21 },
    });
    expect(r.status).toBe(200);
    const [{ id }] = await rows(`select id from subscription_settings where company_id = $1`, [shop.companyId]);
    const entries = await log(id);
    expect(entries.map((e) => [e.action, e.requestID, e.actor.id])).toEqual([
      ['create', 'req-settings-1', await keyId(t.adminKey)],
      ['update', 'req-settings-1', await keyId(t.adminKey)],
    ]);
    expect(entries[0].changes).toMatchObject({ companyId: { after: shop.companyId }, currency: { after: null } });
    expect(entries[1].changes).toMatchObject({ currency: { before: null, after: 'EUR' }, taxRate: { before: 0, after: 21 } });
  });

  it("a webhook endpoint's secret rotation and its deletion", async () => {
    const created = await t.call('POST', `${shop.base}/webhooks`, {
      body: { url: 'https://203.0.113.10/hooks', eventTypes: ['booking.created'] },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const rotated = await t.call('POST', `${shop.base}/webhooks/${id}/rotate-secret`, { headers: { 'x-request-id': 'req-rotate-2' } });
    expect(rotated.status).toBe(200);
    expect((await t.call('DELETE', `${shop.base}/webhooks/${id}`, { headers: { 'x-request-id': 'req-delete-2' } })).status).toBe(204);
    const admin = await keyId(t.adminKey);
    const entries = await log(id);
    expect(entries.map((e) => [e.action, e.requestID, e.actor.id])).toEqual([
      ['create', expect.any(String), admin],
      ['update', 'req-rotate-2', admin],
      ['delete', 'req-delete-2', admin],
    ]);
    expect(entries[1].changes).toEqual({ secretEnc: { before: '[masked]', after: '[masked]' } });
    expect(entries[2].changes).toMatchObject({ url: { before: 'https://203.0.113.10/hooks' }, secretEnc: { before: '[masked]' } });
    expect(JSON.stringify(entries)).not.toContain(rotated.body.secret);
  });

  it('a notification message sent again', async () => {
    const { sid, rids } = await shop.bookable('fixed', { duration: 'PT1H' });
    const client = await t.call('POST', `${shop.base}/clients`, { body: { externalUserID: 'mailed-1', email: 'mailed@example.com' } });
    expect(client.status).toBe(201);
    const booked = await t.call('POST', `${shop.base}/bookings`, {
      body: { serviceID: sid, resourceID: rids[0], startTime: '2026-06-03T10:00:00Z', clientID: client.body.id },
    });
    expect(booked.status).toBe(200);
    const [message] = (await t.call('GET', `${shop.base}/notifications/messages`, { query: { bookingID: booked.body.id } })).body.items;
    expect(message).toBeDefined();
    const resent = await t.call('POST', `${shop.base}/notifications/messages/${message.id}/resend`, {
      headers: { 'x-request-id': 'req-resend-1' },
    });
    expect(resent.status).toBe(202);
    const entries = await log(resent.body.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'create',
      recordType: 'notification_message',
      actor: { type: 'api_key', id: await keyId(t.adminKey) },
      requestID: 'req-resend-1',
      changes: { resentFrom: { after: message.id }, status: { after: 'queued' }, toAddress: { after: 'mailed@example.com' } },
    });
  });

  it('background work as the worker that did it: the e-mail worker sending a message', async () => {
    const { sid, rids } = await shop.bookable('fixed', { duration: 'PT1H' });
    const client = await t.call('POST', `${shop.base}/clients`, { body: { externalUserID: 'mailed-2', email: 'mailed2@example.com' } });
    const booked = await t.call('POST', `${shop.base}/bookings`, {
      body: { serviceID: sid, resourceID: rids[0], startTime: '2026-06-04T10:00:00Z', clientID: client.body.id },
    });
    expect(booked.status).toBe(200);
    const confirmation = async () =>
      ((await t.call('GET', `${shop.base}/notifications/messages`, { query: { bookingID: booked.body.id } })).body.items as any[]).find(
        (m) => m.event === 'booking.confirmed',
      );
    // the notification module's worker, started as the server starts it (no SMTP here: the message is not sent)
    const stops = startModules(
      t.deps,
      modules.filter((m) => m.name === 'notification'),
    );
    try {
      for (let i = 0; i < 100 && (await confirmation()).status === 'queued'; i++) await new Promise((ok) => setTimeout(ok, 100));
    } finally {
      await Promise.all(stops.map((stop) => stop()));
    }
    const message = await confirmation();
    expect(message.status).toBe('not_sent');
    const entries = await log(message.id);
    expect(entries.map((e) => [e.action, e.actor.type, e.actor.id, e.requestID])).toEqual([
      ['create', 'api_key', await keyId(t.adminKey), booked.headers['x-request-id'] ?? expect.any(String)],
      ['status', 'system', 'notification', null],
    ]);
    expect(entries[1].changes.status).toEqual({ before: 'queued', after: 'not_sent' });
  }, 30_000);

  it('none of these writes went without its request', async () => {
    const unscoped = await rows(`select record_type, action from audit_entry where company_id = $1 and actor_id = 'database'`, [
      shop.companyId,
    ]);
    expect(unscoped).toEqual([]);
  });
});
