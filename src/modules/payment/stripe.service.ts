import { invalid, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { Check } from '../../shared/validate';
import { completedPage } from './checkout.html';
import { redirectLocation, type CheckoutAnswer } from './checkout.service';
import { PaymentTransaction } from './payment.entity';
import type { CheckoutOutcome } from './payment.status';
import { endPayment, reportPaid, type PaidReport } from './settlement';
import {
  companyStripe,
  isRefusal,
  stripeFailure,
  stripeSettings,
  webhookSecretOf,
  webhooks,
  type CheckoutSession,
  type StripeClient,
  type StripeEvent,
  type StripeRefund,
} from './providers/stripe-client';
import { isPaid, paymentIntentOf, retrieveSession } from './providers/stripe-provider';
import { applyRefundUpdate, lockTransaction } from './stripe-refunds';
import { inTransaction } from '../../kernel/transaction';
import type { Ctx } from '../../kernel/context';

/**
 * What Stripe tells about a transaction, from its webhook, the customer's return and the
 * sweeper alike: a paid Checkout Session settles the transaction through `reportPaid` (a
 * payment for something no longer wanted goes back at once), an expired one cancels it, a
 * failed asynchronous payment fails it. Each applies under the transaction's row lock, in one
 * database transaction with everything it changes.
 */

/** Webhook signatures older than this (seconds) are refused, as Stripe recommends. */
export const SIGNATURE_TOLERANCE_SEC = 300;

/**
 * A paid session's report on the locked transaction: the payment intent is kept (refunds go
 * to it) and the payment settles. The session is complete, so nothing is left to close.
 */
export async function settlePaidSession(ctx: Ctx, tx: PaymentTransaction, session: CheckoutSession, now: Date): Promise<PaidReport> {
  tx.providerPaymentId ??= paymentIntentOf(session);
  const report = await reportPaid(ctx, tx, now);
  tx.checkoutCloseAt = null;
  tx.providerCheckAt = null;
  await ctx.em.flush();
  return report;
}

/** Ends the locked pending transaction because Stripe ended its session (expired, or its payment failed). */
export async function endWithSession(ctx: Ctx, tx: PaymentTransaction, event: 'cancel' | 'fail' | 'expire', now: Date): Promise<void> {
  if (tx.status !== 'pending') return;
  await endPayment(ctx, tx, event, now);
  // Stripe closed the session itself: there is nothing left to expire there.
  tx.checkoutCloseAt = null;
  tx.providerCheckAt = null;
  await ctx.em.flush();
}

// ---------------------------------------------------------------------------------------------
// Webhook

type SessionEventType =
  | 'checkout.session.completed'
  | 'checkout.session.async_payment_succeeded'
  | 'checkout.session.async_payment_failed'
  | 'checkout.session.expired';
const SESSION_EVENTS = new Set<string>([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
]);
const REFUND_EVENTS = new Set<string>(['charge.refunded', 'refund.updated']);

const refusedEvent = (message: string) => invalid(`invalid Stripe event: ${message}`, [{ path: 'body', message }]);

/**
 * `POST /v1/payments/stripe/webhook/{companyID}`: verifies the `Stripe-Signature` of the raw
 * body with the company's webhook secret and applies the event once (its id is recorded in
 * the same database transaction as its effect; a repeat changes nothing). Events of other
 * types are acknowledged and ignored.
 */
export async function handleStripeWebhook(
  ctx: Ctx,
  companyId: string,
  raw: Buffer | null,
  signature: string | undefined,
): Promise<{ received: true }> {
  if (!isUuid(companyId)) throw invalid('company id must be a UUID', [{ path: 'companyID', message: 'must be a UUID' }]);
  const cid = companyId.toLowerCase();
  const [company] = await ctx.em.execute<{ id: string }[]>('select id from company where id = ?', [cid]);
  if (!company) throw notFound('company');
  const secret = webhookSecretOf(ctx.deps, await stripeSettings(ctx, cid));
  if (!secret)
    throw invalid('the company has no Stripe webhook secret to verify events with', [
      { path: 'Stripe-Signature', message: 'cannot be verified' },
    ]);
  if (!signature || !raw?.length)
    throw invalid('missing Stripe-Signature header or body', [{ path: 'Stripe-Signature', message: 'is required' }]);
  let event: StripeEvent;
  try {
    event = webhooks().constructEvent(raw, signature, secret, SIGNATURE_TOLERANCE_SEC, undefined, ctx.now.getTime());
  } catch {
    throw invalid('the Stripe-Signature does not verify', [{ path: 'Stripe-Signature', message: 'does not verify' }]);
  }
  if (typeof event?.id !== 'string' || !event.id || event.id.length > 255 || typeof event.type !== 'string')
    throw refusedEvent('no event id or type');
  if (!SESSION_EVENTS.has(event.type) && !REFUND_EVENTS.has(event.type)) return { received: true };
  const object = (event.data?.object ?? null) as unknown as Record<string, unknown> | null;
  if (!object || typeof object !== 'object') throw refusedEvent('no data.object');

  await inTransaction(ctx, async (tx) => {
    const txId = transactionIdOf(object);
    const fresh = await tx.em.execute<{ event_id: string }[]>(
      `insert into stripe_event (company_id, event_id, type, transaction_id, received_at) values (?, ?, ?, ?, ?)
       on conflict (company_id, event_id) do nothing returning event_id`,
      [cid, event.id, event.type, txId, ctx.now],
    );
    if (!fresh.length) return;
    if (SESSION_EVENTS.has(event.type)) await applySessionEvent(tx, cid, event.type as SessionEventType, object as never);
    else await applyRefundEvent(tx, cid, event.type, object);
  });
  return { received: true };
}

/** The transaction a Stripe object names (metadata.transactionID, else client_reference_id), when it is a UUID. */
function transactionIdOf(object: Record<string, unknown>): string | null {
  const meta = object.metadata as Record<string, unknown> | null | undefined;
  const id = meta?.transactionID ?? object.client_reference_id;
  return typeof id === 'string' && isUuid(id) ? id.toLowerCase() : null;
}

function metadataCompany(object: Record<string, unknown>): string | null {
  const v = (object.metadata as Record<string, unknown> | null | undefined)?.companyID;
  return typeof v === 'string' ? v.toLowerCase() : null;
}

async function applySessionEvent(ctx: Ctx, companyId: string, type: SessionEventType, session: CheckoutSession) {
  const named = metadataCompany(session as never);
  if (named && named !== companyId) throw refusedEvent('the session belongs to another company');
  const txId = transactionIdOf(session as never);
  // A session this installation did not open (another integration on the same Stripe account).
  if (!txId) return;
  const tx = await lockTransaction(ctx, txId);
  if (!tx) {
    ctx.log.warn({ transactionId: txId }, 'a Stripe event names a transaction that does not exist');
    return;
  }
  if (tx.companyId !== companyId) throw refusedEvent('the transaction belongs to another company');
  if (tx.providerType !== 'stripe' || tx.referenceId !== session.id) throw refusedEvent("the session is not the transaction's");
  const now = ctx.now;
  switch (type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      // Completed but unpaid: an asynchronous payment method, settled by its own later event.
      if (isPaid(session)) await settlePaidSession(ctx, tx, session, now);
      return;
    case 'checkout.session.async_payment_failed':
      return endWithSession(ctx, tx, 'fail', now);
    case 'checkout.session.expired':
      return endWithSession(ctx, tx, 'cancel', now);
  }
}

async function applyRefundEvent(ctx: Ctx, companyId: string, type: string, object: Record<string, unknown>) {
  const named = metadataCompany(object);
  if (named && named !== companyId) throw refusedEvent('the refund belongs to another company');
  const refunds: StripeRefund[] =
    type === 'refund.updated'
      ? [object as unknown as StripeRefund]
      : (((object.refunds as { data?: StripeRefund[] })?.data ?? []) as StripeRefund[]);
  for (const r of refunds) {
    const rNamed = metadataCompany(r as never);
    if (rNamed && rNamed !== companyId) throw refusedEvent('the refund belongs to another company');
    const txId = transactionIdOf(r as never) ?? transactionIdOf(object);
    if (txId) {
      const [owner] = await ctx.em.execute<{ company_id: string }[]>('select company_id from payment_transaction where id = ?', [txId]);
      if (owner && owner.company_id !== companyId) throw refusedEvent('the refund belongs to another company');
    }
    if (typeof r?.id === 'string') await applyRefundUpdate(ctx, companyId, r.id, r.status ?? null);
  }
}

// ---------------------------------------------------------------------------------------------
// The customer's return

export interface ReturnQuery {
  outcome?: unknown;
  session_id?: unknown;
}

/** How a customer comes back from Stripe Checkout (`outcome` of the return URL). */
export const RETURN_OUTCOMES = ['success', 'cancel'] as const;

/**
 * `GET /v1/payments/stripe/return/{transactionID}`: the customer is back from Stripe Checkout.
 * The session id is the capability (only the customer's browser got it from Stripe). The
 * session is read from Stripe and settles the transaction as its webhook would; a cancel
 * expires the session first, so that it can no longer be paid, and cancels the transaction.
 * Answers the company's redirect for what became of it, templated and signed now.
 */
export async function stripeReturn(ctx: Ctx, transactionId: string, query: ReturnQuery): Promise<CheckoutAnswer> {
  const c = new Check();
  if (!isUuid(transactionId)) c.fail('transactionID', 'must be a UUID');
  const outcome = c.oneOf('outcome', query?.outcome, RETURN_OUTCOMES, true);
  const sessionId = c.string('session_id', query?.session_id, { max: 255, required: true });
  c.done('invalid Stripe return');
  const found = await ctx.em.findOne(PaymentTransaction, { id: transactionId.toLowerCase() });
  if (!found || found.providerType !== 'stripe' || !found.referenceId || found.referenceId !== sessionId)
    throw notFound('payment transaction');
  const stripe = await companyStripe(ctx, found.companyId);
  let session = await read(stripe, found.referenceId);
  if (outcome === 'cancel' && found.status === 'pending' && !isPaid(session) && session.status === 'open')
    session = await expireSession(stripe, found.referenceId);

  const now = ctx.now;
  const answer = await inTransaction(ctx, async (trx) => {
    const tx = (await lockTransaction(trx, found.id))!;
    let kind: CheckoutOutcome;
    if (isPaid(session)) {
      const report = await settlePaidSession(trx, tx, session, now);
      kind =
        report === 'refunded' || tx.status === 'refunded' || tx.status === 'failed' || tx.status === 'cancelled' ? 'failure' : 'success';
    } else if (session.status === 'expired') {
      await endWithSession(trx, tx, 'cancel', now);
      kind = outcome === 'cancel' ? 'cancel' : 'failure';
    } else if (tx.status === 'failed' || tx.status === 'cancelled') {
      kind = outcome === 'cancel' ? 'cancel' : 'failure';
    } else if (session.status === 'complete') {
      // Checkout is done and an asynchronous payment is on its way; its event settles it.
      kind = 'success';
    } else {
      // Still open: nothing was paid; the session stays payable until it expires.
      kind = 'cancel';
    }
    return { tx, location: await redirectLocation(trx, tx, kind, now) };
  });
  if (answer.location !== null) return { kind: 'redirect', location: answer.location };
  return {
    kind: 'page',
    html: completedPage({
      id: answer.tx.id,
      amount: answer.tx.amount,
      currency: answer.tx.currency,
      status: answer.tx.status,
      description: answer.tx.purchaseName,
    }),
  };
}

async function read(stripe: StripeClient, sessionId: string): Promise<CheckoutSession> {
  try {
    return await retrieveSession(stripe, sessionId);
  } catch (err) {
    throw stripeFailure(err, 'read the checkout session');
  }
}

/**
 * Expires an open session so that it can no longer be paid. Stripe refuses when it is no
 * longer open (paid meanwhile, or expired already): the session as it is now is answered then.
 */
export async function expireSession(stripe: StripeClient, sessionId: string): Promise<CheckoutSession> {
  try {
    return await stripe.checkout.sessions.expire(sessionId);
  } catch (err) {
    if (!isRefusal(err)) throw stripeFailure(err, 'expire the checkout session');
    return read(stripe, sessionId);
  }
}
