import { createHash } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { Ctx } from '../../kernel/context';
import { requireMerchant } from '../../kernel/access';
import { companyForMerchant } from '../company/company.access';
import { conflict, forbidden, invalid, notFound } from '../../shared/errors';
import { isUuid, newId } from '../../shared/ids';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import { grants } from '../../kernel/permissions';
import { PaymentTransaction, Refund } from './payment.entity';
import { refundEvent, transitionPayment } from './payment.status';
import { recordPaymentEvent } from './payment.events';
import { providerFor } from './providers/registry';
import { inTransaction } from '../../kernel/transaction';

export interface RefundJson {
  ID: string;
  companyID: string;
  transactionID: string;
  itemID: string;
  amount: number;
  currency: string;
  idempotencyKey: string | null;
  metadata: Record<string, string>;
  providerRefundID: string | null;
  reason: string | null;
  status: string;
  createdAt: string;
  updatedAt: string;
}

export function refundJson(r: Refund): RefundJson {
  return {
    ID: r.id,
    companyID: r.companyId,
    transactionID: r.transactionId,
    itemID: r.itemId,
    amount: r.amount,
    currency: r.currency,
    idempotencyKey: r.idempotencyKey,
    metadata: r.metadata,
    providerRefundID: r.providerRefundId,
    reason: r.reason,
    status: r.status,
    createdAt: formatTimestamp(r.createdAt)!,
    updatedAt: formatTimestamp(r.updatedAt)!,
  };
}

export interface RefundItemInput {
  companyId: string;
  /** when absent, the latest paid transaction covering the item */
  transactionId?: string | null;
  itemId: string;
  /** percent of the item's paid amount, 1..100; exactly one of percent and amount */
  percent?: number | null;
  /** smallest currency unit */
  amount?: number | null;
  reason?: string | null;
  idempotencyKey?: string | null;
  metadata?: Record<string, string> | null;
}

const REFUNDABLE = new Set(['paid', 'partially_refunded']);

