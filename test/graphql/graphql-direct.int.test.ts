import { randomUUID } from 'node:crypto';
import { createTestApp, TestClock, type Res, type TestApp } from '../helpers/app';
import { EVERY_DAY, Fixtures } from '../helpers/fixtures';
import { AvailabilityResolver } from '../../src/modules/availability/availability.resolver';
import { withErrorsSorted } from '../helpers/graphql-answers';

/**
 * `availableTimes` and `clientAvailableTimes` asked alone are answered as written JSON
 * (app/graphql-direct.ts) instead of field by field. The answer must be the one graphql-js
 * gives: each operation here is sent with direct answers on and off (GRAPHQL_DIRECT_ANSWERS,
 * read per request) and both responses must be the same bytes, with the same status and
 * headers. The resolver's calls show which way each was answered.
 */
let t: TestApp;
let f: Fixtures;
const clock = new TestClock(Date.parse('2026-03-01T00:00:00Z'));
const H = (start: string, end: string) => [{ daysOfWeek: EVERY_DAY, hours: [{ start, end }] }];

const svc: Record<string, { sid: string; rids: string[] }> = {};
let adult: string;
let child: string;

async function sql(text: string, params: unknown[]): Promise<void> {
  await t.deps.orm.em.fork().getConnection().execute(text, params);
}

beforeAll(async () => {
  t = await createTestApp({ clock });
  f = new Fixtures(t, (await t.company('Riga salon', 'Europe/Riga')).id);

  // fixed: three resources, bookings, a closing, an evening price with a compared price
  const fixed = await f.service('fixed', { duration: 'PT1H', timeInterval: 'PT30M' });
  const rids = [await f.resource('Chair 1'), await f.resource('Chair 2'), await f.resource('Chair 3')];
  for (const rid of rids) {
    await f.link(fixed, rid);
    await f.hours(rid, H('09:00', '20:00'));
  }
  await f.price(fixed, 'fixed', 2500, { compared: 3000 });
  await sql(
    `insert into price_rule (id, company_id, service_id, type, priority, price, compared_price, limitation) values (?, ?, ?, 'fixed', 5, 3100, null, ?::jsonb)`,
    [randomUUID(), f.companyId, fixed, JSON.stringify({ times: [{ start: '17:00', end: '24:00' }] })],
  );
  await f.booking(fixed, rids[0], '2026-03-02T08:00:00Z', '2026-03-02T09:00:00Z');
  await f.closing(rids[1], '2026-03-03T10:00:00Z', '2026-03-03T12:00:00Z');
  svc.fixed = { sid: fixed, rids };

  // flexible: durations priced by step
  const flexible = await f.service('flexible', { duration: 'PT30M' });
  const court = await f.resource('Court');
  await f.link(flexible, court);
  await f.hours(court, H('08:00', '12:00'));
  await f.price(flexible, 'flexible', 1000, { durationSec: 1800, minSec: 1800, maxSec: 7200 });
  svc.flexible = { sid: flexible, rids: [court] };

  // group: slots with spots booked
  const group = await f.service('group', { duration: 'PT1H' });
  const hall = await f.resource('Hall');
  await f.link(group, hall);
  await f.capacity(group, 'group', 8);
  await f.price(group, 'group', 1200);
  await f.slot(group, hall, '2026-03-02T08:00:00Z', 3600, { rrule: 'FREQ=DAILY', timeZone: 'Europe/Riga' });
  await f.slotUsage(group, hall, '2026-03-03T08:00:00Z', 3);
  svc.group = { sid: group, rids: [hall] };

  // ticket: per-ticket capacity, prices and usage
  const ticket = await f.service('ticket', { duration: 'PT2H' });
  const boat = await f.resource('Boat');
  await f.link(ticket, boat);
  adult = await f.ticket(ticket, 'Adult');
  child = await f.ticket(ticket, 'Child');
  await f.capacity(ticket, 'ticket', 9, { [adult]: 4, [child]: 6 });
  await f.price(ticket, 'ticket', 2000, { ticketId: adult });
  await f.price(ticket, 'ticket', 1000, { ticketId: child, compared: 1500 });
  await f.slot(ticket, boat, '2026-03-02T10:00:00Z', 7200, { rrule: 'FREQ=DAILY;COUNT=5', timeZone: 'Europe/Riga' });
  await f.slotUsage(ticket, boat, '2026-03-02T10:00:00Z', 3, { [adult]: 2, [child]: 1 });
  svc.ticket = { sid: ticket, rids: [boat] };

  // a grid of 50,000+ start times in 9 days: 20 resources open around the clock, every 5 minutes
  const grid = await f.service('fixed', { duration: 'PT5M', timeInterval: 'PT5M' });
  const courts: string[] = [];
  for (let i = 0; i < 20; i++) {
    const rid = await f.resource(`Grid ${i}`);
    await f.link(grid, rid);
    await f.hours(rid, H('00:00', '24:00'));
    courts.push(rid);
  }
  svc.grid = { sid: grid, rids: courts };
});
afterAll(async () => t?.close());
afterEach(() => {
  t.deps.config.graphqlDirectAnswers = true;
  jest.restoreAllMocks();
});

