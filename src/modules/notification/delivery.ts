import type { SendMailOptions, Transporter } from 'nodemailer';
import { AUDIT_BEGIN, auditScopeArg } from '../../kernel/audit';
import { type AppDeps, type Ctx, systemCtx } from '../../kernel/context';
import { drainDue, startPolling } from '../../kernel/outbox-worker';
import { displayName, isAddress } from './address';
import { fromAddress, renderMessage, UnrenderableMessage, type MessageContent, type MessageRow } from './message-content';
import { retryDelayMs } from './retry-schedule';

/**
 * The e-mail delivery worker, on the outbox loop of kernel/outbox-worker.ts (shared with the
 * webhook worker). Due messages (queued, `next_attempt_at` passed) are claimed with
 * `for update skip locked` in one statement that counts the attempt and moves
 * `next_attempt_at` a lease ahead, so several processes never send the same attempt at once
 * and a process that dies while sending leaves the message due again when the lease ends.
 * Rendering and sending happen outside any transaction; the outcome is recorded afterwards,
 * only while the attempt is still this process's. Every attempt carries the same Message-ID
 * (`<message id@PUBLIC_URL host>`), so a receiving system can tell a repeat.
 */

export const NOT_CONFIGURED = 'no transport configured';
const BATCH = 20;
/** A claimed message is leased long enough for a connection, a greeting and a command to time out (SMTP_TIMEOUT_MS each). */
export const leaseMs = (timeoutMs: number): number => 3 * timeoutMs + 10_000;
const ERROR_CHARS = 500;

type Claimed = MessageRow & { attempts: number };

async function claim(ctx: Ctx, now: Date, lease: number, limit: number): Promise<Claimed[]> {
  const at = now.toISOString();
  return ctx.em.execute<Claimed[]>(
    `update notification_message m set attempts = m.attempts + 1, next_attempt_at = ?::timestamptz, updated_at = ?::timestamptz
      from (
        select id from notification_message where status = 'queued' and next_attempt_at <= ?::timestamptz
          order by next_attempt_at, id limit ? for update skip locked
      ) due, ${AUDIT_BEGIN}
      where m.id = due.id
      returning m.id, m.company_id, m.event, m.recipient, m.to_address, m.client_id, m.booking_id, m.item_id, m.data, m.attempts`,
    [new Date(now.getTime() + lease).toISOString(), at, at, limit, auditScopeArg()],
  );
}

interface Outcome {
  status: 'sent' | 'failed' | 'queued' | 'not_sent' | 'skipped';
  error: string | null;
  retryAt?: Date;
  content?: MessageContent;
}

/**
 * Messages of this process's attempts by event and the status each attempt left them in
 * (`queued`: the attempt failed and the message waits for the next one), for /metrics
 * (app/metrics.ts). An attempt whose lease another process took over is not counted here.
 */
export const notificationStats = {
  outcomes: new Map<string, { event: string; status: Outcome['status']; n: number }>(),
  count(event: string, status: Outcome['status']): void {
    const key = `${event} ${status}`;
    const c = this.outcomes.get(key);
    if (c) c.n++;
    else this.outcomes.set(key, { event, status, n: 1 });
  },
};

async function record(ctx: Ctx, m: Claimed, o: Outcome, now: Date): Promise<void> {
  const res = await ctx.em.execute<{ affectedRows: number }>(
    `update notification_message set status = ?, last_error = ?, subject = coalesce(?, subject), language = coalesce(?, language),
        next_attempt_at = ?::timestamptz, sent_at = case when ? = 'sent' then ?::timestamptz else sent_at end, updated_at = ?::timestamptz
      from ${AUDIT_BEGIN}
      where company_id = ? and id = ? and attempts = ? and status = 'queued'`,
    [
      o.status,
      o.error?.slice(0, ERROR_CHARS) ?? null,
      o.content?.subject ?? null,
      o.content?.language ?? null,
      (o.retryAt ?? now).toISOString(),
      o.status,
      now.toISOString(),
      now.toISOString(),
      auditScopeArg(),
      m.company_id,
      m.id,
      m.attempts,
    ],
    'run',
  );
  if (res.affectedRows) notificationStats.count(m.event, o.status);
}

/** The process's mail transport, made from SMTP_URL on first use; null without one. */
export class Mailer {
  private transport: Transporter | null = null;
  constructor(
    private readonly url: string | null,
    private readonly timeoutMs = 20_000,
  ) {}

  get configured(): boolean {
    return this.url !== null;
  }

  send(mail: SendMailOptions): Promise<unknown> {
    // the library is loaded with the first message: a process without mail to send never needs it
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.transport ??= (require('nodemailer') as typeof import('nodemailer')).createTransport(this.url!, {
      connectionTimeout: this.timeoutMs,
      greetingTimeout: this.timeoutMs,
      socketTimeout: this.timeoutMs,
    } as never);
    return this.transport.sendMail(mail);
  }

