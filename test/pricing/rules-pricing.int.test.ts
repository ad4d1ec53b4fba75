import { createTestApp, type TestApp } from '../helpers/app';
import { createCtx } from '../../src/kernel/context';
import { loadSnapshot } from '../../src/modules/availability/snapshot';
import { findCompany } from '../../src/modules/company/company.access';
import { matchContextAt } from '../../src/modules/pricing/engine/context';

let t: TestApp;
let cid: string;
let classes: string; // ticket service
let yoga: string; // group service
let massage: string; // flexible service
let adult: string;
let child: string;
let foreignTicket: string; // a ticket of another service, not of `classes`
let room: string;
let hall: string;

const C = () => `/v1/companies/${cid}`;
const S = (sid: string) => `${C()}/services/${sid}`;

async function post(url: string, body: unknown): Promise<any> {
  const r = await t.call('POST', url, { body });
  if (r.status !== 201) throw new Error(`${url}: ${r.status} ${r.text}`);
  return r.body;
}

async function expect400(method: string, url: string, body: unknown, path?: string): Promise<void> {
  const r = await t.call(method, url, { body });
  expect([r.status, r.body.code]).toEqual([400, 'invalid_request']);
  if (path) expect(r.body.details.map((d: any) => d.path)).toContain(path);
}

beforeAll(async () => {
  t = await createTestApp();
  cid = (await t.company('Pricing', 'Europe/Riga')).id;
  classes = (await post(`${C()}/services`, { name: 'Classes', type: 'ticket', settings: { duration: 'PT1H' } })).id;
  yoga = (await post(`${C()}/services`, { name: 'Yoga', type: 'group', settings: { duration: 'PT1H' } })).id;
  massage = (await post(`${C()}/services`, { name: 'Massage', type: 'flexible', settings: { duration: 'PT1H' } })).id;
  adult = (await post(`${S(classes)}/tickets`, { name: 'Adult' })).id;
  child = (await post(`${S(classes)}/tickets`, { name: 'Child' })).id;
  const workshop = (await post(`${C()}/services`, { name: 'Workshop', type: 'ticket', settings: { duration: 'PT2H' } })).id;
  foreignTicket = (await post(`${S(workshop)}/tickets`, { name: 'Other' })).id;
  room = (await post(`${C()}/resources`, { name: 'Room', color: '#112233' })).id;
  hall = (await post(`${C()}/resources`, { name: 'Hall', color: '#112233' })).id;
  await post(`${S(classes)}/links`, { resourceID: room });
  await post(`${S(classes)}/links`, { resourceID: hall });
});
afterAll(async () => t?.close());

