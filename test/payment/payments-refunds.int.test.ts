import { newId } from '../../src/shared/ids';
import { createTestApp, type TestApp } from '../helpers/app';
import { complete, configurePayments, startTestPayment } from '../helpers/payments-fixtures';

let t: TestApp;
let cid: string;

beforeAll(async () => {
  t = await createTestApp();
  cid = (await t.company('Refund Co')).id;
  expect((await configurePayments(t, cid)).status).toBe(200);
});
afterAll(async () => t?.close());

/** A paid transaction over the given items (item id -> amount). */
async function paid(amounts: Record<string, number>, company = cid): Promise<string> {
  const itemIDs = Object.keys(amounts);
  const total = Object.values(amounts).reduce((a, b) => a + b, 0);
  const started = await startTestPayment(t, company, { itemIDs, perItemAmounts: amounts, amount: total });
  expect((await complete(t, started!.transactionId, 'success')).status).toBe(200);
  return started!.transactionId;
}

const refundUrl = (tx: string, c = cid) => `/v1/companies/${c}/payments/${tx}/refunds`;
const refund = (tx: string, body: object, key?: string) =>
  t.call('POST', refundUrl(tx), { body, headers: key ? { 'idempotency-key': key } : {} });
const status = async (tx: string) =>
  (await t.call('GET', `/v1/companies/${cid}/payments`, { query: { ids: tx } })).body.transactions[0].status;