async function lockTransaction(
  ctx: Ctx,
  companyId: string,
  transactionId: string | null | undefined,
  itemId: string,
): Promise<PaymentTransaction | null> {
  let id = transactionId ?? null;
  if (!id) {
    const rows = await ctx.em.execute<{ id: string }[]>(
      `select id from payment_transaction where company_id = ? and item_ids @> ?::jsonb and status in ('paid', 'partially_refunded') order by created_at desc, id desc limit 1`,
      [companyId, JSON.stringify([itemId])],
    );
    id = rows[0]?.id ?? null;
  }
  if (!id) return null;
  return ctx.em.findOne(PaymentTransaction, { id, companyId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/** What was paid for one item of `tx` (a one-item transaction without shares: the whole amount). */
export const paidFor = (tx: PaymentTransaction, itemId: string): number =>
  tx.perItemAmounts[itemId] ?? (tx.itemIds.length === 1 ? tx.amount : 0);

/** Pending and succeeded refunds of one item of `tx` so far (failed ones gave nothing back). */
export async function refundedFor(ctx: Ctx, tx: PaymentTransaction, itemId: string): Promise<number> {
  const rows = await ctx.em.execute<{ total: string | number }[]>(
    `select coalesce(sum(amount), 0) as total from refund where company_id = ? and transaction_id = ? and item_id = ? and status in ('pending', 'succeeded')`,
    [tx.companyId, tx.id, itemId],
  );
  return Number(rows[0]?.total ?? 0);
}

export interface PaidShare {
  transactionId: string;
  /** what was paid for the item (smallest currency unit) */
  paid: number;
  /** pending and succeeded refunds of the item so far */
  refunded: number;
}

/**
 * What was paid and refunded so far for an item in its latest paid (or partly refunded)
 * transaction, read under that transaction's row lock, which the caller's database
 * transaction keeps until it ends; null when no such transaction covers the item.
 */
export async function paidShare(ctx: Ctx, companyId: string, itemId: string): Promise<PaidShare | null> {
  const tx = await lockTransaction(ctx, companyId, null, itemId);
  if (!tx || !tx.itemIds.includes(itemId) || !REFUNDABLE.has(tx.status)) return null;
  return { transactionId: tx.id, paid: paidFor(tx, itemId), refunded: await refundedFor(ctx, tx, itemId) };
}

/**
 * Refunds part of one item of a paid transaction inside the caller's database transaction.
 * amount = floor(item's paid amount * percent / 100) (rounded down, so percentages never pay
 * out more than was paid), or the given amount. The transaction row is locked first, so
 * concurrent refunds of the same transaction run one after the other: the total refunded for
 * an item can never exceed what was paid for it (409 otherwise). A repeated idempotency key
 * returns the refund it created; reused for a different refund it is 409. The transaction
 * becomes `refunded` once everything was refunded, else `partially_refunded`.
 */
export async function refundItem(ctx: Ctx, input: RefundItemInput): Promise<Refund> {
  const c = new Check();
  const percent = c.int('percent', input.percent, { min: 1, max: 100 });
  const fixed = c.int('amount', input.amount, { min: 1 });
  if (percent === undefined && fixed === undefined && !c.details.length) c.fail('percent', 'percent or amount is required');
  if (percent !== undefined && fixed !== undefined) c.fail('amount', 'give either percent or amount, not both');
  const reason = c.string('reason', input.reason, { max: 500 }) ?? null;
  const key = c.string('idempotencyKey', input.idempotencyKey, { max: 255 }) || null;
  c.done('invalid refund');

  const tx = await lockTransaction(ctx, input.companyId, input.transactionId, input.itemId);
  if (!tx) throw notFound('payment transaction');
  if (!tx.itemIds.includes(input.itemId)) throw notFound('item in the payment transaction');

  const paid = paidFor(tx, input.itemId);
  const amount = percent !== undefined ? Math.floor((paid * percent) / 100) : fixed!;
  if (key) {
    const previous = await ctx.em.findOne(Refund, { companyId: tx.companyId, idempotencyKey: key });
    if (previous) {
      if (previous.transactionId !== tx.id || previous.itemId !== input.itemId || previous.amount !== amount) {
        throw conflict('the idempotency key was already used for a different refund');
      }
      return previous;
    }
  }
  if (!REFUNDABLE.has(tx.status)) throw conflict(`a ${tx.status.replace('_', ' ')} payment cannot be refunded`);
  if (amount < 1)
    throw invalid(`${percent}% of ${paid} rounds down to nothing to refund`, [{ path: 'percent', message: 'gives a refund of 0' }]);
  const already = await refundedFor(ctx, tx, input.itemId);
  if (already + amount > paid) {
    throw conflict(`refunding ${amount} would exceed the item's paid amount: ${already} of ${paid} is already refunded`);
  }

  const now = ctx.now;
  const refund = await issueRefund(ctx, tx, { itemId: input.itemId, amount, reason, idempotencyKey: key, metadata: input.metadata }, now);
  if (refund.status !== 'failed') {
    tx.status = transitionPayment(tx.status, refundEvent(tx.refundedAmount, tx.amount));
    tx.updatedAt = now;
    await recordPaymentEvent(ctx, tx, now);
  }
  await ctx.em.flush();
  return refund;
}

/** A UUID that follows from `name` (SHA-256, marked as version 8). */
function uuidOf(name: string): string {
  const h = createHash('sha256').update(name).digest();
  h[6] = (h[6] & 0x0f) | 0x80;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/**
 * The id of a new refund. The provider is asked before the refund's database transaction
 * commits; should that transaction roll back and be tried again (a merchant's request repeated
 * with its idempotency key, a provider's report delivered again), the retry must send the
 * provider the very same request (its idempotency key and metadata carry the id), so that the
 * provider answers with the first refund instead of making a second one. A keyed refund's id
 * follows from its key; one the payment issues by itself, from its transaction, its item and
 * how many refunds the item has on record; only a merchant's refund without a key is random.
 */
async function refundId(ctx: Ctx, tx: PaymentTransaction, itemId: string, key: string | null, own: boolean): Promise<string> {
  if (key) return uuidOf(`refund\n${tx.companyId}\n${key}`);
  if (!own) return newId();
  const [row] = await ctx.em.execute<{ n: number }[]>(
    'select count(*)::int as n from refund where company_id = ? and transaction_id = ? and item_id = ?',
    [tx.companyId, tx.id, itemId],
  );
  return uuidOf(`refund\n${tx.id}\n${itemId}\n${row?.n ?? 0}`);
}

/**
 * Refunds `amount` of one item of the locked transaction `tx` through its provider and keeps
 * the refund record; unless the provider refused it, `tx.refundedAmount` grows by it. The
 * caller checked the amount and moves the transaction's status. `own`: the payment refunds on
 * its own account (a payment for what is no longer wanted), not at a merchant's request.
 */
export async function issueRefund(
  ctx: Ctx,
  tx: PaymentTransaction,
  r: {
    itemId: string;
    amount: number;
    reason: string | null;
    idempotencyKey?: string | null;
    metadata?: Record<string, string> | null;
    own?: boolean;
  },
  now: Date,
): Promise<Refund> {
  const refund = new Refund();
  Object.assign(refund, {
    id: await refundId(ctx, tx, r.itemId, r.idempotencyKey ?? null, r.own ?? false),
    companyId: tx.companyId,
    transactionId: tx.id,
    itemId: r.itemId,
    amount: r.amount,
    currency: tx.currency,
    idempotencyKey: r.idempotencyKey ?? null,
    metadata: r.metadata ?? {},
    reason: r.reason,
    status: 'pending',
    createdAt: now,
    updatedAt: now,
  });
  const result = await providerFor(tx.providerType).refund(tx, refund, {
    publicUrl: ctx.deps.config.publicUrl,
    ctx,
  });
  refund.status = result.status;
  refund.providerRefundId = result.providerRefundId;
  if (refund.status !== 'failed') tx.refundedAmount += r.amount;
  ctx.em.persist(refund);
  return refund;
}

export interface CreateRefundInput {
  itemID?: unknown;
  percent?: unknown;
  amount?: unknown;
  reason?: unknown;
  metadata?: unknown;
}

function stringMap(c: Check, path: string, v: unknown): Record<string, string> | undefined {
  const o = c.object(path, v);
  if (!o) return undefined;
  for (const [k, val] of Object.entries(o)) if (typeof val !== 'string') c.fail(`${path}.${k}`, 'must be a string');
  if (Object.keys(o).length > 50) c.fail(path, 'must have at most 50 keys');
  return o as Record<string, string>;
}

/** The merchant's refund of one item of a transaction (`payments.write`). */
export async function createRefund(
  ctx: Ctx,
  companyId: string,
  transactionId: string,
  input: CreateRefundInput,
  idempotencyKey?: string | null,
): Promise<RefundJson> {
  const company = await companyForMerchant(ctx, companyId, 'payments.write');
  const c = new Check();
  if (!isUuid(transactionId)) c.fail('transactionID', 'must be a UUID');
  const itemId = c.uuid('itemID', input?.itemID, true);
  const metadata = stringMap(c, 'metadata', input?.metadata);
  c.done('invalid refund');
  const refund = await inTransaction(ctx, (tx) =>
    refundItem(tx, {
      companyId: company.id,
      transactionId: transactionId.toLowerCase(),
      itemId: itemId!,
      percent: input?.percent as number | undefined,
      amount: input?.amount as number | undefined,
      reason: input?.reason as string | undefined,
      idempotencyKey: idempotencyKey ?? null,
      metadata,
    }),
  );
  return refundJson(refund);
}

/** The latest refund of an item in any company of the caller's merchant that the key may read. */
export async function getRefundByItem(ctx: Ctx, itemId: string): Promise<RefundJson> {
  const actor = requireMerchant(ctx);
  if (!isUuid(itemId)) throw invalid('item id must be a UUID', [{ path: 'item_id', message: 'must be a UUID' }]);
  const rows = await ctx.em.execute<{ id: string; company_id: string }[]>(
    `select r.id, r.company_id from refund r join company c on c.id = r.company_id
     where r.item_id = ? and c.merchant_id = ? order by r.seq desc limit 50`,
    [itemId.toLowerCase(), actor.merchantId],
  );
  if (!rows.length) throw notFound('refund');
  const readable = rows.find((r) => grants(actor.permissions, r.company_id, 'payments.read'));
  if (!readable) throw forbidden('missing permission payments.read');
  return refundJson((await ctx.em.findOne(Refund, { id: readable.id }))!);
}
