import { createTestApp, type TestApp } from './helpers/app';

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
});
