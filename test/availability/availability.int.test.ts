import { gunzipSync } from 'node:zlib';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { EVERY_DAY, Fixtures } from '../helpers/fixtures';

let t: TestApp;
const clock = new TestClock(Date.parse('2026-03-01T00:00:00Z'));
let riga: Fixtures;
let ny: Fixtures;

const H = (start: string, end: string) => [{ daysOfWeek: EVERY_DAY, hours: [{ start, end }] }];

beforeAll(async () => {
  t = await createTestApp({ clock });
  riga = new Fixtures(t, (await t.company('Riga salon', 'Europe/Riga')).id);
  ny = new Fixtures(t, (await t.company('NY club', 'America/New_York')).id);
});
afterAll(async () => t?.close());
beforeEach(() => clock.set('2026-03-01T00:00:00Z'));

async function times(f: Fixtures, serviceId: string, body: Record<string, unknown>, key?: string) {
  const r = await t.call('POST', `/v1/companies/${f.companyId}/services/${serviceId}/times`, { body, key });
  if (r.status !== 200) throw new Error(`${r.status} ${r.text}`);
  return r.body as {
    timeZone: string;
    times: Record<string, { startTime: string; duration: string; price: { amount: number }; spotsAvailable?: number }[]>;
  };
}
const starts = (body: { times: Record<string, { startTime: string }[]> }, rid: string) => body.times[rid].map((e) => e.startTime);

async function fixed(f: Fixtures, settings: Record<string, unknown>, hours = H('09:00', '12:00')) {
  const sid = await f.service('fixed', { duration: 'PT1H', ...settings });
  const rid = await f.resource(`R-${Math.random()}`);
  await f.link(sid, rid);
  await f.hours(rid, hours);
  return { sid, rid };
}
const day = (date: string, zone = '+02:00') => ({ from: `${date}T00:00:00${zone}`, to: `${date}T23:59:00${zone}` });

