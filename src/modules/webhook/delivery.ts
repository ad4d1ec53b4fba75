import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import { AUDIT_BEGIN, auditScopeArg } from '../../kernel/audit';
import { type AppDeps, type HostLookup, type Ctx, systemCtx } from '../../kernel/context';
import { drainDue, startPolling } from '../../kernel/outbox-worker';
import { lookupOf, OutboundError, postTo } from './outbound';
import { DISABLE_AFTER_MS, retryDelayMs } from './retry-schedule';
import { openSecret } from './webhook.service';

/**
 * The delivery worker, on the outbox loop of kernel/outbox-worker.ts. Due deliveries are claimed
 * with `for update skip locked` in one statement that also moves their `next_attempt_at` a lease
 * ahead (the timeout and a margin) and logs their attempts as begun: several processes never
 * post the same attempt at once, and a process that dies while posting leaves the delivery due
 * again when the lease ends. Posting happens outside any transaction; the outcome is recorded
 * afterwards, so a delivery may reach its endpoint more than once (at-least-once) but never
 * silently not at all. Every attempt is signed per Standard Webhooks with the event id as
 * `webhook-id`, the same on every attempt.
 */

const LEASE_MARGIN_MS = 5000;
const EXCERPT_BYTES = 1024;
const ERROR_CHARS = 500;
export const DELIVERY_BATCH = 50;

interface Claimed {
  id: string;
  company_id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  url: string;
  secret_enc: string;
  body: string;
}

export interface AttemptOutcome {
  succeeded: boolean;
  status: number | null;
  latencyMs: number;
  excerpt: string | null;
  error: string | null;
}

/** What an attempt shows until its outcome is recorded: in flight, or cut off by a process that stopped. */
export const NO_OUTCOME = 'no outcome recorded yet: in progress, or interrupted when the process stopped';

/** Claims due deliveries and logs their attempts as begun (NO_OUTCOME), in one statement. */
async function claim(ctx: Ctx, now: Date, leaseMs: number, limit: number): Promise<Claimed[]> {
  const at = now.toISOString();
  return ctx.em.execute<Claimed[]>(
    `with c as (
      update webhook_delivery d set attempts = d.attempts + 1, next_attempt_at = ?::timestamptz, last_attempt_at = ?::timestamptz,
          updated_at = ?::timestamptz
        from (
          select d2.id from webhook_delivery d2
            where d2.status = 'pending' and d2.next_attempt_at <= ?::timestamptz
              and exists (select 1 from webhook_endpoint e2 where e2.company_id = d2.company_id and e2.id = d2.endpoint_id and e2.enabled)
            order by d2.next_attempt_at, d2.id limit ? for update of d2 skip locked
        ) due, webhook_endpoint e, webhook_event v
        where d.id = due.id and e.company_id = d.company_id and e.id = d.endpoint_id and v.company_id = d.company_id and v.id = d.event_id
        returning d.id, d.company_id, d.endpoint_id, d.event_id, d.attempts, e.url, e.secret_enc, v.payload::text as body
    ), a as (
      insert into webhook_attempt (id, company_id, delivery_id, attempt, succeeded, latency_ms, error, created_at)
      select gen_random_uuid(), company_id, id, attempts, false, 0, ?, ?::timestamptz from c
    ) select * from c`,
    [new Date(now.getTime() + leaseMs).toISOString(), at, at, at, limit, NO_OUTCOME, at],
  );
}

/** PostgreSQL text holds no NUL: an answer with one (binary) could otherwise never be recorded. */
export function printable(text: string): string | null {
  return text.replace(/\u0000/g, '\uFFFD') || null;
}

/** Where and how an attempt may connect: WEBHOOK_ALLOW_INSECURE and the host name resolver. */
export interface Reach {
  allowInsecure: boolean;
  lookup: HostLookup;
}

/**
 * Signs and posts one attempt; a 2xx answer within the timeout is a success, anything else a
 * failure. A host that is or resolves to an internal address (without WEBHOOK_ALLOW_INSECURE)
 * is not connected to: the attempt fails with the reason, and nothing else about the address.
 */
export async function postSigned(
  url: string,
  secret: string,
  eventId: string,
  body: string,
  at: Date,
  timeoutMs: number,
  reach: Reach,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const signature = new Webhook(secret).sign(eventId, at, body);
    const res = await postTo(url, {
      body,
      timeoutMs,
      allowInsecure: reach.allowInsecure,
      lookup: reach.lookup,
      excerptBytes: EXCERPT_BYTES,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'booking-platform-webhooks/1',
        'webhook-id': eventId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signature,
      },
    });
    const excerpt = printable(res.excerpt.toString('utf8'));
    const ok = res.status >= 200 && res.status < 300;
    return { succeeded: ok, status: res.status, latencyMs: latency(), excerpt, error: ok ? null : `HTTP ${res.status}` };
  } catch (err) {
    // Outbound errors are worded for the delivery log; anything else (an answer cut off midway)
    // is named by its code only, so no other error text reaches the company.
    const why =
      err instanceof OutboundError ? err.message : `connection failed: ${(err as NodeJS.ErrnoException).code ?? 'the answer was cut off'}`;
    // A refused attempt reports no latency: no connection was made, and none is suggested.
    const latencyMs = err instanceof OutboundError && err.refused ? 0 : latency();
    return { succeeded: false, status: null, latencyMs, excerpt: null, error: printable(why.slice(0, ERROR_CHARS)) };
  }
}

