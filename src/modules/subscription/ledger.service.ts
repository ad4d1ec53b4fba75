import { LockMode } from '@mikro-orm/core';
import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { conflict, DomainError, invalid, notFound } from '../../shared/errors';
import { isUuid, newId } from '../../shared/ids';
import type { MetaData } from '../../shared/metadata';
import { parsePage } from '../../shared/pagination';
import { listSpec, type ConnectionArgs, type ConnectionJson, type SortKey } from '../../kernel/connection';
import { connectionFrom, sqlSource } from '../../kernel/keyset';
import { Check } from '../../shared/validate';
import { SubscriptionContract, SubscriptionVisit, VISIT_TRANSACTION_TYPES, type VisitTransactionType } from './subscription.entity';
import { visitJson, type VisitJson } from './subscription.json';
import { effectiveStatus, ended } from './subscription.status';
import { inTransaction } from '../../kernel/transaction';

/**
 * The visit ledger of contracts: the ONE place that writes `subscription_visit`. Entries are
 * only appended (the database refuses UPDATE and DELETE); a contract's balance is the sum of
 * the amounts of its entries. Whatever takes visits first locks the contract row
 * (`lockContract`) in its transaction, then reads the balance and appends, so parallel takers
 * are serialised and the balance never goes below zero.
 */

export interface LedgerEntry {
  companyId: string;
  contractId: string;
  subscriptionId: string;
  clientId: string | null;
  /** positive grants visits, negative takes them; never zero */
  amount: number;
  transactionType: VisitTransactionType;
  expiresAt?: Date | null;
  reason?: string | null;
  sourceAllocationId?: string | null;
  usageId?: string | null;
  periodStart?: Date | null;
  metaData?: MetaData;
  /** the entry's time (`ctx.now`) */
  at: Date;
}

/** Appends one entry (in the caller's transaction) and returns it. */
export async function append(ctx: Ctx, e: LedgerEntry): Promise<SubscriptionVisit> {
  if (!Number.isSafeInteger(e.amount) || e.amount === 0) throw new Error('a ledger entry needs a non-zero whole amount');
  const v = new SubscriptionVisit();
  Object.assign(v, {
    id: newId(),
    companyId: e.companyId,
    contractId: e.contractId,
    subscriptionId: e.subscriptionId,
    clientId: e.clientId,
    amount: e.amount,
    transactionType: e.transactionType,
    expiresAt: e.expiresAt ?? null,
    reason: e.reason ?? null,
    sourceAllocationId: e.sourceAllocationId ?? null,
    usageId: e.usageId ?? null,
    periodStart: e.periodStart ?? null,
    metaData: e.metaData ?? {},
    createdAt: e.at,
    updatedAt: e.at,
  });
  await ctx.em.execute(
    `insert into subscription_visit (id, company_id, contract_id, subscription_id, client_id, amount, transaction_type, expires_at, reason,
       source_allocation_id, usage_id, period_start, meta_data, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?::timestamptz, ?, ?, ?, ?::timestamptz, ?::jsonb, ?::timestamptz, ?::timestamptz)`,
    [
      v.id,
      v.companyId,
      v.contractId,
      v.subscriptionId,
      v.clientId,
      v.amount,
      v.transactionType,
      v.expiresAt?.toISOString() ?? null,
      v.reason,
      v.sourceAllocationId,
      v.usageId,
      v.periodStart?.toISOString() ?? null,
      JSON.stringify(v.metaData),
      e.at.toISOString(),
      e.at.toISOString(),
    ],
  );
  return v;
}

/** Visits left on a contract at `at`: the sum of its entries made at or before `at` (0 without entries). */
export async function balance(ctx: Ctx, companyId: string, contractId: string, at: Date): Promise<number> {
  const [row] = await ctx.em.execute<{ n: string | null }[]>(
    `select coalesce(sum(amount), 0) as n from subscription_visit where company_id = ? and contract_id = ? and created_at <= ?::timestamptz`,
    [companyId, contractId, at.toISOString()],
  );
  return Number(row?.n ?? 0);
}