describe('fixed services', () => {
  it('a plain day', async () => {
    const { sid, rid } = await fixed(riga, {});
    const r = await times(riga, sid, day('2026-03-02'));
    expect(r.timeZone).toBe('Europe/Riga');
    expect(starts(r, rid)).toEqual(['2026-03-02T07:00:00Z', '2026-03-02T08:00:00Z', '2026-03-02T09:00:00Z']);
    expect(r.times[rid][0].duration).toBe('PT1H');
  });
  it('a booking in the middle', async () => {
    const { sid, rid } = await fixed(riga, {});
    await riga.booking(sid, rid, '2026-03-02T08:00:00Z', '2026-03-02T09:00:00Z');
    expect(starts(await times(riga, sid, day('2026-03-02')), rid)).toEqual(['2026-03-02T07:00:00Z', '2026-03-02T09:00:00Z']);
  });
  it('buffers on both sides: adjacent buffered intervals are fine, overlapping ones are not', async () => {
    const { sid, rid } = await fixed(riga, { bufferBefore: 'PT30M', bufferAfter: 'PT30M', timeInterval: 'PT30M' }, H('09:00', '14:00'));
    await riga.booking(sid, rid, '2026-03-02T09:00:00Z', '2026-03-02T10:00:00Z', { before: 1800, after: 1800 });
    expect(starts(await times(riga, sid, day('2026-03-02')), rid)).toEqual(['2026-03-02T07:00:00Z', '2026-03-02T11:00:00Z']);
  });
  it('a closing period removes times without shifting the grid', async () => {
    const { sid, rid } = await fixed(riga, {});
    await riga.closing(rid, '2026-03-02T08:00:00Z', '2026-03-02T08:30:00Z');
    expect(starts(await times(riga, sid, day('2026-03-02')), rid)).toEqual(['2026-03-02T07:00:00Z', '2026-03-02T09:00:00Z']);
  });
  it('keeps local hours across the Riga DST changes', async () => {
    const { sid, rid } = await fixed(riga, {});
    expect(starts(await times(riga, sid, day('2026-03-28')), rid)).toEqual([
      '2026-03-28T07:00:00Z',
      '2026-03-28T08:00:00Z',
      '2026-03-28T09:00:00Z',
    ]);
    expect(starts(await times(riga, sid, { from: '2026-03-29T00:00:00+02:00', to: '2026-03-29T23:00:00+03:00' }), rid)).toEqual([
      '2026-03-29T06:00:00Z',
      '2026-03-29T07:00:00Z',
      '2026-03-29T08:00:00Z',
    ]);
    expect(starts(await times(riga, sid, { from: '2026-10-25T00:00:00+03:00', to: '2026-10-25T23:00:00+02:00' }), rid)).toEqual([
      '2026-10-25T07:00:00Z',
      '2026-10-25T08:00:00Z',
      '2026-10-25T09:00:00Z',
    ]);
  });
  it('hours spanning the spring-forward gap shrink to the real hours', async () => {
    const { sid, rid } = await fixed(riga, {}, H('02:00', '05:00'));
    expect(starts(await times(riga, sid, { from: '2026-03-29T00:00:00+02:00', to: '2026-03-29T12:00:00+03:00' }), rid)).toEqual([
      '2026-03-29T00:00:00Z',
      '2026-03-29T01:00:00Z',
    ]);
  });
  it('keeps local hours across the New York DST changes', async () => {
    const { sid, rid } = await fixed(ny, {});
    expect(starts(await times(ny, sid, day('2026-03-07', '-05:00')), rid)).toEqual([
      '2026-03-07T14:00:00Z',
      '2026-03-07T15:00:00Z',
      '2026-03-07T16:00:00Z',
    ]);
    expect(starts(await times(ny, sid, { from: '2026-03-08T00:00:00-05:00', to: '2026-03-08T23:00:00-04:00' }), rid)).toEqual([
      '2026-03-08T13:00:00Z',
      '2026-03-08T14:00:00Z',
      '2026-03-08T15:00:00Z',
    ]);
    expect(starts(await times(ny, sid, { from: '2026-11-01T00:00:00-04:00', to: '2026-11-01T23:00:00-05:00' }), rid)).toEqual([
      '2026-11-01T14:00:00Z',
      '2026-11-01T15:00:00Z',
      '2026-11-01T16:00:00Z',
    ]);
  });
  it('hours spanning the fall-back overlap hold the extra hour', async () => {
    const { sid, rid } = await fixed(ny, {}, H('00:00', '03:00'));
    expect(starts(await times(ny, sid, { from: '2026-11-01T00:00:00-04:00', to: '2026-11-01T12:00:00-05:00' }), rid)).toEqual([
      '2026-11-01T04:00:00Z',
      '2026-11-01T05:00:00Z',
      '2026-11-01T06:00:00Z',
      '2026-11-01T07:00:00Z',
    ]);
  });
  it('honours the booking horizon and leaves out past times (admin may include them)', async () => {
    const { sid, rid } = await fixed(riga, { availabilityPeriod: 'P1D' });
    clock.set('2026-03-02T06:30:00Z');
    expect(starts(await times(riga, sid, { from: '2026-03-02T00:00:00+02:00', to: '2026-03-04T00:00:00+02:00' }), rid)).toEqual([
      '2026-03-02T07:00:00Z',
      '2026-03-02T08:00:00Z',
      '2026-03-02T09:00:00Z',
    ]);
    clock.set('2026-03-02T07:30:00Z');
    expect(starts(await times(riga, sid, day('2026-03-02')), rid)).toEqual(['2026-03-02T08:00:00Z', '2026-03-02T09:00:00Z']);
    expect(starts(await times(riga, sid, { ...day('2026-03-02'), includePastTimes: true }), rid)).toEqual([
      '2026-03-02T07:00:00Z',
      '2026-03-02T08:00:00Z',
      '2026-03-02T09:00:00Z',
    ]);
    const clientKey = await t.keyWith({ [riga.companyId]: ['client.read'] });
    const client = await t.call('POST', `/v1/client/companies/${riga.companyId}/services/${sid}/times`, {
      key: clientKey,
      body: { ...day('2026-03-02'), includePastTimes: true },
    });
    expect(client.status).toBe(200);
    expect(starts(client.body, rid)).toEqual(['2026-03-02T08:00:00Z', '2026-03-02T09:00:00Z']);
  });
  it('gives the same instants whatever the process time zone', async () => {
    const { sid, rid } = await fixed(riga, {});
    const original = process.env.TZ;
    const results: string[][] = [];
    try {
      for (const tz of ['UTC', 'America/New_York', 'Asia/Kolkata']) {
        process.env.TZ = tz;
        results.push(starts(await times(riga, sid, { from: '2026-03-28T00:00:00+02:00', to: '2026-03-30T00:00:00+03:00' }), rid));
      }
    } finally {
      process.env.TZ = original;
    }
    expect(results[0]).toHaveLength(6);
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  });
});

