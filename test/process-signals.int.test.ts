import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { httpCall, startServerProcess, type ServerProcess } from './helpers/server-process';

/**
 * Signals to the real server process with its embedded PostgreSQL: SIGHUP (the terminal that
 * runs `npm start` is closed) takes the same graceful path as SIGTERM.
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
