import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { Pool } from 'pg';
import { LeanConnection } from './lean-http';
import { percentile, sqlStatements, startBenchServer } from './server';

/**
 * Booking throughput over HTTP, and the same inserts as raw SQL for scale.
 *
 * A fixed service (PT30M, no buffers) on RESOURCES resources open 00:00-24:00 every day; 16
 * concurrent clients create bookings through `POST /v1/companies/{cid}/bookings` at distinct
 * free times (precomputed, so nothing collides and every request passes the schedule check and
 * reaches the insert; the check runs against the catalog the server keeps per resource and
 * year, loaded once per resource and year of the run) for HTTP_SECONDS. Then 16 `pg`
 * connections insert the same rows (booking, status change, occupancy: the statement the
 * server runs) for RAW_SECONDS.
 *
 * The server runs in a child process so that the load generator does not share its event loop.
 * BENCH_PROCESSES=N runs N server processes on the one database (the first one's), and the
 * clients spread over them (client i talks to process i mod N), as N API processes behind a
 * load balancer; server CPU and SQL statements are summed over the processes. With
 * BENCH_RATE_LIMIT set (e.g. 1000000, never refusing) every request also takes a rate-limit
 * token: in each process, or in Redis when REDIS_URL is set.
 */

const CLIENTS = 16;
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 1);
const RESOURCES = Number(process.env.BENCH_RESOURCES ?? 50);
const HTTP_SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const RAW_SECONDS = Number(process.env.BENCH_RAW_SECONDS ?? 10);
const SLOT_MS = 30 * 60_000;
const DAY_MS = 86_400_000;
// Far enough ahead that every time is in the future whatever the date of the run.
const FIRST_DAY = Date.UTC(2031, 0, 6);

interface ServerInfo {
  base: string;
  key: string;
  databaseUrl: string;
}

async function serve(): Promise<void> {
  const s = await startBenchServer();
  process.send!({ base: s.base, key: s.key, databaseUrl: s.databaseUrl } satisfies ServerInfo);
  process.on('message', async (m) => {
    if (m === 'cpu') process.send!({ cpu: process.cpuUsage() });
    if (m === 'stop') {
      await s.stop();
      process.exit(0);
    }
  });
}

function startChild(databaseUrl?: string): Promise<{ child: ChildProcess; info: ServerInfo }> {
  // BENCH_PROFILE=<dir> writes a CPU profile of the server process there.
  const execArgv = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = fork(__filename, [], {
    env: { ...process.env, BENCH_ROLE: 'server', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (info) => resolve({ child, info: info as ServerInfo }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

/** CPU seconds (user, system) used so far by the server processes. */
async function serverCpu(children: ChildProcess[]): Promise<{ user: number; system: number }> {
  if (!children.length) return oneServerCpu(null);
  const each = await Promise.all(children.map(oneServerCpu));
  return each.reduce((a, b) => ({ user: a.user + b.user, system: a.system + b.system }));
}

function oneServerCpu(child: ChildProcess | null): Promise<{ user: number; system: number }> {
  if (!child) {
    const u = process.cpuUsage();
    return Promise.resolve({ user: u.user / 1e6, system: u.system / 1e6 });
  }
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      const cpu = (m as { cpu?: NodeJS.CpuUsage }).cpu;
      if (!cpu) return;
      child.off('message', on);
      resolve({ user: cpu.user / 1e6, system: cpu.system / 1e6 });
    };
    child.on('message', on);
    child.send('cpu');
  });
}

/**
 * CPU seconds used so far by the benchmark database's own backends (from pg_stat_activity;
 * Linux /proc). Other databases and other PostgreSQL servers on the machine are not counted.
 * 0 for a remote DATABASE_URL.
 */
async function databaseCpu(pool: Pool): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ pid: number; kind: string }>(
    // this database's backends only: a shared server also runs other databases' work
    `select pid, coalesce(backend_type, 'other') as kind from pg_stat_activity where datname = current_database()`,
  );
  const out: Record<string, number> = {};
  for (const { pid, kind } of rows) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out[kind] = (out[kind] ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // not on this machine, or ended meanwhile
    }
  }
  return out;
}

const total = (cpu: Record<string, number>): number => Object.values(cpu).reduce((a, b) => a + b, 0);

/** Per process kind, seconds used between two readings (backends that ended meanwhile are lost). */
function cpuDelta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]));
}

