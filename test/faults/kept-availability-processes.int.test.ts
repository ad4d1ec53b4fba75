import { Agent } from 'node:http';
import { httpCall, seedCompany, startServerProcess, type ServerProcess } from '../helpers/server-process';
import { cloneTestDatabase } from '../helpers/test-database';
import { metricIn } from '../helpers/metrics';

/**
 * Two API processes on one database, each keeping the availability it answered
 * (availability/kept-availability.ts): a time booked through one is gone from the other's very
 * next answer, and back in it once cancelled, though the other answers from what it keeps.
 */
jest.setTimeout(180_000);

let db: Awaited<ReturnType<typeof cloneTestDatabase>>;
let a: ServerProcess;
let b: ServerProcess;
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

beforeAll(async () => {
  db = await cloneTestDatabase();
  const env = { DATABASE_URL: db.url, DATABASE_DIRECT_URL: db.directUrl, JWT_SECRET: 'kept-availability-jwt-secret-0123456789ab' };
  [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
});
afterAll(async () => {
  agent.destroy();
  a?.cleanup();
  b?.cleanup();
  await db?.drop();
});

const metric = async (s: ServerProcess, name: string) =>
  metricIn((await httpCall(agent, s.base, 'GET', '/metrics', null)).body as string, name);

it('a booking made through one process is gone from the next answer of the other, and back once cancelled', async () => {
  const seed = await seedCompany(agent, a.base, a.key, 3);
  const week = { from: '2031-05-05T00:00:00Z', to: '2031-05-12T00:00:00Z' };
  const offered = async (s: ServerProcess, rid: string, at: string) => {
    const r = await httpCall(agent, s.base, 'POST', `/v1/companies/${seed.cid}/services/${seed.sid}/times`, s.key, week);
    expect(r.status).toBe(200);
    return (r.body.times[rid] as { startTime: string }[]).some((e) => Date.parse(e.startTime) === Date.parse(at));
  };
  const at = (i: number) => new Date(Date.parse('2031-05-06T08:00:00Z') + i * 90 * 60_000).toISOString();
  // both keep the week first
  expect(await offered(a, seed.rids[1], at(0))).toBe(true);
  expect(await offered(b, seed.rids[1], at(0))).toBe(true);
  for (let i = 0; i < 8; i++) {
    const [by, asker] = i % 2 ? [b, a] : [a, b];
    const rid = seed.rids[i % 3];
    const booked = await httpCall(agent, by.base, 'POST', `/v1/companies/${seed.cid}/bookings`, by.key, {
      serviceID: seed.sid,
      resourceID: rid,
      startTime: at(i),
    });
    expect([200, 201]).toContain(booked.status);
    expect({ i, offered: await offered(asker, rid, at(i)) }).toEqual({ i, offered: false });
    const cancelled = await httpCall(agent, by.base, 'PATCH', `/v1/companies/${seed.cid}/bookings/${booked.body.id}`, by.key, {
      status: 'cancelled',
    });
    expect(cancelled.body.status).toBe('cancelled');
    expect({ i, offered: await offered(asker, rid, at(i)) }).toEqual({ i, offered: true });
  }
  // the other process answered from what it keeps, reading the changed resource again each time
  for (const s of [a, b]) {
    expect(await metric(s, 'availability_kept_answers_total{outcome="fresh"}')).toBe(0);
    expect(await metric(s, 'availability_kept_answers_total{outcome="read"}')).toBeGreaterThanOrEqual(8);
  }
});
