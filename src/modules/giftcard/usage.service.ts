import { LockMode } from '@mikro-orm/core';
import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { conflict, DomainError, invalid, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { updateRecordMetaData } from '../../shared/metadata';
import { parsePage } from '../../shared/pagination';
import { listSpec, ORM_ORDERS, type ConnectionArgs, type ConnectionJson } from '../../kernel/connection';
import { connectionFrom, ormSource } from '../../kernel/keyset';
import { Check } from '../../shared/validate';
import { MAX_AMOUNT } from './giftcard.checks';
import { GiftCardUsage } from './giftcard.entity';
import { usageJson, type GiftCardUsageJson } from './giftcard.json';
import { getContractInCompany } from './contract.service';
import { effectiveStatus, transitionUsage, USAGE_STATUSES, type UsageStatus } from './giftcard.status';
import { giveBalance, insertUsage, lockContract, takeBalance } from './giftcard.store';
import { inTransaction } from '../../kernel/transaction';

/** Merchant: what was paid with a card (permissions `giftcards.read` / `giftcards.write`). */

export const USAGES_MAX_LIMIT = 100;

export interface UsagePageJson {
  giftCardUsages: GiftCardUsageJson[];
  total: number;
}

/**
 * Why `amount` could not be taken from the card, read under the card's lock: a card that
 * cannot pay (unpaid, cancelled, expired) is 409 conflict, a short balance 409
 * insufficient_balance.
 */
export async function refusalOf(ctx: Ctx, companyId: string, contractId: string, amount: number, now: Date): Promise<DomainError> {
  const card = await lockContract(ctx, companyId, contractId);
  if (!card) return notFound('gift card contract');
  const status = effectiveStatus(card.status, card.expiresAt, now);
  if (status !== 'active' && !(status === 'redeemed' && card.balance === 0))
    return conflict(`the gift card is ${status.replace('_', ' ')} and cannot be used`);
  return new DomainError('insufficient_balance', `the gift card's balance is ${card.balance}, less than ${amount}`, [
    { path: 'amount', message: `must be at most the balance (${card.balance})` },
  ]);
}

async function take(ctx: Ctx, companyId: string, contractId: string, amount: number, now: Date): Promise<void> {
  if ((await takeBalance(ctx, companyId, contractId, amount, now)) === null) throw await refusalOf(ctx, companyId, contractId, amount, now);
}

export async function listUsages(
  ctx: Ctx,
  companyId: string,
  contractId: unknown,
  raw: { limit?: unknown; offset?: unknown },
): Promise<UsagePageJson> {
  const company = await companyForMerchant(ctx, companyId, 'giftcards.read');
  const page = parsePage(raw, USAGES_MAX_LIMIT);
  const contract = await getContractInCompany(ctx, company.id, contractId);
  const [rows, total] = await ctx.em.findAndCount(
    GiftCardUsage,
    { companyId: company.id, contractId: contract.id },
    { orderBy: { createdAt: 'asc', id: 'asc' }, limit: page.limit, offset: page.offset, disableIdentityMap: true },
  );
  return { giftCardUsages: rows.map(usageJson), total };
}

/** GraphQL: the usages of a contract as a connection (kernel/connection.ts), oldest first. */
export async function usagesConnection(
  ctx: Ctx,
  companyId: string,
  contractId: unknown,
  args: ConnectionArgs,
): Promise<ConnectionJson<GiftCardUsageJson>> {
  const company = await companyForMerchant(ctx, companyId, 'giftcards.read');
  const contract = await getContractInCompany(ctx, company.id, contractId);
  const keys = ORM_ORDERS.creation;
  const where = { companyId: company.id, contractId: contract.id };
  const source = ormSource(ctx.em, GiftCardUsage, where, keys, (rows: GiftCardUsage[]) => rows.map(usageJson), {
    disableIdentityMap: true,
  });
  return connectionFrom(source, args, { ...listSpec(keys, 'giftCardUsages', contract.id), max: USAGES_MAX_LIMIT }, 'giftCardUsages');
}

export interface CreateUsageInput {
  amount?: unknown;
  metaData?: unknown;
  reservationId?: unknown;
  reservationID?: unknown;
}

const reservationOf = (c: Check, input: { reservationId?: unknown; reservationID?: unknown }): string | null | undefined => {
  const raw = input.reservationId !== undefined ? input.reservationId : input.reservationID;
  if (raw === null || raw === '') return null;
  return c.uuid('reservationId', raw);
};

/**
 * Merchant: pays `amount` with the card. The balance is taken by one conditional update in
 * the usage's transaction: an amount above the balance is 409 insufficient_balance and
 * nothing changes; a card reaching zero becomes redeemed.
 */
export async function createUsage(ctx: Ctx, companyId: string, contractId: unknown, input: CreateUsageInput): Promise<GiftCardUsageJson> {
  const company = await companyForMerchant(ctx, companyId, 'giftcards.write');
  const c = new Check();
  const body = input ?? {};
  const amount = c.int('amount', body.amount, { required: true, min: 1, max: MAX_AMOUNT });
  const reservationId = reservationOf(c, body);
  const metaData = c.metaData('metaData', body.metaData);
  c.done('invalid gift card usage');
  const contract = await getContractInCompany(ctx, company.id, contractId);
  const usage = await inTransaction(ctx, async (tx) => {
    await take(tx, company.id, contract.id, amount!, ctx.now);
    return insertUsage(tx, {
      companyId: company.id,
      contract,
      clientId: contract.clientId,
      reservationId: reservationId ?? null,
      amount: amount!,
      metaData,
      now: ctx.now,
    });
  });
  return usageJson(usage);
}

export interface UpdateUsageInput {
  amount?: unknown;
  metaDataUpdate?: unknown;
  reservationID?: unknown;
  reservationId?: unknown;
  status?: unknown;
}

/**
 * Merchant: changes a usage. A new `amount` of a used usage takes (or gives back) the
 * difference; `status: cancelled` gives the whole amount back and `used` takes it again.
 * Concurrent changes of one usage queue on its row lock; the balance rule is the same as
 * for a new usage.
 */
export async function updateUsage(
  ctx: Ctx,
  companyId: string,
  contractId: unknown,
  usageId: unknown,
  input: UpdateUsageInput,
): Promise<GiftCardUsageJson> {
  const company = await companyForMerchant(ctx, companyId, 'giftcards.write');
  const c = new Check();
  const body = input ?? {};
  if (body.amount === null) c.fail('amount', 'cannot be removed');
  const amount = c.int('amount', body.amount, { min: 1, max: MAX_AMOUNT });
  const reservationId = reservationOf(c, body);
  const status = c.oneOf<UsageStatus>('status', body.status, USAGE_STATUSES);
  c.done('invalid gift card usage');
  if (!isUuid(usageId)) throw invalid('usage id must be a UUID', [{ path: 'usageID', message: 'must be a UUID' }]);
  const contract = await getContractInCompany(ctx, company.id, contractId);
  const updated = await inTransaction(ctx, async (tx) => {
    const usage = await tx.em.findOne(
      GiftCardUsage,
      { companyId: company.id, contractId: contract.id, id: usageId.toLowerCase() },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!usage) throw notFound('gift card usage');
    const before = { amount: usage.amount, used: usage.status === 'used' };
    const nextStatus = status === undefined ? usage.status : transitionUsage(usage.status, status);
    const nextAmount = amount ?? usage.amount;
    const delta = (nextStatus === 'used' ? nextAmount : 0) - (before.used ? before.amount : 0);
    if (delta > 0) await take(tx, company.id, contract.id, delta, ctx.now);
    else if (delta < 0) await giveBalance(tx, company.id, contract.id, -delta, ctx.now);
    // The flush at commit writes the usage, claiming its metadata version (MetaEntity).
    updateRecordMetaData(usage, body.metaDataUpdate);
    Object.assign(usage, {
      amount: nextAmount,
      status: nextStatus,
      reservationId: reservationId === undefined ? usage.reservationId : reservationId,
      updatedAt: ctx.now,
    });
    return usage;
  });
  return usageJson(updated);
}
