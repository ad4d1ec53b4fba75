import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';
import { BOOKING_STATUSES } from '../../src/modules/booking/booking.status';
import { SERVICE_TYPES } from '../../src/shared/service-type';
import { BOOKING_POLICIES } from '../../src/modules/catalog/catalog.checks';
import { CLIENT_STATES } from '../../src/modules/client/client.entity';
import { DISCOUNT_TYPES as PROMO_DISCOUNT_TYPES, USAGE_TYPES } from '../../src/modules/promocode/discount';
import { DISCOUNT_TYPES } from '../../src/modules/pricing/discount.service';
import { CAPACITY_TYPES } from '../../src/modules/scheduling/capacity.service';
import { PROVIDER_NAMES } from '../../src/modules/payment/providers/provider-names';

/**
 * A request field with a closed set of values (a status, a type, a policy) is documented with
 * its values as an enum, and a value outside it is refused by the service with 400 and one
 * detail naming the values (a value of another type by its type), leaving the record as it was.
 */
let t: TestApp;
let s: Shop;
const clock = new TestClock(Date.parse('2026-03-01T00:00:00Z'));
let ids: { sid: string; group: string; booking: string; client: string; promo: string };

beforeAll(async () => {
  t = await createTestApp({ clock });
  s = await Shop.open(t);
  const { sid, rids } = await s.bookable('fixed', { duration: 'PT1H' });
  const booking = (await s.book({ serviceID: sid, resourceID: rids[0], startTime: '2026-03-02T10:00:00Z' })).body.id;
  const client = (await t.call('POST', `${s.base}/clients`, { body: { email: 'ann@example.com', externalUserID: 'ann' } })).body.id;
  const promo = (
    await t.call('POST', `${s.base}/plugins/promocodes/codes`, {
      body: { code: 'SPRING', discountType: 'percent', discountValue: 10, usageType: 'unlimited' },
    })
  ).body.id;
  const group = await s.service('group', { duration: 'PT1H' });
  ids = { sid, group, booking, client, promo };
});
afterAll(async () => t?.close());

interface Case {
  method: string;
  url: string;
  /** where the record can be read back, for updates */
  read?: string;
  /** the rest of a body that is valid but for the field */
  body?: Record<string, unknown>;
}

const cases: [string, () => Case, string, readonly string[]][] = [
  [
    'a booking status',
    () => ({ method: 'PATCH', url: `${s.base}/bookings/${ids.booking}`, read: `${s.base}/bookings/${ids.booking}` }),
    'status',
    BOOKING_STATUSES,
  ],
  ['a service type', () => ({ method: 'POST', url: `${s.base}/services`, body: { name: 'Yoga' } }), 'type', SERVICE_TYPES],
  [
    'a booking policy',
    () => ({ method: 'PATCH', url: `${s.base}/services/${ids.sid}/settings`, read: `${s.base}/services/${ids.sid}` }),
    'bookingPolicy',
    BOOKING_POLICIES,
  ],
  [
    'a client state',
    () => ({ method: 'PATCH', url: `${s.base}/clients/${ids.client}`, read: `${s.base}/clients/${ids.client}` }),
    'state',
    CLIENT_STATES,
  ],
  [
    'a price rule type',
    () => ({
      method: 'POST',
      url: `${s.base}/services/${ids.sid}/prices`,
      body: { priority: 1, price: { price: 100, comparedPrice: 100 } },
    }),
    'type',
    SERVICE_TYPES,
  ],
  [
    'a discount type',
    () => ({
      method: 'POST',
      url: `${s.base}/services/${ids.sid}/discounts`,
      body: { priority: 2, rules: [{ from: 3, to: 3, price: 900 }] },
    }),
    'type',
    DISCOUNT_TYPES,
  ],
  [
    'a capacity type',
    () => ({ method: 'POST', url: `${s.base}/services/${ids.group}/capacities`, body: { spots: 3 } }),
    'type',
    CAPACITY_TYPES,
  ],
  [
    'a promo discount type',
    () => ({
      method: 'PATCH',
      url: `${s.base}/plugins/promocodes/codes/${ids.promo}`,
      read: `${s.base}/plugins/promocodes/codes/${ids.promo}`,
    }),
    'discountType',
    PROMO_DISCOUNT_TYPES,
  ],
  [
    'a promo usage type',
    () => ({
      method: 'PATCH',
      url: `${s.base}/plugins/promocodes/codes/${ids.promo}`,
      read: `${s.base}/plugins/promocodes/codes/${ids.promo}`,
    }),
    'usageType',
    USAGE_TYPES,
  ],
  ['a preferred payment provider', () => ({ method: 'PUT', url: `${s.base}/payments/settings` }), 'preferredProvider', PROVIDER_NAMES],
];

describe('a request field with a closed set of values', () => {
  it.each(cases)('%s: its values are listed in the OpenAPI document', async (_what, route, field, values) => {
    const { method, url } = route();
    const doc = (await t.call('GET', '/v1/openapi.json', { key: null })).body;
    // the path template that matches the URL called
    const op = Object.entries<any>(doc.paths).find(([p]) => new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(url))?.[1][
      method.toLowerCase()
    ];
    expect(op).toBeDefined();
    let schema = op.requestBody.content['application/json'].schema;
    const component = (ref: string) => doc.components.schemas[ref.replace('#/components/schemas/', '')];
    if (schema.$ref) schema = component(schema.$ref);
    const property = schema.properties[field];
    expect(property.enum?.filter((v: unknown) => v !== null)).toEqual([...values]);
  });

  it.each(cases)(
    '%s: a value outside them is refused with 400, as a wrong type or naming the values, and nothing changes',
    async (_what, route, field, values) => {
      const { method, url, read, body } = route();
      const before = read ? (await t.call('GET', read)).text : undefined;
      for (const wrong of ['bogus', 'PENDING', '', 7, true, ['fixed'], {}]) {
        const r = await t.call(method, url, { body: { ...body, [field]: wrong } });
        const message = typeof wrong === 'string' ? `must be one of ${values.join(', ')}` : expect.stringMatching(/^must be string/);
        expect([r.status, r.body.code, r.body.details]).toEqual([400, 'invalid_request', [{ path: field, message }]]);
        // the message starts with what was refused ("invalid request", "invalid service", ...) and names the field
        expect(r.body.message).toMatch(
          new RegExp(`^invalid [a-z ]+: ${field} ${r.body.details[0].message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
        );
      }
      if (read) expect((await t.call('GET', read)).text).toBe(before);
    },
  );
});
