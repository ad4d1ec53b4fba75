import { randomUUID } from 'node:crypto';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Subscription } from '../../src/modules/subscription/subscription.entity';

const T0 = Date.parse('2026-04-01T08:00:00Z');
const clock = new TestClock(T0);
let t: TestApp;
let companyId: string;
let other: string;
beforeAll(async () => {
  t = await createTestApp({ clock });
  companyId = (await t.company('Ledger gym')).id;
  other = (await t.company('Other gym')).id;
});
beforeEach(() => clock.set(T0));
afterAll(async () => t?.close());

const sql = async <T = any>(text: string, params: unknown[] = []): Promise<T[]> =>
  (await t.deps.orm.em.fork().getConnection().execute(text, params)) as T[];

describe('subscription data model', () => {
  let subscriptionId: string;
  let contractId: string;
  let visitId: string;
  beforeAll(async () => {
    subscriptionId = randomUUID();
    const serviceId = randomUUID();
    await sql(`insert into subscription (id, company_id, title, service_ids) values (?, ?, 'Gym', ?::uuid[])`, [
      subscriptionId,
      companyId,
      `{${serviceId}}`,
    ]);
    contractId = randomUUID();
    await sql(`insert into subscription_contract (id, company_id, subscription_id, code, status) values (?, ?, ?, ?, 'active')`, [
      contractId,
      companyId,
      subscriptionId,
      `C-${contractId}`,
    ]);
    visitId = randomUUID();
    await sql(
      `insert into subscription_visit (id, company_id, contract_id, subscription_id, amount, transaction_type) values (?, ?, ?, ?, 3, 'ALLOCATION')`,
      [visitId, companyId, contractId, subscriptionId],
    );
  });

  it('reads uuid lists back as arrays through the entities', async () => {
    const em = t.deps.orm.em.fork();
    const s = await em.findOneOrFail(Subscription, { id: subscriptionId, companyId });
    expect(s.serviceIds).toHaveLength(1);
    expect(s.resourceIds).toEqual([]);
    expect(s.rollOverSettings).toEqual({ rollOverType: 'none', settings: {} });
  });

  it('refuses to update or delete a ledger entry', async () => {
    await expect(sql(`update subscription_visit set amount = 30 where id = ?`, [visitId])).rejects.toThrow(/append-only/);
    await expect(sql(`delete from subscription_visit where id = ?`, [visitId])).rejects.toThrow(/append-only/);
    expect((await sql(`select amount from subscription_visit where id = ?`, [visitId]))[0].amount).toBe(3);
  });

  it('refuses an unknown transaction type and a zero amount', async () => {
    const insert = (amount: number, type: string) =>
      sql(
        `insert into subscription_visit (id, company_id, contract_id, subscription_id, amount, transaction_type) values (?, ?, ?, ?, ?, ?)`,
        [randomUUID(), companyId, contractId, subscriptionId, amount, type],
      );
    await expect(insert(1, 'GIFT')).rejects.toThrow(/check/);
    await expect(insert(0, 'ADJUSTMENT')).rejects.toThrow(/check/);
  });
});

const base = (cid = companyId) => `/v1/companies/${cid}/plugins/subscription`;
async function contractWith(visits: number, body: Record<string, unknown> = {}): Promise<any> {
  const s = await t.call('POST', `${base()}/list`, {
    body: { title: 'Ten visits', duration: 'P1M', limitations: { bookingsCount: visits } },
  });
  expect(s.status).toBe(201);
  const k = await t.call('POST', `${base()}/list/${s.body.id}/contracts`, { body });
  expect(k.status).toBe(201);
  return k.body;
}
const ledger = async (id: string) => (await t.call('GET', `${base()}/contracts/${id}/visits-ledger`)).body;
const add = (id: string, body: Record<string, unknown>, cid = companyId) =>
  t.call('POST', `${base(cid)}/contracts/${id}/visits-ledger`, { body });
const total = (entries: { amount: number }[]) => entries.reduce((n, e) => n + e.amount, 0);
let listening: Promise<string> | undefined;
/** The server on a port, for requests that really run in parallel (it listens once). */
const serverUrl = () => (listening ??= t.listen());