const week = { from: '2026-03-02T00:00:00+02:00', to: '2026-03-09T00:00:00+02:00' };

/** One request to /graphql as a client sends it. */
function post(body: unknown, headers: Record<string, string> = {}, key?: string): Promise<Res> {
  return t.call('POST', '/graphql', { body, headers, key });
}

/**
 * The operation answered with direct answers on and off: the same status, content type and
 * bytes. Returns the answer and whether it was answered directly (the resolver not called).
 */
async function both(
  body: { query: string; variables?: Record<string, unknown>; operationName?: string },
  headers: Record<string, string> = {},
  key?: string,
): Promise<{ res: Res; direct: boolean }> {
  const calls = [
    jest.spyOn(AvailabilityResolver.prototype, 'availableTimes'),
    jest.spyOn(AvailabilityResolver.prototype, 'clientAvailableTimes'),
  ];
  const resolved = () => calls.reduce((n, c) => n + c.mock.calls.length, 0);
  t.deps.config.graphqlDirectAnswers = true;
  const direct = await post(body, headers, key);
  const directCalls = resolved();
  t.deps.config.graphqlDirectAnswers = false;
  const executed = await post(body, headers, key);
  t.deps.config.graphqlDirectAnswers = true;
  expect(direct.status).toBe(executed.status);
  expect(direct.headers['content-type']).toBe(executed.headers['content-type']);
  expect(direct.headers['retry-after']).toBe(executed.headers['retry-after']);
  expect(direct.text.length).toBe(executed.text.length);
  expect(withErrorsSorted(direct.text)).toBe(withErrorsSorted(executed.text));
  for (const c of calls) c.mockRestore();
  return { res: direct, direct: directCalls === 0 };
}

const ALL_FIELDS = `
  query Times($c: ID!, $s: ID!, $i: AvailableTimesInput!, $withPrice: Boolean!, $skipZone: Boolean = false) {
    first: __typename
    a: availableTimes(companyID: $c, serviceID: $s, input: $i) {
      __typename
      zone: timeZone @skip(if: $skipZone)
      resources {
        id: resourceID
        ...ResourceBits
        times {
          __typename
          ... on AvailableTime { at: startTime }
          ...Entry
          ... on SlotAvailableTime {
            spotsAvailable
            totalSpots
            bookedSpots
            bookedSpotsPerTicket { __typename ticketID count }
            totalSpotsPerTicket { count ticketID }
            ticketPrices { ticketID ...TicketMoney __typename }
          }
          ... on OpenAvailableTime { price { currency } }
          price @include(if: $withPrice) { amount }
          startTime
          ... @include(if: $withPrice) { cost: price { amount } }
        }
        again: times { startTime }
      }
      timeZone
    }
    last: __typename
  }
  fragment ResourceBits on ResourceAvailableTimes { resourceID __typename }
  fragment Entry on AvailableTime { duration price { ...Money __typename } }
  fragment Money on Price { amount comparedAmount }
  fragment TicketMoney on TicketPrice { amount comparedAmount currency }
`;

const PLAIN = `query($c: ID!, $s: ID!, $i: AvailableTimesInput!) {
  availableTimes(companyID: $c, serviceID: $s, input: $i) { timeZone resources { resourceID times { startTime duration price { amount comparedAmount currency } } } }
}`;

