import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { Worker, parentPort, type TransferListItem } from 'node:worker_threads';
import { DomainError, type ErrorCode, type ErrorDetail } from '../shared/errors';

/** A task that ran past its pool's `taskTimeoutMs`; its thread was ended. */
export class TaskTimeout extends Error {
  constructor(readonly ms: number) {
    super(`the task ran for more than ${ms} ms; its worker thread was ended`);
    this.name = 'TaskTimeout';
  }
}

export interface ThreadPoolOptions {
  /** Called when a thread fails (an error outside any task's handler). */
  onError?: (err: unknown) => void;
  /**
   * A task still running after this long is rejected with TaskTimeout and its thread ended (a
   * new one serves the next task), so that no input can hold a thread for ever. It counts from
   * the moment the task is handed to a thread that has loaded its modules: a thread's own start
   * (slow on a busy machine, at its lower priority) is not the task's time, nor is a result that
   * arrived in time but waited for a busy event loop to read it.
   */
  taskTimeoutMs?: number;
  /** A module each thread requires before `file` (a require hook, to run from TypeScript sources in tests). */
  preload?: string | null;
}

interface Job<In, Out> {
  task: In;
  resolve: (v: Out) => void;
  reject: (e: unknown) => void;
  timer?: NodeJS.Timeout;
}

/**
 * A fixed number of worker threads running one module's task handler, one task per thread at a
 * time, in arrival order. Heavy pure computation (a month of availability: the engine, the
 * answer's JSON; reading and drawing PDFs) runs there, so the event loop keeps answering health
 * checks and bookings, and the garbage of big answers is collected off the main thread. Callers
 * bound how much work waits (the bulkheads); a DomainError thrown in a thread arrives as the
 * same DomainError.
 */
export class ThreadPool<In, Out> {
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  /** Threads still loading their modules: they take a task once they say they are ready. */
  private readonly starting = new Set<Worker>();
  private readonly queue: Job<In, Out>[] = [];
  private readonly pending = new Map<Worker, Job<In, Out>>();
  /** Threads ended for a task past its time, until they have exited. */
  private readonly ending = new Set<Worker>();
  private closed = false;
  private readonly onError: (err: unknown) => void;
  private readonly taskTimeoutMs: number | undefined;
  private readonly preload: string | null;

  /** `file`: a module that calls `serveTasks` when loaded in a worker thread. */
  constructor(
    private readonly file: string,
    private readonly size: number,
    options: ThreadPoolOptions | ((err: unknown) => void) = {},
  ) {
    const opts = typeof options === 'function' ? { onError: options } : options;
    this.onError = opts.onError ?? (() => undefined);
    this.taskTimeoutMs = opts.taskTimeoutMs;
    this.preload = opts.preload ?? null;
  }

