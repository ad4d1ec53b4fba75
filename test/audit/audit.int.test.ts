import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { countRows, Shop } from '../helpers/bookings-fixtures';
import { configurePayments } from '../helpers/payments-fixtures';
import { modules, startModules } from '../../src/app/registry';

let t: TestApp;
let s: Shop;
const clock = new TestClock(Date.parse('2026-03-01T00:00:00Z'));

beforeAll(async () => {
  t = await createTestApp({ clock });
  s = await Shop.open(t, 'Audited');
});
afterAll(async () => t?.close());

const log = (query: Record<string, string | number | undefined> = {}, key?: string, companyId = s.companyId) =>
  t.call('GET', `/v1/companies/${companyId}/audit-log`, { query, key });

/** The entries of one record, oldest first. */
const entriesOf = async (recordID: string) => ((await log({ recordID })).body.items as any[]).reverse();

const keyId = async (key: string) =>
  ((await t.call('GET', '/v1/api-keys')).body as any[]).find((k) => key.startsWith(k.keyPrefix))?.id as string;

describe('the audit log', () => {
  it('records creates, updates and deletes made through the ORM, with the actor, request id and changed fields', async () => {
    const rid = await s.resource('Room A');
    const renamed = await t.call('PATCH', `${s.base}/resources/${rid}`, {
      body: { name: 'Room B' },
      headers: { 'x-request-id': 'req-rename-1' },
    });
    expect(renamed.status).toBe(200);
    await s.hours(rid, '09:00', '17:00');
    const ruleId = (await t.call('GET', `${s.base}/resources/${rid}/working-hours`)).body[0].id;
    expect((await t.call('DELETE', `${s.base}/resources/${rid}/working-hours`, { body: {} })).status).toBe(204);

    const admin = await keyId(t.adminKey);
    const [created, updated] = await entriesOf(rid);
    expect(created).toMatchObject({
      actor: { type: 'api_key', id: admin, name: 'Test merchant admin' },
      action: 'create',
      recordType: 'resource',
      recordID: rid,
      requestID: expect.any(String),
      createdAt: '2026-03-01T00:00:00Z',
    });
    expect(created.changes.name).toEqual({ after: 'Room A' });
    expect(updated).toMatchObject({
      action: 'update',
      requestID: 'req-rename-1',
      changes: { name: { before: 'Room A', after: 'Room B' } },
    });
    expect(Object.keys(updated.changes)).not.toContain('updatedAt');

    const rule = await entriesOf(ruleId);
    expect(rule.map((e) => e.action)).toEqual(['create', 'delete']);
    expect(rule[1].recordType).toBe('working_hours_rule');
    expect(rule[1].changes.resourceId).toEqual({ before: rid });
  });

  it('records bookings written with SQL: creation, moves and status changes (confirmed, cancelled)', async () => {
    const sid = await s.service('fixed', { duration: 'PT1H', currency: 'EUR', bookingPolicy: 'manual' });
    const rid = await s.resource('Chair');
    await s.link(sid, rid);
    await s.hours(rid);
    const b = (await s.book({ serviceID: sid, resourceID: rid, startTime: '2026-03-02T10:00:00Z' })).body;
    expect(b.status).toBe('pending');
    expect((await s.move(b.id, { resourceID: rid, startTime: '2026-03-02T12:00:00Z' })).status).toBe(200);
    expect((await s.patch(b.id, { status: 'confirmed' })).body.status).toBe('confirmed');
    expect((await s.patch(b.id, { status: 'cancelled' })).body.status).toBe('cancelled');

    const entries = await entriesOf(b.id);
    expect(entries.map((e) => e.action)).toEqual(['create', 'update', 'status', 'status']);
    expect(entries.every((e) => e.recordType === 'booking' && e.actor.type === 'api_key')).toBe(true);
    expect(entries[0].changes).toMatchObject({ status: { after: 'pending' }, startTime: { after: '2026-03-02T10:00:00.000Z' } });
    expect(entries[1].changes).toMatchObject({
      startTime: { before: '2026-03-02T10:00:00.000Z', after: '2026-03-02T12:00:00.000Z' },
      endTime: { before: '2026-03-02T11:00:00.000Z', after: '2026-03-02T13:00:00.000Z' },
    });
    expect(entries[2].changes.status).toEqual({ before: 'pending', after: 'confirmed' });
    expect(entries[3].changes.status).toEqual({ before: 'confirmed', after: 'cancelled' });
  });

  it('names a client as the actor of what its access token does', async () => {
    const sid = await s.service('fixed', { duration: 'PT1H', currency: 'EUR' });
    const rid = await s.resource('Desk');
    await s.link(sid, rid);
    await s.hours(rid);
    const loginKey = await t.keyWith({ [s.companyId]: ['client.login'] });
    const login = await t.call('POST', '/v1/client/auth/login', {
      key: loginKey,
      body: { companyID: s.companyId, email: 'ann@example.com', externalUserID: 'ann', firstName: 'Ann', lastName: 'Lee' },
    });
    const token = login.body.accessToken;
    const me = (await t.call('GET', '/v1/client/profile', { token })).body;
    const r = await t.call('POST', '/v1/client/bookings', {
      token,
      body: { companyID: s.companyId, serviceID: sid, resourceID: rid, startTime: '2026-03-03T10:00:00Z' },
    });
    expect(r.status).toBe(200);
    const [created] = await entriesOf(r.body.id);
    expect(created.actor).toEqual({ type: 'client', id: me.id, name: 'Ann Lee' });

    // the login itself was made by the login key; its refresh token is masked
    const loginKeyId = await keyId(loginKey);
    const byKey = (await log({ actorID: loginKeyId })).body.items as any[];
    expect(byKey.length).toBeGreaterThan(0);
    const tokenEntry = byKey.find((e) => e.recordType === 'client_refresh_token');
    expect(tokenEntry.changes.tokenHash).toEqual({ after: '[masked]' });
  });

  it('masks secrets: provider signing secrets, API key hashes', async () => {
    const secret = 'sk_test_Zq8Lr3Vd9Xw2Mn7Bt5Kc1Hy6Pf4Gs0Ja';
    const r = await t.call('PUT', `${s.base}/payments/providers/stripe`, {
      body: { signing_secret: secret, success_redirect_url: 'https://shop.example/ok' },
    });
    expect(r.status).toBe(200);
    const items = (await log()).body.items as any[];
    const entry = items.find((e) => e.recordType === 'payment_provider_settings');
    expect(entry.changes.signingSecretEnc).toEqual({ after: '[masked]' });
    expect(entry.changes.successRedirectUrl).toEqual({ after: 'https://shop.example/ok' });
    expect(JSON.stringify(items)).not.toContain(secret);

    const key = await t.call('POST', '/v1/api-keys', { body: { name: 'reporting', permissions: { [s.companyId]: ['audit.read'] } } });
    expect(key.status).toBe(201);
    // API keys live above companies: their entries carry no company, and never the key
    const rows = await t.deps.orm.em
      .fork()
      .getConnection()
      .execute<{ company_id: string | null; changes: any }[]>(`select company_id, changes from audit_entry where record_id = ?`, [
        key.body.id,
      ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].company_id).toBeNull();
    expect(rows[0].changes.keyHash).toEqual({ after: '[masked]' });
    expect(JSON.stringify(rows)).not.toContain(key.body.key);
  });

  it('records a webhook secret rotation and a webhook deletion, secrets masked', async () => {
    const created = await t.call('POST', `${s.base}/webhooks`, {
      body: { url: 'https://203.0.113.10/hooks', eventTypes: ['booking.created'], description: 'audited' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const rotated = await t.call('POST', `${s.base}/webhooks/${id}/rotate-secret`, { headers: { 'x-request-id': 'req-rotate-1' } });
    expect(rotated.status).toBe(200);
    const gql = await t.gql(`mutation($c: ID!, $id: ID!) { rotateWebhookSecret(companyID: $c, id: $id) { secret } }`, {
      c: s.companyId,
      id,
    });
    const secrets = [created.body.secret, rotated.body.secret, gql.body.data.rotateWebhookSecret.secret];
    expect((await t.call('DELETE', `${s.base}/webhooks/${id}`, { headers: { 'x-request-id': 'req-delete-1' } })).status).toBe(204);

    const entries = await entriesOf(id);
    expect(entries.map((e) => [e.action, e.recordType])).toEqual([
      ['create', 'webhook_endpoint'],
      ['update', 'webhook_endpoint'],
      ['update', 'webhook_endpoint'],
      ['delete', 'webhook_endpoint'],
    ]);
    const admin = await keyId(t.adminKey);
    expect(entries[1]).toMatchObject({
      actor: { type: 'api_key', id: admin },
      requestID: 'req-rotate-1',
      changes: { secretEnc: { before: '[masked]', after: '[masked]' } },
    });
    expect(Object.keys(entries[1].changes)).toEqual(['secretEnc']);
    expect(entries[3]).toMatchObject({
      actor: { type: 'api_key', id: admin },
      requestID: 'req-delete-1',
      changes: {
        url: { before: 'https://203.0.113.10/hooks' },
        eventTypes: { before: ['booking.created'] },
        description: { before: 'audited' },
        secretEnc: { before: '[masked]' },
      },
    });
    const text = JSON.stringify(entries);
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('leaves no entry for a write that is rolled back', async () => {
    const rid = await s.resource('Versioned');
    const first = await t.call('PATCH', `${s.base}/resources/${rid}`, {
      body: { metaDataUpdate: { expectedVersion: 1, path: 'a', value: 1 } },
    });
    expect(first.status).toBe(200);
    const stale = await t.call('PATCH', `${s.base}/resources/${rid}`, {
      body: { name: 'Never', metaDataUpdate: { expectedVersion: 1, path: 'a', value: 2 } },
    });
    expect(stale.status).toBe(409);
    const entries = await entriesOf(rid);
    expect(entries.map((e) => e.action)).toEqual(['create', 'update']);
    expect(JSON.stringify(entries)).not.toContain('Never');
    // a booking whose time is taken: nothing is written, nothing recorded
    const before = await countRows(t, 'select count(*) as n from audit_entry where company_id = ?', [s.companyId]);
    const sid = await s.service('fixed', { duration: 'PT1H', currency: 'EUR' });
    await s.link(sid, rid);
    await s.hours(rid);
    const after = await countRows(t, 'select count(*) as n from audit_entry where company_id = ?', [s.companyId]);
    expect((await s.book({ serviceID: sid, resourceID: rid, startTime: '2026-03-04T10:00:00Z' })).status).toBe(200);
    expect((await s.book({ serviceID: sid, resourceID: rid, startTime: '2026-03-04T10:30:00Z' })).status).toBe(409);
    expect(await countRows(t, 'select count(*) as n from audit_entry where company_id = ?', [s.companyId])).toBe(after + 1);
    expect(after).toBeGreaterThan(before);
  });

  it('filters by record, actor and time window, pages newest first, and answers 400 for bad filters', async () => {
    const shop = await Shop.open(t, 'Paged');
    const other = await t.keyWith({ [shop.companyId]: ['resources.*'] });
    clock.set('2026-04-01T10:00:00Z');
    const r1 = await shop.resource('One');
    clock.set('2026-04-01T11:00:00Z');
    const r2 = (await t.call('POST', `${shop.base}/resources`, { key: other, body: { name: 'Two', color: '#336699' } })).body.id;
    clock.set('2026-04-01T12:00:00Z');
    await t.call('PATCH', `${shop.base}/resources/${r1}`, { body: { name: 'One!' } });

    const all = await log({}, undefined, shop.companyId);
    expect(all.status).toBe(200);
    const ours = (all.body.items as any[]).filter((e) => e.recordType === 'resource');
    expect(ours.map((e) => [e.recordID, e.action])).toEqual([
      [r1, 'update'],
      [r2, 'create'],
      [r1, 'create'],
    ]);
    const otherId = await keyId(other);
    expect((await log({ actorID: otherId }, undefined, shop.companyId)).body).toMatchObject({ total: 1, items: [{ recordID: r2 }] });
    expect((await log({ recordID: r1 }, undefined, shop.companyId)).body.total).toBe(2);
    const window = await log({ from: '2026-04-01T11:00:00Z', to: '2026-04-01T12:00:00Z' }, undefined, shop.companyId);
    expect(window.body.items.map((e: any) => e.recordID)).toEqual([r2]);
    const page = await log({ recordID: r1, limit: 1, offset: 1 }, undefined, shop.companyId);
    expect(page.body).toMatchObject({ limit: 1, offset: 1, total: 2, items: [{ action: 'create' }] });
    expect((await log({ recordID: r1, limit: 1, offset: 5 }, undefined, shop.companyId)).body).toMatchObject({ total: 2, items: [] });

    for (const bad of [{ from: 'yesterday' }, { limit: 0 }, { offset: -1 }, { from: '2026-04-02T00:00:00Z', to: '2026-04-01T00:00:00Z' }]) {
      const r = await log(bad, undefined, shop.companyId);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid_request');
    }
    clock.set('2026-03-01T00:00:00Z');
  });

  it('needs audit.read, and keeps companies apart', async () => {
    const reader = await t.keyWith({ [s.companyId]: ['audit.read'] });
    const writer = await t.keyWith({ [s.companyId]: ['resources.*', 'bookings.*'] });
    expect((await log({}, reader)).status).toBe(200);
    expect((await log({}, writer)).status).toBe(403);
    const elsewhere = await Shop.open(t, 'Elsewhere');
    const rid = await elsewhere.resource('Theirs');
    expect((await log({ recordID: rid })).body.total).toBe(0);
    expect((await log({ recordID: rid }, undefined, elsewhere.companyId)).body.total).toBe(1);
    expect((await log({}, reader, elsewhere.companyId)).status).toBe(403);
    const stranger = await t.newMerchant();
    expect((await log({}, stranger)).status).toBe(403);
    expect((await t.call('GET', `/v1/companies/00000000-0000-4000-8000-000000000000/audit-log`)).status).toBe(404);
  });

  it('records what background work writes as the system: an expired payment fails its booking', async () => {
    const shop = await Shop.open(t, 'Swept', 'UTC');
    const { sid, rids } = await shop.bookable('fixed', { duration: 'PT1H', currency: 'EUR' });
    await shop.price(sid, 'fixed', 2500);
    expect((await configurePayments(t, shop.companyId)).status).toBe(200);
    const token = await shop.login('payer@example.com', t.adminKey);
    const r = await t.call('POST', '/v1/client/bookings', {
      token,
      body: { companyID: shop.companyId, serviceID: sid, resourceID: rids[0], startTime: '2026-03-05T10:00:00Z' },
    });
    expect(r.body.status).toBe('pending');
    clock.advance(60 * 60_000);
    // the payment module's sweeper, started as the server starts it
    const stops = startModules(
      t.deps,
      modules.filter((m) => m.name === 'payment'),
    );
    try {
      for (let i = 0; i < 100 && (await shop.get(r.body.id)).body.status !== 'failed'; i++) await new Promise((ok) => setTimeout(ok, 100));
    } finally {
      await Promise.all(stops.map((stop) => stop()));
      clock.set('2026-03-01T00:00:00Z');
    }
    const entries = (await log({ recordID: r.body.id }, undefined, shop.companyId)).body.items as any[];
    expect(entries[0]).toMatchObject({
      actor: { type: 'system', id: 'payment' },
      action: 'status',
      requestID: null,
      changes: { status: { before: 'pending', after: 'failed' } },
    });
    expect(entries[1]).toMatchObject({ actor: { type: 'client' }, action: 'create' });
    // the transaction itself is an ORM write of the same sweep
    const all = (await log({}, undefined, shop.companyId)).body.items as any[];
    const tx = all.find((e) => e.recordType === 'payment_transaction' && e.action === 'status');
    expect(tx).toMatchObject({ actor: { type: 'system', id: 'payment' }, changes: { status: { before: 'pending' } } });
  }, 30_000);

  it('records the promo code usage and count a booking writes with SQL, in the booking request', async () => {
    const shop = await Shop.open(t, 'Promo', 'UTC');
    const { sid, rids } = await shop.bookable('fixed', { duration: 'PT1H', currency: 'EUR' });
    await shop.price(sid, 'fixed', 2500);
    const promo = await t.call('POST', `${shop.base}/plugins/promocodes/codes`, {
      body: { code: 'SPRING', discountType: 'amount', discountAmount: 500 },
    });
    expect(promo.status).toBe(201);
    const token = await shop.login('promo@example.com', t.adminKey);
    const r = await t.call('POST', '/v1/client/bookings', {
      token,
      headers: { 'x-request-id': 'req-promo-1' },
      body: { companyID: shop.companyId, serviceID: sid, resourceID: rids[0], startTime: '2026-03-06T10:00:00Z', code: 'SPRING' },
    });
    if (r.status !== 200 || r.body.price !== 2000) throw new Error(`booking with a code: ${r.status} ${r.text}`);
    expect(r.status).toBe(200);
    const entries = (await log({ recordID: promo.body.id }, undefined, shop.companyId)).body.items as any[];
    expect(entries.map((e) => e.action)).toEqual(['update', 'create']);
    expect(entries[0]).toMatchObject({ requestID: 'req-promo-1', changes: { currentUsageCount: { before: 0, after: 1 } } });
    const all = (await log({}, undefined, shop.companyId)).body.items as any[];
    const usage = all.find((e) => e.recordType === 'promo_usage' && e.action === 'create');
    expect(usage).toMatchObject({
      action: 'create',
      requestID: 'req-promo-1',
      changes: { promoCodeId: { after: promo.body.id }, status: { after: 'reserved' } },
    });
    // the booking is confirmed at once, so the usage moves to used in the same request
    const moved = all.find((e) => e.recordType === 'promo_usage' && e.action === 'status');
    expect(moved).toMatchObject({
      recordID: usage.recordID,
      requestID: 'req-promo-1',
      changes: { status: { before: 'reserved', after: 'used' } },
    });
  });

  it('answers the same entries over GraphQL', async () => {
    const rid = await s.resource('Graph');
    const r = await t.gql(
      `query($c: ID!, $r: String) { auditLog(companyID: $c, recordID: $r) { total limit offset entries {
         id action recordType recordID requestID createdAt actor { type id name } changes { field before after } } } }`,
      { c: s.companyId, r: rid },
    );
    expect(r.body.errors).toBeUndefined();
    const page = r.body.data.auditLog;
    expect(page).toMatchObject({ total: 1, limit: 100, offset: 0 });
    expect(page.entries[0]).toMatchObject({ action: 'create', recordType: 'resource', recordID: rid, actor: { type: 'api_key' } });
    expect(page.entries[0].changes).toContainEqual({ field: 'name', before: null, after: 'Graph' });
    const rest = (await log({ recordID: rid })).body.items[0];
    expect(page.entries[0].id).toBe(rest.id);

    // a GraphQL write is recorded too
    const created = await t.gql(`mutation($c: ID!) { createCompanyCalendarFeed(companyID: $c) { url } }`, { c: s.companyId });
    expect(created.body.errors).toBeUndefined();
    const feed = ((await log()).body.items as any[]).find((e) => e.recordType === 'calendar_feed');
    expect(feed).toMatchObject({ action: 'create', changes: { tokenHash: { after: '[masked]' } } });
  });

  it('pages the log by cursor, newest first, forward and backward, as REST lists it', async () => {
    const rid = await s.resource('Paged');
    for (let i = 0; i < 4; i++)
      expect((await t.call('PATCH', `${s.base}/resources/${rid}`, { body: { name: `Paged ${i}` } })).status).toBe(200);
    const rest = ((await log({ recordID: rid })).body.items as { id: string }[]).map((e) => e.id);
    expect(rest).toHaveLength(5);
    const q = `query($c: ID!, $r: String, $first: Int, $after: String, $last: Int, $before: String) {
      auditLog(companyID: $c, recordID: $r, first: $first, after: $after, last: $last, before: $before) {
        totalCount nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
    const page = async (vars: Record<string, unknown>) => {
      const r = await t.gql(q, { c: s.companyId, r: rid, ...vars });
      expect(r.body.errors).toBeUndefined();
      return r.body.data.auditLog;
    };
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const p = await page({ first: 2, after });
      seen.push(...p.nodes.map((n: { id: string }) => n.id));
      expect(p.totalCount).toBe(5);
      if (!p.pageInfo.hasNextPage) break;
      after = p.pageInfo.endCursor;
    }
    expect(seen).toEqual(rest);
    const last = await page({ last: 2 });
    expect(last.nodes.map((n: { id: string }) => n.id)).toEqual(rest.slice(3));
    const before = await page({ last: 2, before: last.pageInfo.startCursor });
    expect(before.nodes.map((n: { id: string }) => n.id)).toEqual(rest.slice(1, 3));
    expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
  });
});
