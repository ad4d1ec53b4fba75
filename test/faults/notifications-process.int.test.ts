import { Agent } from 'node:http';
import { httpCall, seedCompany, startServerProcess, type ServerProcess } from '../helpers/server-process';
import { SmtpInbox } from '../helpers/smtp-inbox';

/**
 * At-least-once e-mail across a crash: the real server process is killed with SIGKILL while the
 * mail server holds the DATA phase of a booking's confirmation open (the message is written,
 * the server's answer never comes); the server started again on the same data directory sends
 * the message when its lease has run out, under the same Message-ID.
 */
// The case starts two servers on one embedded PostgreSQL (initdb and migrations once).
jest.setTimeout(180_000);

let server: ServerProcess | null = null;
let second: ServerProcess | null = null;
const inbox = new SmtpInbox();
afterAll(async () => {
  second?.cleanup();
  server?.cleanup();
  await inbox.stop();
});

it('kill -9 in the middle of sending: after the restart the message is delivered, with the same Message-ID', async () => {
  await inbox.start();
  inbox.hold = true; // the first attempt never hears the server's answer to its message
  // a lease of 3 × 3 s + 10 s: the second server takes the message up about 19 s after the first claimed it
  const env = { SMTP_URL: inbox.url, SMTP_FROM: 'Bookings <bookings@example.com>', SMTP_TIMEOUT_MS: '3000', NOTIFICATION_POLL_MS: '100' };
  server = await startServerProcess(env);
  const s = server;
  const agent = new Agent({ keepAlive: true });
  const seed = await seedCompany(agent, s.base, s.key, 1);
  const client = await httpCall(agent, s.base, 'POST', `/v1/companies/${seed.cid}/clients`, s.key, {
    externalUserID: 'crash-1',
    email: 'crash@example.com',
  });
  expect(client.status).toBe(201);
  const booked = await httpCall(agent, s.base, 'POST', `/v1/companies/${seed.cid}/bookings`, s.key, {
    serviceID: seed.sid,
    resourceID: seed.rids[0],
    startTime: '2031-05-05T10:00:00Z',
    clientID: client.body.id,
  });
  expect(booked.status).toBe(200);

  await inbox.until(1);
  process.kill(s.pid, 'SIGKILL');
  expect(await s.exited).toEqual({ code: null, signal: 'SIGKILL' });
  agent.destroy();
  expect(inbox.mails).toHaveLength(1);
  inbox.hold = false;

  second = await startServerProcess(env, s.dataDir);
  await inbox.until(2, 90_000);
  const [first, again] = inbox.mails;
  expect(again.messageId).toBe(first.messageId);
  expect(again.subject).toBe(first.subject);
  expect(again.to).toEqual(first.to);
  expect(first.attachments.map((a) => a.filename)).toEqual(['invite.ics']);

  // the log shows the message sent once recorded, at its second attempt, under that Message-ID
  const a2 = new Agent({ keepAlive: true });
  let log: any = null;
  for (let i = 0; i < 50; i++) {
    log = await httpCall(a2, second.base, 'GET', `/v1/companies/${seed.cid}/notifications/messages?event=booking.confirmed`, second.key);
    if (log.body.items[0]?.status === 'sent') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  a2.destroy();
  expect(log.body.items).toHaveLength(1);
  expect(log.body.items[0]).toMatchObject({ status: 'sent', attempts: 2, lastError: null, to: 'crash@example.com' });
  expect(first.messageId).toBe(`<${log.body.items[0].id}@localhost>`);
  // nothing else went out twice
  await new Promise((r) => setTimeout(r, 500));
  expect(inbox.mails).toHaveLength(2);
});
