import type * as GraphqlRequest from 'graphql-request' with { 'resolution-mode': 'import' };
import { createTestApp, TestClock, type TestApp } from '../helpers/app';

// graphql-request ships its types as an ES module; its CommonJS build is what jest loads.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ClientError, GraphQLClient } = require('graphql-request') as typeof GraphqlRequest;
type ClientError = GraphqlRequest.ClientError;

/**
 * The admin dashboard and the booking widget flows, driven through GraphQL only with a real
 * client library (graphql-request over HTTP), every record compared field by field (timestamps
 * included) with what REST answers for the same id.
 */

let t: TestApp;
let url: string;
const clock = new TestClock(Date.parse('2026-11-30T10:00:00Z'));
beforeAll(async () => {
  t = await createTestApp({ clock });
  url = `${await t.listen()}/graphql`;
});
afterAll(async () => t?.close());

const client = (headers: Record<string, string>) => new GraphQLClient(url, { headers });

const SETTINGS =
  'settings { availabilityPeriod bookingPolicy bufferBefore bufferAfter checkInTime checkOutTime currency duration timeInterval tax { inclusive rate } }';
const FRAGMENTS: Record<string, string> = {
  Company: 'fragment Company on Company { id name ownerID timeZone enabled createdAt updatedAt }',
  Service: `fragment Service on Service { id companyID name type color metaData metaDataVersion position ${SETTINGS} disabledAt createdAt updatedAt }`,
  Resource:
    'fragment Resource on Resource { id companyID name color metaData metaDataVersion relatedResourceIDs disabledAt createdAt updatedAt }',
  Client:
    'fragment Client on Client { id companyID externalUserID email firstName lastName language metaData metaDataVersion state createdAt updatedAt }',
  Link: 'fragment Link on ServiceResourceLink { id serviceID resourceID relatedResourceIDs { all any } createdAt updatedAt }',
  Hours:
    'fragment Hours on WorkingHoursRule { id resourceID serviceIDs startTime endTime priority workingHours { daysOfWeek hours { start end } } createdAt updatedAt }',
  Price: `fragment Price on PriceRule { id serviceID type priority duration minDuration maxDuration price { price comparedPrice } ticketID
    limitation { dates { start end } daysOfWeek resourceIDs times { start end } } createdAt updatedAt }`,
  Base: `fragment Base on BookingBase { id companyID serviceID resourceID relatedResourceIDs startTime endTime duration spots
    tickets { ticketID spots price comparedPrice } price currency status bookingPolicy type accessToken paymentURL pluginData metaData createdAt }`,
  Booking: `fragment Booking on Booking { ...Base clientID statusChanges { id bookingID oldStatus newStatus metaData createdAt } rrule recurringID
    clientInitiated refundPercent code customPurchaseDescription metaDataVersion updatedAt client { ...Client } service { ...Service } resource { ...Resource } }`,
  ClientService: `fragment ClientService on ClientService { id companyID name type color ${SETTINGS} timeZone resources { id companyID name color createdAt updatedAt } tickets { id name } createdAt updatedAt }`,
  ClientResource: `fragment ClientResource on ClientResource { id companyID name color services { id companyID name color type ${SETTINGS} createdAt updatedAt } createdAt updatedAt }`,
};

/** A document with the fragments it spreads (and those they spread) appended. */
function gql(parts: TemplateStringsArray, ...values: unknown[]): string {
  const text = parts.reduce((acc, p, i) => acc + p + (i < values.length ? String(values[i]) : ''), '');
  const used = new Set<string>();
  const visit = (doc: string) => {
    for (const m of doc.matchAll(/\.\.\.(\w+)/g))
      if (FRAGMENTS[m[1]] && !used.has(m[1])) {
        used.add(m[1]);
        visit(FRAGMENTS[m[1]]);
      }
  };
  visit(text);
  return [text, ...[...used].map((n) => FRAGMENTS[n])].join('\n');
}