describe('group and ticket services', () => {
  it('group capacity before and after bookings', async () => {
    const sid = await riga.service('group', { duration: 'PT1H' });
    const rid = await riga.resource('Hall');
    await riga.link(sid, rid);
    await riga.capacity(sid, 'group', 5);
    await riga.slot(sid, rid, '2026-03-02T08:00:00Z', 3600);
    let r = await times(riga, sid, { ...day('2026-03-02'), spots: 2 });
    expect(r.times[rid]).toEqual([
      expect.objectContaining({ startTime: '2026-03-02T08:00:00Z', spotsAvailable: 5, totalSpots: 5, bookedSpots: 0 }),
    ]);
    await riga.slotUsage(sid, rid, '2026-03-02T08:00:00Z', 3);
    r = await times(riga, sid, { ...day('2026-03-02'), spots: 2 });
    expect(r.times[rid]).toEqual([expect.objectContaining({ spotsAvailable: 2, bookedSpots: 3 })]);
    r = await times(riga, sid, { ...day('2026-03-02'), spots: 3 });
    expect(r.times[rid]).toEqual([]);
  });
  it('ticket capacity per ticket', async () => {
    const sid = await riga.service('ticket', { duration: 'PT2H' });
    const rid = await riga.resource('Boat');
    await riga.link(sid, rid);
    const adult = await riga.ticket(sid, 'Adult');
    const child = await riga.ticket(sid, 'Child');
    await riga.capacity(sid, 'ticket', 6, { [adult]: 2, [child]: 5 });
    await riga.price(sid, 'ticket', 2000, { ticketId: adult });
    await riga.price(sid, 'ticket', 1000, { ticketId: child });
    await riga.slot(sid, rid, '2026-03-02T10:00:00Z', 7200);
    await riga.slotUsage(sid, rid, '2026-03-02T10:00:00Z', 3, { [adult]: 2, [child]: 1 });
    expect((await times(riga, sid, { ...day('2026-03-02'), tickets: { [adult]: 1 } })).times[rid]).toEqual([]);
    const ok = await times(riga, sid, { ...day('2026-03-02'), tickets: { [child]: 2 } });
    expect(ok.times[rid]).toEqual([
      expect.objectContaining({
        startTime: '2026-03-02T10:00:00Z',
        spotsAvailable: 3,
        totalSpots: 6,
        price: expect.objectContaining({ amount: 2000 }),
      }),
    ]);
  });
  it('weekly slots stay at local time across DST', async () => {
    const sid = await riga.service('group', { duration: 'PT1H' });
    const rid = await riga.resource('Studio');
    await riga.link(sid, rid);
    await riga.capacity(sid, 'group', 10);
    await riga.slot(sid, null, '2026-03-21T07:00:00Z', 3600, { rrule: 'FREQ=WEEKLY;BYDAY=SA', timeZone: 'Europe/Riga' });
    const r = await times(riga, sid, { from: '2026-03-20T00:00:00+02:00', to: '2026-04-05T00:00:00+03:00' });
    expect(starts(r, rid)).toEqual(['2026-03-21T07:00:00Z', '2026-03-28T07:00:00Z', '2026-04-04T06:00:00Z']);
  });
});

