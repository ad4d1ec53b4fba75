import { createTestApp, TestClock, type TestApp } from '../helpers/app';

/** Subscription settings, price and capacity rules, capacity availability and the subscriptions offered to clients. */

const T0 = Date.parse('2026-06-01T12:00:00Z');
const clock = new TestClock(T0);
let t: TestApp;
let cid: string;
let other: string;
let widgetKey: string;
let serverUrl: string | undefined;
const listening = async () => (serverUrl ??= await t.listen());

const base = (companyId = cid) => `/v1/companies/${companyId}/plugins/subscription`;
const paths = (r: { body: { details?: { path: string }[] } }) => (r.body.details ?? []).map((d) => d.path);

beforeAll(async () => {
  t = await createTestApp({ clock });
  cid = (await t.company('Rules gym', 'Europe/Riga')).id;
  other = (await t.company('Other rules gym', 'Europe/Riga')).id;
  widgetKey = await t.keyWith({ [cid]: ['client.read'] });
});
afterAll(async () => t?.close());
beforeEach(() => clock.set(T0));

async function subscription(body: Record<string, unknown> = {}, companyId = cid): Promise<any> {
  const r = await t.call('POST', `${base(companyId)}/list`, { body: { title: 'Plan', duration: 'P1M', ...body } });
  if (r.status !== 201) throw new Error(`subscription: ${r.status} ${r.text}`);
  clock.advance(1); // creation order is the list order
  return r.body;
}
async function rule(kind: 'price' | 'capacity', body: Record<string, unknown>): Promise<any> {
  const r = await t.call('POST', `${base()}/${kind}-rules`, { body });
  if (r.status !== 201) throw new Error(`${kind} rule: ${r.status} ${r.text}`);
  return r.body;
}

describe('settings', () => {
  it('answers 404 until the first update, then the stored settings', async () => {
    const fresh = (await t.company('Fresh gym')).id;
    expect((await t.call('GET', `${base(fresh)}/settings`)).status).toBe(404);
    const first = await t.call('PATCH', `${base(fresh)}/settings`, { body: { currency: 'EUR' } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      companyID: fresh,
      cartExpiration: 'PT15M',
      currency: 'EUR',
      taxInclusive: false,
      taxRate: 0,
      metaDataVersion: 1,
    });
    const second = await t.call('PATCH', `${base(fresh)}/settings`, {
      body: { cartExpiration: 'PT30M', taxInclusive: true, taxRate: 21, metaDataUpdate: { expectedVersion: 1, path: 'a', value: 1 } },
    });
    expect(second.body).toMatchObject({
      id: first.body.id,
      cartExpiration: 'PT30M',
      currency: 'EUR',
      taxInclusive: true,
      taxRate: 21,
      metaData: { a: 1 },
    });
    expect((await t.call('GET', `${base(fresh)}/settings`)).body).toEqual(second.body);
    // another company's settings are its own
    expect((await t.call('GET', `${base(other)}/settings`)).status).toBe(404);
  });

  it('creates the row once when two first updates race', async () => {
    const fresh = (await t.company('Racing gym')).id;
    const url = await listening();
    const answers = await Promise.all(
      ['EUR', 'USD'].map((currency) =>
        fetch(`${url}${base(fresh)}/settings`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', 'x-api-key': t.adminKey },
          body: JSON.stringify({ currency }),
        }).then((r) => r.status),
      ),
    );
    expect(answers).toEqual([200, 200]);
    const [row] = await t.deps.orm.em
      .fork()
      .getConnection()
      .execute<{ n: string }[]>('select count(*) as n from subscription_settings where company_id = ?', [fresh]);
    expect(Number(row.n)).toBe(1);
  });

  it.each([
    [{ cartExpiration: 'soon' }, 'cartExpiration'],
    [{ cartExpiration: 'PT10S' }, 'cartExpiration'],
    [{ cartExpiration: 'P30D' }, 'cartExpiration'],
    [{ currency: 'euro' }, 'currency'],
    [{ taxRate: 101 }, 'taxRate'],
    [{ taxRate: -1 }, 'taxRate'],
    [{ taxInclusive: 'yes' }, 'taxInclusive'],
  ])('refuses %j', async (body, path) => {
    const r = await t.call('PATCH', `${base()}/settings`, { body });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain(path);
  });
});