const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS * 2 });

function call(base: string, method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: any }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        method,
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        headers: {
          'x-api-key': key,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function must(p: Promise<{ status: number; body: any }>, what: string): Promise<any> {
  const r = await p;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/**
 * Distinct free times (resource, day, half hour). The day changes fastest, over ten years in a
 * scattered order, so bookings spread the way a real calendar fills rather than piling up on
 * one day.
 */
function* times(resources: string[], offsetDays: number): Generator<{ rid: string; start: number }> {
  for (let h = 0; h < 48; h++) {
    for (const rid of resources) {
      for (let d = 0; d < 3650; d++) yield { rid, start: FIRST_DAY + (offsetDays + ((d * 7919) % 3650)) * DAY_MS + h * SLOT_MS };
    }
  }
}

interface Phase {
  created: number;
  elapsed: number;
  failures: number;
  latencies: number[];
  statements: number;
  cpu: { user: number; system: number };
  dbCpu: number;
  dbCpuByKind: Record<string, number>;
  /** the load generator's CPU seconds (this process) */
  clientCpu: number;
  load: number;
}

/** CLIENTS concurrent clients book distinct free times from `source` for `seconds`. */
async function httpPhase(
  bases: string[],
  key: string,
  cid: string,
  sid: string,
  source: Generator<{ rid: string; start: number }>,
  pool: Pool,
  children: ChildProcess[],
  seconds: number,
): Promise<Phase> {
  const latencies: number[] = [];
  let failures = 0;
  const statementsOf = async () => (await Promise.all(bases.map(sqlStatements))).reduce((a, b) => a + b, 0);
  const statementsBefore = await statementsOf();
  const cpuBefore = await serverCpu(children);
  const dbCpuBefore = await databaseCpu(pool);
  // lean keep-alive connections (lean-http.ts): the load generator shares the two cores with the server
  const conns = await Promise.all(Array.from({ length: CLIENTS }, (_, client) => LeanConnection.open(bases[client % bases.length])));
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const path = `/v1/companies/${cid}/bookings`;
  const clientCpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    conns.map(async (conn) => {
      let n = 0;
      while (performance.now() < deadline) {
        const t = source.next().value!;
        const startTime = new Date(t.start).toISOString();
        const t0 = performance.now();
        const r = await conn.request('POST', path, headers, JSON.stringify({ serviceID: sid, resourceID: t.rid, startTime }));
        latencies.push(performance.now() - t0);
        if (r.status !== 200) failures++;
        // every 50th answer is read in full: a booking of the asked time (the status alone is checked for the rest)
        else if (n++ % 50 === 0) {
          const b = JSON.parse(r.body.toString());
          if (b.resourceID !== t.rid || Date.parse(b.startTime) !== t.start || b.status !== 'confirmed')
            throw new Error(`unexpected booking ${r.body}`);
        }
      }
    }),
  );
  const clientCpu = process.cpuUsage(clientCpuBefore);
  for (const c of conns) c.close();
  const elapsed = (performance.now() - started) / 1000;
  const dbCpuByKind = cpuDelta(dbCpuBefore, await databaseCpu(pool));
  const cpuAfter = await serverCpu(children);
  const statements = (await statementsOf()) - statementsBefore;
  latencies.sort((a, b) => a - b);
  return {
    created: latencies.length - failures,
    elapsed,
    failures,
    latencies,
    statements,
    cpu: { user: cpuAfter.user - cpuBefore.user, system: cpuAfter.system - cpuBefore.system },
    dbCpu: total(dbCpuByKind),
    dbCpuByKind,
    clientCpu: (clientCpu.user + clientCpu.system) / 1e6,
    load: loadavg()[0],
  };
}

function httpSummary(p: Phase) {
  const n = Math.max(1, p.latencies.length);
  return {
    seconds: Number(p.elapsed.toFixed(2)),
    bookings: p.created,
    failures: p.failures,
    bookingsPerSecond: Number((p.created / p.elapsed).toFixed(1)),
    latencyMs: {
      p50: Number(percentile(p.latencies, 50).toFixed(2)),
      p95: Number(percentile(p.latencies, 95).toFixed(2)),
      p99: Number(percentile(p.latencies, 99).toFixed(2)),
    },
    sqlStatementsPerBooking: Number((p.statements / n).toFixed(2)),
    cpuMsPerBooking: {
      serverUser: Number(((p.cpu.user * 1000) / n).toFixed(2)),
      serverSystem: Number(((p.cpu.system * 1000) / n).toFixed(2)),
      database: Number(((p.dbCpu * 1000) / n).toFixed(2)),
      client: Number(((p.clientCpu * 1000) / n).toFixed(2)),
      databaseByProcess: Object.fromEntries(
        Object.entries(p.dbCpuByKind)
          .filter(([, v]) => v > 0)
          .map(([k, v]) => [k, Number(((v * 1000) / n).toFixed(3))]),
      ),
    },
    loadAverage1m: Number(p.load.toFixed(2)),
  };
}

/** Phases without (the first, already measured), with, without and with an enabled webhook endpoint. */
async function outboxCost(base: string, key: string, cid: string, phase: () => Promise<Phase>, first: Phase) {
  const hook = await must(
    call(base, 'POST', `/v1/companies/${cid}/webhooks`, key, { url: 'https://hooks.example.com/bench', eventTypes: ['booking.created'] }),
    'webhook',
  );
  const enable = (enabled: boolean) => must(call(base, 'PATCH', `/v1/companies/${cid}/webhooks/${hook.id}`, key, { enabled }), 'toggle');
  const on1 = await phase();
  await enable(false);
  const off2 = await phase();
  await enable(true);
  const on2 = await phase();
  const rate = (ps: Phase[]) => ps.reduce((a, p) => a + p.created, 0) / ps.reduce((a, p) => a + p.elapsed, 0);
  const off = rate([first, off2]);
  const on = rate([on1, on2]);
  const cpuMs = (ps: Phase[], k: 'server' | 'db') =>
    (ps.reduce((a, p) => a + (k === 'server' ? p.cpu.user + p.cpu.system : p.dbCpu), 0) * 1000) /
    Math.max(
      1,
      ps.reduce((a, p) => a + p.latencies.length, 0),
    );
  return {
    phases: [first, on1, off2, on2].map((p, i) => ({
      endpoint: i % 2 === 1,
      bookingsPerSecond: Number((p.created / p.elapsed).toFixed(1)),
      p95Ms: Number(percentile(p.latencies, 95).toFixed(2)),
    })),
    withoutEndpoint: {
      bookingsPerSecond: Number(off.toFixed(1)),
      serverCpuMs: Number(cpuMs([first, off2], 'server').toFixed(2)),
      databaseCpuMs: Number(cpuMs([first, off2], 'db').toFixed(2)),
    },
    withEndpoint: {
      bookingsPerSecond: Number(on.toFixed(1)),
      serverCpuMs: Number(cpuMs([on1, on2], 'server').toFixed(2)),
      databaseCpuMs: Number(cpuMs([on1, on2], 'db').toFixed(2)),
    },
    ratio: Number((on / off).toFixed(3)),
  };
}

async function main(): Promise<void> {
  const inProcess = process.env.BENCH_IN_PROCESS === '1';
  const local = inProcess ? await startBenchServer() : null;
  const remote = inProcess ? null : await startChild();
  const info: ServerInfo = local ? { base: local.base, key: local.key, databaseUrl: local.databaseUrl } : remote!.info;
  const { base, key } = info;
  const more = inProcess ? [] : await Promise.all(Array.from({ length: PROCESSES - 1 }, () => startChild(info.databaseUrl)));
  const children = remote ? [remote, ...more].map((r) => r.child) : [];
  const bases = [base, ...more.map((r) => r.info.base)];

  const company = await must(call(base, 'POST', '/v1/companies', key, { name: 'Bench clinic', timeZone: 'UTC' }), 'company');
  const cid = company.id as string;
  const service = await must(
    call(base, 'POST', `/v1/companies/${cid}/services`, key, { name: 'Consultation', type: 'fixed', settings: { duration: 'PT30M' } }),
    'service',
  );
  const sid = service.id as string;
  const resources: string[] = [];
  for (let i = 0; i < RESOURCES; i++) {
    const r = await must(
      call(base, 'POST', `/v1/companies/${cid}/resources`, key, { name: `Room ${String(i).padStart(3, '0')}`, color: '#336699' }),
      'resource',
    );
    await must(call(base, 'POST', `/v1/companies/${cid}/services/${sid}/links`, key, { resourceID: r.id }), 'link');
    await must(
      call(base, 'POST', `/v1/companies/${cid}/resources/${r.id}/working-hours`, key, {
        workingHours: [{ daysOfWeek: 127, hours: [{ start: '00:00', end: '24:00' }] }],
      }),
      'hours',
    );
    resources.push(r.id);
  }

  // Warm-up: JIT, pools and caches, on times the measured run does not use.
  const warm = times(resources, 3650);
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = 0; i < 30; i++) {
        const t = warm.next().value!;
        await must(
          call(base, 'POST', `/v1/companies/${cid}/bookings`, key, {
            serviceID: sid,
            resourceID: t.rid,
            startTime: new Date(t.start).toISOString(),
          }),
          'warm-up booking',
        );
      }
    }),
  );

  // An established database has planner statistics (autovacuum gathers them within a minute of
  // real traffic). Without them every pooled backend keeps the foreign-key check plans it made
  // while the booking table was nearly empty (sequential scans), and each insert then gets
  // slower as the table grows. The migration makes autovacuum analyze the booking tables early;
  // here we do not wait for it.
  const pool = new Pool({ connectionString: info.databaseUrl, max: CLIENTS });
  await pool.query('analyze');

  const source = times(resources, 0);
  const phase = () => httpPhase(bases, key, cid, sid, source, pool, children, HTTP_SECONDS);
  const measured = await phase();
  const { created, elapsed } = measured;
  // BENCH_WEBHOOKS=1: the cost of the webhook outbox write, in the same run. Phases alternate
  // without and with an enabled endpoint listening to booking.created (no worker runs: the
  // events stay in the outbox), so the table's growth weighs on both sides alike.
  const webhooks = process.env.BENCH_WEBHOOKS === '1' ? await outboxCost(base, key, cid, phase, measured) : undefined;

  // The same rows straight through pg: booking, first status change and occupancy in one statement.
  const rawSource = times(resources, 7300);
  let raw = 0;
  const rawDeadline = performance.now() + RAW_SECONDS * 1000;
  const rawStarted = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const client = await pool.connect();
      try {
        while (performance.now() < rawDeadline) {
          const t = rawSource.next().value!;
          const id = randomUUID();
          const start = new Date(t.start).toISOString();
          const end = new Date(t.start + SLOT_MS).toISOString();
          await client.query(
            `with b as (
             insert into booking (id, company_id, service_id, resource_id, type, status, start_time, end_time, duration_sec, price, currency, created_at, updated_at)
             values ($1, $2, $3, $4, 'fixed', 'confirmed', $5, $6, 1800, 0, 'EUR', now(), now()) returning id, company_id
           ), s as (
             insert into booking_status_change (id, company_id, booking_id, old_status, new_status, created_at) select $7, company_id, id, null, 'confirmed', now() from b
           )
           insert into booking_occupancy (company_id, booking_id, resource_id, source, during) select company_id, id, $4, 'booking', tstzrange($5, $6, '[)') from b`,
            [id, cid, sid, t.rid, start, end, randomUUID()],
          );
          raw++;
        }
      } finally {
        client.release();
      }
    }),
  );
  const rawElapsed = (performance.now() - rawStarted) / 1000;
  await pool.end();

  const httpRate = created / elapsed;
  const rawRate = raw / rawElapsed;
  const summary = {
    benchmark: 'bookings',
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
    setup: {
      resources: RESOURCES,
      clients: CLIENTS,
      serverInChildProcess: !inProcess,
      serverProcesses: bases.length,
      rateLimit: process.env.BENCH_RATE_LIMIT ? (process.env.REDIS_URL ? 'redis' : 'in-process') : 'off',
    },
    http: httpSummary(measured),
    ...(webhooks ? { webhooks } : {}),
    rawSql: { seconds: Number(rawElapsed.toFixed(2)), inserts: raw, insertsPerSecond: Number(rawRate.toFixed(1)), connections: CLIENTS },
    ratioHttpToRaw: Number((httpRate / rawRate).toFixed(3)),
    target: { bookingsPerSecond: 400, met: httpRate >= 400 },
  };
  console.log(JSON.stringify(summary, null, 2));
  agent.destroy();
  if (local) await local.stop();
  // the processes sharing the first one's database stop first
  for (const child of [...children].reverse()) {
    child.send('stop');
    await new Promise((r) => child.once('exit', r));
  }
}

if (process.env.BENCH_ROLE === 'server') {
  serve().catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