describe('flexible, days and related resources', () => {
  it('flexible durations follow the price step and bounds', async () => {
    const sid = await riga.service('flexible', { duration: 'PT30M' });
    const rid = await riga.resource('Court');
    await riga.link(sid, rid);
    await riga.hours(rid, H('09:00', '12:00'));
    await riga.price(sid, 'flexible', 1000, { durationSec: 1800, minSec: 1800, maxSec: 7200 });
    const r = await times(riga, sid, { ...day('2026-03-02'), duration: 'PT1H' });
    expect(starts(r, rid)).toEqual([
      '2026-03-02T07:00:00Z',
      '2026-03-02T07:30:00Z',
      '2026-03-02T08:00:00Z',
      '2026-03-02T08:30:00Z',
      '2026-03-02T09:00:00Z',
    ]);
    expect(r.times[rid][0].price.amount).toBe(2000);
    for (const duration of ['PT45M', 'PT3H']) {
      const bad = await t.call('POST', `/v1/companies/${riga.companyId}/services/${sid}/times`, {
        body: { ...day('2026-03-02'), duration },
      });
      expect(bad.status).toBe(400);
    }
    expect((await t.call('POST', `/v1/companies/${riga.companyId}/services/${sid}/times`, { body: day('2026-03-02') })).status).toBe(400);
  });
  it('days stays across a closing period', async () => {
    const sid = await riga.service('days', { checkInTime: '14:00', checkOutTime: '12:00' });
    const rid = await riga.resource('Room 1');
    await riga.link(sid, rid);
    await riga.hours(rid, H('00:00', '24:00'));
    await riga.closing(rid, '2026-03-04T08:00:00Z', '2026-03-04T09:00:00Z');
    const r = await t.call('POST', `/v1/companies/${riga.companyId}/services/${sid}/dates`, {
      body: { from: '2026-03-02T00:00:00+02:00', to: '2026-03-07T00:00:00+02:00', duration: 'P2D' },
    });
    expect(r.status).toBe(200);
    expect(r.body.dates[rid]).toEqual(['2026-03-04', '2026-03-05', '2026-03-06']);
    const tm = await times(riga, sid, { from: '2026-03-04T00:00:00+02:00', to: '2026-03-05T00:00:00+02:00', duration: 'P2D' });
    expect(tm.times[rid]).toEqual([expect.objectContaining({ startTime: '2026-03-04T12:00:00Z', duration: 'P2D' })]);
  });
  it('related resources: every `all` and one `any` must be free', async () => {
    const sid = await riga.service('fixed', { duration: 'PT1H' });
    const [r1, r2, r3, r4] = [
      await riga.resource('A-main'),
      await riga.resource('B-all'),
      await riga.resource('C-any'),
      await riga.resource('D-any'),
    ];
    for (const r of [r1, r2, r3, r4]) await riga.hours(r, H('09:00', '12:00'));
    await riga.link(sid, r1, { all: [r2], any: [r3, r4] });
    await riga.booking(sid, r2, '2026-03-02T08:00:00Z', '2026-03-02T09:00:00Z');
    await riga.booking(sid, r3, '2026-03-02T07:00:00Z', '2026-03-02T08:00:00Z');
    await riga.booking(sid, r4, '2026-03-02T07:00:00Z', '2026-03-02T08:00:00Z');
    await riga.booking(sid, r3, '2026-03-02T09:00:00Z', '2026-03-02T10:00:00Z');
    expect(starts(await times(riga, sid, day('2026-03-02')), r1)).toEqual(['2026-03-02T09:00:00Z']);
  });
});

