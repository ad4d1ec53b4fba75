import { newId } from '../../src/shared/ids';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { complete, configurePayments, startTestPayment } from '../helpers/payments-fixtures';

const clock = new TestClock(Date.parse('2026-06-01T08:00:00Z'));
let t: TestApp;
let cid: string;
const tx: Record<string, string> = {};
const items = { a: newId(), b: newId(), c: newId(), d: newId() };
let clientToken: string;
let otherToken: string;
let clientId: string;

async function login(companyId: string, email: string): Promise<{ token: string; id: string }> {
  const r = await t.call('POST', '/v1/client/auth/login', { body: { companyID: companyId, email, externalUserID: email } });
  expect(r.status).toBe(200);
  const me = await t.call('GET', '/v1/client/profile', { token: r.body.accessToken });
  return { token: r.body.accessToken, id: me.body.id };
}

beforeAll(async () => {
  t = await createTestApp({ clock });
  cid = (await t.company('List Co')).id;
  await configurePayments(t, cid);
  clientId = (await login(cid, 'ann@example.com')).id;
  const other = await login(cid, 'bob@example.com');

  // 08:00 paid (client Ann), 09:00 failed (plugin giftcards), 10:00 pending batch of c and d (Bob), 11:00 cancelled
  tx.paid = (await startTestPayment(t, cid, { itemIDs: [items.a], amount: 1000, clientId }))!.transactionId;
  await complete(t, tx.paid, 'success');
  clock.set('2026-06-01T09:00:00Z');
  tx.failed = (await startTestPayment(t, cid, { itemIDs: [items.b], amount: 2000, pluginNamespace: 'giftcards' }))!.transactionId;
  await complete(t, tx.failed, 'failure');
  clock.set('2026-06-01T10:00:00Z');
  tx.batch = (await startTestPayment(t, cid, {
    itemIDs: [items.c, items.d],
    perItemAmounts: { [items.c]: 100, [items.d]: 200 },
    amount: 300,
    clientId: other.id,
  }))!.transactionId;
  clock.set('2026-06-01T11:00:00Z');
  tx.cancelled = (await startTestPayment(t, cid, { amount: 400 }))!.transactionId;
  await complete(t, tx.cancelled, 'cancel');
  // Another company's transaction must never show up.
  const elsewhere = (await t.company('Elsewhere')).id;
  await configurePayments(t, elsewhere);
  await startTestPayment(t, elsewhere, { itemIDs: [items.a], amount: 50 });
  // Access tokens live 15 minutes of the moved clock: log in again now.
  clientToken = (await login(cid, 'ann@example.com')).token;
  otherToken = (await login(cid, 'bob@example.com')).token;
});
afterAll(async () => t?.close());

const list = (query: Record<string, string> = {}, key?: string) =>
  t.call('GET', `/v1/companies/${cid}/payments`, { query, ...(key ? { key } : {}) });
const ids = (r: { body: { transactions: { id: string }[] } }) => r.body.transactions.map((x) => x.id);

