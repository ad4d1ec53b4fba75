import { createTestApp, TestClock, type TestApp } from '../helpers/app';

/** Tickets, and the catalog as the client interface offers it. */

let t: TestApp;
// Each write happens a second after the previous one, so creation order is a stable sort key.
const clock = new TestClock(Date.parse('2026-11-23T08:00:00Z'));
let cid: string;
let base: string;
let otherCid: string;
const UNKNOWN = '5b1f3c1e-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await createTestApp({ clock });
  cid = (await t.company('Theatre', 'America/New_York')).id;
  base = `/v1/companies/${cid}`;
  otherCid = (await t.company('Other theatre', 'Europe/Riga')).id;
});
afterAll(async () => t?.close());

async function post(url: string, body: unknown) {
  clock.advance(1000);
  const r = await t.call('POST', url, { body });
  if (r.status !== 201) throw new Error(`POST ${url} failed: ${r.status} ${r.text}`);
  return r.body;
}
const ticketService = (name = 'Show', company = cid) =>
  post(`/v1/companies/${company}/services`, { name, type: 'ticket', color: '#101010' });

describe('tickets', () => {
  it('creates, lists, reads and updates tickets of a ticket service', async () => {
    const svc = await ticketService();
    const adult = await t.call('POST', `${base}/services/${svc.id}/tickets`, { body: { name: 'Adult', metaData: { age: '18+' } } });
    expect(adult.status).toBe(201);
    expect(adult.body).toEqual({
      id: expect.any(String),
      serviceID: svc.id,
      name: 'Adult',
      enabled: true,
      metaData: { age: '18+' },
      metaDataVersion: 1,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    const child = await post(`${base}/services/${svc.id}/tickets`, { name: 'Child', enabled: false });
    expect(child.enabled).toBe(false);
    const list = (await t.call('GET', `${base}/services/${svc.id}/tickets`)).body;
    expect(list).toEqual([adult.body, child]);
    expect((await t.call('GET', `${base}/services/${svc.id}/tickets/${child.id}`)).body).toEqual(child);

    const on = await t.call('PATCH', `${base}/services/${svc.id}/tickets/${child.id}`, {
      body: { enabled: true, name: 'Kid', metaDataUpdate: { expectedVersion: 1, path: 'age', value: '<12' } },
    });
    expect(on.body).toMatchObject({ enabled: true, name: 'Kid', metaData: { age: '<12' }, metaDataVersion: 2 });
    const stale = await t.call('PATCH', `${base}/services/${svc.id}/tickets/${child.id}`, {
      body: { enabled: false, metaDataUpdate: { expectedVersion: 1, path: 'age', value: null } },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    expect((await t.call('GET', `${base}/services/${svc.id}/tickets/${child.id}`)).body).toEqual(on.body);
  });

  it('exists only for ticket services and validates its fields', async () => {
    const fixed = await post(`${base}/services`, { name: 'Lesson', type: 'fixed', settings: { duration: 'PT1H' } });
    const r = await t.call('POST', `${base}/services/${fixed.id}/tickets`, { body: { name: 'Adult' } });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([{ path: 'serviceID', message: expect.stringContaining('ticket') }]);
    expect((await t.call('GET', `${base}/services/${fixed.id}/tickets`)).body).toEqual([]);
    const svc = await ticketService('Validated');
    for (const body of [{}, { name: '' }, { name: 'A', metaData: 'x' }, { name: 'A', enabled: 'no' }]) {
      expect((await t.call('POST', `${base}/services/${svc.id}/tickets`, { body })).status).toBe(400);
    }
    expect((await t.call('GET', `${base}/services/${svc.id}/tickets`)).body).toEqual([]);
    const ticket = await post(`${base}/services/${svc.id}/tickets`, { name: 'Seat' });
    for (const body of [{ name: ' ' }, { enabled: 0 }, { metaDataUpdate: { path: 7, value: 1 } }]) {
      expect((await t.call('PATCH', `${base}/services/${svc.id}/tickets/${ticket.id}`, { body })).status).toBe(400);
    }
    expect((await t.call('GET', `${base}/services/${svc.id}/tickets/${ticket.id}`)).body).toEqual(ticket);
  });

  it('finds a ticket only under its own service and company', async () => {
    const svc = await ticketService('Own');
    const sibling = await ticketService('Sibling');
    const ticket = await post(`${base}/services/${svc.id}/tickets`, { name: 'VIP' });
    expect((await t.call('GET', `${base}/services/${sibling.id}/tickets/${ticket.id}`)).status).toBe(404);
    expect((await t.call('GET', `${base}/services/${svc.id}/tickets/${UNKNOWN}`)).status).toBe(404);
    expect((await t.call('GET', `${base}/services/${svc.id}/tickets/zzz`)).status).toBe(400);
    expect((await t.call('GET', `${base}/services/${UNKNOWN}/tickets`)).status).toBe(404);
    const sister = `/v1/companies/${otherCid}`;
    expect((await t.call('GET', `${sister}/services/${svc.id}/tickets`)).status).toBe(404);
    expect((await t.call('GET', `${sister}/services/${svc.id}/tickets/${ticket.id}`)).status).toBe(404);
    expect((await t.call('POST', `${sister}/services/${svc.id}/tickets`, { body: { name: 'Sneaky' } })).status).toBe(404);
    expect((await t.call('PATCH', `${sister}/services/${svc.id}/tickets/${ticket.id}`, { body: { name: 'Sneaky' } })).status).toBe(404);
    const stranger = await t.newMerchant();
    expect((await t.call('GET', `${base}/services/${svc.id}/tickets`, { key: stranger })).status).toBe(403);
    expect((await t.call('POST', `${base}/services/${svc.id}/tickets`, { key: stranger, body: { name: 'Mine' } })).status).toBe(403);
    expect((await t.call('GET', `${base}/services/${svc.id}/tickets/${ticket.id}`, { key: stranger })).status).toBe(403);
    expect((await t.call('GET', `${base}/services/${svc.id}/tickets`)).body).toEqual([ticket]);
  });

  it('works over GraphQL with the same rules', async () => {
    const svc = await ticketService('GraphQL show');
    const c = await t.gql(
      `mutation($c: ID!, $s: ID!) { createTicket(companyID: $c, serviceID: $s, input: { name: "Balcony", metaData: { row: 1 } }) { id serviceID name enabled metaData } }`,
      { c: cid, s: svc.id },
    );
    expect(c.body.data.createTicket).toMatchObject({ serviceID: svc.id, name: 'Balcony', enabled: true, metaData: { row: 1 } });
    const id = c.body.data.createTicket.id;
    const u = await t.gql(
      `mutation($c: ID!, $s: ID!, $id: ID!) { updateTicket(companyID: $c, serviceID: $s, id: $id, input: { enabled: false }) { enabled } }`,
      { c: cid, s: svc.id, id },
    );
    expect(u.body.data.updateTicket.enabled).toBe(false);
    const q = await t.gql(
      `query($c: ID!, $s: ID!, $id: ID!) { tickets(companyID: $c, serviceID: $s) { tickets { id } } ticket(companyID: $c, serviceID: $s, id: $id) { name } }`,
      { c: cid, s: svc.id, id },
    );
    expect(q.body.data).toEqual({ tickets: { tickets: [{ id }] }, ticket: { name: 'Balcony' } });
    const group = await post(`${base}/services`, { name: 'Group', type: 'group' });
    const bad = await t.gql(`mutation($c: ID!, $s: ID!) { createTicket(companyID: $c, serviceID: $s, input: { name: "X" }) { id } }`, {
      c: cid,
      s: group.id,
    });
    expect(bad.body.errors[0].extensions.code).toBe('invalid_request');
  });
});

describe('client interface catalog', () => {
  let show: any;
  let lesson: any;
  let hidden: any;
  let stage: any;
  let closedRoom: any;
  let spare: any;
  let adult: any;
  let clientKey: string;
  let vcid: string;
  let vbase: string;
  const cbase = () => `/v1/client/companies/${vcid}`;

  beforeAll(async () => {
    vcid = (await t.company('Client view', 'America/New_York')).id;
    vbase = `/v1/companies/${vcid}`;
    show = await post(`${vbase}/services`, {
      name: 'Show',
      type: 'ticket',
      color: '#aa0000',
      metaData: { secret: true },
      settings: { currency: 'USD' },
    });
    lesson = await post(`${vbase}/services`, { name: 'Lesson', type: 'fixed', settings: { duration: 'PT45M' } });
    hidden = await post(`${vbase}/services`, { name: 'Hidden', type: 'flexible' });
    await t.call('PATCH', `${vbase}/services/${hidden.id}`, { body: { enabled: false } });
    stage = await post(`${vbase}/resources`, { name: 'Stage', color: '#00aa00' });
    closedRoom = await post(`${vbase}/resources`, { name: 'Closed room', color: '#0000aa' });
    spare = await post(`${vbase}/resources`, { name: 'Spare', color: '#aaaaaa' });
    for (const [s, r] of [
      [show, stage],
      [show, closedRoom],
      [lesson, stage],
      [hidden, stage],
      [hidden, spare],
    ])
      await post(`${vbase}/services/${s.id}/links`, { resourceID: r.id });
    closedRoom = (await t.call('PATCH', `${vbase}/resources/${closedRoom.id}`, { body: { enabled: false } })).body;
    adult = await post(`${vbase}/services/${show.id}/tickets`, { name: 'Adult' });
    await post(`${vbase}/services/${show.id}/tickets`, { name: 'Withdrawn', enabled: false });
    clientKey = await t.keyWith({ [vcid]: ['client.read'] });
  });

  it('offers enabled services in the client form', async () => {
    const r = await t.call('GET', `${cbase()}/services`, { key: clientKey });
    expect(r.status).toBe(200);
    expect(r.body.map((s: { name: string }) => s.name)).toEqual(['Show', 'Lesson']);
    const stageForm = {
      id: stage.id,
      companyID: vcid,
      name: 'Stage',
      color: '#00AA00',
      createdAt: stage.createdAt,
      updatedAt: stage.updatedAt,
    };
    expect(r.body[0]).toEqual({
      id: show.id,
      companyID: vcid,
      name: 'Show',
      type: 'ticket',
      color: '#AA0000',
      settings: show.settings,
      timeZone: 'America/New_York',
      resources: [stageForm],
      tickets: [{ id: adult.id, name: 'Adult' }],
      createdAt: show.createdAt,
      updatedAt: show.updatedAt,
    });
    expect(r.body[1]).toMatchObject({ id: lesson.id, resources: [stageForm], tickets: [], settings: { duration: 'PT45M' } });
    const one = await t.call('GET', `${cbase()}/services/${show.id}`, { key: clientKey });
    expect(one.body).toEqual(r.body[0]);
  });

  it('offers enabled resources with their enabled services', async () => {
    const r = await t.call('GET', `${cbase()}/resources`, { key: clientKey });
    expect(r.body.map((x: { name: string }) => x.name)).toEqual(['Spare', 'Stage']);
    const stageForm = r.body[1];
    const form = (s: any) => ({
      id: s.id,
      companyID: vcid,
      name: s.name,
      color: s.color,
      type: s.type,
      settings: s.settings,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
    });
    expect(stageForm).toEqual({
      id: stage.id,
      companyID: vcid,
      name: 'Stage',
      color: '#00AA00',
      services: [form(show), form(lesson)],
      createdAt: stage.createdAt,
      updatedAt: stage.updatedAt,
    });
    expect(r.body[0].services).toEqual([]);
    expect((await t.call('GET', `${cbase()}/resources/${stage.id}`, { key: clientKey })).body).toEqual(stageForm);
  });

  it('does not offer disabled, unknown or foreign records', async () => {
    expect((await t.call('GET', `${cbase()}/services/${hidden.id}`, { key: clientKey })).status).toBe(404);
    expect((await t.call('GET', `${cbase()}/resources/${closedRoom.id}`, { key: clientKey })).status).toBe(404);
    expect((await t.call('GET', `${cbase()}/services/${UNKNOWN}`, { key: clientKey })).status).toBe(404);
    expect((await t.call('GET', `${cbase()}/services/nope`, { key: clientKey })).status).toBe(400);
    const foreign = await post(`/v1/companies/${otherCid}/services`, { name: 'Foreign', type: 'group' });
    expect((await t.call('GET', `${cbase()}/services/${foreign.id}`)).status).toBe(404);
    const foreignRes = await post(`/v1/companies/${otherCid}/resources`, { name: 'Foreign', color: '#000000' });
    expect((await t.call('GET', `${cbase()}/resources/${foreignRes.id}`)).status).toBe(404);
  });

  it('authorises an API key with client.read or a client token of the company', async () => {
    const noPerm = await t.keyWith({ [vcid]: ['services.read'] });
    expect((await t.call('GET', `${cbase()}/services`, { key: noPerm })).status).toBe(403);
    expect((await t.call('GET', `${cbase()}/services`, { key: await t.newMerchant() })).status).toBe(403);
    expect((await t.call('GET', `${cbase()}/services`, { key: null })).status).toBe(401);
    const loginKey = await t.keyWith({ '*': ['client.login'] });
    const login = async (companyID: string) => {
      const r = await t.call('POST', '/v1/client/auth/login', {
        key: loginKey,
        body: { companyID, email: 'guest@example.com', externalUserID: `guest-${companyID}` },
      });
      expect(r.status).toBe(200);
      return r.body.accessToken as string;
    };
    const token = await login(vcid);
    const viaToken = await t.call('GET', `${cbase()}/services`, { token });
    expect(viaToken.status).toBe(200);
    expect(viaToken.body.map((s: { id: string }) => s.id)).toEqual([show.id, lesson.id]);
    expect((await t.call('GET', `${cbase()}/resources/${stage.id}`, { token })).status).toBe(200);
    const otherToken = await login(otherCid);
    expect((await t.call('GET', `${cbase()}/services`, { token: otherToken })).status).toBe(403);
    const g = await t.gql(`query($c: ID!) { clientServices(companyID: $c) { total } }`, { c: vcid }, { token });
    expect(g.body.data.clientServices.total).toBe(2);
  });

  it('answers the same over GraphQL', async () => {
    const q = await t.gql(
      `query($c: ID!, $s: ID!, $r: ID!) {
      clientServices(companyID: $c) { services { id name timeZone resources { id name color } tickets { id name } settings { duration } } }
      clientService(companyID: $c, id: $s) { id tickets { name } }
      clientResources(companyID: $c) { resources { id services { id type } } }
      clientResource(companyID: $c, id: $r) { name services { name } }
    }`,
      { c: vcid, s: show.id, r: stage.id },
      { key: clientKey },
    );
    expect(q.body.errors).toBeUndefined();
    expect(q.body.data.clientServices.services[0]).toEqual({
      id: show.id,
      name: 'Show',
      timeZone: 'America/New_York',
      resources: [{ id: stage.id, name: 'Stage', color: '#00AA00' }],
      tickets: [{ id: adult.id, name: 'Adult' }],
      settings: { duration: null },
    });
    expect(q.body.data.clientService).toEqual({ id: show.id, tickets: [{ name: 'Adult' }] });
    expect(q.body.data.clientResources.resources).toHaveLength(2);
    expect(q.body.data.clientResource).toEqual({ name: 'Stage', services: [{ name: 'Show' }, { name: 'Lesson' }] });
    const gone = await t.gql(
      `query($c: ID!, $s: ID!) { clientService(companyID: $c, id: $s) { id } }`,
      { c: vcid, s: hidden.id },
      { key: clientKey },
    );
    expect(gone.body.errors[0].extensions.code).toBe('not_found');
  });
});
