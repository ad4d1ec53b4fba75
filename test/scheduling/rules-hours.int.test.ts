import { createTestApp, type TestApp } from '../helpers/app';
import { loadSnapshot } from '../../src/modules/availability/snapshot';
import { findCompany } from '../../src/modules/company/company.access';
import { createCtx } from '../../src/kernel/context';

let t: TestApp;
let cid: string;
let yoga: string;
let spa: string;
let room: string;
let hall: string;

const C = () => `/v1/companies/${cid}`;
const WH = (rid = room) => `${C()}/resources/${rid}/working-hours`;

async function post(url: string, body: unknown): Promise<any> {
  const r = await t.call('POST', url, { body });
  if (r.status !== 201) throw new Error(`${url}: ${r.status} ${r.text}`);
  return r.body;
}

beforeAll(async () => {
  t = await createTestApp();
  cid = (await t.company('Hours', 'Europe/Riga')).id;
  yoga = (await post(`${C()}/services`, { name: 'Yoga', type: 'group', settings: { duration: 'PT1H' } })).id;
  spa = (await post(`${C()}/services`, { name: 'Spa', type: 'fixed', settings: { duration: 'PT1H' } })).id;
  room = (await post(`${C()}/resources`, { name: 'Room', color: '#112233' })).id;
  hall = (await post(`${C()}/resources`, { name: 'Hall', color: '#112233' })).id;
});
afterAll(async () => t?.close());

const weekdays = [{ daysOfWeek: 124, hours: [{ start: '09:00', end: '17:00' }] }];

