import { Agent } from 'node:http';
import { httpCall, seedCompany, startServerProcess, type ServerProcess } from '../helpers/server-process';

/**
 * Long availability windows are computed on a worker thread (AVAILABILITY_THREADS): the REST
 * answer, and GraphQL's directly answered `availableTimes` written for its selection there, are
 * the answers the main thread computes (graphql-direct.int.test.ts compares GraphQL's with
 * field-by-field execution), errors keep their codes, and the server answers /health meanwhile.
 */
jest.setTimeout(180_000);

let server: ServerProcess | null = null;
afterAll(() => server?.cleanup());

it('two months of times from the worker thread equal the main thread answer; its errors keep their codes', async () => {
  server = await startServerProcess({ AVAILABILITY_THREADS: '1' });
  const s = server;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  try {
    const seed = await seedCompany(agent, s.base, s.key, 12);
    await httpCall(agent, s.base, 'POST', `/v1/companies/${seed.cid}/bookings`, s.key, {
      serviceID: seed.sid,
      resourceID: seed.rids[1],
      startTime: '2031-03-05T10:00:00Z',
    });
    // 12 resources open around the clock, every half hour for 60 days: 34,560 starts at most, over THREAD_STARTS
    const month = { from: '2031-03-01T00:00:00Z', to: '2031-04-30T00:00:00Z' };
    const rest = await httpCall(agent, s.base, 'POST', `/v1/companies/${seed.cid}/services/${seed.sid}/times`, s.key, month);
    expect(rest.status).toBe(200);
    expect(rest.headers['content-type']).toMatch(/^application\/json/);
    expect(s.logs.join('\n')).toMatch(/computed on 1 worker thread/);
    const gql = await httpCall(agent, s.base, 'POST', '/graphql', s.key, {
      query: `query($c: ID!, $s: ID!, $i: AvailableTimesInput!) {
        availableTimes(companyID: $c, serviceID: $s, input: $i) { timeZone resources { resourceID times { startTime duration price { amount currency } } } } }`,
      variables: { c: seed.cid, s: seed.sid, i: month },
    });
    const fromGraphql = Object.fromEntries(
      gql.body.data.availableTimes.resources.map((r: { resourceID: string; times: { startTime: string }[] }) => [
        r.resourceID,
        r.times.map((e) => Date.parse(e.startTime)),
      ]),
    );
    const restTimes = rest.body.times as Record<string, { startTime: string }[]>;
    // the GraphQL answer, written on the thread for its selection: the REST entries in the GraphQL shape, in the same order
    const restEntries = rest.body.times as Record<string, { startTime: string; duration: string; price: Record<string, unknown> }[]>;
    // every answer carries its cost, the written one too
    expect(gql.body.extensions).toEqual({ cost: { requested: expect.any(Number), limit: expect.any(Number) } });
    expect(JSON.stringify(gql.body)).toBe(
      JSON.stringify({
        data: {
          availableTimes: {
            timeZone: rest.body.timeZone,
            resources: Object.entries(restEntries).map(([resourceID, times]) => ({
              resourceID,
              times: times.map((e) => ({
                startTime: e.startTime,
                duration: e.duration,
                price: { amount: e.price.amount, currency: e.price.currency },
              })),
            })),
          },
        },
        extensions: { cost: gql.body.extensions.cost },
      }),
    );
    const fromThread = Object.fromEntries(Object.entries(restTimes).map(([rid, list]) => [rid, list.map((e) => Date.parse(e.startTime))]));
    expect(rest.body.timeZone).toBe('UTC');
    expect(Object.keys(fromThread).sort()).toEqual([...seed.rids].sort());
    expect(fromThread).toEqual(fromGraphql);
    expect(fromThread[seed.rids[1]]).not.toContain(Date.parse('2031-03-05T10:00:00Z'));
    expect(fromThread[seed.rids[0]]).toContain(Date.parse('2031-03-05T10:00:00Z'));
    expect(rest.body.times[seed.rids[0]][0]).toEqual({
      startTime: '2031-03-01T00:00:00Z',
      duration: 'PT30M',
      price: expect.objectContaining({ currency: expect.any(String) }),
    });

    // an error found on the thread: a resource not linked to the service
    const unknown = await httpCall(agent, s.base, 'POST', `/v1/companies/${seed.cid}/services/${seed.sid}/times`, s.key, {
      ...month,
      resourceIDs: ['00000000-0000-4000-8000-000000000001'],
    });
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 404, code: 'not_found' });
    // the answer-size cap holds on the thread too: 93 days x 48 half hours x 12 resources > 50,000
    const tooMany = await httpCall(agent, s.base, 'POST', `/v1/companies/${seed.cid}/services/${seed.sid}/times`, s.key, {
      from: '2031-03-01T00:00:00Z',
      to: '2031-06-02T00:00:00Z',
    });
    expect({ status: tooMany.status, code: tooMany.body.code }).toEqual({ status: 400, code: 'invalid_request' });
    // GraphQL meets the same errors on the thread, and answers them as field-by-field execution does
    const timesQuery = `query($c: ID!, $s: ID!, $i: AvailableTimesInput!) { availableTimes(companyID: $c, serviceID: $s, input: $i) { timeZone } }`;
    for (const [i, code] of [
      [{ ...month, resourceIDs: ['00000000-0000-4000-8000-000000000001'] }, 'not_found'],
      [{ from: '2031-03-01T00:00:00Z', to: '2031-06-02T00:00:00Z' }, 'invalid_request'],
    ] as const) {
      const failed = await httpCall(agent, s.base, 'POST', '/graphql', s.key, {
        query: timesQuery,
        variables: { c: seed.cid, s: seed.sid, i },
      });
      expect(failed.status).toBe(200);
      expect(failed.body.data).toEqual({ availableTimes: null });
      expect(failed.body.errors.map((e: { extensions: { code: string }; path: string[] }) => [e.extensions.code, e.path])).toEqual([
        [code, ['availableTimes']],
      ]);
    }
    const client = await httpCall(agent, s.base, 'POST', `/v1/client/companies/${seed.cid}/services/${seed.sid}/times`, s.key, month);
    expect(client.status).toBe(200);
    expect(Object.keys(client.body.times).sort()).toEqual([...seed.rids].sort());
    expect((await httpCall(agent, s.base, 'GET', '/health', null)).status).toBe(200);
    expect(s.logs.join('\n')).not.toMatch(/direct GraphQL answer failed/);
  } finally {
    agent.destroy();
  }
});
