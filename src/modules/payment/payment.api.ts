/**
 * What the payment context offers other contexts (bookings today; subscriptions and gift cards
 * later). Every function works inside the caller's database transaction, so a refused payment
 * rolls the caller's whole change back.
 */

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Ctx } from '../../kernel/context';
import { PaymentSettings, PaymentTransaction } from './payment.entity';
import { providerFor, requireAvailable } from './providers/registry';
import { checkRedirects } from './redirects';
import { loadRedirectSettings } from './settings.service';

export { paidShare, refundItem, type PaidShare, type RefundItemInput } from './refund.service';
export { sweepExpiredPayments } from './expiry';

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
}

export interface StartedPayment {
  transactionId: string;
  paymentURL: string;
}

/**
 * Starts a payment: inserts a `pending` transaction with the company's preferred provider
 * (expiring after PAYMENT_TIMEOUT) and returns the provider's payment URL. Returns null when
 * no payment is taken: the company has no payment settings, or the amount is not above zero.
 * Throws 400 when the provider is not available here or the redirect settings cannot produce
 * valid redirect URLs for this transaction.
 */
export async function startPayment(ctx: Ctx, em: EntityManager, input: StartPaymentInput): Promise<StartedPayment | null> {
  if (!(input.amount > 0)) return null;
  if (!input.itemIDs.length) throw new Error('startPayment needs at least one item id');
  if (!Number.isSafeInteger(input.amount)) throw new Error('startPayment amount must be an integer');
  // Refunds are computed per item; every item needs its share.
  if (input.itemIDs.some((id) => !Number.isSafeInteger(input.perItemAmounts[id]) || input.perItemAmounts[id] < 0))
    throw new Error('startPayment needs a non-negative integer perItemAmounts entry for every item');
  const { settings, provider: providerSettings } = await loadRedirectSettings(em, input.companyId);
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
  const paymentURL = await provider.createCheckout(tx, { publicUrl: ctx.deps.config.publicUrl });
  em.persist(tx);
  await em.flush();
  return { transactionId: tx.id, paymentURL };
}

/** Whether the company takes payments (has payment settings); a priced client booking then waits for its payment. */
export async function takesPayments(em: EntityManager, companyId: string): Promise<boolean> {
  return (await em.count(PaymentSettings, { companyId })) > 0;
}

/** The latest transaction covering `itemId` in the company (any status), or null. */
export async function transactionForItem(em: EntityManager, companyId: string, itemId: string): Promise<PaymentTransaction | null> {
  const rows = await em.execute<{ id: string }[]>(
    `select id from payment_transaction where company_id = ? and item_ids @> ?::jsonb order by created_at desc, id desc limit 1`,
    [companyId, JSON.stringify([itemId])],
  );
  return rows.length ? em.findOne(PaymentTransaction, { id: rows[0].id, companyId }) : null;
}
