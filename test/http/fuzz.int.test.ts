import { createTestApp, type TestApp } from '../helpers/app';

/**
 * Nothing a client sends may cause a 500: every registered REST route receives malformed path
 * parameters, query strings and bodies of the wrong shape, with real ids of a populated
 * company where an id is expected.
 */
let t: TestApp;
let ids: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  const c = await t.company('Fuzz', 'Europe/Riga');
  const svc = await t.call('POST', `/v1/companies/${c.id}/services`, {
    body: { name: 'Fixed', type: 'fixed', settings: { duration: 'PT1H' } },
  });
  const res = await t.call('POST', `/v1/companies/${c.id}/resources`, { body: { name: 'R', color: '#112233' } });
  await t.call('POST', `/v1/companies/${c.id}/services/${svc.body.id}/links`, { body: { resourceID: res.body.id } });
  const booking = await t.call('POST', `/v1/companies/${c.id}/bookings`, {
    body: { serviceID: svc.body.id, resourceID: res.body.id, startTime: '2030-01-07T10:00:00Z', ignoreSchedule: true },
  });
  ids = { cid: c.id, service: svc.body.id, resource: res.body.id, booking: booking.body.id };
  const client = await t.call('POST', `/v1/companies/${c.id}/clients`, { body: { email: 'fuzz@example.com', externalUserID: 'fuzz' } });
  const ticketService = await t.call('POST', `/v1/companies/${c.id}/services`, {
    body: { name: 'Tickets', type: 'ticket', settings: { duration: 'PT1H' } },
  });
  const ticket = await t.call('POST', `/v1/companies/${c.id}/services/${ticketService.body.id}/tickets`, { body: { name: 'Adult' } });
  ids.client = client.body.id;
  ids.ticketService = ticketService.body.id;
  ids.ticket = ticket.body.id;
});
afterAll(async () => t?.close());

const JUNK_VALUES: unknown[] = [
  null,
  -1,
  1e308,
  'x'.repeat(300),
  [],
  {},
  true,
  '2026-13-45T99:99:99Z',
  '../../etc',
  "'; drop table booking; --",
  '\u0000',
  { $ne: null },
];

function junkBodies(): unknown[] {
  const keys = [
    'name',
    'type',
    'timeZone',
    'startTime',
    'endTime',
    'from',
    'to',
    'duration',
    'resourceID',
    'serviceID',
    'clientID',
    'spots',
    'tickets',
    'priority',
    'price',
    'settings',
    'metaData',
    'metaDataUpdate',
    'repeat',
    'workingHours',
    'limitation',
    'rules',
    'relatedResourceIDs',
    'status',
    'permissions',
    'client',
    'bookings',
    'companyID',
    'email',
    'externalUserID',
    'ids',
    'resourceIDs',
    'serviceIDs',
    'preferredProvider',
    'success_redirect_url',
    'enable_url_templating',
    'signing_secret',
    'percent',
    'amount',
    'itemID',
    'outcome',
    'newStartTime',
    'updateStrategy',
    'spotsPerTicket',
    'capacity',
    'sumsUp',
    'position',
    'enabled',
  ];
  const out: unknown[] = [{}, [], 'null', '"text"', 42];
  for (let i = 0; i < JUNK_VALUES.length; i++) {
    out.push(Object.fromEntries(keys.map((k, j) => [k, JUNK_VALUES[(i + j) % JUNK_VALUES.length]])));
  }
  return out;
}

function paramValue(name: string, variant: number): string {
  const real: Record<string, string> = {
    cid: ids.cid,
    service_id: ids.service,
    sid: ids.service,
    resource_id: ids.resource,
    rid: ids.resource,
    booking_id: ids.booking,
    id: ids.booking,
  };
  if (variant === 0) return real[name] ?? ids.booking;
  if (variant === 1) return 'not-a-uuid';
  if (variant === 2) return '00000000-0000-4000-8000-000000000000';
  return name === 'cid' ? ids.cid : encodeURIComponent('%zz');
}