describe('refund arithmetic', () => {
  it('refunds floor(paid * percent / 100) of one item and tracks the transaction status', async () => {
    const [a, b] = [newId(), newId()];
    const tx = await paid({ [a]: 999, [b]: 1001 });
    const first = await refund(tx, { itemID: a, percent: 33, reason: 'late' });
    expect(first.status).toBe(201);
    // 999 * 33 / 100 = 329.67, rounded down.
    expect(first.body).toMatchObject({
      transactionID: tx,
      itemID: a,
      amount: 329,
      currency: 'EUR',
      reason: 'late',
      status: 'succeeded',
      idempotencyKey: null,
      metadata: {},
    });
    expect(first.body.ID).toEqual(expect.any(String));
    expect(first.body.providerRefundID).toMatch(/^test_re_/);
    expect(await status(tx)).toBe('partially_refunded');

    // The rest of item a by amount; 1 % more would exceed what was paid for it.
    expect((await refund(tx, { itemID: a, amount: 670 })).body.amount).toBe(670);
    const over = await refund(tx, { itemID: a, percent: 1 });
    expect(over.status).toBe(409);
    expect(over.body.message).toContain('999 of 999 is already refunded');
    expect(await status(tx)).toBe('partially_refunded');

    expect((await refund(tx, { itemID: b, percent: 100 })).body.amount).toBe(1001);
    expect(await status(tx)).toBe('refunded');
    expect((await refund(tx, { itemID: b, amount: 1 })).status).toBe(409);
  });

  it('answers the latest refund of an item by its id', async () => {
    const a = newId();
    const tx = await paid({ [a]: 1000 });
    await refund(tx, { itemID: a, percent: 10 });
    const latest = await refund(tx, { itemID: a, percent: 25, metadata: { ticket: 'T-1' } });
    const got = await t.call('GET', `/v1/refunds/${a}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(latest.body);
    expect(got.body).toMatchObject({ amount: 250, metadata: { ticket: 'T-1' } });
    const g = await t.gql('query($i: ID!) { refund(itemID: $i) { ID itemID amount status } }', { i: a });
    expect(g.body.data.refund).toEqual({ ID: latest.body.ID, itemID: a, amount: 250, status: 'succeeded' });
  });

  it.each([
    ['a percent of 0', { percent: 0 }],
    ['a percent above 100', { percent: 101 }],
    ['a fractional percent', { percent: 12.5 }],
    ['neither percent nor amount', {}],
    ['both percent and amount', { percent: 10, amount: 10 }],
    ['an amount of 0', { amount: 0 }],
  ])('refuses %s with 400', async (_name, body) => {
    const a = newId();
    const tx = await paid({ [a]: 1000 });
    const r = await refund(tx, { itemID: a, ...body });
    expect(r.status).toBe(400);
    expect(await status(tx)).toBe('paid');
  });

  it('refuses a percent that rounds down to nothing', async () => {
    const a = newId();
    const tx = await paid({ [a]: 1 });
    const r = await refund(tx, { itemID: a, percent: 50 });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('rounds down to nothing');
  });

  it('refuses a payment that is not paid (409), an unknown transaction or item (404)', async () => {
    const a = newId();
    const pending = await startTestPayment(t, cid, { itemIDs: [a], amount: 500 });
    expect((await refund(pending!.transactionId, { itemID: a, percent: 50 })).status).toBe(409);
    expect((await refund(newId(), { itemID: a, percent: 50 })).status).toBe(404);
    const tx = await paid({ [a]: 500 });
    expect((await refund(tx, { itemID: newId(), percent: 50 })).status).toBe(404);
    expect((await refund('nope', { itemID: a, percent: 50 })).status).toBe(400);
    expect((await refund(tx, { itemID: 'nope', percent: 50 })).status).toBe(400);
  });
});

describe('idempotency', () => {
  it('answers a repeated key with the refund it created, once', async () => {
    const a = newId();
    const tx = await paid({ [a]: 1000 });
    const key = `refund-${newId()}`;
    const first = await refund(tx, { itemID: a, percent: 40 }, key);
    const again = await refund(tx, { itemID: a, percent: 40 }, key);
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(first.body.idempotencyKey).toBe(key);
    const other = await refund(tx, { itemID: a, percent: 41 }, key);
    expect(other.status).toBe(409);
    expect(other.body.message).toContain('idempotency key');
    const rows = await t.deps.orm.em.fork().getConnection().execute('select amount from refund where transaction_id = ?', [tx]);
    expect(rows).toEqual([{ amount: 400 }]);
  });
});

describe('concurrent refunds (parallel HTTP)', () => {
  let base: string;
  beforeAll(async () => {
    base = await t.listen();
  });

  const post = (tx: string, body: object, key?: string) =>
    fetch(`${base}${refundUrl(tx)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': t.adminKey, ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  it('never refunds an item twice: of ten 60 % refunds exactly one succeeds', async () => {
    const a = newId();
    const tx = await paid({ [a]: 1000 });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => post(tx, { itemID: a, percent: 60 }, `k-${i}-${newId()}`)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    const [{ total }] = await t.deps.orm.em
      .fork()
      .getConnection()
      .execute('select sum(amount)::int as total from refund where transaction_id = ?', [tx]);
    expect(total).toBe(600);
    expect(await status(tx)).toBe('partially_refunded');
  });

  it('creates one refund for ten parallel requests with the same key', async () => {
    const a = newId();
    const tx = await paid({ [a]: 1000 });
    const key = `same-${newId()}`;
    const results = await Promise.all(Array.from({ length: 10 }, () => post(tx, { itemID: a, percent: 50 }, key)));
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(new Set(results.map((r) => r.body.ID)).size).toBe(1);
    const rows = await t.deps.orm.em.fork().getConnection().execute('select amount from refund where transaction_id = ?', [tx]);
    expect(rows).toEqual([{ amount: 500 }]);
  });

  it('splits a payment exactly: four parallel 25 % refunds all succeed and a fifth is refused', async () => {
    const a = newId();
    const tx = await paid({ [a]: 1000 });
    const results = await Promise.all(Array.from({ length: 5 }, () => post(tx, { itemID: a, percent: 25 })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(4);
    expect(results.filter((r) => r.status === 409)).toHaveLength(1);
    expect(await status(tx)).toBe('refunded');
  });
});

describe('access', () => {
  it('needs payments.write to refund and payments.read to look one up', async () => {
    const a = newId();
    const tx = await paid({ [a]: 1000 });
    const reader = await t.keyWith({ [cid]: ['payments.read'] });
    expect((await t.call('POST', refundUrl(tx), { key: reader, body: { itemID: a, percent: 10 } })).status).toBe(403);
    await refund(tx, { itemID: a, percent: 10 });
    expect((await t.call('GET', `/v1/refunds/${a}`, { key: reader })).status).toBe(200);
    expect((await t.call('GET', `/v1/refunds/${a}`, { key: await t.keyWith({ [cid]: ['bookings.read'] }) })).status).toBe(403);
    expect((await t.call('GET', `/v1/refunds/${a}`, { key: null })).status).toBe(401);
  });

  it('keeps other merchants and companies out', async () => {
    const a = newId();
    const tx = await paid({ [a]: 1000 });
    await refund(tx, { itemID: a, percent: 10 });
    const stranger = await t.newMerchant();
    expect((await t.call('GET', `/v1/refunds/${a}`, { key: stranger })).status).toBe(404);
    expect((await t.call('POST', refundUrl(tx), { key: stranger, body: { itemID: a, percent: 10 } })).status).toBe(403);
    // The transaction id of one company is unknown in another.
    const other = (await t.company('Other')).id;
    expect((await t.call('POST', refundUrl(tx, other), { body: { itemID: a, percent: 10 } })).status).toBe(404);
    expect((await t.call('GET', `/v1/refunds/${newId()}`)).status).toBe(404);
    expect((await t.call('GET', '/v1/refunds/nope')).status).toBe(400);
  });

  it('offers createRefund over GraphQL', async () => {
    const a = newId();
    const tx = await paid({ [a]: 800 });
    const m =
      'mutation($c: ID!, $t: ID!, $i: ID!, $k: String) { createRefund(companyID: $c, transactionID: $t, input: {itemID: $i, percent: 50, reason: "gql"}, idempotencyKey: $k) { ID amount reason status } }';
    const g = await t.gql(m, { c: cid, t: tx, i: a, k: 'g-1' });
    expect(g.body.data.createRefund).toMatchObject({ amount: 400, reason: 'gql', status: 'succeeded' });
    expect((await t.gql(m, { c: cid, t: tx, i: a, k: 'g-1' })).body.data.createRefund.ID).toBe(g.body.data.createRefund.ID);
  });
});
