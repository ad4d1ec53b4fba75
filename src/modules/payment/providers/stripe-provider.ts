import { createHash } from 'node:crypto';
import { conflict } from '../../../shared/errors';
import type { PaymentTransaction, Refund } from '../payment.entity';
import type { RefundStatus } from '../payment.status';
import type { PaymentProvider, ProviderEnv } from './provider';
import { companyStripe, isRefusal, stripeFailure, type CheckoutSession, type StripeClient } from './stripe-client';

/**
 * Stripe Checkout: one Checkout Session per transaction (`mode=payment`), created with the
 * transaction id as its idempotency key, so a retried creation can never open a second one.
 * The session's id is the transaction's `referenceId`; the payment intent it produced
 * (`providerPaymentId`) is what refunds go to.
 */

/** Stripe's shortest session lifetime is 30 minutes; one more covers clocks that differ a little. */
export const MIN_SESSION_MS = 31 * 60_000;
/** Stripe's longest session lifetime. */
export const MAX_SESSION_MS = 24 * 3600_000;
/** Stripe limits product names; longer descriptions are cut. */
const MAX_NAME = 250;

/** `{PUBLIC_URL}/v1/payments/stripe/return/{id}?outcome=...&session_id={CHECKOUT_SESSION_ID}` (Stripe fills in the id). */
export const returnUrl = (publicUrl: string, transactionId: string, outcome: 'success' | 'cancel'): string =>
  `${publicUrl}/v1/payments/stripe/return/${transactionId}?outcome=${outcome}&session_id={CHECKOUT_SESSION_ID}`;

const nameOf = (text: string | null | undefined, fallback: string): string => {
  const t = (text ?? '').trim() || fallback;
  return t.length > MAX_NAME ? `${t.slice(0, MAX_NAME - 3)}...` : t;
};

/** One line per item with its share; when the shares do not add up to the amount, one line for the whole. */
function lineItems(tx: PaymentTransaction, itemNames: Record<string, string>) {
  const currency = tx.currency.toLowerCase();
  const line = (name: string, amount: number) => ({ quantity: 1, price_data: { currency, unit_amount: amount, product_data: { name } } });
  const shares = tx.itemIds.map((id) => tx.perItemAmounts[id]);
  const whole = nameOf(tx.purchaseName, tx.itemType);
  if (shares.some((s) => !Number.isSafeInteger(s)) || shares.reduce((a, b) => a + b, 0) !== tx.amount) return [line(whole, tx.amount)];
  return tx.itemIds.map((id) => line(nameOf(itemNames[id], whole), tx.perItemAmounts[id]));
}

export const refundStatusOf = (stripeStatus: string | null | undefined): RefundStatus =>
  stripeStatus === 'succeeded' ? 'succeeded' : stripeStatus === 'failed' || stripeStatus === 'canceled' ? 'failed' : 'pending';

/**
 * The idempotency key of a refund at Stripe: from the refund's own idempotency key when it has
 * one (a retried request after a lost answer finds Stripe's first refund), else from its id.
 */
export function refundIdempotencyKey(r: Refund): string {
  if (r.idempotencyKey) return `refund-${r.companyId}-${createHash('sha256').update(r.idempotencyKey).digest('hex').slice(0, 32)}`;
  return `refund-${r.id}`;
}

export const paymentIntentOf = (s: CheckoutSession): string | null =>
  typeof s.payment_intent === 'string' ? s.payment_intent : (s.payment_intent?.id ?? null);

/** Whether the session's money is taken. */
export const isPaid = (s: CheckoutSession): boolean => s.payment_status === 'paid' || s.payment_status === 'no_payment_required';

export async function retrieveSession(stripe: StripeClient, sessionId: string): Promise<CheckoutSession> {
  return stripe.checkout.sessions.retrieve(sessionId);
}

export const stripeProvider: PaymentProvider = {
  name: 'stripe',
  available: true,
  closesCheckout: true,

  async createCheckout(tx, env, itemNames) {
    const stripe = await companyStripe(env.ctx, tx.companyId);
    const created = tx.createdAt.getTime();
    const wanted = Math.min(Math.max(tx.expiresAt?.getTime() ?? 0, created + MIN_SESSION_MS), created + MAX_SESSION_MS);
    const expiresSec = Math.ceil(wanted / 1000);
    const metadata = { transactionID: tx.id, companyID: tx.companyId };
    let session: CheckoutSession;
    try {
      session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: lineItems(tx, itemNames),
          client_reference_id: tx.id,
          metadata,
          payment_intent_data: { metadata },
          expires_at: expiresSec,
          success_url: returnUrl(env.publicUrl, tx.id, 'success'),
          cancel_url: returnUrl(env.publicUrl, tx.id, 'cancel'),
          ...(tx.email ? { customer_email: tx.email } : {}),
        },
        { idempotencyKey: tx.id },
      );
    } catch (err) {
      throw stripeFailure(err, 'open the checkout session');
    }
    if (!session.url) throw conflict('Stripe opened a checkout session without a payment page');
    return { url: session.url, referenceId: session.id, expiresAt: new Date(expiresSec * 1000) };
  },

  async refund(tx, refund, env: ProviderEnv) {
    const stripe = await companyStripe(env.ctx, tx.companyId);
    let paymentIntent = tx.providerPaymentId;
    try {
      if (!paymentIntent && tx.referenceId) {
        paymentIntent = paymentIntentOf(await retrieveSession(stripe, tx.referenceId));
        tx.providerPaymentId = paymentIntent;
      }
      if (!paymentIntent) {
        env.ctx.log.error({ transactionId: tx.id }, 'a Stripe refund has no payment intent to go to');
        return { status: 'failed', providerRefundId: null };
      }
      const r = await stripe.refunds.create(
        {
          payment_intent: paymentIntent,
          amount: refund.amount,
          metadata: { transactionID: tx.id, companyID: tx.companyId, refundID: refund.id, itemID: refund.itemId },
        },
        { idempotencyKey: refundIdempotencyKey(refund) },
      );
      return { status: refundStatusOf(r.status), providerRefundId: r.id };
    } catch (err) {
      if (!isRefusal(err)) throw stripeFailure(err, 'refund the payment');
      env.ctx.log.error(
        { transactionId: tx.id, refundId: refund.id, reason: (err as Error).message?.slice(0, 300) },
        'Stripe refused a refund',
      );
      return { status: 'failed', providerRefundId: null };
    }
  },
};