/** A REST record in the GraphQL shape: the maps of REST are lists there; absent limitation parts are null. */
function asGraphql(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => asGraphql(x));
  if (!v || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  if (key === 'tickets') return Object.entries(o).map(([ticketID, x]) => ({ ticketID, ...(x as object) }));
  if (key === 'permissions') return Object.entries(o).map(([companyID, permissions]) => ({ companyID, permissions }));
  if (key === 'limitation')
    return { dates: o.dates ?? null, daysOfWeek: o.daysOfWeek ?? null, resourceIDs: o.resourceIDs ?? null, times: o.times ?? null };
  if (key === 'metaData' || key === 'pluginData') return o;
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, asGraphql(x, k)]));
}

/** Every field of the GraphQL record equals the REST one, and no REST field is missing from it. */
function expectSameRecord(graphql: unknown, rest: unknown): void {
  expect(graphql).toEqual(asGraphql(rest));
}

async function rest(path: string, opts: { key?: string | null; token?: string } = {}) {
  const r = await t.call('GET', path, opts);
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
  return r.body;
}

describe('the admin dashboard, through GraphQL only', () => {
  it('sets up a company, books, changes and lists, each record equal to REST', async () => {
    const admin = client({ 'x-api-key': t.adminKey });
    const { createCompany: company } = await admin.request<any>(gql`
      mutation {
        createCompany(input: { name: "Dash salon", timeZone: "Europe/Riga" }) {
          ...Company
        }
      }
    `);
    expectSameRecord(company, await rest(`/v1/companies/${company.id}`));
    const c = company.id;
    const base = `/v1/companies/${c}`;

    const { createService: service } = await admin.request<any>(
      gql`
        mutation ($c: ID!) {
          createService(
            companyID: $c
            input: {
              name: "Haircut"
              type: fixed
              color: "#AA3366"
              metaData: { tier: 1 }
              settings: { duration: "PT1H", currency: "EUR", bufferAfter: "PT15M", tax: { inclusive: true, rate: 21 } }
            }
          ) {
            ...Service
          }
        }
      `,
      { c },
    );
    expectSameRecord(service, await rest(`${base}/services/${service.id}`));

    const { createResource: resource } = await admin.request<any>(
      gql`
        mutation ($c: ID!) {
          createResource(companyID: $c, input: { name: "Anna", color: "#336699" }) {
            ...Resource
          }
        }
      `,
      { c },
    );
    expectSameRecord(resource, await rest(`${base}/resources/${resource.id}`));

    const { createServiceResourceLink: link } = await admin.request<any>(
      gql`
        mutation ($c: ID!, $s: ID!, $r: ID!) {
          createServiceResourceLink(companyID: $c, serviceID: $s, input: { resourceID: $r }) {
            ...Link
          }
        }
      `,
      { c, s: service.id, r: resource.id },
    );
    expectSameRecord(
      link,
      (await rest(`${base}/services/${service.id}/links`)).links.find((l: { id: string }) => l.id === link.id),
    );

    const { createWorkingHours: hours } = await admin.request<any>(
      gql`
        mutation ($c: ID!, $r: ID!) {
          createWorkingHours(
            companyID: $c
            resourceID: $r
            input: { workingHours: [{ daysOfWeek: 127, hours: [{ start: "09:00", end: "17:00" }] }] }
          ) {
            ...Hours
          }
        }
      `,
      { c, r: resource.id },
    );
    expectSameRecord(
      hours,
      (await rest(`${base}/resources/${resource.id}/working-hours`)).find((h: { id: string }) => h.id === hours.id),
    );

    const { createPriceRule: price } = await admin.request<any>(
      gql`
        mutation ($c: ID!, $s: ID!) {
          createPriceRule(
            companyID: $c
            serviceID: $s
            input: {
              type: fixed
              priority: 1
              price: { price: 2500 }
              limitation: { daysOfWeek: 127, times: [{ start: "08:00", end: "20:00" }] }
            }
          ) {
            ...Price
          }
        }
      `,
      { c, s: service.id },
    );
    const restPrices = await rest(`${base}/services/${service.id}/prices`);
    expectSameRecord(
      price,
      (restPrices.rules ?? restPrices).find((p: { id: string }) => p.id === price.id),
    );

    const window = { from: '2026-12-01T00:00:00+02:00', to: '2026-12-02T00:00:00+02:00' };
    const { availableTimes } = await admin.request<any>(
      gql`
        query ($c: ID!, $s: ID!, $i: AvailableTimesInput!) {
          availableTimes(companyID: $c, serviceID: $s, input: $i) {
            timeZone
            resources {
              resourceID
              times {
                startTime
                duration
                price {
                  amount
                  comparedAmount
                  currency
                }
              }
            }
          }
        }
      `,
      { c, s: service.id, i: window },
    );
    const restTimes = (await t.call('POST', `${base}/services/${service.id}/times`, { body: window })).body;
    expect(availableTimes).toEqual({
      timeZone: restTimes.timeZone,
      resources: Object.entries(restTimes.times).map(([resourceID, times]) => ({ resourceID, times })),
    });

    const { createClient: customer } = await admin.request<any>(
      gql`
        mutation ($c: ID!) {
          createClient(companyID: $c, input: { email: "ilze@example.com", externalUserID: "u-1", firstName: "Ilze" }) {
            ...Client
          }
        }
      `,
      { c },
    );
    expectSameRecord(customer, await rest(`${base}/clients/${customer.id}`));

    const start = availableTimes.resources[0].times[1].startTime;
    const { createBooking: booking } = await admin.request<any>(
      gql`
        mutation ($c: ID!, $i: CreateBookingInput!) {
          createBooking(companyID: $c, input: $i) {
            ...Booking
          }
        }
      `,
      { c, i: { serviceID: service.id, resourceID: resource.id, startTime: start, clientID: customer.id, metaData: { note: 'first' } } },
    );
    expectSameRecord(booking, await rest(`${base}/bookings/${booking.id}`));
    expect(booking.startTime).toBe(start);

    // The slot is taken now: the business outcome is readable from the client library's error.
    const taken = await admin
      .request(
        gql`
          mutation ($c: ID!, $i: CreateBookingInput!) {
            createBooking(companyID: $c, input: $i) {
              id
            }
          }
        `,
        {
          c,
          i: { serviceID: service.id, resourceID: resource.id, startTime: start },
        },
      )
      .catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(ClientError);
    expect((taken as ClientError).response.errors?.[0].extensions?.code).toBe('time_unavailable');

    clock.advance(1500); // an update at another millisecond: timestamps with milliseconds compare too
    const { updateBooking: updated } = await admin.request<any>(
      gql`
        mutation ($c: ID!, $id: ID!) {
          updateBooking(
            companyID: $c
            id: $id
            input: { status: confirmed, metaDataUpdate: { expectedVersion: 1, path: "note", value: "second" } }
          ) {
            ...Booking
          }
        }
      `,
      { c, id: booking.id },
    );
    expectSameRecord(updated, await rest(`${base}/bookings/${booking.id}`));
    expect(updated.metaData).toEqual({ note: 'second' });

    const { moveBooking: moved } = await admin.request<any>(
      gql`
        mutation ($c: ID!, $id: ID!, $i: MoveBookingInput!) {
          moveBooking(companyID: $c, id: $id, input: $i) {
            ...Booking
          }
        }
      `,
      { c, id: booking.id, i: { resourceID: resource.id, startTime: availableTimes.resources[0].times[4].startTime } },
    );
    expectSameRecord(moved, await rest(`${base}/bookings/${booking.id}`));

    const { bookings } = await admin.request<any>(
      gql`
        query ($c: ID!) {
          bookings(companyID: $c) {
            total
            limit
            offset
            bookings {
              ...Booking
            }
            clients {
              ...Client
            }
            services {
              ...Service
            }
            resources {
              ...Resource
            }
            tickets {
              id
            }
            slots {
              id
            }
            blockedTimes {
              id
            }
          }
        }
      `,
      { c },
    );
    const restPage = await rest(`${base}/bookings`);
    expectSameRecord(bookings, restPage);

    const { apiKeys } = await admin.request<any>(gql`
      query {
        apiKeys(limit: 100) {
          total
          apiKeys {
            id
            name
            keyPrefix
            permissions {
              companyID
              permissions
            }
            state
            createdAt
            revokedAt
          }
        }
      }
    `);
    const restKeys = await rest('/v1/api-keys');
    expect(apiKeys.total).toBe(restKeys.length);
    expectSameRecord(apiKeys.apiKeys, restKeys);
  });
});