/** A contract's entries, oldest first (in the order they were appended), with the total count. */
export async function list(
  ctx: Ctx,
  companyId: string,
  contractId: string,
  page: { limit: number; offset: number },
): Promise<{ items: SubscriptionVisit[]; total: number }> {
  const [rows, count] = await Promise.all([
    ctx.em.execute<Record<string, unknown>[]>(
      `select * from subscription_visit where company_id = ? and contract_id = ? order by created_at, seq limit ? offset ?`,
      [companyId, contractId, page.limit, page.offset],
    ),
    ctx.em.execute<{ n: string }[]>(`select count(*) as n from subscription_visit where company_id = ? and contract_id = ?`, [
      companyId,
      contractId,
    ]),
  ]);
  return { items: rows.map((r) => ctx.em.map(SubscriptionVisit, r)), total: Number(count[0].n) };
}

/** The contract row, locked for the rest of the caller's transaction (`select ... for update`); null when not in the company. */
export async function lockContract(ctx: Ctx, companyId: string, contractId: string): Promise<SubscriptionContract | null> {
  return ctx.em.findOne(SubscriptionContract, { id: contractId, companyId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/**
 * Grants a period's visits (`ALLOCATION` of `limitations.bookingsCount`, expiring with the
 * period); nothing when the contract has no visit count (unlimited visits).
 */
export async function allocatePeriod(ctx: Ctx, c: SubscriptionContract, at: Date, reason = 'period allocation') {
  const count = c.limitations?.bookingsCount;
  if (!count) return null;
  return append(ctx, {
    companyId: c.companyId,
    contractId: c.id,
    subscriptionId: c.subscriptionId,
    clientId: c.clientId,
    amount: count,
    transactionType: 'ALLOCATION',
    expiresAt: c.periodEnd ?? c.expiresAt,
    periodStart: c.periodStart,
    reason,
    at,
  });
}

/** Takes what is left (`EXPIRATION`), when a contract ends (cancelled, expired) with visits unused. */
export async function expireRemaining(ctx: Ctx, c: SubscriptionContract, at: Date, reason: string) {
  const left = await balance(ctx, c.companyId, c.id, at);
  if (left <= 0) return null;
  return append(ctx, {
    companyId: c.companyId,
    contractId: c.id,
    subscriptionId: c.subscriptionId,
    clientId: c.clientId,
    amount: -left,
    transactionType: 'EXPIRATION',
    periodStart: c.periodStart,
    reason,
    at,
  });
}

async function contractOf(ctx: Ctx, companyId: string, id: unknown): Promise<SubscriptionContract> {
  if (!isUuid(id)) throw invalid('item_id must be a UUID', [{ path: 'item_id', message: 'must be a UUID' }]);
  const c = await ctx.em.findOne(SubscriptionContract, { id: id.toLowerCase(), companyId });
  if (!c) throw notFound('subscription contract');
  return c;
}

/** Merchant: the ledger of a contract, oldest first. */
export async function listVisits(
  ctx: Ctx,
  companyId: string,
  contractId: unknown,
  raw: { limit?: unknown; offset?: unknown },
): Promise<{ items: VisitJson[]; total: number; limit: number; offset: number }> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.read');
  const page = parsePage(raw ?? {}, 100);
  const contract = await contractOf(ctx, company.id, contractId);
  const { items, total } = await list(ctx, company.id, contract.id, page);
  return { items: items.map(visitJson), total, ...page };
}

/** GraphQL: the ledger of a contract as a connection (kernel/connection.ts), oldest first, in the order of writing. */
export async function visitsConnection(
  ctx: Ctx,
  companyId: string,
  contractId: unknown,
  args: ConnectionArgs,
): Promise<ConnectionJson<VisitJson>> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.read');
  const contract = await contractOf(ctx, company.id, contractId);
  const seq = new Map<string, number>();
  const keys: SortKey<VisitJson>[] = [
    { column: 'created_at', time: true, micro: true, of: (v) => v.createdAt },
    { column: 'seq', type: 'bigint', of: (v) => seq.get(v.id) },
  ];
  const source = sqlSource(ctx.em.getConnection(), {
    from: 'subscription_visit',
    where: 'company_id = ? and contract_id = ?',
    params: [company.id, contract.id],
    keys,
    map: (rows) =>
      rows.map((r) => {
        const v = ctx.em.map(SubscriptionVisit, r);
        seq.set(v.id, Number(r.seq));
        return visitJson(v);
      }),
  });
  return connectionFrom(source, args, listSpec(keys, 'subscriptionVisitTransactions', contract.id), 'visitTransactions');
}

export interface AddVisitInput {
  amount?: unknown;
  expiresAt?: unknown;
  metaData?: unknown;
  reason?: unknown;
  sourceAllocationID?: unknown;
  transactionType?: unknown;
}

/** Entry types a merchant may add: every type (a walk-in visit recorded by hand is a `USAGE`). */
export const ADMIN_TRANSACTION_TYPES = VISIT_TRANSACTION_TYPES;

/** The sign an amount of each type must have (an `ADJUSTMENT` may go either way); amounts are stored as sent. */
export const TRANSACTION_SIGNS: Record<VisitTransactionType, 1 | -1 | 0> = {
  ALLOCATION: 1,
  REVERSAL: 1,
  ROLLOVER: 1,
  USAGE: -1,
  EXPIRATION: -1,
  ADJUSTMENT: 0,
};

/**
 * Merchant: appends an entry of any type to a contract that is pending payment or active.
 * The amount is non-zero and signed as its type says (`ALLOCATION`, `REVERSAL`, `ROLLOVER`
 * positive; `USAGE`, `EXPIRATION` negative; `ADJUSTMENT` either; else 400). Under the
 * contract's row lock: an entry that would leave the balance below zero is `409
 * insufficient_balance`, and so is one for an expired or cancelled contract (`409 conflict`).
 * `sourceAllocationID` must name an `ALLOCATION` of the same contract.
 */
export async function addVisit(ctx: Ctx, companyId: string, contractId: unknown, input: AddVisitInput): Promise<VisitJson> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.write');
  const c = new Check();
  if (typeof input !== 'object' || input === null) c.fail('body', 'must be an object');
  const body = input ?? {};
  const type = c.oneOf('transactionType', body.transactionType, ADMIN_TRANSACTION_TYPES, true);
  const amount = c.int('amount', body.amount, { required: true, min: -1_000_000, max: 1_000_000 });
  if (amount === 0) c.fail('amount', 'must not be zero');
  const sign = type ? TRANSACTION_SIGNS[type] : 0;
  if (amount && sign && Math.sign(amount) !== sign) c.fail('amount', `must be ${sign > 0 ? 'positive' : 'negative'} for a ${type}`);
  const expires = body.expiresAt === null ? undefined : c.timestamp('expiresAt', body.expiresAt);
  const reason = c.string('reason', body.reason, { max: 1000 });
  const source = c.uuid('sourceAllocationID', body.sourceAllocationID === '' ? undefined : body.sourceAllocationID);
  const metaData = c.metaData('metaData', body.metaData);
  c.done('invalid visit transaction');
  const found = await contractOf(ctx, company.id, contractId);
  const entry = await inTransaction(ctx, async (tx) => {
    const contract = (await lockContract(tx, company.id, found.id))!;
    const status = effectiveStatus(contract, ctx.now);
    if (ended(status)) throw conflict(`the contract is ${status}`);
    if (source) {
      const [alloc] = await tx.em.execute<{ id: string }[]>(
        `select id from subscription_visit where company_id = ? and contract_id = ? and id = ? and transaction_type = 'ALLOCATION'`,
        [company.id, contract.id, source],
      );
      if (!alloc)
        throw invalid('sourceAllocationID is not an allocation of this contract', [
          { path: 'sourceAllocationID', message: 'is not an allocation of this contract' },
        ]);
    }
    const left = await balance(tx, company.id, contract.id, ctx.now);
    if (left + amount! < 0)
      throw new DomainError('insufficient_balance', `the contract has ${left} visits left; ${-amount!} cannot be taken`, [
        { path: 'amount', message: `would leave the balance at ${left + amount!}` },
      ]);
    return append(tx, {
      companyId: company.id,
      contractId: contract.id,
      subscriptionId: contract.subscriptionId,
      clientId: contract.clientId,
      amount: amount!,
      transactionType: type!,
      expiresAt: expires === undefined ? null : new Date(expires),
      reason: reason ?? null,
      sourceAllocationId: source ?? null,
      periodStart: contract.periodStart,
      metaData: metaData ?? {},
      at: ctx.now,
    });
  });
  return visitJson(entry);
}
