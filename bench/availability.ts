import { randomUUID } from 'node:crypto';
import { cpus, loadavg, totalmem } from 'node:os';
import { gzipSync, brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import { percentile, sqlStatements, startBenchServer } from './server';
import { startHttpClient, type HttpClient } from './http-client';
import * as engineModule from '../src/modules/availability/engine';
import { buildSnapshot, loadSnapshotRow, type SnapshotOptions } from '../src/modules/availability/snapshot';
import * as computeModule from '../src/modules/availability/availability.compute';
import type { ParsedQuery } from '../src/modules/availability/availability.compute';
import type { Ctx } from '../src/kernel/context';
import type { Company } from '../src/modules/company/company.entity';

/**
 * Availability over HTTP on a realistic company: one fixed service (PT1H, 15-minute starts),
 * working hours Mon-Sat with a lunch break, closing periods, bookings spread over the month.
 *
 * Cases: the fixture (20 resources, 2,000 bookings) and the scaling cases (200 resources with
 * 2,000 and with 20,000 bookings), each for 30 and 7 days. For each: median and p95 latency
 * over HTTP (request written to the last byte of the answer received, by a client in its own
 * process: `bench/http-client.ts`), the server's CPU per answer, and a breakdown measured
 * in-process on the same snapshot: the snapshot statement (SQL and parsing its JSON), the
 * document as the server reads it (the same statement, or with availability kept in the process
 * a version check and the request's cut of what is kept), building the engine's input, the
 * engine, and writing the answer's JSON; "HTTP and the rest" is the HTTP median minus the
 * document, build, engine and JSON (routing, authentication, the worker thread hand-over, the
 * bytes on the socket).
 *
 * An answer holds at most 50,000 start times (contract), so a month at 200 resources (about
 * 70,000-150,000 times) is asked over HTTP as four requests of 50 resources each and its
 * latency is their sum; the breakdown covers all 200 resources in one pass.
 *
 * Then the fixture month through GraphQL next to REST, and what compressing the month's answer
 * would cost and save.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const PART_RUNS = Number(process.env.BENCH_PART_RUNS ?? 30);
/** requests per scaling case (answers of 2-16 MB) */
const LARGE_RUNS = Number(process.env.BENCH_LARGE_RUNS ?? 10);
const CASES = (process.env.BENCH_CASES ?? '20x2000,200x2000,200x20000').split(',').map((c) => c.split('x').map(Number));
const FROM = Date.parse('2027-03-01T00:00:00+02:00');
const DAY = 86_400_000;
const CAP = 50_000;

type Server = Awaited<ReturnType<typeof startBenchServer>>;

interface Fixture {
  cid: string;
  sid: string;
  resources: string[];
  bookings: number;
}

async function seed(s: Server, h: Record<string, string>, nResources: number, nBookings: number): Promise<Fixture> {
  const company = (await (
    await fetch(`${s.base}/v1/companies`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ name: `Bench salon ${nResources}x${nBookings}`, timeZone: 'Europe/Riga' }),
    })
  ).json()) as { id: string };
  const conn = s.deps.orm.em.fork().getConnection();
  const cid = company.id;
  const sid = randomUUID();
  await conn.execute(`insert into service (id, company_id, name, type, settings) values (?, ?, 'Haircut', 'fixed', ?::jsonb)`, [
    sid,
    cid,
    JSON.stringify({ duration: 'PT1H', timeInterval: 'PT15M', bufferAfter: 'PT15M' }),
  ]);
  const resources: string[] = [];
  const hours = JSON.stringify([
    {
      daysOfWeek: 126,
      hours: [
        { start: '09:00', end: '13:00' },
        { start: '14:00', end: '19:00' },
      ],
    },
  ]);
  for (let i = 0; i < nResources; i++) {
    const rid = randomUUID();
    resources.push(rid);
    // a closed day and a closed afternoon per resource
    const closedDay = FROM + (3 + (i % 20)) * DAY;
    await conn.execute(
      `with r as (insert into resource (id, company_id, name, color) values (?, ?, ?, '#336699') returning id),
       l as (insert into service_resource_link (id, company_id, service_id, resource_id) select ?, ?, ?, id from r),
       w as (insert into working_hours_rule (id, company_id, resource_id, working_hours) select ?, ?, id, ?::jsonb from r)
       insert into closing_period (id, company_id, resource_id, start_time, end_time)
       select x.id, ?, r.id, x.s, x.e from r, (values (?::uuid, ?::timestamptz, ?::timestamptz), (?::uuid, ?::timestamptz, ?::timestamptz)) as x(id, s, e)`,
      [
        rid,
        cid,
        `Stylist ${String(i).padStart(3, '0')}`,
        randomUUID(),
        cid,
        sid,
        randomUUID(),
        cid,
        hours,
        cid,
        randomUUID(),
        new Date(closedDay).toISOString(),
        new Date(closedDay + DAY).toISOString(),
        randomUUID(),
        new Date(closedDay + 5 * DAY + 12 * 3600_000).toISOString(),
        new Date(closedDay + 5 * DAY + 17 * 3600_000).toISOString(),
      ],
    );
  }
  // bookings per resource at distinct quarter hours within working hours, spread over the month
  let seedValue = 7;
  const rand = () => (seedValue = (seedValue * 1103515245 + 12345) % 2147483648) / 2147483648;
  const ids: string[] = [];
  const rids: string[] = [];
  const starts: string[] = [];
  const ends: string[] = [];
  const perResource = Math.round(nBookings / nResources);
  for (const rid of resources) {
    const taken: [number, number][] = [];
    while (taken.length < perResource) {
      const dayIdx = Math.floor(rand() * 30);
      const quarter = Math.floor(rand() * 36); // 09:00 .. 17:45 local
      const start = FROM + dayIdx * DAY + (7 * 60 + quarter * 15) * 60_000; // 09:00 local = 07:00Z in winter
      const end = start + 3600_000;
      if (taken.some(([a, b]) => start < b + 900_000 && a < end + 900_000)) continue;
      taken.push([start, end]);
      ids.push(randomUUID());
      rids.push(rid);
      starts.push(new Date(start).toISOString());
      ends.push(new Date(end).toISOString());
    }
  }
  for (let i = 0; i < ids.length; i += 1000) {
    const part = (a: string[]) => `{${a.slice(i, i + 1000).join(',')}}`;
    await conn.execute(
      `with b as (
         insert into booking (id, company_id, service_id, resource_id, type, status, start_time, end_time, buffer_after_sec)
         select x.id, ?, ?, x.rid, 'fixed', 'confirmed', x.s, x.e, 900
         from unnest(?::uuid[], ?::uuid[], ?::timestamptz[], ?::timestamptz[]) as x(id, rid, s, e)
         returning id, resource_id, start_time, end_time
       )
       insert into booking_occupancy (company_id, booking_id, resource_id, during)
       select ?, b.id, b.resource_id, tstzrange(b.start_time, b.end_time + interval '15 minutes', '[)') from b`,
      [cid, sid, part(ids), part(rids), part(starts), part(ends), cid],
    );
  }
  await conn.execute('analyze booking_occupancy');
  return { cid, sid, resources, bookings: ids.length };
}