describe('no input causes a 500', () => {
  it('holds for every REST route', async () => {
    const routes = (t.app as unknown as { registeredRoutes: { method: string; url: string }[] }).registeredRoutes.filter(
      (r) => r.url.startsWith('/v1/') && r.method !== 'OPTIONS',
    );
    expect(routes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    for (const r of routes) {
      for (let variant = 0; variant < 4; variant++) {
        const url = r.url.replace(/:(\w+)/g, (_, n: string) => paramValue(n, variant));
        const bodies = r.method === 'GET' || r.method === 'DELETE' ? [undefined] : junkBodies();
        for (const body of bodies) {
          for (const query of [
            undefined,
            {
              limit: 'abc',
              offset: '-5',
              from: 'yesterday',
              to: '[]',
              includeFailures: 'maybe',
              ids: ',,,',
              deleteStrategy: 'all',
              startTime: 'x',
              service_ids: 'x,y',
              type: '%00',
            },
          ]) {
            const res = await t.call(r.method, url, { body, query });
            if (res.status >= 500)
              failures.push(`${r.method} ${url} ${JSON.stringify(body)?.slice(0, 80)} -> ${res.status} ${res.text.slice(0, 120)}`);
            else if (res.status >= 400)
              expect(res.body).toEqual(expect.objectContaining({ code: expect.any(String), message: expect.any(String) }));
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('refuses a NUL character in any query parameter or body string of every REST route with 400', async () => {
    const routes = (t.app as unknown as { registeredRoutes: { method: string; url: string }[] }).registeredRoutes.filter(
      (r) => r.url.startsWith('/v1/') && r.method !== 'OPTIONS',
    );
    const wrong: string[] = [];
    for (const r of routes) {
      const url = r.url.replace(/:(\w+)/g, (_, n: string) => paramValue(n, 0));
      const attempts: { query?: Record<string, string>; body?: unknown }[] = [{ query: { limit: '10', q: NUL } }];
      if (r.method !== 'GET' && r.method !== 'DELETE')
        attempts.push({ body: { name: NUL } }, { body: { metaData: { [NUL]: 1 } } }, { body: { list: [[{ deep: NUL }]] } });
      for (const a of attempts) {
        const res = await t.call(r.method, url, a);
        // Client-token routes refuse the missing token first (401); everything else is 400.
        if (!((res.status === 400 && res.body.code === 'invalid_request') || res.status === 401))
          wrong.push(`${r.method} ${r.url} ${JSON.stringify(a)} -> ${res.status} ${res.text.slice(0, 100)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

/** `{a: {a: ... {a: 1}}}`, `levels` objects deep. */
function nested(levels: number): Record<string, unknown> {
  let v: Record<string, unknown> = { a: 1 };
  for (let i = 1; i < levels; i++) v = { a: v };
  return v;
}

/** The same as JSON text, for depths JSON.stringify itself cannot reach. */
const nestedJson = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

const NUL = 'a\u0000b';
/** Outside years 0001 to 9998: each is 400. */
const FAR = [
  '9999-12-31T23:00:00Z',
  '9999-01-01T00:00:00+14:00',
  '9998-12-31T23:00:00-12:00',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00+01:00',
];
/** The last hours of the range: accepted, and whatever is added to them must not overflow. */
const EDGE = '9998-12-31T20:00:00Z';
const EDGE_END = '9998-12-31T23:59:59Z';

interface Case {
  name: string;
  method: string;
  url: () => string;
  body?: () => unknown;
  query?: Record<string, string>;
  /** the answer expected; default 400 invalid_request; 'any' accepts any answer below 500 */
  status?: number | 'any';
}

/** Well-formed requests with one odd value each: each reached PostgreSQL or a recursion before. */
function oddCases(): Case[] {
  const c = () => `/v1/companies/${ids.cid}`;
  const svc = () => `${c()}/services/${ids.service}`;
  const booking = (startTime: string) => ({ serviceID: ids.service, resourceID: ids.resource, startTime, ignoreSchedule: true });
  const cases: Case[] = [
    { name: 'NUL in a company name', method: 'POST', url: () => '/v1/companies', body: () => ({ name: NUL, timeZone: 'Europe/Riga' }) },
    { name: 'NUL in a service name', method: 'PATCH', url: svc, body: () => ({ name: NUL }) },
    { name: 'NUL in a resource name', method: 'POST', url: () => `${c()}/resources`, body: () => ({ name: NUL, color: '#112233' }) },
    {
      name: 'NUL in a ticket name',
      method: 'POST',
      url: () => `${c()}/services/${ids.ticketService}/tickets`,
      body: () => ({ name: NUL }),
    },
    {
      name: 'NUL in an externalUserID',
      method: 'POST',
      url: () => `${c()}/clients`,
      body: () => ({ email: 'n@example.com', externalUserID: NUL }),
    },
    { name: 'NUL in a first name', method: 'PATCH', url: () => `${c()}/clients/${ids.client}`, body: () => ({ firstName: NUL }) },
    {
      name: 'NUL in a metaData key',
      method: 'POST',
      url: () => `${c()}/clients`,
      body: () => ({ email: 'k@example.com', externalUserID: 'nul-key', metaData: { [NUL]: 1 } }),
    },
    {
      name: 'NUL in a metaData value',
      method: 'POST',
      url: () => `${c()}/resources`,
      body: () => ({ name: 'R2', color: '#112233', metaData: { k: NUL } }),
    },
    {
      name: 'NUL in a metaDataUpdate value',
      method: 'PATCH',
      url: () => `${c()}/resources/${ids.resource}`,
      body: () => ({ metaDataUpdate: { path: 'k', value: NUL } }),
    },
    {
      name: 'NUL in a metaDataUpdate path',
      method: 'PATCH',
      url: () => `${c()}/resources/${ids.resource}`,
      body: () => ({ metaDataUpdate: { path: NUL, value: 1 } }),
    },
    {
      name: 'NUL in booking metaData',
      method: 'POST',
      url: () => `${c()}/bookings`,
      body: () => ({ ...booking('2030-02-04T10:00:00Z'), metaData: { note: NUL } }),
    },
    { name: 'NUL in a client search parameter', method: 'GET', url: () => `${c()}/clients/search`, query: { externalUserID: NUL } },
    { name: 'NUL in an email search parameter', method: 'GET', url: () => `${c()}/clients/search`, query: { email: NUL } },
    { name: 'NUL in a text search', method: 'GET', url: () => `${c()}/clients/search`, query: { query: NUL } },
    { name: 'NUL in an API key name', method: 'POST', url: () => '/v1/api-keys', body: () => ({ name: NUL, permissions: {} }) },
    {
      name: 'NUL in a client login',
      method: 'POST',
      url: () => '/v1/client/auth/login',
      body: () => ({ companyID: ids.cid, email: 'l@example.com', externalUserID: NUL }),
    },
    { name: 'NUL in a path parameter', method: 'GET', url: () => `/v1/companies/${encodeURIComponent(NUL)}` },
    {
      name: 'NUL in a redirect URL',
      method: 'PUT',
      url: () => `${c()}/payments/providers/test`,
      body: () => ({ success_redirect_url: `https://shop.example/${NUL}` }),
    },
    {
      name: 'metaData 2000 levels deep',
      method: 'POST',
      url: () => `${c()}/resources`,
      body: () => `{"name": "Deep", "color": "#112233", "metaData": ${nestedJson(2000)}}`,
    },
    {
      name: 'metaData 33 levels deep',
      method: 'POST',
      url: () => `${c()}/resources`,
      body: () => ({ name: 'Deep', color: '#112233', metaData: nested(33) }),
    },
    {
      name: 'metaDataUpdate value 5000 levels deep',
      method: 'PATCH',
      url: () => `${c()}/resources/${ids.resource}`,
      body: () => `{"metaDataUpdate": {"path": "x", "value": ${nestedJson(5000)}}}`,
    },
    {
      name: 'metaDataUpdate making metaData 33 levels deep',
      method: 'PATCH',
      url: () => `${c()}/resources/${ids.resource}`,
      body: () => ({ metaDataUpdate: { path: 'x', value: nested(32) } }),
    },
    {
      name: 'a body 100000 levels deep',
      method: 'POST',
      url: () => `${c()}/bookings`,
      body: () =>
        `{"serviceID": "${ids.service}", "resourceID": "${ids.resource}", "startTime": "2030-02-05T10:00:00Z", "extra": ${nestedJson(100_000)}}`,
    },
    { name: 'an over-long path parameter', method: 'GET', url: () => `${c()}/services/${'a'.repeat(120_000)}` },
    { name: 'an over-long company id', method: 'GET', url: () => `/v1/companies/${'1'.repeat(120_000)}` },
    { name: 'a path parameter that is not valid percent-encoding', method: 'GET', url: () => `/v1/companies/${ids.cid}/services/%E0%A4%A` },
  ];
  for (const at of FAR) {
    cases.push(
      { name: `a booking at ${at}`, method: 'POST', url: () => `${c()}/bookings`, body: () => booking(at) },
      {
        name: `a move to ${at}`,
        method: 'POST',
        url: () => `${c()}/bookings/${ids.booking}/move`,
        body: () => ({ resourceID: ids.resource, startTime: at, ignoreSchedule: true }),
      },
      { name: `a booking update to ${at}`, method: 'PATCH', url: () => `${c()}/bookings/${ids.booking}`, body: () => ({ startTime: at }) },
      {
        name: `available times from ${at}`,
        method: 'POST',
        url: () => `${svc()}/times`,
        body: () => ({ from: at, to: '9999-12-31T23:59:59Z' }),
      },
      {
        name: `available dates from ${at}`,
        method: 'POST',
        url: () => `${svc()}/dates`,
        body: () => ({ from: at, to: '9999-12-31T23:59:59Z' }),
      },
      {
        name: `client times from ${at}`,
        method: 'POST',
        url: () => `/v1/client/companies/${ids.cid}/services/${ids.service}/times`,
        body: () => ({ from: at, to: '9999-12-31T23:59:59Z' }),
      },
      { name: `bookings listed from ${at}`, method: 'GET', url: () => `${c()}/bookings`, query: { from: at, to: '9999-12-31T23:59:59Z' } },
      {
        name: `a closing period at ${at}`,
        method: 'POST',
        url: () => `${c()}/resources/${ids.resource}/closing-periods`,
        body: () => ({ startTime: at, endTime: '9999-12-31T23:59:59Z' }),
      },
      {
        name: `working hours from ${at}`,
        method: 'POST',
        url: () => `${c()}/resources/${ids.resource}/working-hours`,
        body: () => ({ startTime: at, workingHours: [{ daysOfWeek: 127, hours: [{ start: '09:00', end: '17:00' }] }] }),
      },
      {
        name: `a slot at ${at}`,
        method: 'POST',
        url: () => `${svc()}/slots`,
        body: () => ({ startTime: at, duration: 'PT1H', resourceID: ids.resource }),
      },
      {
        name: `a recurring booking until ${at}`,
        method: 'POST',
        url: () => `${c()}/bookings`,
        body: () => ({ ...booking('2030-03-04T10:00:00Z'), repeat: { frequency: 'DAILY', until: at } }),
      },
    );
  }
  cases.push(
    {
      name: 'a booking in the last hours of year 9998',
      method: 'POST',
      url: () => `${c()}/bookings`,
      body: () => ({ ...booking(EDGE), duration: 'PT2H' }),
      status: 'any',
    },
    {
      name: 'a move to the last hours of year 9998',
      method: 'POST',
      url: () => `${c()}/bookings/${ids.booking}/move`,
      body: () => ({ resourceID: ids.resource, startTime: EDGE, ignoreSchedule: true }),
      status: 'any',
    },
    {
      name: 'available times in the last hours of year 9998',
      method: 'POST',
      url: () => `${svc()}/times`,
      body: () => ({ from: EDGE, to: EDGE_END }),
      status: 'any',
    },
    {
      name: 'available dates in the last days of year 9998',
      method: 'POST',
      url: () => `${svc()}/dates`,
      body: () => ({ from: '9998-10-01T00:00:00Z', to: EDGE_END }),
      status: 'any',
    },
    {
      name: 'bookings listed up to the end of year 9998',
      method: 'GET',
      url: () => `${c()}/bookings`,
      query: { from: EDGE, to: EDGE_END },
      status: 'any',
    },
    {
      name: 'a closing period to the end of year 9998',
      method: 'POST',
      url: () => `${c()}/resources/${ids.resource}/closing-periods`,
      body: () => ({ startTime: EDGE, endTime: EDGE_END }),
      status: 'any',
    },
  );
  return cases;
}

describe('odd but well-formed input is a 400 with the contract body', () => {
  it.each(oddCases().map((x) => [x.name, x] as const))('%s', async (_name, x) => {
    const res = await t.call(x.method, x.url(), { body: x.body?.(), query: x.query });
    if (x.status === 'any') {
      expect(res.status).toBeLessThan(500);
      if (res.status >= 400) expect(res.body).toEqual(expect.objectContaining({ code: expect.any(String), message: expect.any(String) }));
      return;
    }
    expect({ status: res.status, body: res.body }).toEqual({
      status: x.status ?? 400,
      body: expect.objectContaining({ code: 'invalid_request', message: expect.any(String) }),
    });
    expect(Object.keys(res.body).filter((k) => !['code', 'message', 'details'].includes(k))).toEqual([]);
  });
});

/** The same classes over GraphQL: never a 500, always the code `invalid_request`. */
const GQL_CASES: [string, () => { query: string; variables: Record<string, unknown> }][] = [
  [
    'NUL in a variable',
    () => ({
      query: 'mutation($i: CreateCompanyInput!) { createCompany(input: $i) { id } }',
      variables: { i: { name: NUL, timeZone: 'Europe/Riga' } },
    }),
  ],
  [
    'NUL written as \\u0000 in the document',
    () => ({ query: 'mutation { createCompany(input: {name: "a\\u0000b", timeZone: "Europe/Riga"}) { id } }', variables: {} }),
  ],
  [
    'NUL in a search filter',
    () => ({ query: `query { searchClients(companyID: "${ids.cid}", filter: {externalUserID: "x\\u0000"}) { id } }`, variables: {} }),
  ],
  [
    'NUL in metaData',
    () => ({ query: CREATE_RESOURCE, variables: { c: ids.cid, i: { name: 'R', color: '#112233', metaData: { k: NUL } } } }),
  ],
  [
    'metaData 33 levels deep in a variable',
    () => ({ query: CREATE_RESOURCE, variables: { c: ids.cid, i: { name: 'R', color: '#112233', metaData: nested(33) } } }),
  ],
  [
    'metaData 3000 levels deep in a variable',
    () => ({ query: CREATE_RESOURCE, variables: { c: ids.cid, i: { name: 'R', color: '#112233', metaData: nested(3000) } } }),
  ],
  [
    'metaData 40 levels deep written in the document',
    () => ({
      query: `mutation { createResource(companyID: "${ids.cid}", input: {name: "R", color: "#112233", metaData: ${'{a: '.repeat(40)}1${'}'.repeat(40)}}) { id } }`,
      variables: {},
    }),
  ],
  [
    'a booking in year 9999',
    () => ({
      query: 'mutation($c: ID!, $i: CreateBookingInput!) { createBooking(companyID: $c, input: $i) { id } }',
      variables: {
        c: ids.cid,
        i: { serviceID: ids.service, resourceID: ids.resource, startTime: '9999-12-31T23:00:00Z', ignoreSchedule: true },
      },
    }),
  ],
  [
    'a move to year 9999',
    () => ({
      query: 'mutation($c: ID!, $b: ID!, $i: MoveBookingInput!) { moveBooking(companyID: $c, id: $b, input: $i) { id } }',
      variables: { c: ids.cid, b: ids.booking, i: { resourceID: ids.resource, startTime: '9999-12-31T23:00:00Z', ignoreSchedule: true } },
    }),
  ],
  [
    'available times in year 9999',
    () => ({
      query: 'query($c: ID!, $s: ID!, $i: AvailableTimesInput!) { availableTimes(companyID: $c, serviceID: $s, input: $i) { timeZone } }',
      variables: { c: ids.cid, s: ids.service, i: { from: '9999-12-30T00:00:00Z', to: '9999-12-31T00:00:00Z' } },
    }),
  ],
];
const CREATE_RESOURCE = 'mutation($c: ID!, $i: CreateResourceInput!) { createResource(companyID: $c, input: $i) { id } }';

describe('odd input over GraphQL', () => {
  it.each(GQL_CASES)('%s', async (_name, make) => {
    const { query, variables } = make();
    const res = await t.call('POST', '/graphql', { body: JSON.stringify({ query, variables }) });
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('invalid_request');
    expect(res.body.data?.createCompany ?? res.body.data?.createResource ?? res.body.data?.createBooking ?? null).toBeNull();
  });
});

describe('errors of the HTTP layer itself', () => {
  /** Sends raw bytes and returns the status line and body of the answer. */
  async function raw(request: string): Promise<{ status: number; body: any }> {
    const { port } = new URL(await listening());
    const { connect } = await import('node:net');
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        const m = /^HTTP\/1\.1 (\d+)[^]*?\r\n\r\n([^]*)$/.exec(text);
        if (!m) return reject(new Error(`no HTTP answer: ${text.slice(0, 200)}`));
        resolve({ status: Number(m[1]), body: JSON.parse(m[2]) });
      });
    });
  }
  let base: string | null = null;
  const listening = async () => (base ??= await t.listen());

  it('answers an over-long URL with the contract body', async () => {
    const res = await fetch(`${await listening()}/v1/companies?${'a=1&'.repeat(20_000)}`, { headers: { 'x-api-key': t.adminKey } });
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({ code: 'invalid_request', message: expect.any(String) });
  });

  it('answers a malformed header line with the contract body', async () => {
    const r = await raw('GET /health HTTP/1.1\r\nHost: x\r\nnot a header\r\n\r\n');
    expect(r).toEqual({ status: 400, body: { code: 'invalid_request', message: expect.any(String) } });
  });
});