/**
 * Records an attempt's outcome and its consequences in one statement: the delivery succeeds, waits for
 * its next attempt or is given up; the endpoint's failure streak starts or ends, and an
 * endpoint failing for DISABLE_AFTER_MS is disabled when one of its deliveries is given up
 * (its other pending deliveries are parked until it is enabled again).
 * A delivery whose lease another process took over (its attempt count moved on) keeps that
 * process's state; the attempt is logged all the same.
 */
async function record(ctx: Ctx, d: Claimed, o: AttemptOutcome, now: Date, random: () => number): Promise<void> {
  const delay = o.succeeded ? null : retryDelayMs(d.attempts, random);
  const status = o.succeeded ? 'succeeded' : delay === null ? 'failed' : 'pending';
  const next = new Date(now.getTime() + (delay ?? 0)).toISOString();
  const at = now.toISOString();
  const giveUp = status === 'failed';
  const threshold = new Date(now.getTime() - DISABLE_AFTER_MS).toISOString();
  await ctx.em.execute(
    `with a as (
      update webhook_attempt set succeeded = ?, response_status = ?, latency_ms = ?, response_excerpt = ?, error = ?
        where company_id = ? and delivery_id = ? and attempt = ?
    ), d as (
      update webhook_delivery set status = ?, next_attempt_at = ?::timestamptz, updated_at = ?::timestamptz
        where company_id = ? and id = ? and attempts = ? and status = 'pending'
    ), parked as (
      update webhook_delivery set next_attempt_at = 'infinity'
        where company_id = ? and endpoint_id = ? and status = 'pending' and id <> ? and ?::boolean and exists (
          select 1 from webhook_endpoint where company_id = ? and id = ? and enabled and failing_since <= ?::timestamptz
        )
    )
    update webhook_endpoint set
      failing_since = case when ? then null else coalesce(failing_since, ?::timestamptz) end,
      enabled = enabled and not (?::boolean and coalesce(failing_since <= ?::timestamptz, false)),
      disabled_reason = case when enabled and ?::boolean and failing_since <= ?::timestamptz then ? else disabled_reason end
      from ${AUDIT_BEGIN}
      where company_id = ? and id = ?`,
    [
      o.succeeded,
      o.status,
      o.latencyMs,
      o.excerpt,
      o.error,
      d.company_id,
      d.id,
      d.attempts,
      status,
      next,
      at,
      d.company_id,
      d.id,
      d.attempts,
      d.company_id,
      d.endpoint_id,
      d.id,
      giveUp,
      d.company_id,
      d.endpoint_id,
      threshold,
      o.succeeded,
      at,
      giveUp,
      threshold,
      giveUp,
      threshold,
      `deliveries failed for more than ${DISABLE_AFTER_MS / 3600_000} hours; the last error: ${o.error ?? 'none'}`.slice(0, ERROR_CHARS),
      auditScopeArg(),
      d.company_id,
      d.endpoint_id,
    ],
    'run',
  );
}

const reachOf = (deps: AppDeps): Reach => ({ allowInsecure: deps.config.webhookAllowInsecure, lookup: lookupOf(deps) });

async function attempt(deps: AppDeps, d: Claimed, random: () => number): Promise<void> {
  const ctx = systemCtx(deps, 'webhook');
  const at = new Date(deps.clock.now());
  let secret: string | null = null;
  try {
    secret = openSecret(deps.encryptionKey, d.company_id, d.endpoint_id, d.secret_enc);
  } catch {
    // Stored under another ENCRYPTION_KEY: nothing can be signed until the secret is rotated.
  }
  const outcome = secret
    ? await postSigned(d.url, secret, d.event_id, d.body, at, deps.config.webhookTimeoutMs, reachOf(deps))
    : { succeeded: false, status: null, latencyMs: 0, excerpt: null, error: 'the signing secret cannot be decrypted; rotate it' };
  await record(ctx, d, outcome, new Date(deps.clock.now()), random);
}

/**
 * One pass of the worker: claims and posts due deliveries in batches (posted in parallel)
 * until none is due at the clock's `now`, or `stopping()` says so (kernel/outbox-worker.ts).
 * Returns the number of attempts made.
 */
export function deliverDue(deps: AppDeps, opts: { batch?: number; random?: () => number; stopping?: () => boolean } = {}): Promise<number> {
  const random = opts.random ?? Math.random;
  const lease = deps.config.webhookTimeoutMs + LEASE_MARGIN_MS;
  return drainDue<Claimed>({
    clock: deps.clock,
    claim: (now, limit) => claim(systemCtx(deps, 'webhook'), now, lease, limit),
    attempt: (d) => attempt(deps, d, random),
    batch: opts.batch ?? DELIVERY_BATCH,
    // An outcome that cannot be recorded (the database went away) leaves the attempt without
    // one; its lease runs out and the delivery is tried again.
    unrecorded: (err) => deps.log.error({ err }, 'a webhook attempt could not be recorded'),
    stopping: opts.stopping,
  });
}

/** Starts the worker (every WEBHOOK_POLL_MS); the returned function stops it and waits for the pass under way. */
export function startWebhookWorker(deps: AppDeps): () => Promise<void> {
  return startPolling(
    (stopping) => deliverDue(deps, { stopping }),
    deps.config.webhookPollMs,
    (err) => deps.log.error({ err }, 'webhook delivery pass failed'),
  );
}
