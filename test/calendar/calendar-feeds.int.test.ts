import type * as IcalJs from 'ical.js' with { 'resolution-mode': 'import' };
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';

let t: TestApp;
let s: Shop;
let sid: string;
let manual: string;
let rid: string;
let other: string;
const clock = new TestClock(Date.parse('2026-03-20T00:00:00Z'));

// ical.js ships CommonJS beside its ES module; the tests run as CommonJS
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ICAL = require('ical.js') as typeof IcalJs.default;

beforeAll(async () => {
  t = await createTestApp({ clock });
  s = await Shop.open(t, 'Riga rooms', 'Europe/Riga');
  sid = await s.service('fixed', { duration: 'PT1H', currency: 'EUR' }, 'Massage');
  manual = await s.service('fixed', { duration: 'PT1H', currency: 'EUR', bookingPolicy: 'manual' }, 'Consultation');
  rid = await s.resource('Room 1');
  other = await s.resource('Room 2');
  for (const r of [rid, other]) {
    await s.link(sid, r);
    await s.link(manual, r);
    await s.hours(r);
  }
});
afterAll(async () => t?.close());

const feedPath = (url: string) => new URL(url).pathname;
const issue = async (resourceId: string | null = rid, key?: string, companyId = s.companyId) =>
  t.call(
    'POST',
    resourceId ? `/v1/companies/${companyId}/resources/${resourceId}/calendar-feed` : `/v1/companies/${companyId}/calendar-feed`,
    {
      key,
    },
  );
const revoke = (resourceId: string | null = rid, key?: string) =>
  t.call('DELETE', resourceId ? `${s.base}/resources/${resourceId}/calendar-feed` : `${s.base}/calendar-feed`, { key });
const read = (url: string, query: Record<string, string | number> = {}, headers: Record<string, string> = {}) =>
  t.call('GET', feedPath(url), { key: null, query, headers });
const book = async (startTime: string, serviceId = sid, resourceId = rid) => {
  const r = await s.book({ serviceID: serviceId, resourceID: resourceId, startTime });
  if (r.status !== 200) throw new Error(`booking: ${r.status} ${r.text}`);
  return r.body;
};

interface Parsed {
  uid: string;
  sequence: number;
  status: string;
  summary: string;
  tzid: string | null;
  /** DTSTART as written (local wall time) */
  local: string;
  /** DTSTART resolved through the VTIMEZONE, as a UTC instant */
  utc: string;
  utcEnd: string;
}