describe('request validation and tenancy', () => {
  let sid: string;
  beforeAll(async () => {
    sid = (await fixed(riga, {})).sid;
  });
  it.each([
    [{ to: '2026-03-02T00:00:00Z' }, 'from'],
    [{ from: '2026-03-02T00:00:00Z', to: '2026-03-01T00:00:00Z' }, 'to'],
    [{ from: '2026-03-01T00:00:00Z', to: '2026-06-03T00:00:00Z' }, 'to'],
    [{ from: '2026-03-01T00:00:00', to: '2026-03-02T00:00:00Z' }, 'from'],
    [{ from: '2026-03-01T00:00:00Z', to: '2026-03-02T00:00:00Z', resourceIDs: ['x'] }, 'resourceIDs[0]'],
    [{ from: '2026-03-01T00:00:00Z', to: '2026-03-02T00:00:00Z', spots: 0 }, 'spots'],
  ])('rejects %j', async (body, path) => {
    const r = await t.call('POST', `/v1/companies/${riga.companyId}/services/${sid}/times`, { body });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
    expect(r.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });
  it('accepts exactly 93 days', async () => {
    expect(
      (
        await t.call('POST', `/v1/companies/${riga.companyId}/services/${sid}/dates`, {
          body: { from: '2026-03-01T00:00:00Z', to: '2026-06-02T00:00:00Z' },
        })
      ).status,
    ).toBe(200);
  });
  it('answers 404 for an unlinked resource or another company’s service, 403 for another merchant', async () => {
    const other = await riga.resource('unlinked');
    expect(
      (
        await t.call('POST', `/v1/companies/${riga.companyId}/services/${sid}/times`, {
          body: { ...day('2026-03-02'), resourceIDs: [other] },
        })
      ).status,
    ).toBe(404);
    expect((await t.call('POST', `/v1/companies/${ny.companyId}/services/${sid}/times`, { body: day('2026-03-02') })).status).toBe(404);
    const stranger = await t.newMerchant();
    expect(
      (await t.call('POST', `/v1/companies/${riga.companyId}/services/${sid}/times`, { key: stranger, body: day('2026-03-02') })).status,
    ).toBe(403);
  });
  it('answers over GraphQL with the same entries', async () => {
    const rest = await times(riga, sid, day('2026-03-02'));
    const g = await t.gql(
      'query($c: ID!, $s: ID!, $i: AvailableTimesInput!) { availableTimes(companyID: $c, serviceID: $s, input: $i) { timeZone resources { resourceID times { startTime duration price { amount comparedAmount currency } } } } }',
      { c: riga.companyId, s: sid, i: day('2026-03-02') },
    );
    expect(g.body.errors).toBeUndefined();
    // One rendering of instants in both APIs: `...:00Z`, as REST sends them.
    const [only] = g.body.data.availableTimes.resources;
    expect(only.times).toHaveLength(3);
    expect(only.times).toEqual(rest.times[only.resourceID].map((e) => ({ startTime: e.startTime, duration: e.duration, price: e.price })));
    expect(only.times[0].startTime).toBe('2026-03-02T07:00:00Z');
  });
});

describe('property: no returned time overlaps a booking or leaves working hours', () => {
  it('holds on seeded random bookings', async () => {
    const { sid, rid } = await fixed(riga, { duration: 'PT45M', timeInterval: 'PT15M', bufferAfter: 'PT10M' }, [
      {
        daysOfWeek: 124,
        hours: [
          { start: '08:00', end: '12:00' },
          { start: '13:00', end: '18:00' },
        ],
      },
    ]);
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const busy: [number, number][] = [];
    const base = Date.parse('2026-03-02T06:00:00Z');
    for (let i = 0; i < 40; i++) {
      const s = base + Math.floor(rand() * 7 * 24 * 4) * 15 * 60_000;
      const e = s + (1 + Math.floor(rand() * 6)) * 15 * 60_000;
      if (busy.some(([a, b]) => s < b + 600_000 && a < e + 600_000)) continue;
      busy.push([s, e]);
      await riga.booking(sid, rid, new Date(s).toISOString(), new Date(e).toISOString(), { after: 600 });
    }
    const r = await times(riga, sid, { from: '2026-03-02T00:00:00+02:00', to: '2026-03-09T00:00:00+02:00' });
    const list = r.times[rid].map((e) => Date.parse(e.startTime));
    expect(list.length).toBeGreaterThan(20);
    for (const s of list) {
      const e = s + 45 * 60_000;
      for (const [a, b] of busy) expect(s < b + 600_000 && a < e + 600_000).toBe(false);
      const local = new Date(s + 2 * 3600_000);
      const dow = local.getUTCDay();
      expect(dow >= 1 && dow <= 5).toBe(true);
      const m = local.getUTCHours() * 60 + local.getUTCMinutes();
      expect((m >= 480 && m + 45 <= 720) || (m >= 780 && m + 45 <= 1080)).toBe(true);
    }
  });
});

describe('compressed answers', () => {
  it('gzips a large times answer for a client that accepts gzip, with the same JSON inside; a small one stays plain', async () => {
    const { sid } = await fixed(riga, { duration: 'PT15M' }, H('00:00', '24:00'));
    const body = { from: '2026-03-02T00:00:00+02:00', to: '2026-03-30T00:00:00+03:00' };
    const url = `/v1/companies/${riga.companyId}/services/${sid}/times`;
    const plain = await t.call('POST', url, { body });
    const packed = await t.call('POST', url, { body, headers: { 'accept-encoding': 'br, gzip;q=0.9' } });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text.length).toBeGreaterThan(64 * 1024);
    expect(packed.status).toBe(200);
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(packed.headers.vary).toMatch(/accept-encoding/i);
    expect(packed.headers['content-type']).toMatch(/^application\/json/);
    expect(packed.raw.length).toBeLessThan(plain.text.length / 10);
    expect(gunzipSync(packed.raw).toString()).toBe(plain.text);
    const small = await t.call('POST', url, { body: day('2026-03-03'), headers: { 'accept-encoding': 'gzip' } });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body.times).toBeDefined();
  });
});
