import { DomainError } from '../shared/errors';
import { Bulkhead } from './bulkhead';

/** A task that runs until the test releases it. */
function held() {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  return { release, task: () => gate.then(() => 'done') };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('Bulkhead', () => {
  it('runs up to its concurrency at once, queues the next ones in order, refuses beyond the queue with 503 and Retry-After', async () => {
    const b = new Bulkhead(2, 1, 3);
    const [a, c, d] = [held(), held(), held()];
    const order: string[] = [];
    const pa = b.run(a.task).then(() => order.push('a'));
    const pc = b.run(c.task).then(() => order.push('c'));
    const pd = b.run(d.task).then(() => order.push('d'));
    expect(b.load).toEqual({ running: 2, waiting: 1 });
    const refused = await b.run(async () => 'never').catch((e) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'service_unavailable', status: 503, retryAfterSec: 3 });
    d.release(); // queued work does not start before a slot frees
    await tick();
    expect(order).toEqual([]);
    a.release();
    await pa;
    await pd;
    expect(order).toEqual(['a', 'd']);
    expect(b.load).toEqual({ running: 1, waiting: 0 });
    c.release();
    await pc;
    expect(b.load).toEqual({ running: 0, waiting: 0 });
  });

  it('asks refused clients to come back when the work ahead should be done', async () => {
    let now = 0;
    const b = new Bulkhead(1, 1, 1, () => now);
    const first = held();
    const p = b.run(first.task);
    now = 4000; // the first piece of work took 4 s
    first.release();
    await p;
    const [a, c] = [held(), held()];
    const pa = b.run(a.task);
    const pc = b.run(c.task);
    // one running and one waiting, 4 s each, one slot: come back in 8 s
    expect(await b.run(async () => 'never').catch((e) => e.retryAfterSec)).toBe(8);
    a.release();
    c.release();
    await Promise.all([pa, pc]);
  });

  it('frees the slot when the work fails', async () => {
    const b = new Bulkhead(1, 0);
    await expect(b.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(b.load).toEqual({ running: 0, waiting: 0 });
    await expect(b.run(async () => 'ok')).resolves.toBe('ok');
  });

  it('drops queued work whose client went away, and never starts work for a gone client', async () => {
    const b = new Bulkhead(1, 5);
    const a = held();
    const pa = b.run(a.task);
    const gone = new AbortController();
    let started = false;
    const queued = b.run(async () => {
      started = true;
    }, gone.signal);
    expect(b.load.waiting).toBe(1);
    gone.abort();
    await expect(queued).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(b.load).toEqual({ running: 1, waiting: 0 });
    a.release();
    await pa;
    expect(started).toBe(false);
    await expect(b.run(async () => 'x', gone.signal)).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(b.load).toEqual({ running: 0, waiting: 0 });
  });
});