/**
 * The REST path of this version: the engine in columns and the answer's JSON writer, or (in an
 * older build, to compare with) entry objects and JSON.stringify.
 */
type Fn = (...args: any[]) => any;
const columnar = typeof (engineModule as Record<string, unknown>).computeAvailabilityColumns === 'function';
const answerPath = columnar
  ? {
      engine: (engineModule as unknown as Record<string, Fn>).computeAvailabilityColumns,
      json: (computeModule as unknown as Record<string, Fn>).timesAnswerJson,
      entries: (r: Record<string, { length: number }>) => Object.values(r).reduce((a, c) => a + c.length, 0),
    }
  : {
      engine: engineModule.computeAvailability as Fn,
      json: (loaded: unknown, result: unknown, zone: string) =>
        Buffer.from(JSON.stringify((computeModule as unknown as Record<string, Fn>).timesEntries(loaded, result, zone))),
      entries: (r: { times: Record<string, unknown[]> }) => Object.values(r.times).reduce((a, l) => a + l.length, 0),
    };

/**
 * The document as the server reads it, when this version keeps availability in the process
 * (kept-availability.ts: a version check and the request's cut); absent in older builds, whose
 * server reads the snapshot statement.
 */
type ReadRow = (ctx: Ctx, company: Company, sid: string, opts: SnapshotOptions) => Promise<unknown>;
const keptRow = ((): ReadRow | null => {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('../src/modules/availability/kept-availability') as { availabilityDocument: ReadRow }).availabilityDocument;
  } catch {
    return null;
  }
})();

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const round = (x: number, d = 2) => +x.toFixed(d);

/** Median wall time and CPU time (this process) of `fn` over `runs` calls, after 11 warm-up calls. */
function timed<T>(runs: number, fn: () => T): { ms: number; cpuMs: number; value: T } {
  let value = fn();
  // warm-up: the code is compiled by the time it is timed, as it is in a server that has been running
  for (let i = 0; i < 10; i++) value = fn();
  const wall: number[] = [];
  const c0 = process.cpuUsage();
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    value = fn();
    wall.push(performance.now() - t0);
  }
  const c = process.cpuUsage(c0);
  return { ms: median(wall), cpuMs: (c.user + c.system) / 1000 / runs, value };
}

