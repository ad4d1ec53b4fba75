/**
 * What the payment context offers other contexts (bookings, subscriptions, gift cards). Every
 * function works inside the caller's database transaction, so a refused payment rolls the
 * caller's whole change back.
 */

import type { Ctx } from '../../kernel/context';
import { PaymentSettings, PaymentTransaction, Refund } from './payment.entity';
import type { PaymentStatus, RefundStatus } from './payment.status';
import { providerFor, requireAvailable } from './providers/registry';
import { checkRedirects } from './redirects';
import { loadRedirectSettings } from './settings.service';

export { paidShare, refundItem, type PaidShare, type RefundItemInput } from './refund.service';
export { sweepExpiredPayments } from './expiry';
export { lockPendingPayments, reportPaid, type PaidReport } from './settlement';
/** Encryption at rest of secrets (AES-256-GCM under ENCRYPTION_KEY), for other modules' signing secrets. */
export { decryptSecret, encryptSecret } from './redirect/secret-box';

export interface StartPaymentInput {
  companyId: string;
  clientId: string | null;
  email: string | null;
  /** what the items are; the module that owns them registers their settlement under this name */
  itemType: string;
  /** every item the payment covers, in request order; the first becomes `itemID` */
  itemIDs: string[];
  /** item id -> its share of `amount` (smallest currency unit) */
  perItemAmounts: Record<string, number>;
  /** smallest currency unit */
  amount: number;
  currency: string;
  taxInclusive: boolean;
  taxRate: number;
  pluginNamespace?: string | null;
  referenceID?: string | null;
  /** shown by the provider; stored as `purchaseName` */
  description?: string | null;
  /** what each item is (the provider's page lists one line per item); absent ones are named by `description` */
  itemNames?: Record<string, string>;
}

export interface StartedPayment {
  transactionId: string;
  paymentURL: string;
  /** when the transaction expires unpaid (and what it holds is released); startPayment always sets it */
  expiresAt?: Date | null;
}

/**
 * Starts a payment: inserts a `pending` transaction with the company's preferred provider
 * (expiring after PAYMENT_TIMEOUT) and returns the provider's payment URL. Returns null when
 * no payment is taken: the company has no payment settings, or the amount is not above zero.
 * Throws 400 when the provider is not available here or the redirect settings cannot produce
 * valid redirect URLs for this transaction.
 */
export async function startPayment(ctx: Ctx, input: StartPaymentInput): Promise<StartedPayment | null> {
  if (!(input.amount > 0)) return null;
  if (!input.itemIDs.length) throw new Error('startPayment needs at least one item id');
  if (!Number.isSafeInteger(input.amount)) throw new Error('startPayment amount must be an integer');
  // Refunds are computed per item; every item needs its share.
  if (input.itemIDs.some((id) => !Number.isSafeInteger(input.perItemAmounts[id]) || input.perItemAmounts[id] < 0))
    throw new Error('startPayment needs a non-negative integer perItemAmounts entry for every item');
  const { settings, provider: providerSettings } = await loadRedirectSettings(ctx, input.companyId);
  if (!settings) return null;
  const provider = providerFor(settings.preferredProvider);
  requireAvailable(provider);

  const now = ctx.now;
  // Built without persisting: nothing reaches the unit of work until every check passed.
  const tx = new PaymentTransaction();
  Object.assign(tx, {
    companyId: input.companyId,
    clientId: input.clientId,
    email: input.email,
    amount: input.amount,
    currency: input.currency,
    itemId: input.itemIDs[0],
    itemIds: [...input.itemIDs],
    itemType: input.itemType,
    perItemAmounts: { ...input.perItemAmounts },
    pluginNamespace: input.pluginNamespace ?? null,
    providerType: provider.name,
    referenceId: input.referenceID ?? null,
    purchaseName: input.description ?? null,
    status: 'pending',
    taxInclusive: input.taxInclusive,
    taxRate: input.taxRate,
    expiresAt: new Date(now.getTime() + ctx.deps.config.paymentTimeoutSec * 1000),
    createdAt: now,
    updatedAt: now,
  });
  if (providerSettings) checkRedirects(ctx.deps, providerSettings, tx, now);
  // A provider with its own checkout (Stripe) is called here, inside the caller's database
  // transaction: should it fail, nothing of the purchase is stored. Should the transaction fail
  // after it, the checkout is left unpaid (nobody got its URL) and expires on its own.
  const checkout = await provider.createCheckout(tx, { publicUrl: ctx.deps.config.publicUrl, ctx }, input.itemNames ?? {});
  if (checkout.expiresAt) tx.expiresAt = checkout.expiresAt;
  if (checkout.referenceId !== undefined && checkout.referenceId !== tx.referenceId) {
    tx.referenceId = checkout.referenceId;
    // {{.ReferenceID}} is now the provider's reference: the redirects must still fit.
    if (providerSettings) checkRedirects(ctx.deps, providerSettings, tx, now);
  }
  ctx.em.persist(tx);
  await ctx.em.flush();
  return { transactionId: tx.id, paymentURL: checkout.url, expiresAt: tx.expiresAt };
}

