import { deepStrictEqual } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { percentile, sqlStatements, startBenchServer } from './server';
import { startHttpClient, type ClientRequest, type HttpClient } from './http-client';

/**
 * GraphQL next to REST for the same answer: 50 services, each with its linked resources (5 of
 * 20) and its tickets (3).
 *
 * - REST, the client list: `GET /v1/client/companies/{cid}/services`, the services with their
 *   resources and tickets in one request. The reference of the ratios.
 * - GraphQL, the same answer: `clientServices` selecting exactly the REST client form's fields
 *   (checked equal to the REST answer before measuring).
 * - GraphQL, the admin form: `services` with nested `resources` and `tickets` pages (more fields
 *   per record than the client form), against the same REST figure.
 * - REST, the admin list alone: `GET /v1/companies/{cid}/services` (no resources or tickets).
 * - REST, the admin data: the admin list, then each service's links (with their resources) and
 *   tickets: 101 requests one after the other (`BENCH_ADMIN_RUNS` rounds, 10).
 *
 * The client runs in its own process (`bench/http-client.ts`), so the CPU measured here is the
 * server's alone. The lines are measured in `BENCH_BLOCKS` (5) alternating blocks of
 * `BENCH_RUNS / BENCH_BLOCKS` sequential requests each (`BENCH_RUNS` 200), so that a change of
 * the machine's load falls on every line; the ratios are GraphQL median / REST client list
 * median of this run. `BENCH_ONLY_GRAPHQL=1` measures the two GraphQL lines alone (`client` or
 * `admin`: that one alone);
 * `BENCH_PROFILE=<file>` writes a CPU profile of the measured blocks (seeding and warm-up left out).
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 5);
const ADMIN_RUNS = Number(process.env.BENCH_ADMIN_RUNS ?? 10);
const ONLY_GRAPHQL = process.env.BENCH_ONLY_GRAPHQL ?? '';
const SERVICES = 50;
const RESOURCES = 20;

type Server = Awaited<ReturnType<typeof startBenchServer>>;

const CLIENT_QUERY = `query ($c: ID!) {
  clientServices(companyID: $c, limit: 100) { services {
    id companyID name type color
    settings { availabilityPeriod bookingPolicy bufferBefore bufferAfter checkInTime checkOutTime currency duration timeInterval tax { inclusive rate } }
    timeZone
    resources { id companyID name color createdAt updatedAt }
    tickets { id name }
    createdAt updatedAt
  } }
}`;

const ADMIN_QUERY = `query ($c: ID!) {
  services(companyID: $c, limit: 100) { total services {
    id name type color metaData position disabledAt createdAt updatedAt
    resources { total resources { id name color metaData disabledAt } }
    tickets { total tickets { id name enabled metaData } }
  } }
}`;

async function seed(s: Server, h: Record<string, string>): Promise<string> {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${s.base}${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  };
  const cid = (await call('POST', '/v1/companies', { name: 'Bench catalog', timeZone: 'Europe/Riga' })).id as string;
  const resources: string[] = [];
  for (let i = 0; i < RESOURCES; i++)
    resources.push((await call('POST', `/v1/companies/${cid}/resources`, { name: `Room ${i}`, color: '#336699' })).id);
  for (let i = 0; i < SERVICES; i++) {
    const sid = (
      await call('POST', `/v1/companies/${cid}/services`, { name: `Class ${i}`, type: 'ticket', settings: { duration: 'PT1H' } })
    ).id as string;
    for (let k = 0; k < 5; k++)
      await call('POST', `/v1/companies/${cid}/services/${sid}/links`, { resourceID: resources[(i + k * 4) % RESOURCES] });
    for (const name of ['Adult', 'Child', 'Senior']) await call('POST', `/v1/companies/${cid}/services/${sid}/tickets`, { name });
  }
  return cid;
}

interface Line {
  request: string;
  requests: ClientRequest[];
  check: (bodies: string[]) => void;
  rounds: number;
  latencies: number[];
  serverCpuMs: number;
  statements: number;
  bytes: number;
}

function line(request: string, requests: ClientRequest[], check: (bodies: string[]) => void, rounds = RUNS): Line {
  return { request, requests, check, rounds, latencies: [], serverCpuMs: 0, statements: 0, bytes: 0 };
}

async function measureBlock(s: Server, client: HttpClient, l: Line, rounds: number): Promise<void> {
  const before = await sqlStatements(s.base);
  const c0 = process.cpuUsage();
  const run = await client.run(l.requests, rounds, 0);
  const c = process.cpuUsage(c0);
  l.statements += (await sqlStatements(s.base)) - before;
  l.serverCpuMs += (c.user + c.system) / 1000;
  l.latencies.push(...run.latencies);
  for (const a of run.answers) if (a.status !== 200) throw new Error(`${l.request}: status ${a.status}: ${a.body.slice(0, 300)}`);
  l.check(run.answers.map((a) => a.body));
  l.bytes = run.answers.reduce((n, a) => n + Buffer.byteLength(a.body), 0);
}

async function main(): Promise<void> {
  const s: Server = await startBenchServer();
  const h = { 'x-api-key': s.key, 'content-type': 'application/json' };
  const cid = await seed(s, h);
  const client = startHttpClient();
  const get = (path: string): ClientRequest => ({ method: 'GET', url: `${s.base}${path}`, headers: { 'x-api-key': s.key } });
  const gql = (query: string): ClientRequest => ({
    method: 'POST',
    url: `${s.base}/graphql`,
    headers: h,
    body: JSON.stringify({ query, variables: { c: cid } }),
  });

  const restClient = (await client.run([get(`/v1/client/companies/${cid}/services`)], 0, 1)).answers[0].body;
  const restServices = JSON.parse(restClient) as { id: string; tickets: unknown[] }[];
  if (restServices.length !== SERVICES || restServices[0].tickets.length !== 3) throw new Error('rest: incomplete client list');
  const gqlData = (body: string) => {
    if (body.includes('"errors"')) throw new Error(`graphql: ${body.slice(0, 300)}`);
    return JSON.parse(body).data;
  };
  const lines: Line[] = [
    line(
      'REST: GET /v1/client/companies/{cid}/services (1 request, with resources and tickets)',
      [get(`/v1/client/companies/${cid}/services`)],
      ([b]) => deepStrictEqual(JSON.parse(b), restServices),
    ),
    line("GraphQL: clientServices, the REST client form's fields (1 request)", [gql(CLIENT_QUERY)], ([b]) =>
      deepStrictEqual(gqlData(b).clientServices.services, restServices),
    ),
    line('GraphQL: services with resources and tickets pages, admin form (1 request)', [gql(ADMIN_QUERY)], ([b]) => {
      const page = gqlData(b).services;
      if (page.services.length !== SERVICES || page.services[0].tickets.tickets.length !== 3) throw new Error('graphql: incomplete answer');
    }),
  ];
  if (ONLY_GRAPHQL) {
    lines.shift();
    if (ONLY_GRAPHQL === 'client') lines.pop();
    if (ONLY_GRAPHQL === 'admin') lines.shift();
  } else {
    lines.push(
      line('REST: GET /v1/companies/{cid}/services (1 request, no resources or tickets)', [get(`/v1/companies/${cid}/services`)], ([b]) => {
        if (JSON.parse(b).length !== SERVICES) throw new Error('rest: incomplete list');
      }),
      line(
        'REST: the admin list, links and tickets of each service (101 requests, one after the other)',
        [
          get(`/v1/companies/${cid}/services`),
          ...restServices.flatMap((svc) => [
            get(`/v1/companies/${cid}/services/${svc.id}/links`),
            get(`/v1/companies/${cid}/services/${svc.id}/tickets`),
          ]),
        ],
        (bodies) => {
          if (bodies.length !== 1 + 2 * SERVICES) throw new Error('rest: incomplete admin data');
        },
        ADMIN_RUNS,
      ),
    );
  }

  for (const l of lines) await client.run(l.requests, 0, l.rounds === RUNS ? 20 : 2); // warm-up
  const profiler = process.env.BENCH_PROFILE ? new Session() : null;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  for (let b = 0; b < BLOCKS; b++) {
    for (const l of lines) {
      const rounds = Math.floor(l.rounds / BLOCKS) + (b < l.rounds % BLOCKS ? 1 : 0);
      if (rounds > 0) await measureBlock(s, client, l, rounds);
    }
  }
  client.stop();
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
    profiler.disconnect();
  }

  const results = lines.map((l) => {
    const lat = [...l.latencies].sort((a, c) => a - c);
    return {
      request: l.request,
      rounds: lat.length,
      medianMs: +percentile(lat, 50).toFixed(2),
      p95Ms: +percentile(lat, 95).toFixed(2),
      serverCpuMsPerAnswer: +(l.serverCpuMs / lat.length).toFixed(2),
      sqlStatementsPerAnswer: +(l.statements / lat.length).toFixed(2),
      bytesPerAnswer: l.bytes,
    };
  });
  const ratios = ONLY_GRAPHQL
    ? undefined
    : {
        'GraphQL clientServices / REST client list (median)': +(results[1].medianMs / results[0].medianMs).toFixed(2),
        'GraphQL admin services / REST client list (median)': +(results[2].medianMs / results[0].medianMs).toFixed(2),
        'GraphQL clientServices / REST client list (server CPU)': +(
          results[1].serverCpuMsPerAnswer / results[0].serverCpuMsPerAnswer
        ).toFixed(2),
        'GraphQL admin services / REST client list (server CPU)': +(
          results[2].serverCpuMsPerAnswer / results[0].serverCpuMsPerAnswer
        ).toFixed(2),
      };
  console.log(
    JSON.stringify(
      {
        machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
        loadAverage1m: +loadavg()[0].toFixed(2),
        results,
        ratios,
      },
      null,
      2,
    ),
  );
  await s.stop();
}

main().then(
  // a finished benchmark does not wait for handles its libraries leave open
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