  run(task: In): Promise<Out> {
    if (this.closed) return Promise.reject(new Error('the thread pool is closed'));
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ task, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length && this.idle.length) {
      const worker = this.idle.pop()!;
      const job = this.queue.shift()!;
      this.pending.set(worker, job);
      const ms = this.taskTimeoutMs;
      // Judged after the turn has read what arrived (setImmediate runs after the reading of the
      // sockets and threads' messages; timers run before it): a result that came in time while
      // the event loop was busy counts.
      if (ms !== undefined) job.timer = setTimeout(() => setImmediate(() => this.overrun(worker, job, ms)), ms).unref();
      worker.postMessage(job.task);
    }
    // new threads for the tasks still waiting, up to the pool's size
    while (this.queue.length > this.starting.size && this.all.size < this.size) this.spawn();
  }

  /**
   * A thread that failed or exited before it was ready takes the oldest waiting task with it
   * (as a task it had been given would have failed), so that a module that cannot load ends the
   * tasks waiting for it one by one instead of starting threads for ever.
   */
  private failedToStart(worker: Worker, err: unknown): void {
    if (!this.starting.delete(worker)) return;
    this.queue.shift()?.reject(err);
  }

  /** A task past its time: rejected, and its thread ended (terminate stops even a loop that never yields). */
  private overrun(worker: Worker, job: Job<In, Out>, ms: number): void {
    if (this.pending.get(worker) !== job) return;
    this.pending.delete(worker);
    this.ending.add(worker);
    job.reject(new TaskTimeout(ms));
    void worker.terminate();
  }

  private spawn(): Worker {
    // Loaded through `require`, so that a process running from TypeScript sources (with a
    // require hook in its execArgv, which threads inherit, or named as `preload`) can run them too.
    const preload = this.preload ? `require(${JSON.stringify(this.preload)});` : '';
    const worker = new Worker(`${preload}require(${JSON.stringify(this.file)});`, { eval: true });
    worker.unref();
    this.all.add(worker);
    this.starting.add(worker);
    worker.on('message', (msg: { ready: true } | { ok: true; value: Out } | { ok: false; error: SerialisedError }) => {
      if (this.ending.has(worker)) return;
      if ('ready' in msg) {
        this.starting.delete(worker);
        this.idle.push(worker);
        this.dispatch();
        return;
      }
      const job = this.pending.get(worker);
      this.pending.delete(worker);
      this.idle.push(worker);
      if (job) {
        clearTimeout(job.timer);
        if (msg.ok) job.resolve(msg.value);
        else job.reject(revive(msg.error));
      }
      this.dispatch();
    });
    worker.on('error', (err) => {
      // A thread that dies takes its task with it; the next task gets a new thread.
      this.onError(err);
      this.failedToStart(worker, err);
      const job = this.pending.get(worker);
      this.pending.delete(worker);
      clearTimeout(job?.timer);
      job?.reject(err);
    });
    worker.on('exit', () => {
      this.failedToStart(worker, new Error('a worker thread exited before it was ready'));
      this.all.delete(worker);
      this.ending.delete(worker);
      const i = this.idle.indexOf(worker);
      if (i >= 0) this.idle.splice(i, 1);
      const job = this.pending.get(worker);
      this.pending.delete(worker);
      clearTimeout(job?.timer);
      job?.reject(new Error('a worker thread exited'));
      if (!this.closed) this.dispatch();
    });
    return worker;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the thread pool is closed'));
    await Promise.all([...this.all].map((w) => w.terminate()));
  }
}

interface SerialisedError {
  domain: boolean;
  code?: ErrorCode;
  message: string;
  details?: ErrorDetail[];
  retryAfterSec?: number;
}

function revive(e: SerialisedError): Error {
  if (!e.domain) return new Error(`worker thread: ${e.message}`);
  const error = new DomainError(e.code!, e.message, e.details);
  // A 503 keeps its Retry-After.
  if (e.retryAfterSec !== undefined) error.retryAfterSec = e.retryAfterSec;
  return error;
}

/**
 * In a worker thread: answers each task with `handler`'s result (or what its promise
 * resolves to). A result that is a Uint8Array moves to the main thread without a copy.
 */
export function serveTasks<In, Out>(handler: (task: In) => Out | Promise<Out>): void {
  if (!parentPort) throw new Error('serveTasks runs in a worker thread');
  const port = parentPort;
  lowerPriority();
  port.on('message', async (task: In) => {
    try {
      const value = await handler(task);
      // Only a buffer that owns its whole memory moves (small Buffers share a pool: they are copied).
      const owned = value instanceof Uint8Array && value.byteOffset === 0 && value.byteLength === value.buffer.byteLength;
      const transfer: TransferListItem[] = owned ? [value.buffer as ArrayBuffer] : [];
      port.postMessage({ ok: true, value }, transfer);
    } catch (err) {
      const error: SerialisedError =
        err instanceof DomainError
          ? { domain: true, code: err.code, message: err.message, details: err.details, retryAfterSec: err.retryAfterSec }
          : { domain: false, message: err instanceof Error ? err.message : String(err) };
      port.postMessage({ ok: false, error });
    }
  });
  // the module and everything it imports are loaded: tasks (and their time-outs) may start
  port.postMessage({ ready: true });
}

/**
 * Gives this thread a lower CPU priority (nice 10) than the event loop's, so that on a busy
 * machine health checks and bookings get the processor before a month of availability does.
 * Linux only (a thread's nice value is its own there); elsewhere nothing changes.
 */
function lowerPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
  } catch {
    // not Linux, or not allowed: the thread keeps the process's priority
  }
}
