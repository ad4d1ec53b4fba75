import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { deliverDueMessages, Mailer } from '../../src/modules/notification/delivery';
import { createTestApp, type TestApp, type TestClock } from './app';

/**
 * A real SMTP server on a loopback port that keeps every message it accepts, parsed back with
 * mailparser. With `hold` set, a message's DATA phase is read but never answered: the sender
 * waits for the server's reply (a test kills it meanwhile); the message still counts as received.
 * `refuse` answers a recipient with an SMTP error code (450: try later, 550: never).
 */
export class SmtpInbox {
  mails: ParsedMail[] = [];
  raw: string[] = [];
  /** when true, the DATA phase of the next messages is never answered */
  hold = false;
  /** the SMTP code a recipient is refused with, or null to accept it */
  refuse: (address: string) => number | null = () => null;
  port = 0;
  private server: SMTPServer | null = null;
  private waiters: { n: number; resolve: () => void }[] = [];

  async start(port = 0): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      // a held connection is cut a second after close(), not the default 30 s
      closeTimeout: 1000,
      disabledCommands: ['STARTTLS'],
      onRcptTo: (address, _session, done) => {
        const code = this.refuse(address.address);
        if (code === null) return done();
        done(Object.assign(new Error(`${code === 550 ? 'no such mailbox' : 'mailbox busy, try later'}`), { responseCode: code }));
      },
      onData: (stream, _session, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const held = this.hold;
          simpleParser(text).then(
            (m) => {
              this.raw.push(text);
              this.mails.push(m);
              this.waiters = this.waiters.filter((w) => (this.mails.length >= w.n ? (w.resolve(), false) : true));
              if (!held) done();
            },
            (err: Error) => done(err),
          );
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', () => resolve()));
    this.port = (this.server as unknown as { server: { address(): AddressInfo } }).server.address().port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Resolves when `n` messages in all have arrived. */
  until(n: number, timeoutMs = 60_000): Promise<void> {
    if (this.mails.length >= n) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.mails.length} of ${n} messages arrived`)), timeoutMs);
      this.waiters.push({
        n,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  /** The messages sent to `address`. */
  to(address: string): ParsedMail[] {
    return this.mails.filter((m) => [m.to ?? []].flat().some((a) => a.value.some((v) => v.address === address)));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}

/** A test app whose e-mail goes to a local SMTP inbox, and the delivery worker's pass to send what is due. */
export interface MailTestApp {
  readonly t: TestApp;
  readonly inbox: SmtpInbox;
  readonly mailer: Mailer;
  /** One pass of the delivery worker (jitter at its middle), through `mailer` or the app's own. */
  deliver(mailer?: Mailer): Promise<number>;
}

/** Starts the inbox and the app before the file's tests (opening them with `setup`) and closes both after them. */
export function mailTestApp(clock: TestClock, setup: (m: MailTestApp) => Promise<void> = async () => undefined): MailTestApp {
  const inbox = new SmtpInbox();
  let t: TestApp | null = null;
  let mailer: Mailer | null = null;
  const m: MailTestApp = {
    get t() {
      return t!;
    },
    inbox,
    get mailer() {
      return mailer!;
    },
    deliver: (through) => deliverDueMessages(t!.deps, through ?? mailer!, { random: () => 0.5 }),
  };
  beforeAll(async () => {
    await inbox.start();
    t = await createTestApp({ clock, config: { smtpUrl: inbox.url, smtpFrom: 'Bookings <bookings@example.com>' } });
    mailer = new Mailer(t.deps.config.smtpUrl);
    await setup(m);
  });
  afterAll(async () => {
    mailer?.close();
    await t?.close();
    await inbox.stop();
  });
  return m;
}
