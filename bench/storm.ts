import { fork, type ChildProcess } from 'node:child_process';
import cluster, { type Worker } from 'node:cluster';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { cpus, loadavg, setPriority, totalmem } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { percentile, startBenchServer } from './server';

/**
 * The availability storm: STORM_CONNECTIONS keep-alive connections each ask, one after the
 * other, for 30 days of available times of a service whose month is the largest answer the
 * answer-size cap allows (a PT30M service on 34 resources open around the clock: 48,960 start
 * times, about 5.5 MB of JSON; BENCH_RESOURCES=50 gives the 72,000 of the first measurement,
 * which the cap now refuses). Meanwhile another process probes `GET /health` and `GET /ready`
 * every 50 ms (each on its own connection) and creates bookings over BOOKERS connections, one
 * after the other on each. Reports /health, /ready and booking latency, the storm's answers by
 * status with the latency of the answers and of the refusals (503, which must carry
 * `Retry-After`), the server's event-loop delay and its peak resident memory (read from /proc,
 * so a blocked event loop cannot hide it).
 *
 * Storm clients honour `Retry-After` on 503 and 429 (they wait that long before asking again),
 * as a well-behaved client does. The server runs in a child process.
 */

const CONNECTIONS = Number(process.env.STORM_CONNECTIONS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const RESOURCES = Number(process.env.BENCH_RESOURCES ?? 34);
const BOOKERS = 4;
// API processes sharing the port (node:cluster, as WORKERS=N runs the server); who accepts a
// connection is node:cluster's NODE_CLUSTER_SCHED_POLICY: `rr` (the primary, handing connections
// out in turn; the default) or `none` (each worker accepts for itself).
const WORKERS = Number(process.env.STORM_WORKERS ?? 1);
// The storm clients' CPU priority (nice): see main().
const STORM_NICE = Number(process.env.STORM_NICE ?? 10);
const PROBE_INTERVAL_MS = 50;
const DAY_MS = 86_400_000;
const SLOT_MS = 30 * 60_000;
// Far enough ahead that every time is in the future whatever the date of the run.
const STORM_FROM = Date.UTC(2031, 0, 6);
const BOOKING_FROM = Date.UTC(2033, 0, 3);

interface ServerInfo {
  base: string;
  key: string;
  /** the processes serving: one, or the primary and its workers */
  pids: number[];
}

async function serve(): Promise<void> {
  const s = await startBenchServer();
  // How long the server's event loop was blocked (as opposed to waiting for a CPU).
  const delay = monitorEventLoopDelay({ resolution: 10 });
  // The server's own time for a refusal and a probe: from the request's headers read to its
  // last byte handed to the socket (what a client on another machine sees, less the network).
  const served: ServedTimes = { refused: [], health: [], ready: [] };
  let timing = false;
  // When each connection was accepted, and for the first request on it, when its headers were
  // read and when its answer was handed to the socket (epoch ms, comparable with the observer's).
  const acceptedAt = new WeakMap<object, number>();
  const firstRequests = new Map<number, FirstRequest>();
  const now = () => performance.timeOrigin + performance.now();
  s.server.on('connection', (socket: { remotePort?: number }) => acceptedAt.set(socket, now()));
  s.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!timing) return;
    const t0 = performance.now();
    const accepted = acceptedAt.get(req.socket);
    if (accepted !== undefined && req.socket.remotePort !== undefined && req.url?.endsWith('/times')) {
      acceptedAt.delete(req.socket);
      const port = req.socket.remotePort;
      const read = now();
      res.once('finish', () => firstRequests.set(port, { accepted, read, answered: now(), status: res.statusCode }));
    }
    res.once('finish', () => {
      const ms = performance.now() - t0;
      if (res.statusCode === 503 && req.url?.endsWith('/times')) served.refused.push(ms);
      else if (req.url === '/health') served.health.push(ms);
      else if (req.url === '/ready') served.ready.push(ms);
    });
  });
  process.send!({ base: s.base, key: s.key, pids: [process.pid] } satisfies ServerInfo);
  process.on('message', async (m) => {
    if (m === 'delay-start') {
      delay.enable();
      timing = true;
    }
    if (m === 'delay') {
      delay.disable();
      timing = false;
      const ms = (ns: number) => Math.round(ns / 1e5) / 10;
      process.send!({
        delay: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
        served,
        firstRequests: [...firstRequests],
      } satisfies ServerReport);
    }
    if (m === 'stop') {
      await s.stop();
      process.exit(0);
    }
  });
}