describe('the same answer as field-by-field execution', () => {
  const cases: [string, () => Record<string, unknown>][] = [
    ['fixed', () => ({ ...week })],
    ['fixed, a resource asked twice', () => ({ ...week, resourceIDs: [svc.fixed.rids[2], svc.fixed.rids[0], svc.fixed.rids[2]] })],
    ['fixed, past times included', () => ({ from: '2026-02-27T00:00:00Z', to: '2026-03-02T12:00:00Z', includePastTimes: true })],
    ['flexible with a duration', () => ({ ...week, duration: 'PT1H30M' })],
    ['group with spots', () => ({ ...week, spots: 2 })],
    ['ticket with tickets', () => ({ ...week, tickets: [{ ticketID: child, count: 2 }] })],
    [
      'ticket with a ticket named twice',
      () => ({
        ...week,
        tickets: [
          { ticketID: child, count: 1 },
          { ticketID: adult, count: 1 },
          { ticketID: child, count: 1 },
        ],
      }),
    ],
  ];
  const service = (name: string) => svc[name.split(/[ ,]/)[0]].sid;

  it.each(cases)('%s: the plain selection', async (name, input) => {
    const { res, direct } = await both({ query: PLAIN, variables: { c: f.companyId, s: service(name), i: input() } });
    expect(direct).toBe(true);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const times = res.body.data.availableTimes.resources.flatMap((r: { times: unknown[] }) => r.times);
    expect(times.length).toBeGreaterThan(0);
  });

  it.each(cases)('%s: aliases, fragments, __typename, @include and @skip', async (name, input) => {
    for (const withPrice of [true, false]) {
      for (const skipZone of [true, false]) {
        const { res, direct } = await both({
          query: ALL_FIELDS,
          variables: { c: f.companyId, s: service(name), i: input(), withPrice, skipZone },
          operationName: 'Times',
        });
        expect(direct).toBe(true);
        expect(res.body.errors).toBeUndefined();
        const a = res.body.data.a;
        expect(Object.keys(res.body.data)).toEqual(['first', 'a', 'last']);
        expect(Object.keys(a)).toEqual(
          skipZone ? ['__typename', 'resources', 'timeZone'] : ['__typename', 'zone', 'resources', 'timeZone'],
        );
        const entry = a.resources[0].times[0];
        const slot = name.startsWith('group') || name.startsWith('ticket');
        expect(entry.__typename).toBe(slot ? 'SlotAvailableTime' : 'OpenAvailableTime');
        expect(Object.keys(entry)).toEqual([
          '__typename',
          'at',
          'duration',
          'price',
          ...(slot ? ['spotsAvailable', 'totalSpots', 'bookedSpots', 'bookedSpotsPerTicket', 'totalSpotsPerTicket', 'ticketPrices'] : []),
          'startTime',
          ...(withPrice ? ['cost'] : []),
        ]);
        expect(Object.keys(entry.price)).toEqual(
          slot ? ['amount', 'comparedAmount', '__typename'] : ['amount', 'comparedAmount', '__typename', 'currency'],
        );
        if (name.startsWith('ticket')) expect(entry.ticketPrices.length).toBeGreaterThan(0);
      }
    }
  });

  it('the client interface, with literal arguments and a repeated root field', async () => {
    const query = `{
      t: clientAvailableTimes(companyID: "${f.companyId}", serviceID: "${svc.fixed.sid}", input: { from: "2026-03-02T00:00:00Z", to: "2026-03-03T00:00:00Z" }) {
        resources { resourceID }
      }
      t: clientAvailableTimes(companyID: "${f.companyId}", serviceID: "${svc.fixed.sid}", input: { from: "2026-03-02T00:00:00Z", to: "2026-03-03T00:00:00Z" }) {
        timeZone resources { times { startTime @skip(if: false) duration @skip(if: true) } }
      }
    }`;
    const widget = await t.keyWith({ [f.companyId]: ['client.read'] });
    const { res, direct } = await both({ query }, {}, widget);
    expect(direct).toBe(true);
    expect(Object.keys(res.body.data.t)).toEqual(['resources', 'timeZone']);
    expect(Object.keys(res.body.data.t.resources[0])).toEqual(['resourceID', 'times']);
    expect(Object.keys(res.body.data.t.resources[0].times[0])).toEqual(['startTime']);
  });

  it('a disabled service: empty lists for the admin, 404 on the client interface', async () => {
    const sid = await f.service('fixed', { duration: 'PT1H' });
    const rid = await f.resource('Spare');
    await f.link(sid, rid);
    await f.hours(rid, H('09:00', '12:00'));
    await sql(`update service set disabled_at = now() where id = ?`, [sid]);
    const admin = await both({ query: PLAIN, variables: { c: f.companyId, s: sid, i: week } });
    expect(admin.direct).toBe(true);
    expect(admin.res.body.data.availableTimes.resources).toEqual([]);
    const client = await both({
      query: PLAIN.replace('availableTimes(', 'clientAvailableTimes('),
      variables: { c: f.companyId, s: sid, i: week },
    });
    expect(client.direct).toBe(false);
    expect(client.res.body.errors[0].extensions.code).toBe('not_found');
    expect(client.res.body.data).toEqual({ clientAvailableTimes: null });
  });

  it('with the GraphQL media type', async () => {
    const { res, direct } = await both(
      { query: PLAIN, variables: { c: f.companyId, s: svc.group.sid, i: { ...week, spots: 1 } } },
      { accept: 'application/graphql-response+json' },
    );
    expect(direct).toBe(true);
    expect(res.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
  });
});

describe('errors and other operations are executed as before', () => {
  const vars = (i: Record<string, unknown>, s = svc.fixed.sid) => ({ c: f.companyId, s, i });

  it.each([
    ['an unknown service (404)', () => vars(week, randomUUID()), 'not_found'],
    ['a service id that is no UUID', () => vars(week, 'nope'), 'invalid_request'],
    ['another company', () => ({ ...vars(week), c: randomUUID() }), 'not_found'],
    ['to before from (400)', () => vars({ from: week.to, to: week.from }), 'invalid_request'],
    ['a flexible service without duration (400)', () => vars(week, svc.flexible.sid), 'invalid_request'],
    ['tickets for a fixed service (400)', () => vars({ ...week, tickets: [{ ticketID: adult, count: 1 }] }), 'invalid_request'],
    ['an unlinked resource (404)', () => vars({ ...week, resourceIDs: [randomUUID()] }), 'not_found'],
    [
      'more than 50,000 start times (400)',
      () => vars({ from: '2026-03-02T00:00:00Z', to: '2026-03-11T00:00:00Z' }, svc.grid.sid),
      'invalid_request',
    ],
  ])('%s', async (_, variables, code) => {
    const { res, direct } = await both({ query: PLAIN, variables: variables() });
    expect(direct).toBe(false);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].extensions.code).toBe(code);
    expect(res.body.errors[0].path).toEqual(['availableTimes']);
    expect(res.body.data).toEqual({ availableTimes: null });
  });

  it('variables that do not coerce', async () => {
    const { res } = await both({ query: PLAIN, variables: vars({ from: 'yesterday', to: week.to }) });
    expect(res.body.errors[0].extensions.code).toBe('invalid_request');
    expect(res.body.data).toBeUndefined();
  });

  it('a merchant without the permission', async () => {
    const stranger = await t.newMerchant();
    const { res, direct } = await both({ query: PLAIN, variables: vars(week) }, {}, stranger);
    expect(direct).toBe(false);
    expect(res.body.errors[0].extensions.code).toBe('forbidden');
  });

  it('another root field beside it, or none left after @include', async () => {
    const two = await both({
      query: `query($c: ID!, $s: ID!, $i: AvailableTimesInput!) {
        availableTimes(companyID: $c, serviceID: $s, input: $i) { timeZone }
        availableDates(companyID: $c, serviceID: $s, input: $i) { timeZone }
      }`,
      variables: vars(week),
    });
    expect(two.direct).toBe(false);
    expect(Object.keys(two.res.body.data)).toEqual(['availableTimes', 'availableDates']);
    const twice = await both({
      query: `query($c: ID!, $s: ID!, $i: AvailableTimesInput!) {
        a: availableTimes(companyID: $c, serviceID: $s, input: $i) { timeZone }
        b: availableTimes(companyID: $c, serviceID: $s, input: $i) { timeZone }
      }`,
      variables: vars(week),
    });
    expect(twice.direct).toBe(false);
    const none = await post({
      query: `query($c: ID!, $s: ID!, $i: AvailableTimesInput!, $on: Boolean!) {
        __typename availableTimes(companyID: $c, serviceID: $s, input: $i) @include(if: $on) { timeZone }
      }`,
      variables: { ...vars(week), on: false },
    });
    expect(none.body).toEqual({ data: { __typename: 'Query' }, extensions: { cost: { requested: 0, limit: 5000 } } });
  });

  it('an operation chosen by name among several', async () => {
    const query = `query A($c: ID!, $s: ID!, $i: AvailableTimesInput!) { availableTimes(companyID: $c, serviceID: $s, input: $i) { timeZone } }
      query B { __typename }`;
    const a = await both({ query, variables: vars(week), operationName: 'A' });
    expect(a.direct).toBe(true);
    expect(a.res.body.data.availableTimes.timeZone).toBe('Europe/Riga');
    const none = await post({ query, variables: vars(week) });
    expect(none.body.errors[0].extensions.code).toBe('invalid_request');
  });
});
