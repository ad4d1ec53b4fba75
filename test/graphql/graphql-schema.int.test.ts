import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  type GraphQLSchema,
  type GraphQLType,
  type IntrospectionQuery,
} from 'graphql';
import { BOOKING_STATUSES } from '../../src/modules/booking/booking.status';
import { PAYMENT_STATUSES, REFUND_STATUSES } from '../../src/modules/payment/payment.status';
import { PROVIDER_NAMES } from '../../src/modules/payment/providers/provider-names';
import { SERVICE_TYPES } from '../../src/shared/service-type';
import { Shop } from '../helpers/bookings-fixtures';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';

/** The public schema as served (introspection over HTTP), and what it promises its clients. */

let t: TestApp;
let schema: GraphQLSchema;
const clock = new TestClock(Date.parse('2026-11-30T10:00:00Z'));
beforeAll(async () => {
  t = await createTestApp({ clock });
  const r = await t.gql<IntrospectionQuery>(getIntrospectionQuery({ specifiedByUrl: true }));
  schema = buildClientSchema(r.body.data);
});
afterAll(async () => t?.close());

const publicTypes = () =>
  Object.values(schema.getTypeMap()).filter((type) => !isIntrospectionType(type) && !(isScalarType(type) && isSpecifiedScalarType(type)));

describe('descriptions', () => {
  it('every type, field, argument, input field and enum value of the public schema has one', () => {
    const missing: string[] = [];
    for (const type of publicTypes()) {
      if (!type.description?.trim()) missing.push(type.name);
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const f of Object.values(type.getFields())) {
          if (!f.description?.trim()) missing.push(`${type.name}.${f.name}`);
          for (const a of f.args) if (!a.description?.trim()) missing.push(`${type.name}.${f.name}(${a.name})`);
        }
      }
      if (isInputObjectType(type))
        for (const f of Object.values(type.getFields())) if (!f.description?.trim()) missing.push(`${type.name}.${f.name}`);
      if (isEnumType(type)) for (const v of type.getValues()) if (!v.description?.trim()) missing.push(`${type.name}.${v.name}`);
    }
    expect(missing).toEqual([]);
  });

  it('every custom scalar says what it is and where it is specified', () => {
    const scalars = publicTypes().filter(isScalarType);
    expect(scalars.map((s) => s.name).sort()).toEqual([
      'Currency',
      'DateTime',
      'Duration',
      'HexColorCode',
      'JSON',
      'JSONObject',
      'LocalTime',
    ]);
    for (const s of scalars)
      expect({ name: s.name, url: s.specifiedByURL }).toEqual({ name: s.name, url: expect.stringMatching(/^https:\/\//) });
  });
});

describe('enums and typed inputs', () => {
  const values = (name: string) => {
    const type = schema.getType(name);
    if (!isEnumType(type)) throw new Error(`${name} is not an enum`);
    return type.getValues().map((v) => v.name);
  };

  it('spells every closed set as the REST wire does', () => {
    expect(values('BookingStatus')).toEqual([...BOOKING_STATUSES]);
    expect(values('ServiceType')).toEqual([...SERVICE_TYPES]);
    expect(values('PaymentStatus')).toEqual([...PAYMENT_STATUSES]);
    expect(values('RefundStatus')).toEqual([...REFUND_STATUSES]);
    expect(values('PaymentProvider')).toEqual([...PROVIDER_NAMES]);
    expect(values('BookingPolicy')).toEqual(['instant', 'manual']);
    expect(values('ClientState')).toEqual(['active', 'blocked']);
    expect(values('CapacityRuleType')).toEqual(['group', 'ticket']);
    expect(values('DiscountType')).toEqual(['ticket', 'spots']);
    expect(values('UpdateStrategy')).toEqual(['single', 'upcoming']);
  });

  it('types status, type and policy fields with their enums', () => {
    const fieldType = (type: string, field: string) => {
      const t0 = schema.getType(type);
      if (!isObjectType(t0) && !isInterfaceType(t0) && !isInputObjectType(t0)) throw new Error(type);
      return getNamedType(t0.getFields()[field].type).name;
    };
    expect(fieldType('Booking', 'status')).toBe('BookingStatus');
    expect(fieldType('ClientBooking', 'type')).toBe('ServiceType');
    expect(fieldType('ServiceSettings', 'bookingPolicy')).toBe('BookingPolicy');
    expect(fieldType('PaymentTransaction', 'status')).toBe('PaymentStatus');
    expect(fieldType('UpdateBookingInput', 'status')).toBe('BookingStatus');
    expect(fieldType('UpdateBookingInput', 'metaDataUpdate')).toBe('MetaDataUpdateInput');
    expect(fieldType('CreatePriceRuleInput', 'limitation')).toBe('LimitationInput');
  });

  it('uses JSON only for merchant-defined data', () => {
    const json = new Set(['JSON', 'JSONObject']);
    const uses: string[] = [];
    for (const type of publicTypes()) {
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const f of Object.values(type.getFields()) as {
          name: string;
          type: GraphQLType;
          args?: { name: string; type: GraphQLType }[];
        }[]) {
          if (json.has(getNamedType(f.type)!.name)) uses.push(f.name);
          for (const a of f.args ?? []) if (json.has(getNamedType(a.type)!.name)) uses.push(`${f.name}(${a.name})`);
        }
      }
    }
    // metaData of records, pluginData (same rules), refund metadata, the value of a metaData update,
    // a code plugin's own report (pluginResponse: its shape is the plugin's), a subscription's
    // recurringConfig (the recurring provider's own configuration, stored and answered as sent), and
    // an audit entry's field values (before, after: each the value of whichever field of whichever record changed).
    expect([...new Set(uses)].sort()).toEqual([
      'after',
      'before',
      'metaData',
      'metadata',
      'pluginData',
      'pluginResponse',
      'recurringConfig',
      'value',
    ]);
  });
});