describe('working hours over REST', () => {
  it('creates, lists, replaces and deletes rules', async () => {
    const created = await t.call('POST', WH(), {
      body: { startTime: '2026-01-01T00:00:00+02:00', endTime: null, priority: 5, serviceIDs: [yoga], workingHours: weekdays },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      resourceID: room,
      serviceIDs: [yoga],
      startTime: '2025-12-31T22:00:00Z',
      endTime: null,
      priority: 5,
      workingHours: weekdays,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const list = await t.call('GET', WH());
    expect(list.status).toBe(200);
    expect(list.body).toEqual([created.body]);

    const put = await t.call('PUT', `${WH()}/${created.body.id}`, {
      body: { priority: 6, workingHours: [{ daysOfWeek: 3, hours: [{ start: '10:00', end: '24:00' }] }] },
    });
    expect(put.status).toBe(200);
    // PUT replaces the whole rule: fields left out take their defaults.
    expect(put.body).toMatchObject({
      id: created.body.id,
      priority: 6,
      serviceIDs: [],
      startTime: null,
      endTime: null,
      workingHours: [{ daysOfWeek: 3, hours: [{ start: '10:00', end: '24:00' }] }],
    });

    const del = await t.call('DELETE', WH(), { body: { ids: [created.body.id] } });
    expect(del.status).toBe(204);
    expect((await t.call('GET', WH())).body).toEqual([]);
  });

  it('deletes every rule of the resource when no ids are given, and only that resource', async () => {
    await post(WH(), { priority: 1, workingHours: weekdays });
    await post(WH(), { priority: 2, workingHours: weekdays });
    const other = await post(WH(hall), { priority: 1, workingHours: weekdays });
    expect((await t.call('DELETE', WH())).status).toBe(204);
    expect((await t.call('GET', WH())).body).toEqual([]);
    expect((await t.call('GET', WH(hall))).body.map((r: any) => r.id)).toEqual([other.id]);
    // an id of another resource's rule deletes nothing
    expect((await t.call('DELETE', WH(), { body: { ids: [other.id] } })).status).toBe(404);
    expect((await t.call('GET', WH(hall))).body).toHaveLength(1);
    expect((await t.call('DELETE', WH(hall), { body: {} })).status).toBe(204);
    expect((await t.call('GET', WH(hall))).body).toEqual([]);
  });

  it('merges overlapping and adjacent hours per weekday and groups equal days', async () => {
    const r = await post(WH(), {
      priority: 10,
      workingHours: [
        {
          daysOfWeek: 124,
          hours: [
            { start: '13:00', end: '17:00' },
            { start: '09:00', end: '12:00' },
          ],
        },
        {
          daysOfWeek: 64,
          hours: [
            { start: '12:00', end: '13:00' },
            { start: '16:00', end: '19:00' },
          ],
        },
        {
          daysOfWeek: 2,
          hours: [
            { start: '10:00', end: '12:00' },
            { start: '11:00', end: '11:30' },
          ],
        },
        { daysOfWeek: 1, hours: [] },
      ],
    });
    expect(r.workingHours).toEqual([
      { daysOfWeek: 64, hours: [{ start: '09:00', end: '19:00' }] },
      {
        daysOfWeek: 60,
        hours: [
          { start: '09:00', end: '12:00' },
          { start: '13:00', end: '17:00' },
        ],
      },
      { daysOfWeek: 2, hours: [{ start: '10:00', end: '12:00' }] },
    ]);
    await t.call('DELETE', WH());
  });

  it('rejects invalid rules with 400 and changes nothing', async () => {
    const bad: [unknown, string][] = [
      [{ startTime: '2026-02-01T00:00:00Z', endTime: '2026-01-01T00:00:00Z' }, 'endTime'],
      [{ startTime: '2026-02-01T00:00:00Z', endTime: '2026-02-01T00:00:00Z' }, 'endTime'],
      [{ startTime: '2026-02-01T00:00:00' }, 'startTime'],
      [{ workingHours: [{ daysOfWeek: 1, hours: [{ start: '17:00', end: '09:00' }] }] }, 'workingHours[0].hours[0].end'],
      [{ workingHours: [{ daysOfWeek: 1, hours: [{ start: '09:00', end: '09:00' }] }] }, 'workingHours[0].hours[0].end'],
      [{ workingHours: [{ daysOfWeek: 1, hours: [{ start: '9:00', end: '17:00' }] }] }, 'workingHours[0].hours[0].start'],
      [{ workingHours: [{ daysOfWeek: 1, hours: [{ start: '09:60', end: '17:00' }] }] }, 'workingHours[0].hours[0].start'],
      [{ workingHours: [{ daysOfWeek: 1, hours: [{ start: '09:00', end: '25:00' }] }] }, 'workingHours[0].hours[0].end'],
      [{ workingHours: [{ daysOfWeek: 1, hours: [{ start: '24:00', end: '24:00' }] }] }, 'workingHours[0].hours[0].start'],
      [{ workingHours: [{ daysOfWeek: 0, hours: [] }] }, 'workingHours[0].daysOfWeek'],
      [{ workingHours: [{ daysOfWeek: 128, hours: [] }] }, 'workingHours[0].daysOfWeek'],
      [{ workingHours: [{ daysOfWeek: 1.5, hours: [] }] }, 'workingHours.0.daysOfWeek'],
      [{ priority: 1.5 }, 'priority'],
      [{ priority: '1' }, 'priority'],
      [{ serviceIDs: ['nope'] }, 'serviceIDs[0]'],
    ];
    for (const [body, path] of bad) {
      const r = await t.call('POST', WH(), { body });
      expect([r.status, r.body.code]).toEqual([400, 'invalid_request']);
      expect(r.body.details.map((d: any) => d.path)).toContain(path);
    }
    expect((await t.call('GET', WH())).body).toEqual([]);
  });

  it('accepts 24:00 as an end of day', async () => {
    const r = await post(WH(), { priority: 20, workingHours: [{ daysOfWeek: 127, hours: [{ start: '00:00', end: '24:00' }] }] });
    expect(r.workingHours).toEqual([{ daysOfWeek: 127, hours: [{ start: '00:00', end: '24:00' }] }]);
    await t.call('DELETE', WH());
  });

  it('answers 404 for a service id of another company in serviceIDs', async () => {
    const other = await t.company('Other', 'Europe/Riga');
    const foreign = await post(`/v1/companies/${other.id}/services`, { name: 'X', type: 'group', settings: { duration: 'PT1H' } });
    const r = await t.call('POST', WH(), { body: { serviceIDs: [foreign.id] } });
    expect([r.status, r.body.code]).toEqual([404, 'not_found']);
  });

  it('refuses an overlapping rule with the same priority (409), accepts distinct priority, window or services', async () => {
    const base = await post(WH(), {
      priority: 1,
      startTime: '2026-01-01T00:00:00Z',
      endTime: '2026-06-01T00:00:00Z',
      serviceIDs: [yoga],
      workingHours: weekdays,
    });
    const clash = await t.call('POST', WH(), {
      body: { priority: 1, startTime: '2026-05-01T00:00:00Z', serviceIDs: [], workingHours: weekdays },
    });
    expect([clash.status, clash.body.code]).toEqual([409, 'conflict']);
    const sameScope = await t.call('POST', WH(), { body: { priority: 1, serviceIDs: [yoga, spa], workingHours: weekdays } });
    expect(sameScope.status).toBe(409);
    // touching windows do not overlap ([start, end) is half-open)
    expect((await t.call('POST', WH(), { body: { priority: 1, startTime: '2026-06-01T00:00:00Z', serviceIDs: [yoga] } })).status).toBe(201);
    expect((await t.call('POST', WH(), { body: { priority: 1, endTime: '2026-01-01T00:00:00Z' } })).status).toBe(201);
    expect(
      (
        await t.call('POST', WH(), {
          body: { priority: 1, startTime: '2026-02-01T00:00:00Z', endTime: '2026-03-01T00:00:00Z', serviceIDs: [spa] },
        })
      ).status,
    ).toBe(201);
    expect((await t.call('POST', WH(), { body: { priority: 2, serviceIDs: [yoga] } })).status).toBe(201);
    // the same rule on another resource is fine
    expect((await t.call('POST', WH(hall), { body: { priority: 1, serviceIDs: [yoga] } })).status).toBe(201);
    // updating a rule does not clash with itself, but does with its peers
    expect(
      (
        await t.call('PUT', `${WH()}/${base.id}`, {
          body: { priority: 1, startTime: '2026-01-01T00:00:00Z', endTime: '2026-05-01T00:00:00Z', serviceIDs: [yoga] },
        })
      ).status,
    ).toBe(200);
    const moved = await t.call('PUT', `${WH()}/${base.id}`, { body: { priority: 2, serviceIDs: [yoga] } });
    expect(moved.status).toBe(409);
    expect((await t.call('PUT', `${WH()}/00000000-0000-4000-8000-000000000000`, { body: { priority: 99 } })).status).toBe(404);
    await t.call('DELETE', WH());
    await t.call('DELETE', WH(hall));
  });

  it('lets exactly one of parallel overlapping creates win', async () => {
    const base = await t.listen();
    for (let round = 0; round < 5; round++) {
      const send = () =>
        fetch(`${base}${WH()}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': t.adminKey },
          body: JSON.stringify({ priority: 100 + round, workingHours: weekdays }),
        }).then((r) => r.status);
      const statuses = (await Promise.all([send(), send(), send()])).sort();
      expect(statuses).toEqual([201, 409, 409]);
    }
    expect((await t.call('GET', WH())).body).toHaveLength(5);
    await t.call('DELETE', WH());
  });
});

describe('closing periods', () => {
  it('creates periods and searches them by range, grouped by resource', async () => {
    const p1 = await t.call('POST', `${C()}/resources/${room}/closing-periods`, {
      body: { startTime: '2026-03-01T10:00:00+02:00', endTime: '2026-03-01T12:00:00+02:00', priority: 3, serviceIDs: [yoga] },
    });
    expect(p1.status).toBe(201);
    expect(p1.body).toEqual({
      id: expect.any(String),
      resourceID: room,
      serviceIDs: [yoga],
      startTime: '2026-03-01T08:00:00Z',
      endTime: '2026-03-01T10:00:00Z',
      priority: 3,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const p2 = await post(`${C()}/resources/${hall}/closing-periods`, {
      startTime: '2026-03-05T00:00:00Z',
      endTime: '2026-03-06T00:00:00Z',
    });
    expect(p2).toMatchObject({ priority: 0, serviceIDs: [] });

    const search = (body: unknown) => t.call('POST', `${C()}/closing-periods/search`, { body });
    const all = await search({ companyID: cid, from: '2026-03-01T00:00:00Z', to: '2026-04-01T00:00:00Z', resourceIDs: [room, hall] });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ closingPeriods: { [room]: [p1.body], [hall]: [p2] } });
    // [from, to) overlap: a period ending exactly at `from` is out
    const later = await search({ from: '2026-03-01T10:00:00Z', to: '2026-03-05T00:00:01Z' });
    expect(later.body.closingPeriods).toEqual({ [room]: [], [hall]: [p2] });
    expect((await search({ from: '2026-03-02T00:00:00Z', to: '2026-03-01T00:00:00Z' })).status).toBe(400);
    expect((await search({ from: '2026-03-01T00:00:00Z' })).status).toBe(400);
    expect(
      (await search({ from: '2026-03-01T00:00:00Z', to: '2026-03-02T00:00:00Z', resourceIDs: ['00000000-0000-4000-8000-000000000000'] }))
        .status,
    ).toBe(404);
  });

  it('validates periods', async () => {
    const url = `${C()}/resources/${room}/closing-periods`;
    for (const body of [
      { startTime: '2026-03-01T12:00:00Z', endTime: '2026-03-01T10:00:00Z' },
      { startTime: '2026-03-01T12:00:00Z' },
      { startTime: '2026-03-01T12:00:00Z', endTime: '2026-03-01T13:00:00Z', priority: 0.5 },
      { startTime: 'yesterday', endTime: '2026-03-01T13:00:00Z' },
    ]) {
      expect((await t.call('POST', url, { body })).status).toBe(400);
    }
  });
});

describe('GraphQL', () => {
  const RULE = 'id resourceID serviceIDs startTime endTime priority workingHours { daysOfWeek hours { start end } }';
  it('creates, lists, updates and deletes working hours, and manages closing periods', async () => {
    const created = await t.gql(
      `mutation($c: ID!, $r: ID!, $i: WorkingHoursInput!) { createWorkingHours(companyID: $c, resourceID: $r, input: $i) { ${RULE} } }`,
      {
        c: cid,
        r: hall,
        i: {
          priority: 4,
          startTime: '2026-01-01T00:00:00Z',
          workingHours: [
            {
              daysOfWeek: 96,
              hours: [
                { start: '08:00', end: '10:00' },
                { start: '10:00', end: '12:00' },
              ],
            },
          ],
        },
      },
    );
    expect(created.body.errors).toBeUndefined();
    const rule = created.body.data.createWorkingHours;
    expect(rule).toMatchObject({
      resourceID: hall,
      priority: 4,
      workingHours: [{ daysOfWeek: 96, hours: [{ start: '08:00', end: '12:00' }] }],
    });
    expect(new Date(rule.startTime).toISOString()).toBe('2026-01-01T00:00:00.000Z');

    const clash = await t.gql(
      `mutation($c: ID!, $r: ID!) { createWorkingHours(companyID: $c, resourceID: $r, input: {priority: 4}) { id } }`,
      { c: cid, r: hall },
    );
    expect(clash.body.errors[0].extensions.code).toBe('conflict');
    const invalid = await t.gql(
      `mutation($c: ID!, $r: ID!) { createWorkingHours(companyID: $c, resourceID: $r, input: {priority: 9, workingHours: [{daysOfWeek: 128}]}) { id } }`,
      { c: cid, r: hall },
    );
    expect(invalid.body.errors[0].extensions.code).toBe('invalid_request');

    const updated = await t.gql(
      `mutation($c: ID!, $r: ID!, $id: ID!) { updateWorkingHours(companyID: $c, resourceID: $r, id: $id, input: {priority: 7}) { ${RULE} } }`,
      { c: cid, r: hall, id: rule.id },
    );
    expect(updated.body.data.updateWorkingHours).toMatchObject({ id: rule.id, priority: 7, workingHours: [], startTime: null });
    const listed = await t.gql(`query($c: ID!, $r: ID!) { workingHours(companyID: $c, resourceID: $r) { workingHours { id priority } } }`, {
      c: cid,
      r: hall,
    });
    expect(listed.body.data.workingHours.workingHours).toEqual([{ id: rule.id, priority: 7 }]);
    const deleted = await t.gql(
      `mutation($c: ID!, $r: ID!, $ids: [ID!]) { deleteWorkingHours(companyID: $c, resourceID: $r, ids: $ids) }`,
      { c: cid, r: hall, ids: [rule.id] },
    );
    expect(deleted.body.data.deleteWorkingHours).toBe(true);
    expect((await t.call('GET', WH(hall))).body).toEqual([]);

    const period = await t.gql(
      `mutation($c: ID!, $r: ID!) { createClosingPeriod(companyID: $c, resourceID: $r, input: {startTime: "2026-07-01T00:00:00Z", endTime: "2026-07-02T00:00:00Z", serviceIDs: ["${spa}"]}) { id resourceID serviceIDs priority } }`,
      { c: cid, r: hall },
    );
    expect(period.body.data.createClosingPeriod).toMatchObject({ resourceID: hall, serviceIDs: [spa], priority: 0 });
    const periods = await t.gql(`query($c: ID!, $r: ID!) { closingPeriods(companyID: $c, resourceID: $r) { closingPeriods { id } } }`, {
      c: cid,
      r: hall,
    });
    expect(periods.body.data.closingPeriods.closingPeriods.map((p: any) => p.id)).toContain(period.body.data.createClosingPeriod.id);
    const found = await t.gql(
      `query($c: ID!) { searchClosingPeriods(companyID: $c, input: {from: "2026-07-01T12:00:00Z", to: "2026-07-03T00:00:00Z"}) { closingPeriods { id resourceID } } }`,
      { c: cid },
    );
    expect(found.body.data.searchClosingPeriods.closingPeriods).toEqual([
      { id: period.body.data.createClosingPeriod.id, resourceID: hall },
    ]);
  });
});

describe('isolation and permissions', () => {
  it('answers 404 for a resource of another company and 403 for another merchant', async () => {
    const mine2 = await t.company('Second', 'Europe/Riga');
    // room belongs to `cid`; addressing it under another company of the same merchant is 404
    expect((await t.call('GET', `/v1/companies/${mine2.id}/resources/${room}/working-hours`)).status).toBe(404);
    expect(
      (
        await t.call('POST', `/v1/companies/${mine2.id}/resources/${room}/closing-periods`, {
          body: { startTime: '2026-03-01T10:00:00Z', endTime: '2026-03-01T11:00:00Z' },
        })
      ).status,
    ).toBe(404);
    const otherKey = await t.newMerchant();
    const r = await t.call('GET', WH(), { key: otherKey });
    expect([r.status, r.body.code]).toEqual([403, 'forbidden']);
    expect(
      (
        await t.call('POST', `${C()}/closing-periods/search`, {
          key: otherKey,
          body: { from: '2026-03-01T00:00:00Z', to: '2026-03-02T00:00:00Z' },
        })
      ).status,
    ).toBe(403);
    const g = await t.gql(
      `query($c: ID!, $r: ID!) { workingHours(companyID: $c, resourceID: $r) { total } }`,
      { c: cid, r: room },
      { key: otherKey },
    );
    expect(g.body.errors[0].extensions.code).toBe('forbidden');
  });

  it('needs rules.read to read and rules.write to write', async () => {
    const reader = await t.keyWith({ [cid]: ['rules.read'] });
    expect((await t.call('GET', WH(), { key: reader })).status).toBe(200);
    expect((await t.call('POST', WH(), { key: reader, body: { priority: 50 } })).status).toBe(403);
    const slotsOnly = await t.keyWith({ [cid]: ['slots.*'] });
    expect((await t.call('GET', WH(), { key: slotsOnly })).status).toBe(403);
    expect((await t.call('GET', WH(), { key: null })).status).toBe(401);
  });
});

describe('the availability read path', () => {
  it('loads working hours and closing periods with the snapshot in one statement, in engine shapes', async () => {
    await t.call('DELETE', WH());
    const rule = await post(WH(), {
      priority: 3,
      startTime: '2026-01-01T00:00:00Z',
      workingHours: [{ daysOfWeek: 64, hours: [{ start: '09:30', end: '24:00' }] }],
    });
    for (const r of [room, hall]) await post(`${C()}/services/${yoga}/links`, { resourceID: r });
    const ctx = createCtx(t.deps, null, 'test', t.deps.log);
    const company = await findCompany(ctx, cid);
    let loaded: Awaited<ReturnType<typeof loadSnapshot>> = null;
    const range = { from: Date.parse('2026-03-02T00:00:00Z'), to: Date.parse('2026-03-30T00:00:00Z'), resourceIds: null };
    expect(await t.countStatements(async () => (loaded = await loadSnapshot(ctx, company, yoga, range)))).toBe(1);
    const byId = new Map(loaded!.snapshot.resources.map((r) => [r.id, r]));
    expect(byId.get(room)!.workingHours).toEqual([
      {
        id: rule.id,
        priority: 3,
        createdAt: Date.parse(rule.createdAt),
        windowStart: Date.parse('2026-01-01T00:00:00Z'),
        windowEnd: null,
        serviceIDs: [],
        days: [{ daysOfWeek: 64, hours: [{ start: 570, end: 1440 }] }],
      },
    ]);
    expect(byId.get(hall)!.workingHours).toEqual([]);
    expect(byId.get(room)!.closingPeriods).toEqual([
      { start: Date.parse('2026-03-01T08:00:00Z'), end: Date.parse('2026-03-01T10:00:00Z'), serviceIDs: [yoga] },
    ]);
    expect(byId.get(hall)!.closingPeriods).toEqual([
      { start: Date.parse('2026-03-05T00:00:00Z'), end: Date.parse('2026-03-06T00:00:00Z'), serviceIDs: [] },
    ]);
  });
});