/** Whether the company takes payments (has payment settings); a priced client booking then waits for its payment. */
export async function takesPayments(ctx: Ctx, companyId: string): Promise<boolean> {
  return (await ctx.em.count(PaymentSettings, { companyId })) > 0;
}

/** The latest transaction covering `itemId` in the company (any status), or null. */
export async function transactionForItem(ctx: Ctx, companyId: string, itemId: string): Promise<PaymentTransaction | null> {
  const rows = await ctx.em.execute<{ id: string }[]>(
    `select id from payment_transaction where company_id = ? and item_ids @> ?::jsonb order by created_at desc, id desc limit 1`,
    [companyId, JSON.stringify([itemId])],
  );
  return rows.length ? ctx.em.findOne(PaymentTransaction, { id: rows[0].id, companyId }) : null;
}

/** What a receipt shows of a transaction: the transaction, its items and its refunds. */
export interface ReceiptFacts {
  id: string;
  companyId: string;
  clientId: string | null;
  email: string | null;
  status: PaymentStatus;
  providerType: string;
  itemType: string;
  purchaseName: string | null;
  /** every item in the transaction's order, with its share of `amount` */
  items: { id: string; amount: number }[];
  /** smallest currency unit */
  amount: number;
  currency: string;
  taxInclusive: boolean;
  taxRate: number;
  createdAt: Date;
  refunds: { id: string; itemId: string; amount: number; status: RefundStatus; reason: string | null; createdAt: Date }[];
}

export { RECEIPT_STATUSES } from './payment.status';

/**
 * A transaction of the company for its receipt (any status; the caller decides), with its
 * refunds oldest first; null when the company has no such transaction, or when `clientId` is
 * given and the transaction is not that client's.
 */
export async function receiptFacts(
  ctx: Ctx,
  companyId: string,
  transactionId: string,
  clientId: string | null = null,
): Promise<ReceiptFacts | null> {
  const t = await ctx.em.findOne(PaymentTransaction, { id: transactionId, companyId, ...(clientId ? { clientId } : {}) });
  if (!t) return null;
  const refunds = await ctx.em.find(Refund, { companyId, transactionId: t.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return {
    id: t.id,
    companyId: t.companyId,
    clientId: t.clientId,
    email: t.email,
    status: t.status,
    providerType: t.providerType,
    itemType: t.itemType,
    purchaseName: t.purchaseName,
    items: t.itemIds.map((id) => ({ id, amount: t.perItemAmounts[id] ?? 0 })),
    amount: t.amount,
    currency: t.currency,
    taxInclusive: t.taxInclusive,
    taxRate: t.taxRate,
    createdAt: t.createdAt,
    refunds: refunds.map((r) => ({
      id: r.id,
      itemId: r.itemId,
      amount: r.amount,
      status: r.status,
      reason: r.reason,
      createdAt: r.createdAt,
    })),
  };
}
