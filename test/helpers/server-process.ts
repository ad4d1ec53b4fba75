import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/db/embedded';

/**
 * The real server process (`src/main.ts`, compiled on load like jest compiles it) with its
 * embedded PostgreSQL in a temporary data directory, for tests of signals and crashes.
 */
export interface ServerProcess {
  base: string;
  pid: number;
  key: string;
  dataDir: string;
  logs: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The postmaster's pid, from its lock file. */
  postmasterPid(): number;
  /** `postgres://` URL of the embedded server's booking database. */
  databaseUrl(): string;
  cleanup(): void;
}

const ADMIN_KEY = 'process-test-admin-key-0123456789';

/** Starts the server on a new data directory, or on `dataDir` (the one of an earlier process). */
export async function startServerProcess(env: Record<string, string> = {}, dataDir?: string): Promise<ServerProcess> {
  const root = join(__dirname, '..', '..');
  const parent = dataDir ?? mkdtempSync(join(tmpdir(), 'booking-process-'));
  // When run as root the database runs as the `postgres` user, which must reach the directory.
  chmodSync(parent, 0o755);
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', join(root, 'test/helpers/swc-register.cjs'), join(root, 'src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: parent,
      DATABASE_URL: '',
      ADMIN_API_KEY: ADMIN_KEY,
      RATE_LIMIT_PER_SECOND: '0',
      LOG_LEVEL: 'info',
      // a PDF thread's first document drawn from scratch compiles pdfkit's sources (see test/helpers/app.ts)
      PDF_TIMEOUT_MS: '60000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  // 'exit' can come before the last output is read: wait for the pipes to close too (briefly,
  // since a child the server started may still hold them)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      const done = () => resolve({ code, signal });
      const timer = setTimeout(done, 1000);
      child.once('close', () => {
        clearTimeout(timer);
        done();
      });
    }),
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const lines = out.split('\n');
      out = lines.pop() ?? '';
      for (const line of lines) {
        logs.push(line);
        if (line.includes('listening on')) resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(({ code }) => reject(new Error(`server exited with ${code} while starting:\n${logs.join('\n')}`)));
  });
  const pgDir = join(parent, 'pg');
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    key: ADMIN_KEY,
    dataDir: parent,
    logs,
    exited,
    postmasterPid: () => Number(readFileSync(join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]),
    databaseUrl: () => {
      const password = readFileSync(join(parent, 'pg.password'), 'utf8').trim();
      const pgPort = readFileSync(join(parent, 'pg.port'), 'utf8').trim();
      return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/booking`;
    },
    cleanup: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      try {
        process.kill(Number(readFileSync(join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]), 'SIGKILL');
      } catch {
        // not running
      }
      rmSync(parent, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;

  body: any;
}

/**
 * One HTTP request with an API key or a client's bearer token; rejects only when no complete
 * HTTP answer arrived (reset, refused).
 */
export function httpCall(
  agent: Agent,
  base: string,
  method: string,
  path: string,
  key: string | { bearer: string } | null,
  body?: unknown,
): Promise<Answer> {
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
          ...(typeof key === 'string' ? { 'x-api-key': key } : key ? { authorization: `Bearer ${key.bearer}` } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          if (!res.complete) return reject(new Error('incomplete answer'));
          const text = Buffer.concat(chunks).toString();
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A company with a PT30M service on `resources` resources open around the clock. */
export async function seedCompany(
  agent: Agent,
  base: string,
  key: string,
  resources: number,
): Promise<{ cid: string; sid: string; rids: string[] }> {
  const must = async (method: string, path: string, body: unknown) => {
    const r = await httpCall(agent, base, method, path, key, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as { id: string };
  };
  const cid = (await must('POST', '/v1/companies', { name: 'Process clinic', timeZone: 'UTC' })).id;
  const sid = (await must('POST', `/v1/companies/${cid}/services`, { name: 'Visit', type: 'fixed', settings: { duration: 'PT30M' } })).id;
  const rids: string[] = [];
  for (let i = 0; i < resources; i++) {
    const rid = (await must('POST', `/v1/companies/${cid}/resources`, { name: `Room ${i}`, color: '#336699' })).id;
    await must('POST', `/v1/companies/${cid}/services/${sid}/links`, { resourceID: rid });
    await must('POST', `/v1/companies/${cid}/resources/${rid}/working-hours`, {
      workingHours: [{ daysOfWeek: 127, hours: [{ start: '00:00', end: '24:00' }] }],
    });
    rids.push(rid);
  }
  return { cid, sid, rids };
}