describe('price and capacity rules', () => {
  it('creates, lists by subscription, updates and archives', async () => {
    const a = await subscription();
    const b = await subscription();
    const p = await rule('price', {
      subscriptionIDs: [a.id, b.id],
      price: 3000,
      comparedPrice: 4000,
      priority: 2,
      startDate: '2026-01-01T00:00:00Z',
    });
    expect(p).toMatchObject({
      subscriptionIDs: [a.id, b.id],
      price: 3000,
      comparedPrice: 4000,
      priority: 2,
      startDate: '2026-01-01T00:00:00Z',
      endDate: null,
    });
    const c = await rule('capacity', { subscriptionIDs: [b.id], maxCount: 5 });
    expect(c).toMatchObject({ subscriptionIDs: [b.id], maxCount: 5, priority: 0 });
    expect((await t.call('GET', `${base()}/price-rules`, { query: { subscription_ids: a.id } })).body.map((r: any) => r.id)).toEqual([
      p.id,
    ]);
    expect(
      (await t.call('GET', `${base()}/capacity-rules`, { query: { subscription_ids: `${a.id},${b.id}` } })).body.map((r: any) => r.id),
    ).toEqual([c.id]);
    const upd = await t.call('PATCH', `${base()}/price-rules/${p.id}`, {
      body: { price: 2500, comparedPrice: null, endDate: '2027-01-01T00:00:00Z' },
    });
    expect(upd.body).toMatchObject({ price: 2500, comparedPrice: null, endDate: '2027-01-01T00:00:00Z' });
    clock.set(Date.parse('2026-06-02T00:00:00Z'));
    const archived = await t.call('PATCH', `${base()}/capacity-rules/${c.id}`, { body: { archive: true, maxCount: 6 } });
    expect(archived.body).toMatchObject({ maxCount: 6, archivedAt: '2026-06-02T00:00:00Z' });
    // rules of another company are not found
    expect((await t.call('PATCH', `${base(other)}/price-rules/${p.id}`, { body: { price: 1 } })).status).toBe(404);
    expect((await t.call('PATCH', `${base(other)}/capacity-rules/${c.id}`, { body: { maxCount: 1 } })).status).toBe(404);
    expect((await t.call('GET', `${base(other)}/price-rules`, { query: { subscription_ids: a.id } })).body).toEqual([]);
  });

  it.each([
    ['price', { price: 100 }, 'subscriptionIDs'],
    ['price', { subscriptionIDs: [], price: 100 }, 'subscriptionIDs'],
    ['price', { subscriptionIDs: ['x'], price: 100 }, 'subscriptionIDs[0]'],
    ['price', { subscriptionIDs: ['00000000-0000-4000-8000-000000000000'], price: 100 }, 'subscriptionIDs[0]'],
    ['price', { subscriptionIDs: 'SUB', price: -1 }, 'price'],
    ['price', { subscriptionIDs: 'SUB', price: 100, comparedPrice: -5 }, 'comparedPrice'],
    ['price', { subscriptionIDs: 'SUB', price: 100, priority: 1.5 }, 'priority'],
    ['price', { subscriptionIDs: 'SUB', price: 100, startDate: '2026-02-01T00:00:00Z', endDate: '2026-01-01T00:00:00Z' }, 'endDate'],
    ['price', { subscriptionIDs: 'SUB', price: 100, startDate: 'monday' }, 'startDate'],
    ['capacity', { subscriptionIDs: 'SUB' }, 'maxCount'],
    ['capacity', { subscriptionIDs: 'SUB', maxCount: -1 }, 'maxCount'],
  ])('refuses a %s rule %j naming %s', async (kind, body: Record<string, unknown>, path) => {
    const s = await subscription();
    const sent = { ...body, ...(body.subscriptionIDs === 'SUB' ? { subscriptionIDs: [s.id] } : {}) };
    const r = await t.call('POST', `${base()}/${kind}-rules`, { body: sent });
    expect(r.status).toBe(400);
    expect(paths(r).length ? paths(r) : [JSON.stringify(r.body)]).toEqual(expect.arrayContaining([expect.stringContaining(path)]));
  });

  it('refuses a subscription of another company in a rule, and a list without subscription_ids', async () => {
    const foreign = await subscription({}, other);
    const r = await t.call('POST', `${base()}/price-rules`, { body: { subscriptionIDs: [foreign.id], price: 1 } });
    expect(r.status).toBe(400);
    expect(paths(r)).toEqual(['subscriptionIDs[0]']);
    expect((await t.call('GET', `${base()}/price-rules`)).status).toBe(400);
    expect((await t.call('GET', `${base()}/capacity-rules/availability`, { query: { subscription_ids: 'x' } })).status).toBe(400);
  });
});