describe('metaDataUpdate', () => {
  it('a misspelt field is a validation error and changes nothing', async () => {
    const shop = await Shop.open(t, 'Meta shop');
    const rid = await shop.resource('Room');
    const update = (u: string) =>
      t.gql(`mutation($c: ID!, $r: ID!) { updateResource(companyID: $c, id: $r, input: { metaDataUpdate: ${u} }) { metaDataVersion } }`, {
        c: shop.companyId,
        r: rid,
      });
    const typo = await update('{ expectedVersoin: 1, path: "a", value: 1 }');
    expect(typo.body.data).toBeUndefined();
    expect(typo.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(
      typo.body.errors.map(() => 'invalid_request'),
    );
    expect(typo.body.errors.map((e: { message: string }) => e.message).join(' ')).toMatch(/expectedVersoin/);
    const missing = await update('{ path: "a", value: 1 }');
    expect(missing.body.errors[0].extensions.code).toBe('invalid_request');
    const asVariable = await t.gql(
      'mutation($c: ID!, $r: ID!, $u: MetaDataUpdateInput!) { updateResource(companyID: $c, id: $r, input: { metaDataUpdate: $u }) { id } }',
      { c: shop.companyId, r: rid, u: { expectedVersoin: 1, path: 'a', value: 1 } },
    );
    expect(asVariable.body.errors[0].extensions.code).toBe('invalid_request');
    expect((await t.call('GET', `${shop.base}/resources/${rid}`)).body).toMatchObject({ metaData: {}, metaDataVersion: 1 });

    const ok = await update('{ expectedVersion: 1, path: "a.b", value: [1, "x", null] }');
    expect(ok.body.data.updateResource.metaDataVersion).toBe(2);
    const stale = await update('{ expectedVersion: 1, path: "a", value: 2 }');
    expect(stale.body.errors[0].extensions.code).toBe('version_conflict');
    expect((await t.call('GET', `${shop.base}/resources/${rid}`)).body).toMatchObject({ metaData: { a: { b: [1, 'x', null] } } });
  });
});

describe('one rendering of instants', () => {
  it('answers createdAt exactly as REST, without .000', async () => {
    const created = await t.gql('mutation { createCompany(input: {name: "Instant", timeZone: "Europe/Riga"}) { id createdAt } }');
    const { id, createdAt } = created.body.data.createCompany;
    expect(createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/);
    expect(createdAt).not.toMatch(/\.000Z$/);
    expect((await t.call('GET', `/v1/companies/${id}`)).body.createdAt).toBe(createdAt);
  });
});

describe('fields REST leaves out are fields only where REST has them', () => {
  const TIMES = `query($c: ID!, $s: ID!, $i: AvailableTimesInput!) { availableTimes(companyID: $c, serviceID: $s, input: $i) {
    resources { resourceID times { __typename startTime ... on SlotAvailableTime { spotsAvailable totalSpots bookedSpots
      bookedSpotsPerTicket { ticketID count } totalSpotsPerTicket { ticketID count } ticketPrices { ticketID amount } } } } } }`;
  const window = { from: '2026-12-01T00:00:00Z', to: '2026-12-02T00:00:00Z' };

  it('spot counts: absent for a fixed service, present for a group service, in both APIs', async () => {
    const shop = await Shop.open(t, 'Spots shop');
    const fixed = await shop.bookable('fixed', { duration: 'PT1H' });
    const group = await shop.bookable('group', { duration: 'PT1H' });
    await shop.capacity(group.sid, 'group', 5);
    await shop.slot(group.sid, group.rids[0], '2026-12-01T09:00:00Z');
    for (const [svc, expectSpots] of [
      [fixed, false],
      [group, true],
    ] as const) {
      const rest = (await t.call('POST', `${shop.base}/services/${svc.sid}/times`, { body: window })).body.times[svc.rids[0]];
      const answer = await t.gql(TIMES, { c: shop.companyId, s: svc.sid, i: window });
      expect(answer.body.errors).toBeUndefined();
      const gql = answer.body.data.availableTimes.resources[0].times;
      expect(rest.length).toBeGreaterThan(0);
      expect(gql.map((e: { startTime: string }) => e.startTime)).toEqual(rest.map((e: { startTime: string }) => e.startTime));
      expect('spotsAvailable' in rest[0]).toBe(expectSpots);
      expect('spotsAvailable' in gql[0]).toBe(expectSpots);
      expect(gql[0].__typename).toBe(expectSpots ? 'SlotAvailableTime' : 'OpenAvailableTime');
      if (expectSpots) expect(gql[0]).toMatchObject({ spotsAvailable: rest[0].spotsAvailable, totalSpots: 5, bookedSpotsPerTicket: [] });
    }
  });

  it('the API key secret: a field of the created key only', async () => {
    const apiKey = schema.getType('ApiKey');
    const created = schema.getType('CreatedApiKey');
    if (!isObjectType(apiKey) || !isObjectType(created)) throw new Error('types missing');
    expect(Object.keys(apiKey.getFields())).not.toContain('key');
    expect(Object.keys(created.getFields())).toContain('key');
    const r = await t.gql(
      'mutation { createApiKey(input: {name: "k", permissions: [{companyID: "*", permissions: ["companies.read"]}]}) { key permissions { companyID permissions } } }',
    );
    expect(r.body.data.createApiKey).toEqual({
      key: expect.stringMatching(/^bpk_/),
      permissions: [{ companyID: '*', permissions: ['companies.read'] }],
    });
  });
});

describe('bookings', () => {
  let shop: Shop;
  let sid: string;
  let rid: string;
  beforeAll(async () => {
    shop = await Shop.open(t, 'Booking shop');
    ({
      sid,
      rids: [rid],
    } = await shop.bookable('fixed', { duration: 'PT1H', currency: 'EUR' }));
    await shop.price(sid, 'fixed', 1500);
    for (const h of [9, 10, 11])
      expect(
        (await shop.book({ serviceID: sid, resourceID: rid, startTime: `2026-12-01T${String(h).padStart(2, '0')}:00:00Z` })).status,
      ).toBe(200);
  });

  it('a page of ids costs the authentication and one statement, totalCount one more', async () => {
    let r: any;
    const n = await t.countStatements(async () => {
      r = await t.gql(`query($c: ID!) { bookings(companyID: $c, first: 10) { nodes { id } } }`, { c: shop.companyId });
    });
    expect(r.body.data.bookings.nodes).toHaveLength(3);
    expect(n).toBeLessThanOrEqual(2);
    const counted = await t.countStatements(async () => {
      r = await t.gql(`query($c: ID!) { bookings(companyID: $c, first: 10) { totalCount nodes { id } } }`, { c: shop.companyId });
    });
    expect(r.body.data.bookings.totalCount).toBe(3);
    expect(counted).toBe(n + 1);
    // the deprecated offset page: page and total in one statement, as before
    const offset = await t.countStatements(async () => {
      r = await t.gql(`query($c: ID!) { bookings(companyID: $c, limit: 10) { total bookings { id } } }`, { c: shop.companyId });
    });
    expect(r.body.data.bookings.total).toBe(3);
    expect(offset).toBe(n);
    const past = await t.gql(`query($c: ID!) { bookings(companyID: $c, offset: 5) { total bookings { id } } }`, { c: shop.companyId });
    expect(past.body.data.bookings).toEqual({ total: 3, bookings: [] });
  });

  it('side lists are loaded when asked for and equal the REST ones', async () => {
    let r: any;
    const q = `query($c: ID!) { bookings(companyID: $c) { totalCount services { id name } resources { id } clients { id } tickets { id } slots { id } blockedTimes { id } nodes { id statusChanges { newStatus } } } }`;
    const n = await t.countStatements(async () => {
      r = await t.gql(q, { c: shop.companyId });
    });
    expect(n).toBeGreaterThan(2);
    const rest = (await shop.list()).body;
    const page = r.body.data.bookings;
    expect(page.services).toEqual(rest.services.map((s: any) => ({ id: s.id, name: s.name })));
    expect(page.resources).toEqual(rest.resources.map((x: any) => ({ id: x.id })));
    expect(page.nodes.map((b: any) => b.statusChanges)).toEqual(
      rest.bookings.map((b: any) => b.statusChanges.map((c: any) => ({ newStatus: c.newStatus }))),
    );
  });

  it('admin and client bookings share the BookingBase fragment', async () => {
    const clientKey = await t.keyWith({ [shop.companyId]: ['client.read', 'client.create'] });
    const requested = await t.gql(
      `fragment B on BookingBase { id status type startTime price currency tickets { ticketID } }
       mutation($i: RequestBookingInput!) { requestBooking(input: $i) { __typename ...B accessToken } }`,
      {
        i: {
          companyID: shop.companyId,
          serviceID: sid,
          resourceID: rid,
          startTime: '2026-12-01T13:00:00Z',
          client: { email: 'frag@example.com' },
        },
      },
      { key: clientKey },
    );
    expect(requested.body.errors).toBeUndefined();
    const mine = requested.body.data.requestBooking;
    const admin = await t.gql(
      `fragment B on BookingBase { id status type startTime price currency tickets { ticketID } }
      query($c: ID!, $id: ID!) { booking(companyID: $c, id: $id) { __typename ...B clientInitiated } }`,
      { c: shop.companyId, id: mine.id },
    );
    const { __typename: a, clientInitiated, ...adminBase } = admin.body.data.booking;
    const { __typename: c, accessToken: _token, ...clientBase } = mine;
    expect([a, c, clientInitiated]).toEqual(['Booking', 'ClientBooking', true]);
    expect(adminBase).toEqual(clientBase);
    expect(adminBase).toMatchObject({ status: 'confirmed', type: 'fixed', price: 1500, currency: 'EUR', tickets: [] });
  });
});
