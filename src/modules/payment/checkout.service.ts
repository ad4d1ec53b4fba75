import { LockMode } from '@mikro-orm/core';
import type { Ctx } from '../../kernel/context';
import { conflict, invalid, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { Check } from '../../shared/validate';
import { checkoutPage, completedPage, type CheckoutView } from './checkout.html';
import { PaymentTransaction } from './payment.entity';
import { CHECKOUT_OUTCOMES, OUTCOME_EVENT, type CheckoutOutcome } from './payment.status';
import { renderFor } from './redirects';
import { endPayment, reportPaid } from './settlement';
import { loadRedirectSettings } from './settings.service';
import { isHeaderSafeUrl } from './redirect/ascii';
import { inTransaction } from '../../kernel/transaction';

export type CheckoutAnswer = { kind: 'redirect'; location: string } | { kind: 'page'; html: string };

function view(tx: PaymentTransaction): CheckoutView {
  return { id: tx.id, amount: tx.amount, currency: tx.currency, status: tx.status, description: tx.purchaseName };
}

/** A transaction of the test provider by id; the id is the capability, so nothing else is checked. */
async function testTransaction(ctx: Ctx, id: string, lock: boolean): Promise<PaymentTransaction> {
  if (!isUuid(id)) throw invalid('transaction id must be a UUID', [{ path: 'transactionID', message: 'must be a UUID' }]);
  const tx = await ctx.em.findOne(
    PaymentTransaction,
    { id: id.toLowerCase() },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : {},
  );
  if (!tx || tx.providerType !== 'test') throw notFound('payment transaction');
  return tx;
}

/** The hosted checkout page of a test-provider transaction. */
export async function testCheckoutPage(ctx: Ctx, id: string): Promise<string> {
  const tx = await testTransaction(ctx, id, false);
  // Relative to the page itself, so it also works behind a proxy that adds a path prefix.
  return checkoutPage(view(tx), `${tx.id}/complete`);
}

/**
 * Settles a test-provider transaction as a provider webhook would: under a row lock, the
 * transaction and its bookings change in one database transaction. A transaction that is no
 * longer pending is 409; one past its expiry is expired (and its bookings failed) and is 409.
 * Answers the company's redirect URL for the outcome, templated and signed per the preferred
 * provider's settings, or a small page when none is configured.
 */
export async function completeTestCheckout(ctx: Ctx, id: string, input: { outcome?: unknown }): Promise<CheckoutAnswer> {
  const c = new Check();
  const outcome = c.oneOf<CheckoutOutcome>('outcome', input?.outcome, CHECKOUT_OUTCOMES, true);
  c.done('invalid checkout outcome');
  const now = ctx.now;
  const settled = await inTransaction(ctx, async (trx) => {
    const tx = await testTransaction(trx, id, true);
    if (tx.status !== 'pending') return { tx, refused: `the payment is already ${tx.status.replace('_', ' ')}`, location: null };
    if (tx.expiresAt && tx.expiresAt.getTime() <= now.getTime()) {
      // The sweeper had not reached it yet; expiring it here keeps the bookings' outcome the same.
      await endPayment(trx, tx, 'expire', now);
      return { tx, refused: 'the payment has expired', location: null };
    }
    // Built before settling: once the payment is settled, nothing may fail any more, or the
    // customer is stranded on an error while a retry answers 409.
    const location = await redirectLocation(trx, tx, outcome!, now);
    if (outcome !== 'success') {
      await endPayment(trx, tx, OUTCOME_EVENT[outcome!], now);
      return { tx, refused: null, location };
    }
    // As a real provider's report: a payment nobody wants any more goes back, and so does the customer, to the failure redirect.
    if ((await reportPaid(trx, tx, now)) === 'paid') return { tx, refused: null, location };
    return { tx, refused: null, location: await redirectLocation(trx, tx, 'failure', now) };
  });
  if (settled.refused) throw conflict(settled.refused);
  if (settled.location !== null) return { kind: 'redirect', location: settled.location };
  return { kind: 'page', html: completedPage(view(settled.tx)) };
}

/**
 * The Location of the outcome's redirect, or null for the completion page (no URL configured,
 * or one that cannot be rendered or sent as a header: the payment is settled either way, and a
 * broken redirect must not hide that from the client).
 */
export async function redirectLocation(ctx: Ctx, tx: PaymentTransaction, outcome: CheckoutOutcome, now: Date): Promise<string | null> {
  const { provider } = await loadRedirectSettings(ctx, tx.companyId);
  if (!provider) return null;
  let rendered;
  try {
    rendered = renderFor(ctx.deps, provider, outcome, tx, now);
  } catch {
    rendered = { ok: false as const, code: 'secret', message: 'the signing secret cannot be read' };
  }
  if (!rendered) return null;
  if (rendered.ok && isHeaderSafeUrl(rendered.url)) return rendered.url;
  const problem = rendered.ok ? 'the URL is not ASCII' : rendered.message;
  ctx.log.warn({ transactionId: tx.id, outcome, problem }, 'redirect URL could not be rendered; showing the completion page');
  return null;
}
