import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, totalmem } from 'node:os';
import { recordEvents, type NewEvent } from '../src/kernel/events';
import { deliverDue } from '../src/modules/webhook/delivery';
import { systemCtx } from '../src/kernel/context';
import { startBenchServer } from './server';

/**
 * Webhook delivery throughput: EVENTS events of one company are put in the outbox (the
 * statement booking and payment use, in batches), then the delivery worker's pass
 * (`deliverDue`: claim 50 due deliveries with `for update skip locked`, sign each with
 * standardwebhooks, post them in parallel, record the outcomes) runs until all are delivered
 * to a local receiver answering 204. The receiver runs in a child process, so it does not
 * share the worker's event loop. WORKERS passes run at once, as several processes would.
 */

const EVENTS = Number(process.env.BENCH_EVENTS ?? 5000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const BATCH = Number(process.env.BENCH_BATCH ?? 50);

function receiver(): void {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n++;
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
  process.on('message', (m) => {
    if (m === 'count') process.send!({ count: n });
    if (m === 'stop') process.exit(0);
  });
}

async function main(): Promise<void> {
  process.env.WEBHOOK_ALLOW_INSECURE = 'true';
  const child = fork(__filename, [], { env: { ...process.env, BENCH_ROLE: 'receiver' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve((m as { port: number }).port)));
  const s = await startBenchServer();
  const call = async (method: string, path: string, body: unknown) => {
    const r = await fetch(`${s.base}${path}`, {
      method,
      headers: { 'x-api-key': s.key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (r.status >= 300) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    return (await r.json()) as { id: string };
  };
  const cid = (await call('POST', '/v1/companies', { name: 'Bench hooks', timeZone: 'UTC' })).id;
  await call('POST', `/v1/companies/${cid}/webhooks`, { url: `http://127.0.0.1:${port}/hooks`, eventTypes: ['booking.created'] });

  // A booking-sized body (about 1 KiB of JSON).
  const data = {
    id: '00000000-0000-4000-8000-000000000000',
    companyID: cid,
    status: 'confirmed',
    startTime: '2031-01-06T09:00:00Z',
    endTime: '2031-01-06T09:30:00Z',
    metaData: { note: 'x'.repeat(600) },
  };
  const ctx = systemCtx(s.deps, 'bench');
  const filled = performance.now();
  for (let i = 0; i < EVENTS; i += 500) {
    const batch: NewEvent[] = Array.from({ length: Math.min(500, EVENTS - i) }, () => ({ type: 'booking.created', data }));
    await recordEvents(ctx, { companyId: cid, events: batch, at: new Date() });
  }
  const fillSeconds = (performance.now() - filled) / 1000;

  const started = performance.now();
  const attempts = await Promise.all(Array.from({ length: WORKERS }, () => deliverDue(s.deps, { batch: BATCH })));
  const seconds = (performance.now() - started) / 1000;
  const received = await new Promise<number>((resolve) => {
    child.once('message', (m) => resolve((m as { count: number }).count));
    child.send('count');
  });
  const [{ n: succeeded }] = await ctx.em
    .getConnection()
    .execute<{ n: string }[]>(`select count(*) as n from webhook_delivery where status = 'succeeded'`);
  console.log(
    JSON.stringify(
      {
        benchmark: 'webhooks',
        machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
        setup: { events: EVENTS, workers: WORKERS, batch: BATCH, receiver: 'child process, 204' },
        outboxFill: { seconds: Number(fillSeconds.toFixed(2)), eventsPerSecond: Number((EVENTS / fillSeconds).toFixed(0)) },
        delivery: {
          seconds: Number(seconds.toFixed(2)),
          attempts: attempts.reduce((a, b) => a + b, 0),
          succeeded: Number(succeeded),
          received,
          eventsPerSecond: Number((Number(succeeded) / seconds).toFixed(1)),
        },
        loadAverage1m: Number(loadavg()[0].toFixed(2)),
      },
      null,
      2,
    ),
  );
  child.send('stop');
  await s.stop();
}

if (process.env.BENCH_ROLE === 'receiver') receiver();
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
