import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { httpCall, startServerProcess, type ServerProcess } from '../helpers/server-process';

/**
 * Signals to the real server process with its embedded PostgreSQL: SIGTERM while clients hold
 * idle kept-alive connections (every request they send during the shutdown gets a whole answer,
 * never a reset), and SIGHUP (the terminal that runs `npm start` is closed), which takes the
 * same graceful path as SIGTERM.
 */
// Each case starts a server with its own embedded PostgreSQL (initdb and migrations).
jest.setTimeout(180_000);

let server: ServerProcess | null = null;
afterEach(() => {
  server?.cleanup();
  server = null;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The server answered, got the signal, exited 0, and its embedded postmaster is gone with it. */
async function expectGracefulStop(s: ServerProcess, signal: NodeJS.Signals, signalled = s.pid): Promise<void> {
  const agent = new Agent({ keepAlive: false });
  expect((await httpCall(agent, s.base, 'GET', '/v1/companies', s.key)).status).toBe(200);
  agent.destroy();
  const postmaster = s.postmasterPid();
  expect(alive(postmaster)).toBe(true);
  process.kill(signalled, signal);
  expect(await s.exited).toEqual({ code: 0, signal: null });
  expect(s.logs.join('\n')).toContain(`${signal} received`);
  expect(s.logs.join('\n')).toMatch(/shutdown complete/);
  // the postmaster stopped (fast shutdown removes its lock file) rather than being orphaned
  for (let i = 0; i < 50 && alive(postmaster); i++) await sleep(100);
  expect(alive(postmaster)).toBe(false);
  expect(existsSync(join(s.dataDir, 'pg', 'postmaster.pid'))).toBe(false);
}

describe('SIGHUP', () => {
  it('stops the server like SIGTERM: exit 0, the embedded PostgreSQL stopped', async () => {
    server = await startServerProcess();
    await expectGracefulStop(server, 'SIGHUP');
  });

  it('with WORKERS=2: the primary passes it on, every process exits, the embedded PostgreSQL stopped', async () => {
    server = await startServerProcess({ WORKERS: '2', JWT_SECRET: 'cluster-jwt-secret-0123456789abcdefghij' });
    const s = server;
    for (let i = 0; i < 300 && s.logs.filter((l) => l.includes('listening on')).length < 2; i++) await sleep(100);
    expect(s.logs.filter((l) => l.includes('listening on'))).toHaveLength(2);
    const workers = execFileSync('pgrep', ['-P', String(s.pid), '-f', 'main.ts'])
      .toString()
      .trim()
      .split('\n')
      .map(Number);
    expect(workers).toHaveLength(2);
    await expectGracefulStop(s, 'SIGHUP');
    for (const pid of workers) expect(alive(pid)).toBe(false);
  });
});

/** One HTTP/1.1 answer read from a raw socket, or how the connection ended without one. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A kept-alive connection driven by hand, so the test decides when each request is written.
 * `ended` resolves with how the connection ended: `end` (the server closed it cleanly) or the
 * socket error's code (ECONNRESET, EPIPE).
 */
class RawConnection {
  private readonly socket: Socket;
  private data = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  readonly ended: Promise<string>;
  private endedAs: string | null = null;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (d: Buffer) => {
      this.data = Buffer.concat([this.data, d]);
      this.waiting?.();
    });
    this.ended = new Promise((resolve) => {
      socket.on('error', (e: NodeJS.ErrnoException) => {
        this.endedAs ??= e.code ?? e.message;
        resolve(this.endedAs);
        this.waiting?.();
      });
      socket.on('end', () => {
        this.endedAs ??= 'end';
        resolve(this.endedAs);
        this.waiting?.();
      });
      socket.on('close', () => {
        this.endedAs ??= 'close';
        resolve(this.endedAs);
        this.waiting?.();
      });
    });
  }

  static open(base: string): Promise<RawConnection> {
    const url = new URL(base);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Writes bytes of a request. */
  write(text: string): void {
    this.socket.write(text);
  }

  /** Reads the next answer; rejects with the way the connection ended when no whole answer came. */
  async read(): Promise<RawAnswer> {
    for (;;) {
      const answer = this.parse();
      if (answer) return answer;
      if (this.endedAs) throw new Error(`no whole answer: ${this.endedAs}`);
      await new Promise<void>((r) => (this.waiting = r));
      this.waiting = null;
    }
  }

  /** Writes a GET and reads its answer. */
  async get(path: string, key?: string): Promise<RawAnswer> {
    const head = [`GET ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: keep-alive', ...(key ? [`X-API-Key: ${key}`] : [])];
    this.write(`${head.join('\r\n')}\r\n\r\n`);
    return this.read();
  }

  private parse(): RawAnswer | null {
    const end = this.data.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const [statusLine, ...lines] = this.data.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length']);
    if (!Number.isInteger(length)) throw new Error(`an answer without Content-Length: ${statusLine}`);
    if (this.data.length < end + 4 + length) return null;
    const body = this.data.subarray(end + 4, end + 4 + length).toString('utf8');
    this.data = this.data.subarray(end + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }

  destroy(): void {
    this.socket.destroy();
  }
}

describe('SIGTERM with idle kept-alive connections', () => {
  it('requests sent on them during the shutdown are answered 503 with Retry-After and Connection: close (never reset); exit 0', async () => {
    server = await startServerProcess({ SHUTDOWN_GRACE_MS: '25000' });
    const s = server;
    const connections: RawConnection[] = [];
    try {
      // Kept-alive connections made idle by one answered request each; two of them stay silent.
      for (let i = 0; i < 10; i++) connections.push(await RawConnection.open(s.base));
      for (const c of connections) expect((await c.get('/health')).status).toBe(200);
      const talking = connections.slice(0, 8);
      const silent = connections.slice(8);

      // A request in flight when the signal comes: its body is still being sent.
      const uploading = await RawConnection.open(s.base);
      connections.push(uploading);
      const body = JSON.stringify({ name: 'Drain clinic', timeZone: 'UTC' });
      uploading.write(
        [
          'POST /v1/companies HTTP/1.1',
          'Host: 127.0.0.1',
          `X-API-Key: ${s.key}`,
          'Content-Type: application/json',
          `Content-Length: ${Buffer.byteLength(body)}`,
          '',
          body.slice(0, 10),
        ].join('\r\n'),
      );
      // the server has read its head (and let it in) before the signal
      await sleep(200);
      expect((await connections[0].get('/health')).status).toBe(200);

      const signalAt = Date.now();
      process.kill(s.pid, 'SIGTERM');
      const answers = await Promise.all(
        talking.map(async (c, i) => {
          await sleep(Math.round((i * 200) / (talking.length - 1)));
          const sentAfter = Date.now() - signalAt;
          try {
            return { sentAfter, answer: await c.get('/v1/companies', s.key), ended: await c.ended };
          } catch (e) {
            return { sentAfter, error: (e as Error).message };
          }
        }),
      );
      // a whole answer on every connection, then the server closes it cleanly
      expect(answers.filter((a) => !a.answer || a.ended !== 'end')).toEqual([]);
      for (const a of answers) {
        const { status, headers, body } = a.answer!;
        if (status === 200) continue; // it made it before the shutdown began
        expect({ status, code: JSON.parse(body).code, message: typeof JSON.parse(body).message }).toEqual({
          status: 503,
          code: 'service_unavailable',
          message: 'string',
        });
        expect(Number(headers['retry-after'])).toBeGreaterThan(0);
        expect(headers.connection).toBe('close');
      }
      expect(answers.filter((a) => a.answer?.status === 503).length).toBeGreaterThan(0);

      // the request in flight finishes, on a connection then closed; the silent ones are closed cleanly; exit 0
      uploading.write(body.slice(10));
      const created = await uploading.read();
      expect({ status: created.status, connection: created.headers.connection }).toEqual({ status: 201, connection: 'close' });
      expect(await uploading.ended).toBe('end');
      for (const c of silent) expect(await c.ended).toBe('end');
      expect(await s.exited).toEqual({ code: 0, signal: null });
      expect(s.logs.join('\n')).toMatch(/shutdown complete/);
    } finally {
      for (const c of connections) c.destroy();
    }
  });
});