  close(): void {
    this.transport?.close();
    this.transport = null;
  }
}

/** The Message-ID of a message: the same on every attempt. */
export const messageIdOf = (deps: AppDeps, id: string): string => `<${id}@${new URL(deps.config.publicUrl).hostname}>`;

/** A permanent refusal (5xx) is not tried again; anything else (no connection, 4xx, a time-out) is. */
const permanent = (err: unknown): boolean => {
  const code = (err as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/** `text` without SMTP_URL's user name and password: plain, and base64 as AUTH PLAIN and LOGIN send them. */
export function withoutSmtpSecrets(text: string, url: string | null): string {
  if (!url) return text;
  const u = new URL(url);
  const decoded = (v: string) => {
    try {
      return decodeURIComponent(v);
    } catch {
      return v;
    }
  };
  const user = decoded(u.username);
  const pass = decoded(u.password);
  const b64 = (v: string) => Buffer.from(v).toString('base64');
  const secrets = [`\0${user}\0${pass}`, user, pass, u.username, u.password]
    .filter((v) => v.replace(/\0/g, '').length > 0)
    .flatMap((v) => [v, b64(v)])
    .sort((a, b) => b.length - a.length);
  for (const secret of secrets) text = text.split(secret).join('***');
  return text;
}

/**
 * What a failed attempt records as `lastError`, which the company reads: the mail server's
 * answer without SMTP_URL's user name and password; a message that cannot be rendered, its
 * reason; anything else (a database error carries its SQL) only that the message could not be
 * prepared, the error itself going to the server's log.
 */
function failureText(deps: AppDeps, m: Claimed, err: unknown, sending: boolean): string {
  if (!sending && !(err instanceof UnrenderableMessage)) {
    deps.log.error({ err, messageId: m.id }, 'a notification could not be prepared');
    return 'the message could not be prepared (the server log has the details)';
  }
  const text = String((err as Error)?.message ?? err).replace(/\s+/g, ' ');
  return sending ? withoutSmtpSecrets(text, deps.config.smtpUrl) : text;
}

async function attempt(deps: AppDeps, mailer: Mailer, m: Claimed, random: () => number): Promise<void> {
  const ctx = systemCtx(deps, 'notification');
  let o: Outcome;
  let sending = false;
  try {
    if (!isAddress(m.to_address)) {
      o = { status: 'skipped', error: 'no valid e-mail address' };
    } else {
      const content = await renderMessage(ctx, m);
      if (!mailer.configured) {
        o = { status: 'not_sent', error: NOT_CONFIGURED, content };
      } else {
        sending = true;
        await mailer.send({
          from: { name: displayName(content.senderName), address: fromAddress(deps) },
          to: m.to_address,
          replyTo: content.replyTo && isAddress(content.replyTo) ? content.replyTo : undefined,
          subject: content.subject,
          text: content.text,
          html: content.html,
          messageId: messageIdOf(deps, m.id),
          headers: { 'Content-Language': content.language, 'Auto-Submitted': 'auto-generated' },
          attachments: content.attachments,
          disableFileAccess: true,
          disableUrlAccess: true,
        });
        o = { status: 'sent', error: null, content };
      }
    }
  } catch (err) {
    const delay = permanent(err) ? null : retryDelayMs(m.attempts, random);
    const error = failureText(deps, m, err, sending);
    o = delay === null ? { status: 'failed', error } : { status: 'queued', error, retryAt: new Date(deps.clock.now() + delay) };
  }
  await record(ctx, m, o, new Date(deps.clock.now()));
}

/**
 * One pass (kernel/outbox-worker.ts): claims and sends due messages in batches until none is
 * due or `stopping()`; returns the attempts made.
 */
export function deliverDueMessages(
  deps: AppDeps,
  mailer: Mailer,
  opts: { random?: () => number; stopping?: () => boolean } = {},
): Promise<number> {
  const random = opts.random ?? Math.random;
  const lease = leaseMs(deps.config.smtpTimeoutMs);
  return drainDue<Claimed>({
    clock: deps.clock,
    claim: (now, limit) => claim(systemCtx(deps, 'notification'), now, lease, limit),
    attempt: (m) => attempt(deps, mailer, m, random),
    batch: BATCH,
    unrecorded: (err) => deps.log.error({ err }, 'a notification attempt could not be recorded'),
    stopping: opts.stopping,
  });
}

/** Starts the worker (every NOTIFICATION_POLL_MS); the returned function stops it and waits for the pass under way. */
export function startNotificationWorker(deps: AppDeps): () => Promise<void> {
  const mailer = new Mailer(deps.config.smtpUrl, deps.config.smtpTimeoutMs);
  const stop = startPolling(
    (stopping) => deliverDueMessages(deps, mailer, { stopping }),
    deps.config.notificationPollMs,
    (err) => deps.log.error({ err }, 'notification delivery pass failed'),
  );
  return async () => {
    await stop();
    mailer.close();
  };
}
