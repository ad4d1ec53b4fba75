import { DateTime } from 'luxon';
import { createTestApp, type TestApp } from '../helpers/app';
import { createCtx } from '../../src/kernel/context';
import { loadSnapshot } from '../../src/modules/availability/snapshot';
import { findCompany } from '../../src/modules/company/company.access';

/**
 * Slots and their schedule. Every expectation is an absolute instant, and this file is run
 * under several process time zones (TZ=UTC, America/New_York, Asia/Kolkata): the answers must
 * not depend on it.
 */

let t: TestApp;
let cid: string;
let room: string;
let hall: string;

const C = (company = cid) => `/v1/companies/${company}`;
const SL = (sid: string, company = cid) => `${C(company)}/services/${sid}/slots`;

async function post(url: string, body: unknown): Promise<any> {
  const r = await t.call('POST', url, { body });
  if (r.status !== 201) throw new Error(`${url}: ${r.status} ${r.text}`);
  return r.body;
}

async function service(type: string, resources: string[], company = cid, duration = 'PT1H'): Promise<string> {
  const id = (await post(`${C(company)}/services`, { name: `${type} ${Math.random()}`, type, settings: { duration } })).id;
  for (const r of resources) await post(`${C(company)}/services/${id}/links`, { resourceID: r });
  return id;
}

async function schedule(sids: string[], from: string, to: string, opts: { resources?: string[]; company?: string } = {}) {
  return t.call('GET', `${C(opts.company)}/slots/schedule`, {
    query: { service_ids: sids.join(','), resource_ids: opts.resources?.join(','), from, to },
  });
}

/** `startTime@resource duration` of each schedule entry, compact enough to compare exactly. */
async function occurrences(
  sid: string,
  from: string,
  to: string,
  opts: { resources?: string[]; company?: string } = {},
): Promise<string[]> {
  const r = await schedule([sid], from, to, opts);
  if (r.status !== 200) throw new Error(`schedule: ${r.status} ${r.text}`);
  return r.body.map(
    (s: any) => `${s.startTime}@${s.resourceID === room ? 'room' : s.resourceID === hall ? 'hall' : s.resourceID} ${s.duration}`,
  );
}

beforeAll(async () => {
  t = await createTestApp();
  cid = (await t.company('Slots', 'Europe/Riga')).id;
  room = (await post(`${C()}/resources`, { name: 'Room', color: '#112233' })).id;
  hall = (await post(`${C()}/resources`, { name: 'Hall', color: '#112233' })).id;
});
afterAll(async () => t?.close());

