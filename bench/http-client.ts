import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { gunzipSync } from 'node:zlib';

/**
 * An HTTP client in its own process, as a real client is: the server's process then does only
 * the server's work, and the client's reading of a large answer does not wait for the server's
 * event loop (or the other way round). Requests run one after the other on one keep-alive
 * connection; each latency is from the request written to the last byte of the answer received
 * (and, for a gzipped answer, decompressed, as a client must before it can read it).
 */

export interface ClientRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface ClientRun {
  /** milliseconds per round (a round sends every request once, in order) */
  latencies: number[];
  /** the answers of the last round */
  answers: { status: number; headers: Record<string, string | string[] | undefined>; body: string }[];
  /** the client process's CPU milliseconds over the measured rounds */
  clientCpuMs: number;
}

interface Job {
  requests: ClientRequest[];
  warmup: number;
  rounds: number;
}

export interface HttpClient {
  run(requests: ClientRequest[], rounds: number, warmup: number): Promise<ClientRun>;
  stop(): void;
}

export function startHttpClient(): HttpClient {
  const child: ChildProcess = fork(__filename, [], {
    env: { ...process.env, BENCH_ROLE: 'http-client' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  return {
    run(requests, rounds, warmup) {
      return new Promise((resolve, reject) => {
        const onMessage = (m: { ok: true; run: ClientRun } | { ok: false; error: string }) => {
          child.off('exit', onExit);
          if (m.ok) resolve(m.run);
          else reject(new Error(m.error));
        };
        const onExit = (code: number | null) => reject(new Error(`the HTTP client process exited (${code})`));
        child.once('message', onMessage);
        child.once('exit', onExit);
        child.send({ requests, warmup, rounds } satisfies Job);
      });
    },
    stop() {
      child.kill();
    },
  };
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer };

function once(r: ClientRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(r.url, { method: r.method, headers: r.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const bytes = res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

async function runJob(job: Job): Promise<ClientRun> {
  let answers: Answer[] = [];
  const round = async () => {
    const out: Answer[] = [];
    for (const r of job.requests) out.push(await once(r));
    return out;
  };
  for (let i = 0; i < job.warmup; i++) answers = await round();
  const latencies: number[] = [];
  const c0 = process.cpuUsage();
  for (let i = 0; i < job.rounds; i++) {
    const t0 = performance.now();
    answers = await round();
    latencies.push(performance.now() - t0);
  }
  const c = process.cpuUsage(c0);
  return {
    latencies,
    answers: answers.map((a) => ({ status: a.status, headers: a.headers, body: a.bytes.toString('utf8') })),
    clientCpuMs: (c.user + c.system) / 1000,
  };
}

if (process.env.BENCH_ROLE === 'http-client' && process.send) {
  process.on('message', (job: Job) => {
    runJob(job).then(
      (run) => process.send!({ ok: true, run }),
      (err: Error) => process.send!({ ok: false, error: String(err?.stack ?? err) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