describe('visit ledger over HTTP', () => {
  it('balances allocation and adjustments, and never goes below zero', async () => {
    const k = await contractWith(10);
    const [alloc] = await ledger(k.id);
    expect(alloc).toMatchObject({ amount: 10, transactionType: 'ALLOCATION', subscriptionItemID: k.id, subscriptionID: k.subscriptionID });
    clock.advance(1000);
    const minus = await add(k.id, { amount: -4, transactionType: 'ADJUSTMENT', reason: 'manual check-ins', sourceAllocationID: alloc.id });
    expect(minus.status).toBe(201);
    expect(minus.body).toMatchObject({
      amount: -4,
      transactionType: 'ADJUSTMENT',
      reason: 'manual check-ins',
      sourceAllocationID: alloc.id,
    });
    clock.advance(1000);
    const plus = await add(k.id, {
      amount: 2,
      transactionType: 'ALLOCATION',
      expiresAt: '2026-05-01T08:00:00Z',
      metaData: { why: 'bonus' },
    });
    expect(plus.body).toMatchObject({ amount: 2, expiresAt: '2026-05-01T08:00:00Z', metaData: { why: 'bonus' } });
    expect(total(await ledger(k.id))).toBe(8);
    const tooMuch = await add(k.id, { amount: -9, transactionType: 'ADJUSTMENT' });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.code).toBe('insufficient_balance');
    expect(await ledger(k.id)).toHaveLength(3);
    expect((await add(k.id, { amount: -8, transactionType: 'ADJUSTMENT' })).status).toBe(201);
    expect(total(await ledger(k.id))).toBe(0);
    expect((await ledger(k.id)).map((e: { amount: number }) => e.amount)).toEqual([10, -4, 2, -8]);
  });

  it.each([
    [{ amount: 1 }, 'transactionType'],
    [{ amount: 1, transactionType: 'BONUS' }, 'transactionType'],
    [{ amount: 1, transactionType: 'USAGE' }, 'amount'],
    [{ amount: 1, transactionType: 'EXPIRATION' }, 'amount'],
    [{ amount: -1, transactionType: 'REVERSAL' }, 'amount'],
    [{ amount: -1, transactionType: 'ROLLOVER' }, 'amount'],
    [{ transactionType: 'ADJUSTMENT' }, 'amount'],
    [{ amount: 0, transactionType: 'ADJUSTMENT' }, 'amount'],
    [{ amount: 1.5, transactionType: 'ADJUSTMENT' }, 'amount'],
    [{ amount: -1, transactionType: 'ALLOCATION' }, 'amount'],
    [{ amount: 1, transactionType: 'ADJUSTMENT', expiresAt: 'later' }, 'expiresAt'],
    [{ amount: 1, transactionType: 'ADJUSTMENT', sourceAllocationID: 'x' }, 'sourceAllocationID'],
    [{ amount: 1, transactionType: 'ADJUSTMENT', metaData: 'x' }, 'metaData'],
  ])('refuses %j naming %s', async (body, path) => {
    const k = await contractWith(1);
    const r = await add(k.id, body);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain(path);
    expect(await ledger(k.id)).toHaveLength(1);
  });

  it('takes every transaction type from a merchant, signed as its type says, stored as sent', async () => {
    const k = await contractWith(5);
    const entries: [string, number][] = [
      ['USAGE', -1],
      ['EXPIRATION', -1],
      ['REVERSAL', 1],
      ['ROLLOVER', 2],
      ['ADJUSTMENT', -3],
      ['ALLOCATION', 1],
    ];
    for (const [transactionType, amount] of entries) {
      clock.advance(1000);
      const r = await add(k.id, { amount, transactionType, reason: 'walk-in visit recorded by hand' });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ amount, transactionType, reason: 'walk-in visit recorded by hand', usageID: null });
    }
    const book = await ledger(k.id);
    expect(book.map((e: { transactionType: string; amount: number }) => [e.transactionType, e.amount])).toEqual([
      ['ALLOCATION', 5],
      ...entries,
    ]);
    expect(total(book)).toBe(4);
    // a USAGE or an EXPIRATION never takes more than is left
    for (const transactionType of ['USAGE', 'EXPIRATION']) {
      const r = await add(k.id, { amount: -5, transactionType });
      expect([r.status, r.body.code]).toEqual([409, 'insufficient_balance']);
    }
    expect(await ledger(k.id)).toHaveLength(book.length);
    const gql = await t.gql(
      `mutation($c: ID!, $k: ID!) { addSubscriptionVisitTransaction(companyID: $c, contractID: $k, input: {amount: -4, transactionType: USAGE}) { amount transactionType } }`,
      { c: companyId, k: k.id },
    );
    expect(gql.body.data.addSubscriptionVisitTransaction).toEqual({ amount: -4, transactionType: 'USAGE' });
    expect(total(await ledger(k.id))).toBe(0);
  });

  it('takes exactly the balance when parallel USAGE and EXPIRATION entries race for 4 visits', async () => {
    const k = await contractWith(4);
    const url = await serverUrl();
    const key = t.adminKey;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        fetch(`${url}${base()}/contracts/${k.id}/visits-ledger`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body: JSON.stringify({ amount: -1, transactionType: i % 2 ? 'USAGE' : 'EXPIRATION' }),
        }).then(async (r) => [r.status, ((await r.json()) as { code?: string }).code] as const),
      ),
    );
    expect(answers.filter(([s]) => s === 201)).toHaveLength(4);
    expect(answers.filter(([s, code]) => s === 409 && code === 'insufficient_balance')).toHaveLength(8);
    const book = await ledger(k.id);
    expect(total(book)).toBe(0);
    // every prefix of the ledger stays at or above zero
    let running = 0;
    for (const e of book) expect((running += e.amount)).toBeGreaterThanOrEqual(0);
  });

  it('refuses an allocation of another contract as source, and entries on ended contracts', async () => {
    const a = await contractWith(2);
    const b = await contractWith(2);
    const [allocB] = await ledger(b.id);
    const r = await add(a.id, { amount: 1, transactionType: 'ADJUSTMENT', sourceAllocationID: allocB.id });
    expect(r.status).toBe(400);
    expect(r.body.details[0].path).toBe('sourceAllocationID');
    expect((await t.call('PATCH', `${base()}/contracts/${a.id}`, { body: { status: 'cancelled' } })).status).toBe(200);
    expect((await add(a.id, { amount: 1, transactionType: 'ALLOCATION' })).status).toBe(409);
    // past its end the contract stands expired
    clock.set(Date.parse('2026-06-01T00:00:00Z'));
    expect((await add(b.id, { amount: 1, transactionType: 'ALLOCATION' })).status).toBe(409);
  });

  it('keeps another company out of the ledger', async () => {
    const k = await contractWith(3);
    expect((await t.call('GET', `${base(other)}/contracts/${k.id}/visits-ledger`)).status).toBe(404);
    expect((await add(k.id, { amount: 1, transactionType: 'ALLOCATION' }, other)).status).toBe(404);
    expect(await ledger(k.id)).toHaveLength(1);
  });

  it('takes exactly the balance when 10 adjustments of -1 race for 3 visits', async () => {
    const k = await contractWith(3);
    const url = await serverUrl();
    const key = t.adminKey;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        fetch(`${url}${base()}/contracts/${k.id}/visits-ledger`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body: JSON.stringify({ amount: -1, transactionType: 'ADJUSTMENT' }),
        }).then((r) => r.status),
      ),
    );
    expect(answers.filter((s) => s === 201)).toHaveLength(3);
    expect(answers.filter((s) => s === 409)).toHaveLength(7);
    expect(total(await ledger(k.id))).toBe(0);
  });

  it('pages the ledger over GraphQL', async () => {
    const k = await contractWith(5);
    await add(k.id, { amount: -1, transactionType: 'ADJUSTMENT' });
    const r = await t.gql(
      `query($c: ID!, $k: ID!) { subscriptionVisitTransactions(companyID: $c, contractID: $k, limit: 1, offset: 1) { total limit offset visitTransactions { amount transactionType } } }`,
      { c: companyId, k: k.id },
    );
    expect(r.body.data.subscriptionVisitTransactions).toEqual({
      total: 2,
      limit: 1,
      offset: 1,
      visitTransactions: [{ amount: -1, transactionType: 'ADJUSTMENT' }],
    });
    const added = await t.gql(
      `mutation($c: ID!, $k: ID!) { addSubscriptionVisitTransaction(companyID: $c, contractID: $k, input: {amount: -10, transactionType: ADJUSTMENT}) { id } }`,
      { c: companyId, k: k.id },
    );
    expect(added.body.errors[0].extensions.code).toBe('insufficient_balance');
  });
});