/**
 * STORM_WORKERS > 1: the server role's process is a node:cluster primary whose workers each run
 * `serve()` on the one shared port; it passes the parent's messages on to every worker and
 * answers 'delay' with their reports together (each event-loop figure the slowest worker's).
 */
async function serveCluster(): Promise<void> {
  const workers: Worker[] = [];
  const infos: ServerInfo[] = [];
  // one after the other: each prepares the database (a no-op after the first)
  for (let i = 0; i < WORKERS; i++) {
    const worker = cluster.fork();
    infos.push(
      await new Promise<ServerInfo>((resolve, reject) => {
        worker.once('message', (m) => resolve(m as ServerInfo));
        worker.once('exit', (code) => reject(new Error(`bench server worker exited with ${code}`)));
      }),
    );
    workers.push(worker);
  }
  if (new Set(infos.map((i) => i.base)).size !== 1) throw new Error('the workers do not share one port');
  process.send!({ base: infos[0].base, key: infos[0].key, pids: [process.pid, ...infos.flatMap((i) => i.pids)] } satisfies ServerInfo);
  process.on('message', async (m) => {
    if (m === 'delay') {
      const reports = await Promise.all(
        workers.map(
          (w) =>
            new Promise<ServerReport>((resolve) => {
              const on = (r: unknown) => {
                if (!(r as Partial<ServerReport>).delay) return;
                w.off('message', on);
                resolve(r as ServerReport);
              };
              w.on('message', on);
              w.send('delay');
            }),
        ),
      );
      const worst = (k: keyof EventLoopDelay) => Math.max(...reports.map((r) => r.delay[k]));
      process.send!({
        delay: { p50: worst('p50'), p99: worst('p99'), max: worst('max') },
        served: {
          refused: reports.flatMap((r) => r.served.refused),
          health: reports.flatMap((r) => r.served.health),
          ready: reports.flatMap((r) => r.served.ready),
        },
        firstRequests: reports.flatMap((r) => r.firstRequests),
      } satisfies ServerReport);
      return;
    }
    for (const w of workers) w.send(m as string);
    if (m === 'stop') {
      await Promise.all(workers.map((w) => new Promise((resolve) => (w.isDead() ? resolve(null) : w.once('exit', resolve)))));
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

/** Resident memory of processes together in bytes (Linux /proc), or null elsewhere. */
function rssOf(pids: number[]): number | null {
  try {
    return sum(
      pids.map((pid) => {
        const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        if (!m) throw new Error('no VmRSS');
        return Number(m[1]) * 1024;
      }),
    );
  } catch {
    return null;
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

interface Answer {
  status: number;
  bytes: number;
  text: string;
  retryAfter: number | null;
}

function call(agent: Agent, base: string, method: string, path: string, key: string | null, body?: unknown, keep = true): Promise<Answer> {
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
          ...(key ? { 'x-api-key': key } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        let bytes = 0;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (keep) chunks.push(c);
        });
        res.on('end', () => {
          const ra = Number(res.headers['retry-after']);
          resolve({
            status: res.statusCode ?? 0,
            bytes,
            text: keep ? Buffer.concat(chunks).toString() : '',
            retryAfter: Number.isFinite(ra) ? ra : null,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function must(agent: Agent, base: string, method: string, path: string, key: string, body: unknown): Promise<{ id: string }> {
  const r = await call(agent, base, method, path, key, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return JSON.parse(r.text);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number) => Number(n.toFixed(1));
const pct = (xs: number[], p: number) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    p,
  );
const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return {
    count: s.length,
    p50: round(percentile(s, 50)),
    p95: round(percentile(s, 95)),
    p99: round(percentile(s, 99)),
    max: round(s.at(-1) ?? NaN),
  };
};

async function main(): Promise<void> {
  const { child, info } = await startChild();
  const { base, key } = info;
  const setup = new Agent({ keepAlive: true, maxSockets: 4 });
  const company = await must(setup, base, 'POST', '/v1/companies', key, { name: 'Storm clinic', timeZone: 'UTC' });
  const cid = company.id;
  const service = await must(setup, base, 'POST', `/v1/companies/${cid}/services`, key, {
    name: 'Consultation',
    type: 'fixed',
    settings: { duration: 'PT30M' },
  });
  const sid = service.id;
  const resources: string[] = [];
  for (let i = 0; i < RESOURCES; i++) {
    const r = await must(setup, base, 'POST', `/v1/companies/${cid}/resources`, key, { name: `Room ${i}`, color: '#336699' });
    await must(setup, base, 'POST', `/v1/companies/${cid}/services/${sid}/links`, key, { resourceID: r.id });
    await must(setup, base, 'POST', `/v1/companies/${cid}/resources/${r.id}/working-hours`, key, {
      workingHours: [{ daysOfWeek: 127, hours: [{ start: '00:00', end: '24:00' }] }],
    });
    resources.push(r.id);
  }
  const timesPath = `/v1/companies/${cid}/services/${sid}/times`;
  const month = { from: new Date(STORM_FROM).toISOString(), to: new Date(STORM_FROM + 30 * DAY_MS).toISOString() };
  const sample = await call(setup, base, 'POST', timesPath, key, month);
  if (sample.status !== 200) throw new Error(`times: ${sample.status} ${sample.text.slice(0, 300)}`);
  const entries = Object.values(JSON.parse(sample.text).times as Record<string, unknown[]>).reduce((n, l) => n + l.length, 0);
  // warm-up of the booking path
  let bookingSeq = 0;
  const nextBooking = () => {
    const n = bookingSeq++;
    return {
      serviceID: sid,
      resourceID: resources[n % RESOURCES],
      startTime: new Date(BOOKING_FROM + Math.floor(n / RESOURCES) * SLOT_MS).toISOString(),
    };
  };
  for (let i = 0; i < 20; i++) await must(setup, base, 'POST', `/v1/companies/${cid}/bookings`, key, nextBooking());

  const rssBaseline = rssOf(info.pids);
  let rssMax = rssBaseline ?? 0;
  const rssTimer = setInterval(() => {
    const r = rssOf(info.pids);
    if (r !== null && r > rssMax) rssMax = r;
  }, 100);

  child.send('delay-start');
  const started = performance.now();
  // The storm's clients run in a process of their own (stormClients) at a lower CPU priority,
  // standing in for clients on other machines: on these two cores they would otherwise take the
  // CPU the server needs, which no real deployment shares with its clients. STORM_NICE=0 puts
  // them on an equal footing, as the runs before 2026-11-28 did.
  const stormProcess = fork(__filename, [], {
    env: { ...process.env, BENCH_ROLE: 'storm' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stormDone = new Promise<StormResult>((resolve) => stormProcess.once('message', (m) => resolve(m as StormResult)));
  stormProcess.send({ base, key, path: timesPath, body: month, seconds: SECONDS } satisfies StormTask);
  const serverCpu0 = sum(cpuOf(info.pids));
  const postgres0 = postgresCpu();
  const kernel0 = kernelCounters();

  // /health and bookings are measured from another process, as an orchestrator's probe and
  // other customers would see them: the storm's 200 connections do not slow their client.
  const observer = fork(__filename, [], {
    env: { ...process.env, BENCH_ROLE: 'observer' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const observed = new Promise<Observed>((resolve) => observer.once('message', (m) => resolve(m as Observed)));
  observer.send({
    base,
    key,
    cid,
    sid,
    resources,
    seconds: SECONDS,
    firstBooking: bookingSeq,
    stormPath: timesPath,
    stormBody: month,
  } satisfies ObserverTask);
  const { stormStatus, stormOk, stormRefused, refusedWithoutRetryAfter, stormBytes, stormErrors, cpuMs: stormCpuMs } = await stormDone;
  const serverCpu1 = sum(cpuOf(info.pids));
  const postgres1 = postgresCpu();
  const kernel1 = kernelCounters();
  const {
    health,
    healthStatus,
    ready,
    readyStatus,
    bookings,
    bookingStatus,
    excessRefused,
    excessTimeline,
    excessStatus,
    cpuMs: observerCpuMs,
  } = await observed;
  const elapsed = (performance.now() - started) / 1000;
  // the storm's start on the clock the server and the observer report in (epoch ms)
  const stormStartedAt = performance.timeOrigin + started;
  clearInterval(rssTimer);
  const {
    delay: eventLoopDelayMs,
    served,
    firstRequests,
  } = await new Promise<ServerReport>((resolve) => {
    const on = (m: unknown) => {
      const d = m as Partial<ServerReport>;
      if (!d.delay) return;
      child.off('message', on);
      resolve(d as ServerReport);
    };
    child.on('message', on);
    child.send('delay');
  });
  const seconds = (ticks: number) => round(ticks / CLOCK_TICKS);

  const result = {
    benchmark: 'storm',
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
    setup: {
      connections: CONNECTIONS,
      seconds: SECONDS,
      resources: RESOURCES,
      entriesPerAnswer: entries,
      bytesPerAnswer: sample.bytes,
      serverProcesses: WORKERS,
      ...(WORKERS > 1 ? { schedulingPolicy: cluster.schedulingPolicy === cluster.SCHED_NONE ? 'none' : 'rr' } : {}),
    },
    elapsedSeconds: round(elapsed),
    healthMs: { ...summary(health), statuses: healthStatus },
    readyMs: { ...summary(ready), statuses: readyStatus },
    bookingMs: { ...summary(bookings), statuses: bookingStatus },
    storm: {
      answers: stormStatus,
      okMs: summary(stormOk),
      refusedMs: summary(stormRefused),
      refusedWithoutRetryAfter,
      megabytes: round(stormBytes / 2 ** 20),
      connectionErrors: stormErrors,
    },
    excessProbeMs: {
      refused: summary(excessRefused),
      connect: summary(excessTimeline.map((t) => t.connectMs)),
      // Where the slowest refusals lost their time, in ms from the request's start: connected,
      // accepted by the server, its headers read, its answer handed to the socket, its status
      // line read by the client.
      // The server accepts one connection per turn of its event loop (libuv): how long the
      // storm's opening burst of connections took to be accepted, in seconds into the storm.
      stormAccepted: acceptedSpan(firstRequests, stormStartedAt),
      slowest: slowestRefusals(excessRefused, excessTimeline, new Map(firstRequests), stormStartedAt),
      statuses: excessStatus,
    },
    kernelDuringStorm: kernelDelta(kernel0, kernel1),
    servedByServerMs: { refused: summary(served.refused), health: summary(served.health), ready: summary(served.ready) },
    cpuSecondsDuringStorm: {
      server: seconds(serverCpu1 - serverCpu0),
      stormClients: round(stormCpuMs / 1000),
      observer: round(observerCpuMs / 1000),
      postgres: seconds(postgres1 - postgres0),
      stormNice: STORM_NICE,
    },
    serverEventLoopDelayMs: eventLoopDelayMs,
    serverRssMiB: { baseline: round((rssBaseline ?? NaN) / 2 ** 20), max: round(rssMax / 2 ** 20) },
    loadAverage1m: round(loadavg()[0]),
    goals: {
      healthP99Under100ms: pct(health, 99) < 100,
      readyP99Under100ms: pct(ready, 99) < 100,
      bookingP95Under500ms: pct(bookings, 95) < 500,
      refusalsP99Under50ms: pct(stormRefused, 99) < 50 && refusedWithoutRetryAfter === 0,
      refusalsServedP99Under50ms: pct(served.refused, 99) < 50,
      refusalsProbedP99Under50ms: pct(excessRefused, 99) < 50,
      rssUnder1GiB: rssMax < 2 ** 30,
    },
  };
  console.log(JSON.stringify(result, null, 2));
  setup.destroy();
  child.send('stop');
  await new Promise((r) => child.once('exit', r));
}

interface StormTask {
  base: string;
  key: string;
  path: string;
  body: unknown;
  seconds: number;
}
interface StormResult {
  stormStatus: Record<string, number>;
  stormOk: number[];
  stormRefused: number[];
  refusedWithoutRetryAfter: number;
  stormBytes: number;
  stormErrors: number;
  cpuMs: number;
}
interface FirstRequest {
  accepted: number;
  read: number;
  answered: number;
  status: number;
}
function acceptedSpan(firstRequests: [number, FirstRequest][], stormStartedAt: number) {
  const accepted = firstRequests.map(([, f]) => f.accepted - stormStartedAt).sort((a, b) => a - b);
  const burst = accepted.slice(0, CONNECTIONS);
  return { connections: burst.length, firstS: round(burst[0] / 1000), lastS: round((burst.at(-1) ?? NaN) / 1000) };
}
function slowestRefusals(ms: number[], timeline: Observed['excessTimeline'], server: Map<number, FirstRequest>, stormStartedAt: number) {
  return ms
    .map((total, i) => {
      const t = timeline[i];
      const s = server.get(t.port);
      const from = (at: number | undefined) => (at === undefined ? null : round(at - t.sentAt));
      return {
        secondsIntoStorm: round((t.sentAt - stormStartedAt) / 1000),
        connected: round(t.connectMs),
        accepted: from(s?.accepted),
        read: from(s?.read),
        answered: from(s?.answered),
        statusSeen: round(total),
      };
    })
    .sort((a, b) => b.statusSeen - a.statusSeen)
    .slice(0, 5);
}
/** The server's event-loop delay during the storm, ms. */
interface EventLoopDelay {
  p50: number;
  p99: number;
  max: number;
}

/** What the server reports after the storm. */
interface ServerReport {
  delay: EventLoopDelay;
  served: ServedTimes;
  firstRequests: [number, FirstRequest][];
}

interface ServedTimes {
  refused: number[];
  health: number[];
  ready: number[];
}

/** CONNECTIONS keep-alive connections ask for `body` one request after the other, for `seconds`. */
async function stormClients(task: StormTask): Promise<StormResult> {
  const deadline = performance.now() + task.seconds * 1000;
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const out: StormResult = {
    stormStatus: {},
    stormOk: [],
    stormRefused: [],
    refusedWithoutRetryAfter: 0,
    stormBytes: 0,
    stormErrors: 0,
    cpuMs: 0,
  };
  const storm = Array.from({ length: CONNECTIONS }, async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        const r = await call(agent, task.base, 'POST', task.path, task.key, task.body, false);
        out.stormStatus[r.status] = (out.stormStatus[r.status] ?? 0) + 1;
        out.stormBytes += r.bytes;
        if (r.status === 200) out.stormOk.push(performance.now() - t0);
        else if (r.status === 503) out.stormRefused.push(performance.now() - t0);
        if (r.status === 503 && r.retryAfter === null) out.refusedWithoutRetryAfter++;
        if (r.status === 503 || r.status === 429) await sleep(1000 * (r.retryAfter ?? 1));
      } catch {
        out.stormErrors++;
        await sleep(100);
      }
    }
  });
  await Promise.all(storm);
  agent.destroy();
  const cpu = process.cpuUsage();
  out.cpuMs = (cpu.user + cpu.system) / 1000;
  return out;
}

/**
 * The kernel's counters that explain a connection's lost time on loopback (Linux; zeros
 * elsewhere): TCP segments retransmitted, listen-queue overflows and drops, and packets the
 * network backlog (`net.core.netdev_max_backlog`) dropped.
 */
function kernelCounters(): Record<string, number> {
  const out: Record<string, number> = { retransSegs: 0, listenOverflows: 0, listenDrops: 0, backlogDrops: 0 };
  const field = (file: string, prefix: string, name: string): number => {
    try {
      const lines = readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith(prefix));
      const i = lines[0].split(/\s+/).indexOf(name);
      return i < 0 ? 0 : Number(lines[1].split(/\s+/)[i]);
    } catch {
      return 0;
    }
  };
  out.retransSegs = field('/proc/net/snmp', 'Tcp:', 'RetransSegs');
  out.listenOverflows = field('/proc/net/netstat', 'TcpExt:', 'ListenOverflows');
  out.listenDrops = field('/proc/net/netstat', 'TcpExt:', 'ListenDrops');
  try {
    for (const line of readFileSync('/proc/net/softnet_stat', 'utf8').trim().split('\n'))
      out.backlogDrops += parseInt(line.split(' ')[1], 16);
  } catch {
    // not Linux
  }
  return out;
}
const kernelDelta = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(Object.keys(a).map((k) => [k, b[k] - a[k]]));

/** Clock ticks a second of /proc's CPU times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

/** User + system CPU time of processes, in clock ticks (Linux /proc; 0 elsewhere). */
function cpuOf(pids: number[]): number[] {
  return pids.map((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(f[11]) + Number(f[12]);
    } catch {
      return 0;
    }
  });
}

/** CPU time of every PostgreSQL process of the machine (the embedded one's or the local server's), in clock ticks. */
function postgresCpu(): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += cpuOf([Number(pid)])[0];
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

interface ObserverTask {
  base: string;
  key: string;
  cid: string;
  sid: string;
  resources: string[];
  seconds: number;
  firstBooking: number;
  stormPath: string;
  stormBody: unknown;
}
interface Observed {
  /** the storm's own request sent by the observer: time to the status line of a refusal (a 200 is cut off unread) */
  excessRefused: number[];
  /** for each of those refusals, when it was sent (epoch ms), how long its connection took, its port */
  excessTimeline: { sentAt: number; connectMs: number; port: number }[];
  excessStatus: Record<string, number>;
  cpuMs: number;
  health: number[];
  healthStatus: Record<string, number>;
  ready: number[];
  readyStatus: Record<string, number>;
  bookings: number[];
  bookingStatus: Record<string, number>;
}

/** Probes /health and /ready every 50 ms and books with BOOKERS connections, for `seconds`. */
async function observe(task: ObserverTask): Promise<Observed> {
  const deadline = performance.now() + task.seconds * 1000;
  const probeAgents: Agent[] = [];
  const out: Observed = {
    excessRefused: [],
    excessTimeline: [],
    excessStatus: {},
    cpuMs: 0,
    health: [],
    healthStatus: {},
    ready: [],
    readyStatus: {},
    bookings: [],
    bookingStatus: {},
  };
  const probe = (path: string, times: number[], statuses: Record<string, number>) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    probeAgents.push(agent);
    return (async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const r = await call(agent, task.base, 'GET', path, null);
        times.push(performance.now() - t0);
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        await sleep(PROBE_INTERVAL_MS);
      }
    })();
  };
  // The storm's request from a client that is not busy reading 5 MB answers: how fast excess is
  // refused as a client sees it. An admitted request is cut off at its status line, unread.
  const excess = (async () => {
    const url = new URL(task.stormPath, task.base);
    const payload = JSON.stringify(task.stormBody);
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const status = await new Promise<number>((resolve) => {
        const req = request(
          {
            method: 'POST',
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            agent: false,
            headers: { 'x-api-key': task.key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
          },
          (res) => {
            const code = res.statusCode ?? 0;
            if (code === 503) {
              out.excessRefused.push(performance.now() - t0);
              out.excessTimeline.push({ sentAt: performance.timeOrigin + t0, connectMs: connected - t0, port: res.socket.localPort ?? 0 });
            }
            res.destroy();
            resolve(code);
          },
        );
        let connected = NaN;
        req.once('socket', (s) => s.once('connect', () => (connected = performance.now())));
        req.on('error', () => resolve(0));
        req.end(payload);
      });
      out.excessStatus[status] = (out.excessStatus[status] ?? 0) + 1;
      await sleep(PROBE_INTERVAL_MS);
    }
  })();
  const probes = [probe('/health', out.health, out.healthStatus), probe('/ready', out.ready, out.readyStatus), excess];
  const bookAgent = new Agent({ keepAlive: true, maxSockets: BOOKERS });
  let seq = task.firstBooking;
  const booking = Array.from({ length: BOOKERS }, async () => {
    while (performance.now() < deadline) {
      const n = seq++;
      const body = {
        serviceID: task.sid,
        resourceID: task.resources[n % task.resources.length],
        startTime: new Date(BOOKING_FROM + Math.floor(n / task.resources.length) * SLOT_MS).toISOString(),
      };
      const t0 = performance.now();
      const r = await call(bookAgent, task.base, 'POST', `/v1/companies/${task.cid}/bookings`, task.key, body);
      out.bookings.push(performance.now() - t0);
      out.bookingStatus[r.status] = (out.bookingStatus[r.status] ?? 0) + 1;
    }
  });
  await Promise.all([...probes, ...booking]);
  for (const a of probeAgents) a.destroy();
  bookAgent.destroy();
  const cpu = process.cpuUsage();
  out.cpuMs = (cpu.user + cpu.system) / 1000;
  return out;
}

/** A child's role: one task from the parent, whose result it sends back before it exits. */
function runTask<T, R>(work: (task: T) => Promise<R>): void {
  process.once('message', (task) => {
    work(task as T).then(
      (out) => process.send!(out, () => process.exit(0)),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}

if (process.env.BENCH_ROLE === 'observer') {
  runTask(observe);
} else if (process.env.BENCH_ROLE === 'storm') {
  setPriority(STORM_NICE);
  runTask(stormClients);
} else if (process.env.BENCH_ROLE === 'server') {
  (WORKERS > 1 && cluster.isPrimary ? serveCluster() : serve()).catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