describe('the booking widget, through GraphQL only', () => {
  it('browses, books as a guest and as a logged-in client, reads and cancels, each record equal to REST', async () => {
    const admin = client({ 'x-api-key': t.adminKey });
    const { createCompany: company } = await admin.request<any>(gql`
      mutation {
        createCompany(input: { name: "Widget club", timeZone: "Europe/Riga" }) {
          id
        }
      }
    `);
    const c = company.id;
    const { createService: svc } = await admin.request<any>(
      gql`
        mutation ($c: ID!) {
          createService(companyID: $c, input: { name: "Court", type: fixed, settings: { duration: "PT1H", currency: "EUR" } }) {
            id
          }
        }
      `,
      { c },
    );
    const { createResource: court } = await admin.request<any>(
      gql`
        mutation ($c: ID!) {
          createResource(companyID: $c, input: { name: "Court 1", color: "#00AA00" }) {
            id
          }
        }
      `,
      { c },
    );
    await admin.request(
      gql`
        mutation ($c: ID!, $s: ID!, $r: ID!) {
          createServiceResourceLink(companyID: $c, serviceID: $s, input: { resourceID: $r }) {
            id
          }
        }
      `,
      {
        c,
        s: svc.id,
        r: court.id,
      },
    );
    await admin.request(
      gql`
        mutation ($c: ID!, $r: ID!) {
          createWorkingHours(
            companyID: $c
            resourceID: $r
            input: { workingHours: [{ daysOfWeek: 127, hours: [{ start: "08:00", end: "22:00" }] }] }
          ) {
            id
          }
        }
      `,
      { c, r: court.id },
    );
    await admin.request(
      gql`
        mutation ($c: ID!, $s: ID!) {
          createPriceRule(companyID: $c, serviceID: $s, input: { type: fixed, priority: 1, price: { price: 1200 } }) {
            id
          }
        }
      `,
      {
        c,
        s: svc.id,
      },
    );
    const { createApiKey: widgetKey } = await admin.request<any>(
      gql`
        mutation ($p: [PermissionGrantInput!]!) {
          createApiKey(input: { name: "widget", permissions: $p }) {
            id
            key
            permissions {
              companyID
              permissions
            }
          }
        }
      `,
      { p: [{ companyID: c, permissions: ['client.read', 'client.create'] }] },
    );
    const { createApiKey: backendKey } = await admin.request<any>(
      gql`
        mutation ($p: [PermissionGrantInput!]!) {
          createApiKey(input: { name: "backend", permissions: $p }) {
            key
          }
        }
      `,
      { p: [{ companyID: c, permissions: ['client.login'] }] },
    );

    const widget = client({ 'x-api-key': widgetKey.key });
    const { clientServices, clientResources } = await widget.request<any>(
      gql`
        query ($c: ID!) {
          clientServices(companyID: $c) {
            total
            services {
              ...ClientService
            }
          }
          clientResources(companyID: $c) {
            total
            resources {
              ...ClientResource
            }
          }
        }
      `,
      { c },
    );
    expectSameRecord(clientServices.services, await rest(`/v1/client/companies/${c}/services`, { key: widgetKey.key }));
    expectSameRecord(clientResources.resources, await rest(`/v1/client/companies/${c}/resources`, { key: widgetKey.key }));

    const window = { from: '2026-12-02T00:00:00Z', to: '2026-12-03T00:00:00Z' };
    const { clientAvailableTimes } = await widget.request<any>(
      gql`
        query ($c: ID!, $s: ID!, $i: AvailableTimesInput!) {
          clientAvailableTimes(companyID: $c, serviceID: $s, input: $i) {
            resources {
              resourceID
              times {
                startTime
                duration
                price {
                  amount
                  comparedAmount
                  currency
                }
              }
            }
          }
        }
      `,
      { c, s: svc.id, i: window },
    );
    const restTimes = (await t.call('POST', `/v1/client/companies/${c}/services/${svc.id}/times`, { key: widgetKey.key, body: window }))
      .body;
    expect(clientAvailableTimes.resources).toEqual(Object.entries(restTimes.times).map(([resourceID, times]) => ({ resourceID, times })));

    const slot = clientAvailableTimes.resources[0].times[2].startTime;
    const { requestBooking: guestBooking } = await widget.request<any>(
      gql`
        mutation ($i: RequestBookingInput!) {
          requestBooking(input: $i, idempotencyKey: "widget-1") {
            ...Base
          }
        }
      `,
      { i: { companyID: c, serviceID: svc.id, startTime: slot, client: { email: 'guest@example.com', firstName: 'Guest' } } },
    );
    expect(guestBooking.resourceID).toBe(court.id);
    const { clientBooking: byToken } = await widget.request<any>(
      gql`
        query ($id: ID!, $t: String) {
          clientBooking(id: $id, accessToken: $t) {
            ...Base
          }
        }
      `,
      { id: guestBooking.id, t: guestBooking.accessToken },
    );
    expect(byToken).toEqual(guestBooking);
    const adminView = await rest(`/v1/companies/${c}/bookings/${guestBooking.id}`);
    const {
      client: _c,
      service: _s,
      resource: _r,
      statusChanges: _sc,
      clientID: _ci,
      rrule: _rr,
      recurringID: _ri,
      clientInitiated,
      refundPercent: _rp,
      code: _co,
      customPurchaseDescription: _cp,
      metaDataVersion: _mv,
      updatedAt: _u,
      ...restBase
    } = adminView;
    expect(clientInitiated).toBe(true);
    expectSameRecord(guestBooking, restBase);

    // A logged-in client (token from the merchant's backend) books, reads and cancels.
    const backend = client({ 'x-api-key': backendKey.key });
    const { clientLogin: pair } = await backend.request<any>(
      gql`
        mutation ($i: ClientLoginInput!) {
          clientLogin(input: $i) {
            accessToken
            refreshToken
            expiresAt
            expiresIn
          }
        }
      `,
      { i: { companyID: c, externalUserID: 'member-7', email: 'member@example.com', firstName: 'Mara' } },
    );
    const member = client({ authorization: `Bearer ${pair.accessToken}` });
    const { clientProfile } = await member.request<any>(gql`
      query {
        clientProfile {
          ...Client
        }
      }
    `);
    expectSameRecord(clientProfile, await rest('/v1/client/profile', { key: null, token: pair.accessToken }));

    const { requestBooking: mine } = await member.request<any>(
      gql`
        mutation ($i: RequestBookingInput!) {
          requestBooking(input: $i) {
            ...Base
          }
        }
      `,
      { i: { companyID: c, serviceID: svc.id, resourceID: court.id, startTime: clientAvailableTimes.resources[0].times[5].startTime } },
    );
    expectSameRecord(mine, await rest(`/v1/client/bookings/${mine.id}`, { key: null, token: pair.accessToken }));
    const { clientBookings } = await member.request<any>(gql`
      query {
        clientBookings {
          total
          limit
          offset
          bookings {
            ...Base
          }
        }
      }
    `);
    expectSameRecord(clientBookings, await rest('/v1/client/bookings', { key: null, token: pair.accessToken }));

    const { cancelClientBooking: cancelled } = await member.request<any>(
      gql`
        mutation ($id: ID!) {
          cancelClientBooking(id: $id) {
            ...Base
          }
        }
      `,
      { id: mine.id },
    );
    expect(cancelled.status).toBe('cancelled');
    expectSameRecord(cancelled, await rest(`/v1/client/bookings/${mine.id}`, { key: null, token: pair.accessToken }));

    // A widget with a revoked key reads the failure as a GraphQL error.
    await admin.request(
      gql`
        mutation ($id: ID!) {
          revokeApiKey(id: $id) {
            state
          }
        }
      `,
      { id: widgetKey.id },
    );
    const refused = await widget
      .request(
        gql`
          query ($c: ID!) {
            clientServices(companyID: $c) {
              total
            }
          }
        `,
        { c },
      )
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ClientError);
    expect((refused as ClientError).response.errors?.[0].extensions?.code).toBe('unauthorized');
  });
});
