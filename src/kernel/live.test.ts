import type { Ctx } from './context';
import { liveStream } from './live';

/** A context as liveStream sees it: each renewal forks a new (here: numbered) EntityManager. */
function ctxOf(maxQueued: number) {
  let forks = 0;
  const overflows: number[] = [];
  const ctx = {
    deps: { orm: { em: { fork: () => ({ fork: ++forks }) } }, clock: { now: () => 0 } },
    live: { maxQueued, overflow: () => overflows.push(1) },
  } as unknown as Ctx;
  return { ctx, overflows };
}

describe('liveStream', () => {
  it('hands events over in order, each with a fresh context, and stops listening when returned', async () => {
    const { ctx } = ctxOf(10);
    let push: (n: number) => void = () => undefined;
    let stopped = false;
    const it = liveStream<number>(ctx, (p) => {
      push = p;
      return () => (stopped = true);
    });
    const first = it.next();
    push(1);
    push(2);
    expect(await first).toEqual({ value: 1, done: false });
    const em1 = ctx.em;
    expect(await it.next()).toEqual({ value: 2, done: false });
    expect(ctx.em).not.toBe(em1);
    await it.return!();
    expect(stopped).toBe(true);
    push(3);
    expect(await it.next()).toEqual({ value: undefined, done: true });
  });

  it('ends, and tells the connection, when more events wait than it may keep', async () => {
    const { ctx, overflows } = ctxOf(2);
    let push: (n: number) => void = () => undefined;
    let stopped = false;
    const it = liveStream<number>(ctx, (p) => {
      push = p;
      return () => (stopped = true);
    });
    for (let i = 0; i < 3; i++) push(i);
    expect(overflows).toHaveLength(1);
    expect(stopped).toBe(true);
    expect(await it.next()).toEqual({ value: undefined, done: true });
  });

  it('folds waiting events into one when they merge, so a slow reader never overflows', async () => {
    const { ctx, overflows } = ctxOf(1);
    let push: (n: number) => void = () => undefined;
    const it = liveStream<number>(
      ctx,
      (p) => {
        push = p;
        return () => undefined;
      },
      (a, b) => a + b,
    );
    for (let i = 1; i <= 100; i++) push(i);
    expect(overflows).toHaveLength(0);
    expect(await it.next()).toEqual({ value: 5050, done: false });
  });
});
