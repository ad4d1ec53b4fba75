import { Agent } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { httpCall, seedCompany, startServerProcess, type ServerProcess } from '../helpers/server-process';
import { WebhookReceiver } from '../helpers/webhook-receiver';

/**
 * At-least-once delivery across a crash: the real server process is killed with SIGKILL after
 * the booking committed and while its event is being posted; the server started again on the
 * same data directory delivers the event, under the same webhook-id.
 */
// The case starts two servers on one embedded PostgreSQL (initdb and migrations once).
jest.setTimeout(180_000);

let server: ServerProcess | null = null;
let second: ServerProcess | null = null;
const rx = new WebhookReceiver();
afterAll(async () => {
  second?.cleanup();
  server?.cleanup();
  await rx.stop();
});

const ENV = { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_TIMEOUT_MS: '1500', WEBHOOK_POLL_MS: '100' };

it('kill -9 between commit and delivery: after the restart the event is delivered, with the same webhook-id', async () => {
  await rx.start();
  rx.plan = ['hang']; // the first attempt never gets an answer: the process dies while posting
  server = await startServerProcess(ENV);
  const s = server;
  const agent = new Agent({ keepAlive: true });
  const seed = await seedCompany(agent, s.base, s.key, 1);
  const hook = await httpCall(agent, s.base, 'POST', `/v1/companies/${seed.cid}/webhooks`, s.key, {
    url: rx.url,
    eventTypes: ['booking.created'],
  });
  expect(hook.status).toBe(201);
  const booked = await httpCall(agent, s.base, 'POST', `/v1/companies/${seed.cid}/bookings`, s.key, {
    serviceID: seed.sid,
    resourceID: seed.rids[0],
    startTime: '2031-05-05T10:00:00Z',
  });
  expect(booked.status).toBe(200);

  await rx.until(1);
  process.kill(s.pid, 'SIGKILL');
  expect(await s.exited).toEqual({ code: null, signal: 'SIGKILL' });
  agent.destroy();
  expect(rx.received).toHaveLength(1);

  // The lease of the interrupted attempt (time-out + 5 s) runs out; the new process takes the delivery up.
  second = await startServerProcess(ENV, s.dataDir);
  await rx.until(2);
  const [first, again] = rx.received;
  expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
  const body = new Webhook(hook.body.secret).verify(again.body, again.headers as Record<string, string>) as any;
  expect(body).toMatchObject({ id: first.headers['webhook-id'], type: 'booking.created', data: { id: booked.body.id } });
  expect(again.body).toBe(first.body);

  // The log shows the interrupted attempt, without an outcome, and the successful one.
  const a2 = new Agent({ keepAlive: true });
  let log: any = null;
  for (let i = 0; i < 50; i++) {
    log = await httpCall(a2, second.base, 'GET', `/v1/companies/${seed.cid}/webhooks/${hook.body.id}/deliveries`, second.key);
    if (log.body.items[0]?.status === 'succeeded') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  a2.destroy();
  expect(log.body.items).toHaveLength(1);
  expect(log.body.items[0]).toMatchObject({ status: 'succeeded', attemptCount: 2 });
  expect(log.body.items[0].attempts.map((a: any) => [a.attempt, a.succeeded, a.responseStatus])).toEqual([
    [2, true, 200],
    [1, false, null],
  ]);
  expect(log.body.items[0].attempts[1].error).toMatch(/interrupted when the process stopped/);
});
