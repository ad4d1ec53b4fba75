import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { Pool } from 'pg';
import { percentile, sqlStatements, startBenchServer } from './server';

/**
 * Booking throughput over HTTP, and the same inserts as raw SQL for scale.
 *
 * A fixed service (PT30M, no buffers) on RESOURCES resources open 00:00-24:00 every day; 16
 * concurrent clients create bookings through `POST /v1/companies/{cid}/bookings` at distinct
 * free times (precomputed, so nothing collides and every request does the full availability
 * check) for HTTP_SECONDS. Then 16 `pg` connections insert the same rows (booking, status
 * change, occupancy: the statement the server runs) for RAW_SECONDS.
 *
 * The server runs in a child process so that the load generator does not share its event loop.
 */

const CLIENTS = 16;
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

function startChild(): Promise<{ child: ChildProcess; info: ServerInfo }> {
  // BENCH_PROFILE=<dir> writes a CPU profile of the server process there.
  const execArgv = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = fork(__filename, [], {
    env: { ...process.env, BENCH_ROLE: 'server' },
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (info) => resolve({ child, info: info as ServerInfo }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

/** CPU seconds (user, system) used so far by the server process. */
function serverCpu(child: ChildProcess | null): Promise<{ user: number; system: number }> {
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

async function main(): Promise<void> {
  const inProcess = process.env.BENCH_IN_PROCESS === '1';
  const local = inProcess ? await startBenchServer() : null;
  const remote = inProcess ? null : await startChild();
  const info: ServerInfo = local ? { base: local.base, key: local.key, databaseUrl: local.databaseUrl } : remote!.info;
  const { base, key } = info;

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
  const latencies: number[] = [];
  let failures = 0;
  const statementsBefore = await sqlStatements(base);
  const cpuBefore = await serverCpu(remote?.child ?? null);
  const dbCpuBefore = await databaseCpu(pool);
  const started = performance.now();
  const deadline = started + HTTP_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < deadline) {
        const t = source.next().value!;
        const t0 = performance.now();
        const r = await call(base, 'POST', `/v1/companies/${cid}/bookings`, key, {
          serviceID: sid,
          resourceID: t.rid,
          startTime: new Date(t.start).toISOString(),
        });
        latencies.push(performance.now() - t0);
        if (r.status !== 200) failures++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const dbCpuByKind = cpuDelta(dbCpuBefore, await databaseCpu(pool));
  const dbCpu = total(dbCpuByKind);
  const cpuAfter = await serverCpu(remote?.child ?? null);
  const cpu = { user: cpuAfter.user - cpuBefore.user, system: cpuAfter.system - cpuBefore.system };
  const load = loadavg()[0];
  const statements = (await sqlStatements(base)) - statementsBefore;
  latencies.sort((a, b) => a - b);
  const created = latencies.length - failures;

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
    setup: { resources: RESOURCES, clients: CLIENTS, serverInChildProcess: !inProcess },
    http: {
      seconds: Number(elapsed.toFixed(2)),
      bookings: created,
      failures,
      bookingsPerSecond: Number(httpRate.toFixed(1)),
      latencyMs: {
        p50: Number(percentile(latencies, 50).toFixed(2)),
        p95: Number(percentile(latencies, 95).toFixed(2)),
        p99: Number(percentile(latencies, 99).toFixed(2)),
      },
      sqlStatementsPerBooking: Number((statements / Math.max(1, latencies.length)).toFixed(2)),
      cpuMsPerBooking: {
        serverUser: Number(((cpu.user * 1000) / Math.max(1, latencies.length)).toFixed(2)),
        serverSystem: Number(((cpu.system * 1000) / Math.max(1, latencies.length)).toFixed(2)),
        database: Number(((dbCpu * 1000) / Math.max(1, latencies.length)).toFixed(2)),
        databaseByProcess: Object.fromEntries(
          Object.entries(dbCpuByKind)
            .filter(([, v]) => v > 0)
            .map(([k, v]) => [k, Number(((v * 1000) / Math.max(1, latencies.length)).toFixed(3))]),
        ),
      },
      loadAverage1m: Number(load.toFixed(2)),
    },
    rawSql: { seconds: Number(rawElapsed.toFixed(2)), inserts: raw, insertsPerSecond: Number(rawRate.toFixed(1)), connections: CLIENTS },
    ratioHttpToRaw: Number((httpRate / rawRate).toFixed(3)),
    target: { bookingsPerSecond: 400, met: httpRate >= 400 },
  };
  console.log(JSON.stringify(summary, null, 2));
  agent.destroy();
  if (local) await local.stop();
  if (remote) {
    remote.child.send('stop');
    await new Promise((r) => remote.child.once('exit', r));
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