async function timedAsync<T>(runs: number, fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  let value = await fn();
  const wall: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    value = await fn();
    wall.push(performance.now() - t0);
  }
  return { ms: median(wall), value };
}

/** The in-process breakdown of one answer over `resourceIds` (null: every resource). */
async function breakdown(s: Server, f: Fixture, days: number) {
  const opts: SnapshotOptions = { from: FROM, to: FROM + days * DAY, resourceIds: null, reachSec: 0 };
  const q: ParsedQuery = {
    from: opts.from,
    to: opts.to,
    resourceIds: null,
    durationSec: null,
    spots: null,
    tickets: null,
    includePast: false,
  };
  const ctx = { em: s.deps.orm.em.fork() } as unknown as Ctx;
  const company = { id: f.cid, timeZone: 'Europe/Riga' } as Company;
  const runs = f.resources.length > 20 ? Math.min(PART_RUNS, LARGE_RUNS) : PART_RUNS;
  const sql = await timedAsync(runs, () => loadSnapshotRow(ctx, company, f.sid, opts));
  // what the server reads in this version: the kept document (a version check, the request's cut) when it keeps one
  const kept = keptRow ? await timedAsync(runs, () => keptRow(ctx, company, f.sid, opts)) : sql;
  const row = sql.value;
  const now = Date.now();
  const build = timed(runs, () => buildSnapshot(now, 'Europe/Riga', row, opts));
  const loaded = build.value;
  const engine = timed(runs, () => answerPath.engine(loaded.snapshot, computeModule.engineRequest(q)));
  const result = engine.value;
  const json = timed(runs, () => answerPath.json(loaded, result, 'Europe/Riga'));
  const entries = answerPath.entries(result);
  return {
    entries,
    bytes: json.value.byteLength,
    snapshotSqlMs: round(sql.ms),
    documentMs: round(kept.ms),
    buildMs: round(build.ms),
    engineMs: round(engine.ms),
    engineCpuMs: round(engine.cpuMs),
    serialiseMs: round(json.ms),
    serialiseCpuMs: round(json.cpuMs),
    body: json.value,
  };
}

/**
 * Latency of the `times` request(s) covering every resource for `days`: one request, or one per
 * group of resources under the cap. The client runs in its own process (`bench/http-client.ts`),
 * so the CPU measured here is the server's alone.
 */
async function overHttp(s: Server, client: HttpClient, h: Record<string, string>, f: Fixture, days: number, groups: number) {
  const url = `${s.base}/v1/companies/${f.cid}/services/${f.sid}/times`;
  const size = Math.ceil(f.resources.length / groups);
  const requests = Array.from({ length: groups }, (_, g) => ({
    method: 'POST',
    url,
    headers: { 'accept-encoding': 'identity', ...h },
    body: JSON.stringify({
      from: new Date(FROM).toISOString(),
      to: new Date(FROM + days * DAY).toISOString(),
      ...(groups > 1 ? { resourceIDs: f.resources.slice(g * size, (g + 1) * size) } : {}),
    }),
  }));
  const large = f.resources.length > 20;
  const runs = large ? LARGE_RUNS : RUNS;
  await client.run(requests, 0, large ? 3 : 20); // warm-up
  const before = await sqlStatements(s.base);
  const c0 = process.cpuUsage();
  const run = await client.run(requests, runs, 0);
  const c = process.cpuUsage(c0);
  const statements = ((await sqlStatements(s.base)) - before) / runs;
  let entries = 0;
  for (const a of run.answers) {
    if (a.status !== 200) throw new Error(`status ${a.status}: ${a.body.slice(0, 200)}`);
    entries += Object.values((JSON.parse(a.body) as { times: Record<string, unknown[]> }).times).reduce((n, l) => n + l.length, 0);
  }
  const lat = [...run.latencies].sort((a, b) => a - b);
  return {
    requests: groups,
    runs,
    entries,
    medianMs: round(percentile(lat, 50)),
    p95Ms: round(percentile(lat, 95)),
    serverCpuMsPerAnswer: round((c.user + c.system) / 1000 / runs),
    clientCpuMsPerAnswer: round(run.clientCpuMs / runs),
    sqlStatementsPerAnswer: statements,
  };
}