describe('capacity', () => {
  it('counts active and pending contracts against the highest-priority rule applying now', async () => {
    const s = await subscription();
    const avail = async () =>
      (await t.call('GET', `${base()}/capacity-rules/availability`, { query: { subscription_ids: s.id } })).body.items[0];
    expect(await avail()).toEqual({ subscriptionID: s.id, active: 0, pending: 0, max: null });
    await rule('capacity', { subscriptionIDs: [s.id], maxCount: 10, priority: 1 });
    await rule('capacity', { subscriptionIDs: [s.id], maxCount: 3, priority: 5 });
    await rule('capacity', { subscriptionIDs: [s.id], maxCount: 1, priority: 9, startDate: '2026-07-01T00:00:00Z' });
    const contract = (body: Record<string, unknown>) => t.call('POST', `${base()}/list/${s.id}/contracts`, { body });
    expect((await contract({})).status).toBe(201);
    expect((await contract({ status: 'pending_payment', expiresAt: '2026-06-01T12:10:00Z' })).status).toBe(201);
    expect(await avail()).toEqual({ subscriptionID: s.id, active: 1, pending: 1, max: 3 });
    expect((await contract({})).status).toBe(201);
    const full = await contract({});
    expect(full.status).toBe(409);
    expect(full.body.code).toBe('conflict');
    // the pending contract lapses: its capacity returns
    clock.set(Date.parse('2026-06-01T12:10:00Z'));
    expect(await avail()).toEqual({ subscriptionID: s.id, active: 2, pending: 0, max: 3 });
    expect((await contract({})).status).toBe(201);
    // a contract of another subscription cannot move into the full one
    const elsewhere = await subscription();
    const mover = await t.call('POST', `${base()}/list/${elsewhere.id}/contracts`, { body: {} });
    expect((await t.call('PATCH', `${base()}/contracts/${mover.body.id}`, { body: { subscriptionID: s.id } })).status).toBe(409);
    // from July the rule of priority 9 applies
    clock.set(Date.parse('2026-07-02T00:00:00Z'));
    expect((await avail()).max).toBe(1);
    // another company's subscription is not found
    expect((await t.call('GET', `${base(other)}/capacity-rules/availability`, { query: { subscription_ids: s.id } })).status).toBe(404);
  });

  it('lets exactly the capacity through when 10 contracts are made at once', async () => {
    const s = await subscription();
    await rule('capacity', { subscriptionIDs: [s.id], maxCount: 5 });
    const url = await listening();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        fetch(`${url}${base()}/list/${s.id}/contracts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': t.adminKey },
          body: JSON.stringify({ status: 'pending_payment' }),
        }).then((r) => r.status),
      ),
    );
    expect(answers.filter((x) => x === 201)).toHaveLength(5);
    expect(answers.filter((x) => x === 409)).toHaveLength(5);
    const a = await t.call('GET', `${base()}/capacity-rules/availability`, { query: { subscription_ids: s.id } });
    expect(a.body.items[0]).toEqual({ subscriptionID: s.id, active: 0, pending: 5, max: 5 });
  });
});

describe('offered subscriptions', () => {
  it('offers what is on sale and priced, at the highest-priority price applying now, in the settings currency', async () => {
    await t.call('PATCH', `${base()}/settings`, { body: { currency: 'EUR' } });
    const priced = await subscription({ title: 'Priced', limitations: { bookingsCount: 4 } });
    const cheap = await subscription({ title: 'Cheap' });
    const unpriced = await subscription({ title: 'Unpriced' });
    const later = await subscription({ title: 'Later', availableFrom: '2026-07-01T00:00:00Z' });
    const archived = await subscription({ title: 'Archived' });
    await t.call('PATCH', `${base()}/list/${archived.id}`, { body: { archive: true } });
    const all = [priced.id, cheap.id, unpriced.id, later.id, archived.id];
    await rule('price', { subscriptionIDs: [priced.id, cheap.id, later.id, archived.id], price: 5000, priority: 1 });
    await rule('price', { subscriptionIDs: [priced.id], price: 4000, comparedPrice: 5000, priority: 3 });
    // a rule that ended, an archived one and one not started yet do not apply
    await rule('price', { subscriptionIDs: [priced.id], price: 100, priority: 9, endDate: '2026-06-01T00:00:00Z' });
    const gone = await rule('price', { subscriptionIDs: [priced.id], price: 200, priority: 8 });
    await t.call('PATCH', `${base()}/price-rules/${gone.id}`, { body: { archive: true } });
    await rule('price', { subscriptionIDs: [cheap.id], price: 300, priority: 8, startDate: '2026-08-01T00:00:00Z' });
    const offered = await t.call('GET', `${base()}/client/subscriptions`, { key: widgetKey, query: { ids: all.join(',') } });
    expect(offered.status).toBe(200);
    expect(offered.body).toEqual([
      expect.objectContaining({
        id: priced.id,
        title: 'Priced',
        price: 4000,
        comparedPrice: 5000,
        currency: 'EUR',
        limitations: { bookingsCount: 4 },
      }),
      expect.objectContaining({ id: cheap.id, price: 5000, comparedPrice: null }),
    ]);
    // no ids: every subscription on sale, the unpriced one still left out
    const every = await t.call('GET', `${base()}/client/subscriptions`, { key: widgetKey });
    expect(every.body.map((o: { id: string }) => o.id)).toEqual(expect.arrayContaining([priced.id, cheap.id]));
    expect(every.body.map((o: { id: string }) => o.id)).not.toContain(unpriced.id);
    clock.set(Date.parse('2026-07-02T00:00:00Z'));
    const july = await t.call('GET', `${base()}/client/subscriptions`, { key: widgetKey, query: { ids: all.join(',') } });
    expect(july.body.map((o: { id: string }) => o.id)).toEqual([priced.id, cheap.id, later.id]);
    expect((await t.call('GET', `${base()}/client/subscriptions`, { key: widgetKey, query: { ids: 'x' } })).status).toBe(400);
    // another company's key sees nothing of this company
    const strangerKey = await t.keyWith({ [other]: ['client.read'] });
    expect((await t.call('GET', `${base()}/client/subscriptions`, { key: strangerKey })).status).toBe(403);
    const g = await t.gql(
      `query($c: ID!, $ids: [ID!]) { clientSubscriptions(companyID: $c, ids: $ids) { total offeredSubscriptions { id price currency } } }`,
      { c: cid, ids: [priced.id] },
      { key: widgetKey },
    );
    expect(g.body.data.clientSubscriptions).toEqual({ total: 1, offeredSubscriptions: [{ id: priced.id, price: 4000, currency: 'EUR' }] });
  });
});