describe('company payments list', () => {
  it('lists newest first with the specification fields', async () => {
    const r = await list();
    expect(r.status).toBe(200);
    expect(ids(r)).toEqual([tx.cancelled, tx.batch, tx.failed, tx.paid]);
    expect(r.body).toMatchObject({ limit: 100, offset: 0, total: 4 });
    const batch = r.body.transactions[1];
    expect(batch).toMatchObject({
      id: tx.batch,
      companyID: cid,
      amount: 300,
      currency: 'EUR',
      email: 'payer@example.com',
      itemID: items.c,
      itemIDs: [items.c, items.d],
      itemType: 'booking',
      perItemAmounts: { [items.c]: 100, [items.d]: 200 },
      pluginNamespace: null,
      providerType: 'test',
      purchaseID: null,
      referenceID: null,
      status: 'pending',
      taxInclusive: true,
      taxRate: 21,
      createdAt: '2026-06-01T10:00:00Z',
      expiresAt: '2026-06-01T10:15:00Z',
    });
    expect(batch.userID).toEqual(expect.any(String));
  });

  it.each([
    ['from (inclusive)', { from: '2026-06-01T09:00:00Z' }, ['cancelled', 'batch', 'failed']],
    ['to (exclusive)', { to: '2026-06-01T10:00:00+00:00' }, ['failed', 'paid']],
    ['from and to', { from: '2026-06-01T09:00:00Z', to: '2026-06-01T11:00:00Z' }, ['batch', 'failed']],
    ['statuses', { statuses: 'paid,cancelled' }, ['cancelled', 'paid']],
    ['pluginNamespaces', { pluginNamespaces: 'giftcards' }, ['failed']],
    ['providerTypes', { providerTypes: 'test' }, ['cancelled', 'batch', 'failed', 'paid']],
    ['providerTypes without a match', { providerTypes: 'stripe,klix' }, []],
  ])('filters by %s', async (_name, query, expected) => {
    const r = await list(query as Record<string, string>);
    expect(r.status).toBe(200);
    expect(ids(r)).toEqual(expected.map((k) => tx[k]));
    expect(r.body.total).toBe(expected.length);
  });

  it('filters by ids and by itemIDs (a batch matches any of its items)', async () => {
    expect(ids(await list({ ids: `${tx.paid},${tx.cancelled}` }))).toEqual([tx.cancelled, tx.paid]);
    expect(ids(await list({ itemIDs: items.d }))).toEqual([tx.batch]);
    expect(ids(await list({ itemIDs: `${items.a},${items.b}` }))).toEqual([tx.failed, tx.paid]);
  });

  it('pages with limit and offset and reports the total', async () => {
    const r = await list({ limit: '2', offset: '1' });
    expect(ids(r)).toEqual([tx.batch, tx.failed]);
    expect(r.body).toMatchObject({ limit: 2, offset: 1, total: 4 });
  });

  it.each([
    [{ limit: '101' }],
    [{ limit: '0' }],
    [{ offset: '-1' }],
    [{ limit: 'x' }],
    [{ from: '2026-06-01T09:00:00' }],
    [{ statuses: 'paid,done' }],
    [{ ids: 'nope' }],
    [{ itemIDs: `${newId()},x` }],
    [{ providerTypes: 'paypal' }],
    [{ from: '2026-06-02T00:00:00Z', to: '2026-06-01T00:00:00Z' }],
  ])('refuses %j with 400', async (query) => {
    const r = await list(query as Record<string, string>);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
  });

  it('answers the same over GraphQL', async () => {
    const q =
      'query($c: ID!, $f: PaymentFilterInput) { payments(companyID: $c, filter: $f, limit: 2) { transactions { id status itemIDs createdAt } limit offset total } }';
    const g = await t.gql(q, { c: cid, f: { statuses: ['pending', 'failed'], from: '2026-06-01T08:30:00Z' } });
    expect(g.body.data.payments).toMatchObject({ limit: 2, offset: 0, total: 2 });
    expect(g.body.data.payments.transactions.map((x: { id: string }) => x.id)).toEqual([tx.batch, tx.failed]);
    const bad = await t.gql(q, { c: cid, f: { statuses: ['unknown'] } });
    expect(bad.body.errors[0].extensions.code).toBe('invalid_request');
    // by cursor, newest first: one page then the next, and the filter is part of the cursor's list
    const c = `query($c: ID!, $f: PaymentFilterInput, $a: String) { payments(companyID: $c, filter: $f, first: 1, after: $a) {
      totalCount nodes { id } pageInfo { hasNextPage hasPreviousPage endCursor } } }`;
    const f = { statuses: ['pending', 'failed'], from: '2026-06-01T08:30:00Z' };
    const p1 = (await t.gql(c, { c: cid, f })).body.data.payments;
    expect(p1).toMatchObject({ totalCount: 2, nodes: [{ id: tx.batch }], pageInfo: { hasNextPage: true, hasPreviousPage: false } });
    const p2 = (await t.gql(c, { c: cid, f, a: p1.pageInfo.endCursor })).body.data.payments;
    expect(p2).toMatchObject({ nodes: [{ id: tx.failed }], pageInfo: { hasNextPage: false, hasPreviousPage: true } });
    const other = await t.gql(c, { c: cid, f: { statuses: ['pending'] }, a: p1.pageInfo.endCursor });
    expect(other.body.errors[0].extensions.details[0].message).toBe('invalid_cursor');
  });

  it('needs payments.read on the company; other merchants get 403', async () => {
    expect((await list({}, await t.keyWith({ [cid]: ['payments.read'] }))).status).toBe(200);
    expect((await list({}, await t.keyWith({ [cid]: ['bookings.read'] }))).status).toBe(403);
    expect((await list({}, await t.newMerchant())).status).toBe(403);
    expect((await t.call('GET', `/v1/companies/${cid}/payments`, { key: null })).status).toBe(401);
  });
});

describe('client payments', () => {
  it("lists only the calling client's transactions", async () => {
    const r = await t.call('GET', '/v1/client/payments', { token: clientToken });
    expect(r.status).toBe(200);
    expect(ids(r)).toEqual([tx.paid]);
    expect(r.body).toMatchObject({ limit: 100, offset: 0, total: 1 });
    expect(r.body.transactions[0]).toMatchObject({ status: 'paid', userID: clientId });
    expect(ids(await t.call('GET', '/v1/client/payments', { token: otherToken }))).toEqual([tx.batch]);
  });

  it("answers one of the client's transactions and 404 for anyone else's", async () => {
    const own = await t.call('GET', `/v1/client/payments/${tx.paid}`, { token: clientToken });
    expect(own.status).toBe(200);
    expect(own.body.id).toBe(tx.paid);
    expect((await t.call('GET', `/v1/client/payments/${tx.batch}`, { token: clientToken })).status).toBe(404);
    expect((await t.call('GET', `/v1/client/payments/${tx.failed}`, { token: clientToken })).status).toBe(404);
    expect((await t.call('GET', `/v1/client/payments/${newId()}`, { token: clientToken })).status).toBe(404);
    expect((await t.call('GET', '/v1/client/payments/nope', { token: clientToken })).status).toBe(400);
  });

  it('needs a client token', async () => {
    expect((await t.call('GET', '/v1/client/payments', { key: null })).status).toBe(401);
    expect((await t.call('GET', '/v1/client/payments')).status).toBe(401);
    expect((await t.call('GET', '/v1/client/payments', { key: null, token: 'forged' })).status).toBe(401);
  });

  it('answers the same over GraphQL', async () => {
    const g = await t.gql('{ clientPayments(first: 10) { nodes { id } totalCount } }', {}, { token: clientToken });
    expect(g.body.data.clientPayments).toEqual({ nodes: [{ id: tx.paid }], totalCount: 1 });
    const one = await t.gql('query($id: ID!) { clientPayment(id: $id) { id status } }', { id: tx.batch }, { token: clientToken });
    expect(one.body.errors[0].extensions.code).toBe('not_found');
  });
});