function parse(text: string): { events: Parsed[]; zones: string[]; name: string } {
  const cal = new ICAL.Component(ICAL.parse(text));
  for (const z of cal.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(z);
  const events = cal.getAllSubcomponents('vevent').map((v: any) => {
    const start = v.getFirstProperty('dtstart');
    const e = new ICAL.Event(v);
    return {
      uid: e.uid,
      sequence: e.sequence,
      status: String(v.getFirstPropertyValue('status')),
      summary: e.summary,
      tzid: start.getParameter('tzid') ?? null,
      local: e.startDate.toString(),
      utc: e.startDate.toJSDate().toISOString(),
      utcEnd: e.endDate.toJSDate().toISOString(),
    };
  });
  return {
    events,
    zones: cal.getAllSubcomponents('vtimezone').map((z: any) => z.getFirstPropertyValue('tzid')),
    name: String(cal.getFirstPropertyValue('name')),
  };
}

describe('calendar feeds', () => {
  it('serve confirmed and pending bookings in the company time zone, across both DST changes of Europe/Riga', async () => {
    // Riga: UTC+2 until the last Sunday of March (29 March 2026), UTC+3 until the last Sunday of October (25 October)
    const beforeSpring = await book('2026-03-28T10:00:00+02:00');
    const afterSpring = await book('2026-03-30T10:00:00+03:00');
    const beforeAutumn = await book('2026-10-24T10:00:00+03:00');
    const afterAutumn = await book('2026-10-26T10:00:00+02:00');
    const pending = await book('2026-03-31T15:00:00+03:00', manual);
    expect(pending.status).toBe('pending');
    const elsewhere = await book('2026-03-28T10:00:00+02:00', sid, other);

    const issued = await issue();
    expect(issued.status).toBe(201);
    expect(issued.body.url).toMatch(/^http:\/\/localhost:\d+\/v1\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const r = await read(issued.body.url, { futureDays: 240 });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(r.headers['cache-control']).toContain('private');
    const feed = parse(r.text);
    expect(feed.zones).toEqual(['Europe/Riga']);
    expect(feed.name).toBe('Riga rooms: Room 1');
    const byUid = new Map(feed.events.map((e) => [e.uid, e]));
    expect([...byUid.keys()].sort()).toEqual(
      [beforeSpring, afterSpring, beforeAutumn, afterAutumn, pending].map((b) => `${b.id}@localhost`).sort(),
    );
    expect(byUid.has(`${elsewhere.id}@localhost`)).toBe(false);
    for (const [b, utc] of [
      [beforeSpring, '2026-03-28T08:00:00.000Z'],
      [afterSpring, '2026-03-30T07:00:00.000Z'],
      [beforeAutumn, '2026-10-24T07:00:00.000Z'],
      [afterAutumn, '2026-10-26T08:00:00.000Z'],
    ] as const) {
      const e = byUid.get(`${b.id}@localhost`)!;
      expect(e.tzid).toBe('Europe/Riga');
      expect(e.local).toMatch(/T10:00:00$/);
      expect(e.utc).toBe(utc);
      expect(Date.parse(e.utcEnd) - Date.parse(e.utc)).toBe(3600_000);
      expect(e.status).toBe('CONFIRMED');
      expect(e.summary).toBe('Massage');
      expect(e.sequence).toBe(0);
    }
    expect(byUid.get(`${pending.id}@localhost`)).toMatchObject({
      status: 'TENTATIVE',
      summary: 'Consultation (pending)',
      utc: '2026-03-31T12:00:00.000Z',
    });
    // DTSTAMP is UTC, as RFC 5545 requires
    expect(r.text).toMatch(/DTSTAMP:\d{8}T\d{6}Z/);

    // the window: the default 180 days end before October; 0 days ahead show nothing
    const near = parse((await read(issued.body.url)).text).events.map((e) => e.uid);
    expect(near).not.toContain(`${beforeAutumn.id}@localhost`);
    expect(near).toContain(`${afterSpring.id}@localhost`);
    expect(parse((await read(issued.body.url, { futureDays: 0, pastDays: 0 })).text).events).toEqual([]);
    for (const bad of [{ futureDays: -1 }, { futureDays: 732 }, { pastDays: 'many' }, { pastDays: 367 }]) {
      const b = await read(issued.body.url, bad as unknown as Record<string, string | number>);
      expect(b.status).toBe(400);
      expect(b.body.code).toBe('invalid_request');
    }

    // the company-wide feed holds every resource's bookings
    const company = await issue(null);
    expect(company.status).toBe(201);
    const all = parse((await read(company.body.url)).text).events.map((e) => e.uid);
    expect(all).toContain(`${elsewhere.id}@localhost`);
    expect(all).toContain(`${beforeSpring.id}@localhost`);
  });

  it('keeps UIDs, bumps SEQUENCE on a move, drops cancelled bookings, and answers 304 while nothing changed', async () => {
    const room = await s.resource('Room 3');
    await s.link(sid, room);
    await s.hours(room);
    const b = await book('2026-04-02T09:00:00+03:00', sid, room);
    const kept = await book('2026-04-03T09:00:00+03:00', sid, room);
    const url = (await issue(room)).body.url;
    const first = await read(url);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await read(url, {}, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect((await read(url, {}, { 'if-none-match': `W/${etag}` })).status).toBe(304);
    expect((await read(url, {}, { 'if-none-match': '"something-else"' })).status).toBe(200);
    // time passing alone changes nothing
    clock.advance(3600_000);
    expect((await read(url, {}, { 'if-none-match': etag })).status).toBe(304);

    expect((await s.move(b.id, { resourceID: room, startTime: '2026-04-02T11:00:00+03:00' })).status).toBe(200);
    const moved = await read(url, {}, { 'if-none-match': etag });
    expect(moved.status).toBe(200);
    expect(moved.headers.etag).not.toBe(etag);
    const events = new Map(parse(moved.text).events.map((e) => [e.uid, e]));
    expect(events.get(`${b.id}@localhost`)).toMatchObject({ sequence: 1, utc: '2026-04-02T08:00:00.000Z' });
    expect(events.get(`${kept.id}@localhost`)).toMatchObject({ sequence: 0 });
    // a change that is not a move (metadata) leaves SEQUENCE alone
    expect((await s.patch(kept.id, { metaDataUpdate: { expectedVersion: 1, path: 'note', value: 'x' } })).status).toBe(200);
    expect((await s.move(b.id, { resourceID: room, startTime: '2026-04-02T12:00:00+03:00' })).status).toBe(200);
    const twice = new Map(parse((await read(url)).text).events.map((e) => [e.uid, e]));
    expect(twice.get(`${b.id}@localhost`)!.sequence).toBe(2);
    expect(twice.get(`${kept.id}@localhost`)!.sequence).toBe(0);

    expect((await s.patch(b.id, { status: 'cancelled' })).body.status).toBe('cancelled');
    const after = parse((await read(url)).text).events.map((e) => e.uid);
    expect(after).toEqual([`${kept.id}@localhost`]);
    clock.set('2026-03-20T00:00:00Z');
  });

  it('revokes: the old URL answers 404, and issuing again replaces the URL', async () => {
    const first = (await issue(other)).body.url;
    const second = (await issue(other)).body.url;
    expect(second).not.toBe(first);
    expect((await read(first)).status).toBe(404);
    expect((await read(second)).status).toBe(200);
    expect((await revoke(other)).status).toBe(204);
    const gone = await read(second);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('not_found');
    expect((await revoke(other)).status).toBe(404);
    for (const junk of ['/v1/calendar/nope.ics', '/v1/calendar/x', `/v1/calendar/${'a'.repeat(43)}.ics`])
      expect((await t.call('GET', junk, { key: null })).status).toBe(404);
  });

  it("answers 404 for another company's resource and 403 without bookings.write", async () => {
    const theirs = await Shop.open(t, 'Theirs');
    const theirRoom = await theirs.resource('Their room');
    expect((await issue(theirRoom)).status).toBe(404);
    expect((await t.call('DELETE', `${s.base}/resources/${theirRoom}/calendar-feed`)).status).toBe(404);
    expect((await issue('not-a-uuid')).status).toBe(400);
    const noBookings = await t.keyWith({ [s.companyId]: ['resources.*'] });
    expect((await issue(rid, noBookings)).status).toBe(403);
    const writer = await t.keyWith({ [s.companyId]: ['bookings.write'] });
    expect((await issue(rid, writer)).status).toBe(201);
    const stranger = await t.newMerchant();
    expect((await issue(rid, stranger)).status).toBe(403);
  });

  it('a read-only key can neither create, replace nor revoke a feed (REST and GraphQL); reading needs only the URL', async () => {
    const reader = await t.keyWith({ [s.companyId]: ['bookings.read', 'resources.read'] });
    const url = (await issue(rid)).body.url;
    const companyUrl = (await issue(null)).body.url;
    for (const scope of [rid, null]) {
      const created = await issue(scope, reader);
      expect(created.status).toBe(403);
      expect(created.body.code).toBe('forbidden');
      expect((await revoke(scope, reader)).status).toBe(403);
    }
    const both = { c: s.companyId, r: rid };
    const company = { c: s.companyId };
    for (const [q, vars] of [
      [`mutation($c: ID!, $r: ID!) { createResourceCalendarFeed(companyID: $c, resourceID: $r) { url } }`, both],
      [`mutation($c: ID!, $r: ID!) { revokeResourceCalendarFeed(companyID: $c, resourceID: $r) }`, both],
      [`mutation($c: ID!) { createCompanyCalendarFeed(companyID: $c) { url } }`, company],
      [`mutation($c: ID!) { revokeCompanyCalendarFeed(companyID: $c) }`, company],
    ] as const) {
      const r = await t.gql(q, vars, { key: reader });
      expect(r.body.errors?.[0]?.extensions.code).toBe('forbidden');
    }
    // Nothing changed: both URLs still work, without any key.
    expect((await read(url)).status).toBe(200);
    expect((await read(companyUrl)).status).toBe(200);
  });

  it('issues and revokes over GraphQL', async () => {
    const made = await t.gql(`mutation($c: ID!, $r: ID!) { createResourceCalendarFeed(companyID: $c, resourceID: $r) { url } }`, {
      c: s.companyId,
      r: rid,
    });
    expect(made.body.errors).toBeUndefined();
    const url = made.body.data.createResourceCalendarFeed.url;
    expect((await read(url)).status).toBe(200);
    const revoked = await t.gql(`mutation($c: ID!, $r: ID!) { revokeResourceCalendarFeed(companyID: $c, resourceID: $r) }`, {
      c: s.companyId,
      r: rid,
    });
    expect(revoked.body.data.revokeResourceCalendarFeed).toBe(true);
    expect((await read(url)).status).toBe(404);
    const company = await t.gql(`mutation($c: ID!) { createCompanyCalendarFeed(companyID: $c) { url } }`, { c: s.companyId });
    expect((await read(company.body.data.createCompanyCalendarFeed.url)).status).toBe(200);
    const gone = await t.gql(`mutation($c: ID!) { revokeCompanyCalendarFeed(companyID: $c) }`, { c: s.companyId });
    expect(gone.body.data.revokeCompanyCalendarFeed).toBe(true);
    expect((await read(company.body.data.createCompanyCalendarFeed.url)).status).toBe(404);
  });
});