describe('slots', () => {
  it('runs in the process time zone it was started with', () => {
    // Guards the multi-TZ runs: the expectations below must hold whatever this zone is.
    const at = Date.parse('2026-07-01T00:00:00Z');
    if (process.env.TZ) expect(new Date(at).getTimezoneOffset() + DateTime.fromMillis(at, { zone: process.env.TZ }).offset).toBe(0);
  });

  it('creates single and recurring slots and lists them', async () => {
    const sid = await service('group', [room, hall]);
    const single = await t.call('POST', SL(sid), { body: { startTime: '2026-05-01T18:00:00+03:00', resourceID: room } });
    expect(single.status).toBe(201);
    expect(single.body).toEqual({
      id: expect.any(String),
      serviceID: sid,
      resourceID: room,
      startTime: '2026-05-01T15:00:00Z',
      duration: 'PT1H',
      rrule: null,
      type: 'single',
      repeat: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const series = await post(SL(sid), {
      startTime: '2026-05-02T09:00:00+03:00',
      duration: 'PT90M',
      repeat: { rrule: 'RRULE:FREQ=WEEKLY;BYDAY=SA,SU', until: '2026-12-31T00:00:00Z' },
    });
    expect(series).toMatchObject({
      resourceID: null,
      startTime: '2026-05-02T06:00:00Z',
      duration: 'PT1H30M',
      type: 'recurring',
      rrule: 'FREQ=WEEKLY;BYDAY=SA,SU',
      repeat: { rrule: 'FREQ=WEEKLY;BYDAY=SA,SU', timeZone: 'Europe/Riga', until: '2026-12-31T00:00:00Z' },
    });
    const list = await t.call('GET', SL(sid));
    expect(list.status).toBe(200);
    expect(list.body.map((s: any) => s.id)).toEqual([single.body.id, series.id]);
  });

  it('validates slots', async () => {
    const sid = await service('ticket', [room]);
    const bad: [unknown, string][] = [
      [{ startTime: '2026-05-01T18:00:00', resourceID: room }, 'startTime'],
      [{ startTime: '2026-05-01T18:00:00Z', duration: 'PT0S' }, 'duration'],
      [{ startTime: '2026-05-01T18:00:00Z', duration: 'P40D' }, 'duration'],
      [{ startTime: '2026-05-01T18:00:00Z', repeat: { rrule: 'FREQ=SOMETIMES' } }, 'repeat.rrule'],
      [{ startTime: '2026-05-01T18:00:00Z', repeat: { rrule: 'FREQ=HOURLY' } }, 'repeat.rrule'],
      [{ startTime: '2026-05-01T18:00:00Z', repeat: { rrule: 'DTSTART:20260501T180000Z\nRRULE:FREQ=DAILY' } }, 'repeat.rrule'],
      [{ startTime: '2026-05-01T18:00:00Z', repeat: { rrule: 'FREQ=DAILY;BYDAY=XX' } }, 'repeat.rrule'],
      [{ startTime: '2026-05-01T18:00:00Z', repeat: { rrule: 'FREQ=DAILY', timeZone: 'Mars/Olympus' } }, 'repeat.timeZone'],
      [{ startTime: '2026-05-01T18:00:00Z', repeat: { rrule: 'FREQ=DAILY', until: '2026-04-01T00:00:00Z' } }, 'repeat.until'],
      [{ startTime: '2026-05-01T18:00:00Z', resourceID: 'room' }, 'resourceID'],
    ];
    for (const [body, path] of bad) {
      const r = await t.call('POST', SL(sid), { body });
      expect([r.status, r.body.code, r.body.details?.map((d: any) => d.path)]).toEqual([
        400,
        'invalid_request',
        expect.arrayContaining([path]),
      ]);
    }
    // a resource not linked to the service
    expect((await t.call('POST', SL(sid), { body: { startTime: '2026-05-01T18:00:00Z', resourceID: hall } })).status).toBe(400);
    // slots belong to group and ticket services
    const fixed = await service('fixed', [room]);
    expect((await t.call('POST', SL(fixed), { body: { startTime: '2026-05-01T18:00:00Z' } })).status).toBe(400);
    expect((await t.call('GET', SL(sid))).body).toEqual([]);
  });

  it('keeps a weekly 09:00 Riga class at 09:00 local across the DST change (07:00Z before, 06:00Z after)', async () => {
    const sid = await service('group', [room]);
    await post(SL(sid), { startTime: '2026-03-21T09:00:00+02:00', resourceID: room, repeat: { rrule: 'FREQ=WEEKLY;BYDAY=SA,SU' } });
    expect(await occurrences(sid, '2026-03-20T00:00:00Z', '2026-04-06T00:00:00Z')).toEqual([
      '2026-03-21T07:00:00Z@room PT1H',
      '2026-03-22T07:00:00Z@room PT1H',
      '2026-03-28T07:00:00Z@room PT1H',
      '2026-03-29T06:00:00Z@room PT1H',
      '2026-04-04T06:00:00Z@room PT1H',
      '2026-04-05T06:00:00Z@room PT1H',
    ]);
  });

  it('keeps a weekly 09:00 New York class at 09:00 local when DST ends on 2026-11-01', async () => {
    const ny = (await t.company('NY', 'America/New_York')).id;
    const studio = (await post(`${C(ny)}/resources`, { name: 'Studio', color: '#112233' })).id;
    const sid = await service('group', [studio], ny);
    await post(SL(sid, ny), { startTime: '2026-10-24T09:00:00-04:00', repeat: { rrule: 'FREQ=WEEKLY;BYDAY=SA,SU' } });
    const r = await schedule([sid], '2026-10-30T00:00:00Z', '2026-11-09T00:00:00Z', { company: ny });
    expect(r.body.map((s: any) => [s.startTime, s.resourceID])).toEqual([
      ['2026-10-31T13:00:00Z', studio],
      ['2026-11-01T14:00:00Z', studio],
      ['2026-11-07T14:00:00Z', studio],
      ['2026-11-08T14:00:00Z', studio],
    ]);
    // an explicit zone on a Riga company's slot is honoured too
    const riga = await service('group', [room]);
    await post(SL(riga), {
      startTime: '2026-10-31T09:00:00-04:00',
      resourceID: room,
      repeat: { rrule: 'FREQ=DAILY;COUNT=2', timeZone: 'America/New_York' },
    });
    expect(await occurrences(riga, '2026-10-01T00:00:00Z', '2026-12-01T00:00:00Z')).toEqual([
      '2026-10-31T13:00:00Z@room PT1H',
      '2026-11-01T14:00:00Z@room PT1H',
    ]);
  });

  it('expands a slot without resource once per linked resource (and only the asked ones)', async () => {
    const sid = await service('group', [room, hall]);
    const slot = await post(SL(sid), { startTime: '2026-03-28T18:00:00+02:00', repeat: { rrule: 'FREQ=DAILY;COUNT=3' } });
    const r = await schedule([sid], '2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z');
    expect(r.status).toBe(200);
    const pairs = r.body.map((s: any) => [s.startTime, s.resourceID]);
    const [a, b] = [room, hall].sort();
    expect(pairs).toEqual([
      ['2026-03-28T16:00:00Z', a],
      ['2026-03-28T16:00:00Z', b],
      ['2026-03-29T15:00:00Z', a],
      ['2026-03-29T15:00:00Z', b],
      ['2026-03-30T15:00:00Z', a],
      ['2026-03-30T15:00:00Z', b],
    ]);
    expect(r.body[0]).toEqual({ ...slot, startTime: '2026-03-28T16:00:00Z', resourceID: a });
    expect(await occurrences(sid, '2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z', { resources: [hall] })).toEqual([
      '2026-03-28T16:00:00Z@hall PT1H',
      '2026-03-29T15:00:00Z@hall PT1H',
      '2026-03-30T15:00:00Z@hall PT1H',
    ]);
    // overlap semantics: an occurrence running across `from` is included, one starting at `to` is not
    expect(await occurrences(sid, '2026-03-29T15:30:00Z', '2026-03-30T15:00:00Z', { resources: [room] })).toEqual([
      '2026-03-29T15:00:00Z@room PT1H',
    ]);

    const ctx = createCtx(t.deps, null, 'test', t.deps.log);
    const company = await findCompany(ctx, cid);
    let loaded: Awaited<ReturnType<typeof loadSnapshot>> = null;
    const range = { from: Date.parse('2026-03-29T00:00:00Z'), to: Date.parse('2026-04-01T00:00:00Z'), resourceIds: [room, hall] };
    expect(await t.countStatements(async () => (loaded = await loadSnapshot(ctx, company, sid, range)))).toBe(1);
    const held = loaded!.snapshot.slots.map((o) => ({
      resourceID: o.resourceID,
      start: o.start,
      durationSec: o.durationSec,
      bookedSpots: o.bookedSpots,
    }));
    expect(held.sort((x, y) => x.start - y.start || (x.resourceID < y.resourceID ? -1 : 1))).toEqual([
      { resourceID: a, start: Date.parse('2026-03-29T15:00:00Z'), durationSec: 3600, bookedSpots: 0 },
      { resourceID: b, start: Date.parse('2026-03-29T15:00:00Z'), durationSec: 3600, bookedSpots: 0 },
      { resourceID: a, start: Date.parse('2026-03-30T15:00:00Z'), durationSec: 3600, bookedSpots: 0 },
      { resourceID: b, start: Date.parse('2026-03-30T15:00:00Z'), durationSec: 3600, bookedSpots: 0 },
    ]);
  });

  it('updates and deletes occurrences with single and upcoming', async () => {
    const sid = await service('group', [room, hall]);
    const series = await post(SL(sid), {
      startTime: '2026-03-21T09:00:00+02:00',
      resourceID: room,
      repeat: { rrule: 'FREQ=WEEKLY;BYDAY=SA,SU' },
    });
    const range = ['2026-03-20T00:00:00Z', '2026-04-13T00:00:00Z'] as const;
    expect(await occurrences(sid, ...range)).toEqual([
      '2026-03-21T07:00:00Z@room PT1H',
      '2026-03-22T07:00:00Z@room PT1H',
      '2026-03-28T07:00:00Z@room PT1H',
      '2026-03-29T06:00:00Z@room PT1H',
      '2026-04-04T06:00:00Z@room PT1H',
      '2026-04-05T06:00:00Z@room PT1H',
      '2026-04-11T06:00:00Z@room PT1H',
      '2026-04-12T06:00:00Z@room PT1H',
    ]);

    // single: the 28 March class moves to 10:00 and lasts two hours; the series skips it
    const moved = await t.call('PATCH', SL(sid), {
      body: {
        resourceID: room,
        startTime: '2026-03-28T07:00:00Z',
        updateStrategy: 'single',
        newStartTime: '2026-03-28T10:00:00+02:00',
        newDuration: 'PT2H',
      },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      type: 'single',
      resourceID: room,
      startTime: '2026-03-28T08:00:00Z',
      duration: 'PT2H',
      rrule: null,
    });
    expect(moved.body.id).not.toBe(series.id);

    // single delete: 11 April is cancelled
    expect(
      (await t.call('DELETE', SL(sid), { query: { resourceID: room, startTime: '2026-04-11T09:00:00+03:00', deleteStrategy: 'single' } }))
        .status,
    ).toBe(204);
    expect(await occurrences(sid, ...range)).toEqual([
      '2026-03-21T07:00:00Z@room PT1H',
      '2026-03-22T07:00:00Z@room PT1H',
      '2026-03-28T08:00:00Z@room PT2H',
      '2026-03-29T06:00:00Z@room PT1H',
      '2026-04-04T06:00:00Z@room PT1H',
      '2026-04-05T06:00:00Z@room PT1H',
      '2026-04-12T06:00:00Z@room PT1H',
    ]);

    // upcoming: from 4 April the class is at 10:00 on the hall; the cancelled 11 April stays cancelled
    const upcoming = await t.call('PATCH', SL(sid), {
      body: {
        resourceID: room,
        startTime: '2026-04-04T06:00:00Z',
        updateStrategy: 'upcoming',
        newStartTime: '2026-04-04T10:00:00+03:00',
        newResourceID: hall,
      },
    });
    expect(upcoming.status).toBe(200);
    expect(upcoming.body).toMatchObject({
      type: 'recurring',
      resourceID: hall,
      startTime: '2026-04-04T07:00:00Z',
      rrule: 'FREQ=WEEKLY;BYDAY=SA,SU',
    });
    const slots = (await t.call('GET', SL(sid))).body;
    expect(slots.find((s: any) => s.id === series.id).rrule).toContain('UNTIL=20260404T055959Z');
    expect(await occurrences(sid, ...range)).toEqual([
      '2026-03-21T07:00:00Z@room PT1H',
      '2026-03-22T07:00:00Z@room PT1H',
      '2026-03-28T08:00:00Z@room PT2H',
      '2026-03-29T06:00:00Z@room PT1H',
      '2026-04-04T07:00:00Z@hall PT1H',
      '2026-04-05T07:00:00Z@hall PT1H',
      '2026-04-12T07:00:00Z@hall PT1H',
    ]);

    // upcoming delete from 5 April ends the new series after its first occurrence
    expect(
      (await t.call('DELETE', SL(sid), { query: { resourceID: hall, startTime: '2026-04-05T07:00:00Z', deleteStrategy: 'upcoming' } }))
        .status,
    ).toBe(204);
    expect(await occurrences(sid, '2026-04-01T00:00:00Z', '2026-06-01T00:00:00Z')).toEqual(['2026-04-04T07:00:00Z@hall PT1H']);
    // upcoming delete from a series' first occurrence removes the series
    expect(
      (await t.call('DELETE', SL(sid), { query: { resourceID: hall, startTime: '2026-04-04T07:00:00Z', deleteStrategy: 'upcoming' } }))
        .status,
    ).toBe(204);
    expect((await t.call('GET', SL(sid))).body.map((s: any) => s.id).sort()).toEqual([series.id, moved.body.id].sort());
    // a single slot is deleted outright
    expect(
      (await t.call('DELETE', SL(sid), { query: { resourceID: room, startTime: '2026-03-28T08:00:00Z', deleteStrategy: 'single' } }))
        .status,
    ).toBe(204);
    expect(await occurrences(sid, ...range)).toEqual([
      '2026-03-21T07:00:00Z@room PT1H',
      '2026-03-22T07:00:00Z@room PT1H',
      '2026-03-29T06:00:00Z@room PT1H',
    ]);

    // no occurrence there: 404; bad strategy or time: 400
    expect(
      (await t.call('DELETE', SL(sid), { query: { resourceID: room, startTime: '2026-03-21T07:30:00Z', deleteStrategy: 'single' } }))
        .status,
    ).toBe(404);
    expect(
      (await t.call('DELETE', SL(sid), { query: { resourceID: room, startTime: '2026-03-21T07:00:00Z', deleteStrategy: 'all' } })).status,
    ).toBe(400);
    expect((await t.call('PATCH', SL(sid), { body: { resourceID: room, startTime: 'soon', updateStrategy: 'single' } })).status).toBe(400);
    expect(
      (
        await t.call('PATCH', SL(sid), {
          body: { resourceID: room, startTime: '2026-03-21T07:00:00Z', updateStrategy: 'single', newRepeat: { rrule: 'FREQ=DAILY' } },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.call('PATCH', SL(sid), {
          body: { resourceID: room, startTime: '2026-03-21T07:30:00Z', updateStrategy: 'upcoming', newRepeat: { rrule: 'FREQ=NEVER' } },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.call('PATCH', SL(sid), {
          body: { resourceID: room, startTime: '2026-03-21T07:30:00Z', updateStrategy: 'upcoming', newStartTime: '2026-03-21T08:00:00Z' },
        })
      ).status,
    ).toBe(404);
  });

  it('changes the rule of upcoming occurrences with newRepeat', async () => {
    const sid = await service('group', [room]);
    await post(SL(sid), { startTime: '2026-06-01T18:00:00+03:00', resourceID: room, repeat: { rrule: 'FREQ=DAILY' } });
    const r = await t.call('PATCH', SL(sid), {
      body: {
        resourceID: room,
        startTime: '2026-06-03T15:00:00Z',
        updateStrategy: 'upcoming',
        newRepeat: { rrule: 'FREQ=WEEKLY;COUNT=2' },
      },
    });
    expect(r.status).toBe(200);
    expect(await occurrences(sid, '2026-06-01T00:00:00Z', '2026-07-01T00:00:00Z')).toEqual([
      '2026-06-01T15:00:00Z@room PT1H',
      '2026-06-02T15:00:00Z@room PT1H',
      '2026-06-03T15:00:00Z@room PT1H',
      '2026-06-10T15:00:00Z@room PT1H',
    ]);
  });

  it('expands an unbounded rule only over the asked range and caps the range', async () => {
    const sid = await service('ticket', [room]);
    await post(SL(sid), { startTime: '2026-01-01T08:00:00+02:00', resourceID: room, repeat: { rrule: 'FREQ=DAILY' } });
    const started = Date.now();
    expect(await occurrences(sid, '2031-06-01T00:00:00Z', '2031-06-03T00:00:00Z')).toEqual([
      '2031-06-01T05:00:00Z@room PT1H',
      '2031-06-02T05:00:00Z@room PT1H',
    ]);
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await schedule([sid], '2026-01-01T00:00:00Z', '2026-04-04T00:00:00Z')).status).toBe(200); // 93 days
    expect((await schedule([sid], '2026-01-01T00:00:00Z', '2026-04-04T00:00:01Z')).status).toBe(400);
    expect((await schedule([sid], '2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z')).status).toBe(400);
    expect((await schedule([sid], '2026-01-01T00:00:00', '2026-01-02T00:00:00Z')).status).toBe(400);
    expect(
      (await t.call('GET', `${C()}/slots/schedule`, { query: { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' } })).status,
    ).toBe(400);
    // a rule dense enough to flood the answer is refused rather than built
    const dense = await service('ticket', [room]);
    const minutes = Array.from({ length: 12 }, (_, i) => i * 5).join(',');
    const hours = Array.from({ length: 24 }, (_, i) => i).join(',');
    await post(SL(dense), {
      startTime: '2026-01-01T00:00:00+02:00',
      resourceID: room,
      duration: 'PT5M',
      repeat: { rrule: `FREQ=DAILY;BYHOUR=${hours};BYMINUTE=${minutes}` },
    });
    expect((await schedule([dense], '2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z')).status).toBe(400);
    expect(await occurrences(dense, '2026-01-02T00:00:00Z', '2026-01-02T01:00:00Z')).toHaveLength(12);
  });
});

describe('GraphQL', () => {
  it('creates, lists, schedules, updates and deletes slots', async () => {
    const sid = await service('group', [room]);
    const FIELDS = 'id serviceID resourceID startTime duration rrule type repeat { rrule timeZone until }';
    const created = await t.gql(
      `mutation($c: ID!, $s: ID!, $i: CreateSlotInput!) { createSlot(companyID: $c, serviceID: $s, input: $i) { ${FIELDS} } }`,
      { c: cid, s: sid, i: { startTime: '2026-03-27T09:00:00+02:00', resourceID: room, repeat: { rrule: 'FREQ=DAILY;COUNT=4' } } },
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createSlot).toMatchObject({
      type: 'recurring',
      duration: 'PT1H',
      repeat: { rrule: 'FREQ=DAILY;COUNT=4', timeZone: 'Europe/Riga', until: null },
    });
    const bad = await t.gql(
      `mutation($c: ID!, $s: ID!) { createSlot(companyID: $c, serviceID: $s, input: {startTime: "2026-03-27T09:00:00Z", repeat: {rrule: "FREQ=YEARLY;BYWEEKNO=1"}}) { id } }`,
      { c: cid, s: sid },
    );
    expect(bad.body.errors[0].extensions.code).toBe('invalid_request');
    const listed = await t.gql(`query($c: ID!, $s: ID!) { slots(companyID: $c, serviceID: $s) { slots { id } } }`, { c: cid, s: sid });
    expect(listed.body.data.slots.slots).toEqual([{ id: created.body.data.createSlot.id }]);

    const SCHEDULE = `query($c: ID!, $s: [ID!]!) { slotSchedule(companyID: $c, serviceIDs: $s, from: "2026-03-26T00:00:00Z", to: "2026-04-01T00:00:00Z") { slots { startTime resourceID } } }`;
    const iso = (v: string) => new Date(v).toISOString().replace('.000Z', 'Z');
    const before = await t.gql(SCHEDULE, { c: cid, s: [sid] });
    expect(before.body.data.slotSchedule.slots.map((s: any) => iso(s.startTime))).toEqual([
      '2026-03-27T07:00:00Z',
      '2026-03-28T07:00:00Z',
      '2026-03-29T06:00:00Z',
      '2026-03-30T06:00:00Z',
    ]);

    const upd = await t.gql(
      `mutation($c: ID!, $s: ID!) { updateSlot(companyID: $c, serviceID: $s, input: {resourceID: "${room}", startTime: "2026-03-28T07:00:00Z", updateStrategy: single, newStartTime: "2026-03-28T12:00:00Z"}) { type startTime } }`,
      { c: cid, s: sid },
    );
    expect(upd.body.data.updateSlot.type).toBe('single');
    const del = await t.gql(
      `mutation($c: ID!, $s: ID!) { deleteSlot(companyID: $c, serviceID: $s, input: {resourceID: "${room}", startTime: "2026-03-30T06:00:00Z", deleteStrategy: upcoming}) }`,
      { c: cid, s: sid },
    );
    expect(del.body.data.deleteSlot).toBe(true);
    const after = await t.gql(SCHEDULE, { c: cid, s: [sid] });
    expect(after.body.data.slotSchedule.slots.map((s: any) => iso(s.startTime))).toEqual([
      '2026-03-27T07:00:00Z',
      '2026-03-28T12:00:00Z',
      '2026-03-29T06:00:00Z',
    ]);
  });
});

describe('isolation and permissions', () => {
  it('answers 404 across companies and 403 for another merchant or a missing permission', async () => {
    const sid = await service('group', [room]);
    await post(SL(sid), { startTime: '2026-05-01T18:00:00Z', resourceID: room });
    const second = (await t.company('Second', 'Europe/Riga')).id;
    expect((await t.call('GET', SL(sid, second))).status).toBe(404);
    expect((await t.call('POST', SL(sid, second), { body: { startTime: '2026-05-01T18:00:00Z' } })).status).toBe(404);
    expect((await schedule([sid], '2026-05-01T00:00:00Z', '2026-05-02T00:00:00Z', { company: second })).status).toBe(404);
    // a resource of another company on a slot of this one
    const theirRoom = (await post(`${C(second)}/resources`, { name: 'Theirs', color: '#112233' })).id;
    expect((await t.call('POST', SL(sid), { body: { startTime: '2026-05-01T18:00:00Z', resourceID: theirRoom } })).status).toBe(404);
    expect((await schedule([sid], '2026-05-01T00:00:00Z', '2026-05-02T00:00:00Z', { resources: [theirRoom] })).status).toBe(404);

    const otherKey = await t.newMerchant();
    const r = await t.call('GET', SL(sid), { key: otherKey });
    expect([r.status, r.body.code]).toEqual([403, 'forbidden']);
    expect(
      (
        await t.call('DELETE', SL(sid), {
          key: otherKey,
          query: { resourceID: room, startTime: '2026-05-01T18:00:00Z', deleteStrategy: 'single' },
        })
      ).status,
    ).toBe(403);
    const rulesOnly = await t.keyWith({ [cid]: ['rules.*'] });
    expect((await t.call('GET', SL(sid), { key: rulesOnly })).status).toBe(403);
    const reader = await t.keyWith({ [cid]: ['slots.read'] });
    expect((await t.call('GET', SL(sid), { key: reader })).status).toBe(200);
    expect(
      (
        await t.call('GET', `${C()}/slots/schedule`, {
          key: reader,
          query: { service_ids: sid, from: '2026-05-01T00:00:00Z', to: '2026-05-02T00:00:00Z' },
        })
      ).body,
    ).toHaveLength(1);
    expect((await t.call('POST', SL(sid), { key: reader, body: { startTime: '2026-05-02T18:00:00Z' } })).status).toBe(403);
    expect((await t.call('GET', SL(sid))).body).toHaveLength(1);
  });
});