describe('capacity rules', () => {
  it('creates rules and lists them with the linked resources and named tickets, filterable by type', async () => {
    const ticketRule = await t.call('POST', `${S(classes)}/capacities`, {
      body: {
        type: 'ticket',
        priority: 2,
        spots: 20,
        spotsPerTicket: { [adult]: 15, [child]: 5 },
        limitation: { id: 'x', daysOfWeek: 3, times: [{ startTime: '09:00', endTime: '12:00' }] },
      },
    });
    expect(ticketRule.status).toBe(201);
    expect(ticketRule.body).toEqual({
      id: expect.any(String),
      serviceID: classes,
      type: 'ticket',
      priority: 2,
      spots: 20,
      spotsPerTicket: { [adult]: 15, [child]: 5 },
      limitation: { daysOfWeek: 3, times: [{ start: '09:00', end: '12:00' }] },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const groupRule = await post(`${S(classes)}/capacities`, { type: 'group', spots: 8 });
    expect(groupRule).toMatchObject({ priority: 0, spotsPerTicket: {}, limitation: null });
    // type defaults to the service's type
    expect((await post(`${S(yoga)}/capacities`, { spots: 12 })).type).toBe('group');

    const list = await t.call('GET', `${S(classes)}/capacities`);
    expect(list.status).toBe(200);
    expect(list.body.capacities.map((c: any) => c.id)).toEqual([ticketRule.body.id, groupRule.id]);
    expect(list.body.resources.map((r: any) => r.id).sort()).toEqual([room, hall].sort());
    expect(list.body.resources[0]).toMatchObject({ companyID: cid, name: 'Hall' });
    expect(list.body.tickets.map((x: any) => x.id)).toEqual([adult, child]);
    const onlyGroup = await t.call('GET', `${S(classes)}/capacities`, { query: { type: 'group' } });
    expect(onlyGroup.body.capacities.map((c: any) => c.id)).toEqual([groupRule.id]);
    expect(onlyGroup.body.tickets).toEqual([]);
    expect((await t.call('GET', `${S(classes)}/capacities`, { query: { type: 'fixed' } })).status).toBe(400);
  });

  it('validates capacity rules', async () => {
    const url = `${S(classes)}/capacities`;
    await expect400('POST', url, { type: 'ticket', spots: 0 }, 'spots');
    await expect400('POST', url, { type: 'ticket', spots: 1.5 }, 'spots');
    await expect400('POST', url, { type: 'seats', spots: 3 }, 'type');
    await expect400('POST', url, { type: 'ticket', spots: 3, priority: 2.5 }, 'priority');
    await expect400('POST', url, { type: 'ticket', spots: 3, spotsPerTicket: { [foreignTicket]: 2 } }, `spotsPerTicket.${foreignTicket}`);
    await expect400('POST', url, { type: 'ticket', spots: 3, spotsPerTicket: { [adult]: -1 } });
    await expect400('POST', url, { type: 'group', spots: 3, spotsPerTicket: { [adult]: 1 } }, 'spotsPerTicket');
    // a bad limitation in both time-range shapes
    await expect400(
      'POST',
      url,
      { spots: 3, limitation: { times: [{ startTime: '12:00', endTime: '09:00' }] } },
      'limitation.times[0].endTime',
    );
    await expect400('POST', url, { spots: 3, limitation: { times: [{ start: '25:00', end: '26:00' }] } }, 'limitation.times[0].start');
    await expect400('POST', url, { spots: 3, limitation: { daysOfWeek: 200 } }, 'limitation.daysOfWeek');
    await expect400('POST', url, { spots: 3, limitation: { resourceIDs: ['room-1'] } }, 'limitation.resourceIDs[0]');
    // capacity rules belong to group and ticket services
    await expect400('POST', `${S(massage)}/capacities`, { spots: 3 });
  });
});

describe('price rules', () => {
  it('creates, lists and patches price rules', async () => {
    const created = await t.call('POST', `${S(classes)}/prices`, {
      body: {
        type: 'ticket',
        priority: 1,
        price: { price: 1500, comparedPrice: 2000 },
        ticketID: adult,
        limitation: { daysOfWeek: 124, times: [{ start: '09:00', end: '24:00' }] },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      serviceID: classes,
      type: 'ticket',
      priority: 1,
      duration: null,
      minDuration: null,
      maxDuration: null,
      price: { price: 1500, comparedPrice: 2000 },
      ticketID: adult,
      limitation: { daysOfWeek: 124, times: [{ start: '09:00', end: '24:00' }] },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const flex = await post(`${S(massage)}/prices`, {
      type: 'flexible',
      priority: 0,
      price: { price: 3000 },
      duration: 'PT30M',
      minDuration: 'PT60M',
      maxDuration: 'PT3H',
    });
    expect(flex).toMatchObject({
      duration: 'PT30M',
      minDuration: 'PT1H',
      maxDuration: 'PT3H',
      price: { price: 3000, comparedPrice: null },
      ticketID: null,
    });

    const list = await t.call('GET', `${S(classes)}/prices`);
    expect(list.status).toBe(200);
    expect(list.body.rules).toEqual([created.body]);
    expect(list.body.tickets.map((x: any) => x.id)).toEqual([adult]);
    expect(list.body.resources).toHaveLength(2);

    const patched = await t.call('PATCH', `${S(classes)}/prices/${created.body.id}`, {
      body: { type: 'ticket', ticketID: child, limitation: null },
    });
    expect(patched.status).toBe(200);
    // fields left out stay as they were
    expect(patched.body).toMatchObject({ priority: 1, price: { price: 1500, comparedPrice: 2000 }, ticketID: child, limitation: null });
    const repriced = await t.call('PATCH', `${S(classes)}/prices/${created.body.id}`, {
      body: { type: 'ticket', priority: 9, price: { price: 1000 } },
    });
    expect(repriced.body).toMatchObject({ priority: 9, price: { price: 1000, comparedPrice: null }, ticketID: child });
    const flexPatch = await t.call('PATCH', `${S(massage)}/prices/${flex.id}`, { body: { type: 'flexible', maxDuration: 'PT30M' } });
    expect(flexPatch.status).toBe(400); // min PT1H > max PT30M
    expect(
      (await t.call('PATCH', `${S(massage)}/prices/${flex.id}`, { body: { type: 'flexible', minDuration: null, maxDuration: 'PT30M' } }))
        .body,
    ).toMatchObject({ minDuration: null, maxDuration: 'PT30M' });
    // the rule is addressed under its own service only
    expect((await t.call('PATCH', `${S(yoga)}/prices/${flex.id}`, { body: { type: 'flexible' } })).status).toBe(404);
  });

  it('validates price rules', async () => {
    const url = `${S(classes)}/prices`;
    const ok = { type: 'ticket', priority: 0, price: { price: 100 } };
    await expect400('POST', url, { ...ok, type: 'hourly' }, 'type');
    await expect400('POST', url, { type: 'ticket', price: { price: 100 } }, 'priority');
    await expect400('POST', url, { ...ok, priority: 0.5 }, 'priority');
    await expect400('POST', url, { ...ok, price: { price: -1 } }, 'price.price');
    await expect400('POST', url, { ...ok, price: { comparedPrice: 3 } }, 'price.price');
    await expect400('POST', url, { ...ok, duration: 'thirty minutes' }, 'duration');
    await expect400('POST', url, { ...ok, minDuration: 'PT2H', maxDuration: 'PT1H' }, 'minDuration');
    await expect400('POST', url, { ...ok, ticketID: foreignTicket }, 'ticketID');
    await expect400('POST', url, { ...ok, limitation: { times: [{ start: '10:00', end: '09:00' }] } }, 'limitation.times[0].end');
    await expect400(
      'POST',
      url,
      { ...ok, limitation: { times: [{ startTime: '10:00', endTime: '9:00' }] } },
      'limitation.times[0].endTime',
    );
    await expect400('POST', url, { ...ok, limitation: { dates: [{ start: '2026-03-02', end: '2026-03-01' }] } }, 'limitation.dates[0].end');
    await expect400('PATCH', `${url}/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, { priority: 1 }, 'type');
    expect((await t.call('PATCH', `${url}/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, { body: { type: 'ticket' } })).status).toBe(
      404,
    );
    expect((await t.call('GET', url)).body.rules).toHaveLength(1);
  });
});

describe('discounts', () => {
  it('creates discounts and lists them filterable by type', async () => {
    const d = await t.call('POST', `${S(classes)}/discounts`, {
      body: {
        type: 'ticket',
        priority: 1,
        sumsUp: true,
        rules: [
          { from: 1, to: 4, price: 1500, ticketID: adult },
          { from: 5, to: 100, price: 1200 },
        ],
        limitation: { daysOfWeek: 64 },
      },
    });
    expect(d.status).toBe(201);
    expect(d.body).toEqual({
      id: expect.any(String),
      serviceID: classes,
      type: 'ticket',
      priority: 1,
      sumsUp: true,
      rules: [
        { from: 1, to: 4, price: 1500, ticketID: adult },
        { from: 5, to: 100, price: 1200, ticketID: null },
      ],
      limitation: { daysOfWeek: 64 },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const s = await post(`${S(classes)}/discounts`, { type: 'spots', priority: 2, rules: [{ from: 3, to: 3, price: 900 }] });
    expect(s).toMatchObject({ sumsUp: false, limitation: null });
    expect((await t.call('GET', `${S(classes)}/discounts`)).body.discounts.map((x: any) => x.id)).toEqual([s.id, d.body.id]);
    expect((await t.call('GET', `${S(classes)}/discounts`, { query: { type: 'ticket' } })).body).toEqual({ discounts: [d.body] });
    expect((await t.call('GET', `${S(classes)}/discounts`, { query: { type: 'bulk' } })).status).toBe(400);
  });

  it('validates discounts', async () => {
    const url = `${S(classes)}/discounts`;
    await expect400('POST', url, { type: 'ticket' }, 'priority');
    await expect400('POST', url, { type: 'volume', priority: 1 }, 'type');
    await expect400('POST', url, { type: 'ticket', priority: 1.1 }, 'priority');
    await expect400('POST', url, { type: 'ticket', priority: 1, rules: [{ from: 5, to: 2, price: 1 }] }, 'rules[0].to');
    await expect400('POST', url, { type: 'ticket', priority: 1, rules: [{ from: 0, to: 2, price: 1 }] }, 'rules[0].from');
    await expect400('POST', url, { type: 'ticket', priority: 1, rules: [{ from: 1, to: 2, price: -5 }] }, 'rules[0].price');
    await expect400(
      'POST',
      url,
      { type: 'ticket', priority: 1, rules: [{ from: 1, to: 2, price: 5, ticketID: foreignTicket }] },
      'rules[0].ticketID',
    );
    await expect400(
      'POST',
      url,
      { type: 'ticket', priority: 1, limitation: { times: [{ startTime: '09:00' }] } },
      'limitation.times[0].end',
    );
    await expect400('POST', url, { type: 'ticket', priority: 1, limitation: 'weekends' }, 'limitation');
  });
});

describe('GraphQL', () => {
  it('creates and lists capacity rules, price rules and discounts', async () => {
    const cap = await t.gql(
      `mutation($c: ID!, $s: ID!, $l: LimitationInput) { createCapacityRule(companyID: $c, serviceID: $s, input: {type: ticket, spots: 10, priority: 5, limitation: $l, spotsPerTicket: []}) { id type spots priority limitation { times { start end } daysOfWeek } spotsPerTicket { ticketID spots } } }`,
      { c: cid, s: classes, l: { times: [{ start: '18:00', end: '20:00' }] } },
    );
    expect(cap.body.errors).toBeUndefined();
    expect(cap.body.data.createCapacityRule).toMatchObject({
      type: 'ticket',
      spots: 10,
      priority: 5,
      limitation: { times: [{ start: '18:00', end: '20:00' }], daysOfWeek: null },
      spotsPerTicket: [],
    });
    const caps = await t.gql(
      `query($c: ID!, $s: ID!) { capacityRules(companyID: $c, serviceID: $s, type: ticket) { capacityRules { id } } }`,
      {
        c: cid,
        s: classes,
      },
    );
    expect(caps.body.data.capacityRules.capacityRules[0].id).toBe(cap.body.data.createCapacityRule.id);

    const price = await t.gql(
      `mutation($c: ID!, $s: ID!, $t: ID) { createPriceRule(companyID: $c, serviceID: $s, input: {type: ticket, priority: 3, price: {price: 700}, ticketID: $t}) { id priority price { price comparedPrice } ticketID duration } }`,
      { c: cid, s: classes, t: child },
    );
    expect(price.body.data.createPriceRule).toMatchObject({
      priority: 3,
      price: { price: 700, comparedPrice: null },
      ticketID: child,
      duration: null,
    });
    const id = price.body.data.createPriceRule.id;
    const upd = await t.gql(
      `mutation($c: ID!, $s: ID!, $id: ID!) { updatePriceRule(companyID: $c, serviceID: $s, id: $id, input: {type: ticket, price: {price: 800, comparedPrice: 900}}) { priority price { price comparedPrice } } }`,
      { c: cid, s: classes, id },
    );
    expect(upd.body.data.updatePriceRule).toEqual({ priority: 3, price: { price: 800, comparedPrice: 900 } });
    const bad = await t.gql(
      `mutation($c: ID!, $s: ID!, $t: ID) { createPriceRule(companyID: $c, serviceID: $s, input: {type: ticket, priority: 3, price: {price: 700}, ticketID: $t}) { id } }`,
      { c: cid, s: classes, t: foreignTicket },
    );
    expect(bad.body.errors[0].extensions.code).toBe('invalid_request');
    const prices = await t.gql(`query($c: ID!, $s: ID!) { priceRules(companyID: $c, serviceID: $s) { priceRules { id } } }`, {
      c: cid,
      s: classes,
    });
    // chosen order: the rule patched to priority 9 first, then this one
    expect(prices.body.data.priceRules.priceRules.map((r: any) => r.id)[1]).toBe(id);

    const disc = await t.gql(
      `mutation($c: ID!, $s: ID!) { createDiscount(companyID: $c, serviceID: $s, input: {type: spots, priority: 7, rules: [{from: 2, to: 10, price: 500}]}) { id type sumsUp rules { from to price ticketID } } }`,
      { c: cid, s: classes },
    );
    expect(disc.body.data.createDiscount).toMatchObject({
      type: 'spots',
      sumsUp: false,
      rules: [{ from: 2, to: 10, price: 500, ticketID: null }],
    });
    const discs = await t.gql(`query($c: ID!, $s: ID!) { discounts(companyID: $c, serviceID: $s, type: spots) { discounts { id } } }`, {
      c: cid,
      s: classes,
    });
    expect(discs.body.data.discounts.discounts[0].id).toBe(disc.body.data.createDiscount.id);
  });
});

describe('isolation and permissions', () => {
  it('answers 404 for a service of another company and 403 for another merchant', async () => {
    const second = await t.company('Second', 'Europe/Riga');
    for (const path of ['capacities', 'prices', 'discounts']) {
      expect((await t.call('GET', `/v1/companies/${second.id}/services/${classes}/${path}`)).status).toBe(404);
    }
    expect(
      (
        await t.call('POST', `/v1/companies/${second.id}/services/${classes}/prices`, {
          body: { type: 'ticket', priority: 1, price: { price: 1 } },
        })
      ).status,
    ).toBe(404);
    // a ticket of this company used from another company's service is not found there
    const theirs = await post(`/v1/companies/${second.id}/services`, { name: 'Theirs', type: 'ticket', settings: { duration: 'PT1H' } });
    const cross = await t.call('POST', `/v1/companies/${second.id}/services/${theirs.id}/capacities`, {
      body: { spots: 2, spotsPerTicket: { [adult]: 1 } },
    });
    expect(cross.status).toBe(404);
    const otherKey = await t.newMerchant();
    for (const path of ['capacities', 'prices', 'discounts']) {
      const r = await t.call('GET', `${S(classes)}/${path}`, { key: otherKey });
      expect([r.status, r.body.code]).toEqual([403, 'forbidden']);
    }
    const g = await t.gql(
      `query($c: ID!, $s: ID!) { priceRules(companyID: $c, serviceID: $s) { total } }`,
      { c: cid, s: classes },
      { key: otherKey },
    );
    expect(g.body.errors[0].extensions.code).toBe('forbidden');
    const reader = await t.keyWith({ [cid]: ['rules.read'] });
    expect((await t.call('GET', `${S(classes)}/discounts`, { key: reader })).status).toBe(200);
    expect((await t.call('POST', `${S(classes)}/discounts`, { key: reader, body: { type: 'spots', priority: 1 } })).status).toBe(403);
  });
});

describe('the availability read path', () => {
  it('loads price rules, discounts and capacity rules with the snapshot in one statement, compiled for the engine', async () => {
    const ctx = createCtx(t.deps, null, 'test', t.deps.log);
    const company = await findCompany(ctx, cid);
    const range = { from: Date.parse('2026-03-23T00:00:00Z'), to: Date.parse('2026-03-30T00:00:00Z'), resourceIds: null };
    let flexible: Awaited<ReturnType<typeof loadSnapshot>> = null;
    expect(await t.countStatements(async () => (flexible = await loadSnapshot(ctx, company, massage, range)))).toBe(1);
    // the one flexible rule: 30 minutes for 30.00, at most 30 minutes
    const at = matchContextAt('Europe/Riga', Date.parse('2026-03-30T07:00:00Z'), room);
    expect(flexible!.snapshot.pricer.step(at)).toEqual({ durationSec: 1800, minDurationSec: null, maxDurationSec: 1800 });
    expect(flexible!.snapshot.pricer.quote({ serviceType: 'flexible', durationSec: 1800, spots: 1, tickets: {} }, at).amount).toBe(3000);

    let tickets: Awaited<ReturnType<typeof loadSnapshot>> = null;
    expect(await t.countStatements(async () => (tickets = await loadSnapshot(ctx, company, classes, range)))).toBe(1);
    const caps = [...tickets!.snapshot.capacityRules].sort((a, b) => b.priority - a.priority);
    expect(caps.map((c) => [c.type, c.priority, c.spots])).toEqual([
      ['ticket', 5, 10],
      ['ticket', 2, 20],
      ['group', 0, 8],
    ]);
    expect(caps[2].matches).toBeNull();
    // the priority-2 rule is limited to weekends 09:00-12:00 Riga time
    const saturday10 = matchContextAt('Europe/Riga', Date.parse('2026-03-28T08:00:00Z'), room);
    const monday10 = matchContextAt('Europe/Riga', Date.parse('2026-03-30T07:00:00Z'), room);
    expect(caps[1].matches!(saturday10)).toBe(true);
    expect(caps[1].matches!(monday10)).toBe(false);
  });
});