async function graphqlMonth(s: Server, client: HttpClient, h: Record<string, string>, f: Fixture) {
  const query = `query ($c: ID!, $s: ID!, $i: AvailableTimesInput!) {
    availableTimes(companyID: $c, serviceID: $s, input: $i) { timeZone resources { resourceID times { startTime duration price { amount comparedAmount currency } } } }
  }`;
  const body = JSON.stringify({
    query,
    variables: { c: f.cid, s: f.sid, i: { from: new Date(FROM).toISOString(), to: new Date(FROM + 30 * DAY).toISOString() } },
  });
  const requests = [{ method: 'POST', url: `${s.base}/graphql`, headers: { 'accept-encoding': 'identity', ...h }, body }];
  await client.run(requests, 0, 10);
  const c0 = process.cpuUsage();
  const runs = Math.max(10, RUNS / 4);
  const run = await client.run(requests, runs, 0);
  const c = process.cpuUsage(c0);
  const a = run.answers[0];
  if (a.status !== 200 || a.body.includes('"errors"')) throw new Error(`graphql ${a.status}: ${a.body.slice(0, 300)}`);
  const lat = [...run.latencies].sort((x, y) => x - y);
  return {
    medianMs: round(percentile(lat, 50)),
    p95Ms: round(percentile(lat, 95)),
    serverCpuMsPerAnswer: round((c.user + c.system) / 1000 / runs),
    bytes: Buffer.byteLength(a.body),
  };
}

/** What compressing an answer costs (CPU) and saves (bytes), and the time on a 10 and 100 Mbit/s link. */
function compression(body: Buffer) {
  const link = (bytes: number, mbit: number) => round((bytes * 8) / (mbit * 1000), 1);
  const row = (name: string, fn: () => Buffer) => {
    const t = timed(10, fn);
    return {
      encoding: name,
      bytes: t.value.byteLength,
      compressMs: round(t.ms),
      at10MbitMs: round(t.ms + link(t.value.byteLength, 10), 1),
      at100MbitMs: round(t.ms + link(t.value.byteLength, 100), 1),
    };
  };
  return [
    {
      encoding: 'identity',
      bytes: body.byteLength,
      compressMs: 0,
      at10MbitMs: link(body.byteLength, 10),
      at100MbitMs: link(body.byteLength, 100),
    },
    row('gzip level 1', () => gzipSync(body, { level: 1 })),
    row('gzip level 6', () => gzipSync(body, { level: 6 })),
    row('br quality 4', () => brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } })),
  ];
}

async function main(): Promise<void> {
  const s = await startBenchServer();
  const client = startHttpClient();
  const h = { 'x-api-key': s.key, 'content-type': 'application/json' };
  const results: unknown[] = [];
  let fixture: Fixture | null = null;
  let fixtureMonthBody: Buffer | null = null;
  let fixtureRestMonth: { medianMs: number; p95Ms: number } | null = null;
  for (const [nResources, nBookings] of CASES) {
    const f = await seed(s, h, nResources, nBookings);
    for (const days of [30, 7]) {
      const parts = await breakdown(s, f, days);
      const groups = Math.ceil(parts.entries / (CAP * 0.9));
      const http = await overHttp(s, client, h, f, days, groups);
      const inside = parts.documentMs + parts.buildMs + parts.engineMs + parts.serialiseMs;
      results.push({
        case: `${nResources} resources, ${f.bookings} bookings, ${days} days`,
        ...http,
        bytes: parts.bytes,
        breakdownMs: {
          snapshotSql: parts.snapshotSqlMs,
          document: parts.documentMs,
          buildSnapshot: parts.buildMs,
          engine: parts.engineMs,
          serialise: parts.serialiseMs,
          httpAndRest: round(http.medianMs - inside),
        },
        cpuMs: { engine: parts.engineCpuMs, serialise: parts.serialiseCpuMs },
      });
      if (nResources === 20 && days === 30) {
        fixture = f;
        fixtureMonthBody = parts.body;
        fixtureRestMonth = http;
      }
    }
  }
  const extra: Record<string, unknown> = {};
  if (fixture && fixtureRestMonth) {
    // the same month for a client that accepts gzip (a server that compresses sends 27 KB instead of 808 KB)
    const gz = await overHttp(s, client, { ...h, 'accept-encoding': 'gzip' }, fixture, 30, 1);
    extra.fixtureMonthAcceptingGzip = {
      medianMs: gz.medianMs,
      p95Ms: gz.p95Ms,
      serverCpuMsPerAnswer: gz.serverCpuMsPerAnswer,
      clientCpuMsPerAnswer: gz.clientCpuMsPerAnswer,
    };
    const gql = await graphqlMonth(s, client, h, fixture);
    extra.graphqlMonth = { ...gql, restMedianMs: fixtureRestMonth.medianMs, ratio: round(gql.medianMs / fixtureRestMonth.medianMs) };
  }
  if (fixtureMonthBody) extra.compressionOfFixtureMonth = compression(fixtureMonthBody);
  console.log(
    JSON.stringify(
      {
        machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
        loadAverage1m: round(loadavg()[0]),
        results,
        ...extra,
      },
      null,
      2,
    ),
  );
  client.stop();
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
