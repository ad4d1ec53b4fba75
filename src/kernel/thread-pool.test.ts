import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '../shared/errors';
import { TaskTimeout, ThreadPool } from './thread-pool';

// Threads load the TypeScript sources through the require hook a server started from them uses.
const PRELOAD = join(__dirname, '..', '..', 'test', 'helpers', 'swc-register.cjs');
const SERVE_TASKS = `const { serveTasks } = require(${JSON.stringify(join(__dirname, 'thread-pool.ts'))});`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'thread-pool-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A worker module of `source`, written to this run's directory. */
function workerFile(name: string, source: string): string {
  const file = join(dir, name);
  writeFileSync(file, source);
  return file;
}

describe('errors from a worker thread', () => {
  let pool: ThreadPool<string, string>;

  beforeAll(() => {
    const file = workerFile(
      'worker.js',
      `${SERVE_TASKS}
       const { invalid, unavailable } = require(${JSON.stringify(join(__dirname, '..', 'shared', 'errors.ts'))});
       serveTasks((task) => {
         if (task === 'busy') throw unavailable('busy', 7);
         if (task === 'bad') throw invalid('bad input', [{ path: 'x', message: 'is bad' }]);
         throw new Error('internal detail');
       });`,
    );
    pool = new ThreadPool<string, string>(file, 1, { preload: PRELOAD });
  });
  afterAll(async () => pool.close());

  it('arrive as the same DomainError, a 503 with its Retry-After', async () => {
    const busy = await pool.run('busy').catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(DomainError);
    expect(busy).toMatchObject({ code: 'service_unavailable', status: 503, retryAfterSec: 7, message: 'busy' });
    const bad = await pool.run('bad').catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(DomainError);
    expect(bad).toMatchObject({ code: 'invalid_request', details: [{ path: 'x', message: 'is bad' }] });
    expect((bad as DomainError).retryAfterSec).toBeUndefined();
    const other = await pool.run('other').catch((e: unknown) => e);
    expect(other).not.toBeInstanceOf(DomainError);
    expect((other as Error).message).toBe('worker thread: internal detail');
  });
});

describe('a thread that cannot start', () => {
  const poolOf = (name: string, source: string) => {
    const errors: unknown[] = [];
    const pool = new ThreadPool<string, string>(workerFile(name, source), 2, { onError: (e) => errors.push(e), taskTimeoutMs: 60_000 });
    return { pool, errors };
  };

  it('fails the waiting tasks one by one with its error, and nothing waits for ever', async () => {
    const { pool, errors } = poolOf('throws.js', `throw new Error('cannot load');`);
    try {
      const outcomes = await Promise.all(['a', 'b', 'c'].map((task) => pool.run(task).catch((e: unknown) => e)));
      expect(outcomes.map((e) => (e as Error).message)).toEqual(['cannot load', 'cannot load', 'cannot load']);
      expect(errors).toHaveLength(3);
    } finally {
      await pool.close();
    }
  });

  it('fails a waiting task when the thread exits before it is ready', async () => {
    const { pool } = poolOf('exits.js', `process.exit(3);`);
    try {
      const outcomes = await Promise.all(['a', 'b'].map((task) => pool.run(task).catch((e: unknown) => e)));
      expect(outcomes.map((e) => (e as Error).message)).toEqual([
        'a worker thread exited before it was ready',
        'a worker thread exited before it was ready',
      ]);
    } finally {
      await pool.close();
    }
  });
});

describe("a task's time-out", () => {
  let pool: ThreadPool<number, number>;

  beforeAll(() => {
    // a task of n ms, spent sleeping
    const file = workerFile(
      'sleeper.js',
      `${SERVE_TASKS}
       serveTasks((ms) => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms); return ms; });`,
    );
    pool = new ThreadPool<number, number>(file, 1, { preload: PRELOAD, taskTimeoutMs: 300 });
  });
  afterAll(async () => pool.close());

  it('ends a task past its time', async () => {
    expect(await pool.run(0)).toBe(0);
    await expect(pool.run(5000)).rejects.toBeInstanceOf(TaskTimeout);
  });

  it('counts a result that arrived in time while the event loop was busy past the time-out', async () => {
    expect(await pool.run(0)).toBe(0); // the thread is up
    // from a turn's last phase: the next turn runs its timers before it reads what arrived
    await new Promise((r) => setImmediate(r));
    // a task of 20 ms, done long before the event loop looks again (a thread waits for a CPU at
    // its lower priority on a busy machine: the margin is wide)
    const result = pool.run(20);
    const until = Date.now() + 1500;
    while (Date.now() < until);
    expect(await result).toBe(20);
  });
});
