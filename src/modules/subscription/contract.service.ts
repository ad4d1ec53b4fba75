import { randomInt } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { getClientInCompany } from '../client/client.lookup';
import { conflict, invalid, notFound } from '../../shared/errors';
import { isUuid, newId } from '../../shared/ids';
import { updateRecordMetaData, type MetaData } from '../../shared/metadata';
import { parsePage } from '../../shared/pagination';
import { listSpec, ORDERS, type ConnectionArgs, type ConnectionJson } from '../../kernel/connection';
import { connectionFrom, sqlSource } from '../../kernel/keyset';
import { Check } from '../../shared/validate';
import { allocatePeriod, expireRemaining } from './ledger.service';
import { capacityOf } from './rules.service';
import { addDuration, checkIsoDuration } from './subscription.checks';
import { Subscription, SubscriptionContract, SubscriptionUsage } from './subscription.entity';
import { contractJson, type ContractJson } from './subscription.json';
import {
  CONTRACT_STATUSES,
  CREATED_STATUSES,
  dueEvent,
  EFFECTIVE_STATUS_SQL,
  effectiveStatus,
  effectiveStatusParams,
  ended,
  merchantEvent,
  transitionContract,
  type ContractStatus,
} from './subscription.status';
import { recordContractEvents } from './subscription.events';
import { getSubscriptionInCompany } from './subscription.service';
import { lockPendingPayments } from '../payment/payment.api';
import { inTransaction } from '../../kernel/transaction';

/** Subscription contracts on the merchant side: create, get, update (status transitions), search; codes; capacity. */

export const CONTRACTS_MAX_LIMIT = 100;

/**
 * Contract codes: 12 symbols in three groups of four (`K7QM-X2HD-9PTW`) drawn uniformly
 * (`crypto.randomInt`) from 30 symbols without the look-alikes 0/O, 1/I/L and without U:
 * 30^12 = 5.3 * 10^17 possibilities, so codes cannot be guessed. Unique per company (database).
 */
export const CONTRACT_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';

export function newContractCode(): string {
  const symbols = Array.from({ length: 12 }, () => CONTRACT_CODE_ALPHABET[randomInt(CONTRACT_CODE_ALPHABET.length)]);
  return [0, 4, 8].map((i) => symbols.slice(i, i + 4).join('')).join('-');
}

/** The stored form of a typed code (case, spaces and hyphens do not matter); null when it cannot be a contract code. */
export function normaliseContractCode(text: string): string | null {
  const s = text.toUpperCase().replace(/[\s-]/g, '');
  if (s.length !== 12 || [...s].some((ch) => !CONTRACT_CODE_ALPHABET.includes(ch))) return null;
  return `${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8)}`;
}

/**
 * Locks the subscription row and refuses (409 conflict) when its capacity rule applying now is
 * full: `active + pending >= maxCount`. Everything that adds an active or pending contract
 * calls it in its transaction first, so parallel additions are serialised per subscription.
 */
export async function reserveCapacity(ctx: Ctx, companyId: string, subscriptionId: string, now: Date): Promise<void> {
  await ctx.em.findOne(Subscription, { id: subscriptionId, companyId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  const [cap] = await capacityOf(ctx, companyId, [subscriptionId], now);
  if (cap.max !== null && cap.active + cap.pending >= cap.max)
    throw conflict(`the subscription is sold out (${cap.max} contracts at most)`, [
      { path: 'subscriptionID', message: 'no capacity left' },
    ]);
}

export interface NewContract {
  companyId: string;
  subscription: Subscription;
  clientId: string | null;
  status: ContractStatus;
  activeFrom: Date | null;
  duration: string | null;
  /** end of the contract (activeFrom + duration) */
  expiresAt: Date | null;
  pendingExpiresAt: Date | null;
  inCart?: boolean;
  price?: number;
  currency?: string | null;
  taxInclusive?: boolean;
  taxRate?: number;
  taxAmount?: number;
  metaData: MetaData;
  now: Date;
}

/**
 * Inserts a contract with a new code and the subscription's limitations and ids copied; an
 * active one gets its first period (activeFrom .. expiresAt) and its allocation. A code
 * already taken in the company is drawn again without aborting the caller's transaction.
 */
export async function insertContract(ctx: Ctx, n: NewContract): Promise<SubscriptionContract> {
  const s = n.subscription;
  for (let attempt = 0; attempt < 5; attempt++) {
    const c = new SubscriptionContract();
    Object.assign(c, {
      id: newId(),
      companyId: n.companyId,
      subscriptionId: s.id,
      clientId: n.clientId,
      code: newContractCode(),
      status: n.status,
      activeFrom: n.activeFrom,
      expiresAt: n.expiresAt,
      pendingExpiresAt: n.status === 'pending_payment' ? n.pendingExpiresAt : null,
      duration: n.duration,
      limitations: s.limitations ?? {},
      serviceIds: s.serviceIds ?? [],
      resourceIds: s.resourceIds ?? [],
      ticketIds: s.ticketIds ?? [],
      price: n.price ?? 0,
      currency: n.currency ?? null,
      taxInclusive: n.taxInclusive ?? false,
      taxRate: n.taxRate ?? 0,
      taxAmount: n.taxAmount ?? 0,
      periodStart: n.status === 'active' ? n.activeFrom : null,
      periodEnd: n.status === 'active' ? n.expiresAt : null,
      periodIndex: 0,
      inCart: n.inCart ?? false,
      metaData: n.metaData,
      metaDataVersion: 1,
      createdAt: n.now,
      updatedAt: n.now,
    });
    const uuids = (ids: string[]) => `{${ids.join(',')}}`;
    const iso = (d: Date | null) => d?.toISOString() ?? null;
    const rows = await ctx.em.execute(
      `insert into subscription_contract (id, company_id, subscription_id, client_id, code, status, active_from, expires_at, pending_expires_at,
         duration, limitations, service_ids, resource_ids, ticket_ids, price, currency, tax_inclusive, tax_rate, tax_amount,
         period_start, period_end, in_cart, meta_data, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?::timestamptz, ?::timestamptz, ?::timestamptz, ?, ?::jsonb, ?::uuid[], ?::uuid[], ?::uuid[], ?, ?, ?, ?, ?,
         ?::timestamptz, ?::timestamptz, ?, ?::jsonb, ?::timestamptz, ?::timestamptz)
       on conflict (company_id, code) do nothing returning id`,
      [
        c.id,
        c.companyId,
        c.subscriptionId,
        c.clientId,
        c.code,
        c.status,
        iso(c.activeFrom),
        iso(c.expiresAt),
        iso(c.pendingExpiresAt),
        c.duration,
        JSON.stringify(c.limitations),
        uuids(c.serviceIds),
        uuids(c.resourceIds),
        uuids(c.ticketIds),
        c.price,
        c.currency,
        c.taxInclusive,
        c.taxRate,
        c.taxAmount,
        iso(c.periodStart),
        iso(c.periodEnd),
        c.inCart,
        JSON.stringify(c.metaData),
        n.now.toISOString(),
        n.now.toISOString(),
      ],
    );
    if (rows.length) {
      if (c.status === 'active') await allocatePeriod(ctx, c, n.now, 'first period');
      return c;
    }
  }
  throw new Error('no free subscription contract code after several attempts');
}

/** A contract of the company: 400 for a malformed id, 404 when it is not in the company. */
export async function getContractInCompany(ctx: Ctx, companyId: string, id: unknown, path = 'item_id'): Promise<SubscriptionContract> {
  if (!isUuid(id)) throw invalid(`${path} must be a UUID`, [{ path, message: 'must be a UUID' }]);
  const c = await ctx.em.findOne(SubscriptionContract, { id: id.toLowerCase(), companyId });
  if (!c) throw notFound('subscription contract');
  return c;
}

/** Usages of the contracts, by contract id, oldest first. */
export async function usagesOf(ctx: Ctx, companyId: string, contractIds: string[]): Promise<Map<string, SubscriptionUsage[]>> {
  const out = new Map<string, SubscriptionUsage[]>(contractIds.map((id) => [id, []]));
  if (!contractIds.length) return out;
  const rows = await ctx.em.find(
    SubscriptionUsage,
    { companyId, contractId: { $in: contractIds } },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  for (const u of rows) out.get(u.contractId)?.push(u);
  return out;
}

export async function contractWithUsages(ctx: Ctx, c: SubscriptionContract, now: Date): Promise<ContractJson> {
  return contractJson(c, (await usagesOf(ctx, c.companyId, [c.id])).get(c.id) ?? [], now);
}

export interface CreateContractInput {
  activeFrom?: unknown;
  clientID?: unknown;
  duration?: unknown;
  expiresAt?: unknown;
  metaData?: unknown;
  status?: unknown;
}

/**
 * Merchant: a contract of a subscription for a client. `status` `active` (default) starts at
 * `activeFrom` (default now) and ends at `activeFrom + duration` (default the subscription's
 * duration) counted in the company's time zone, with its first allocation of
 * `limitations.bookingsCount` visits; `pending_payment` waits for its payment until
 * `expiresAt` (default now + the payment timeout), which it answers as its `expiresAt` and
 * `pendingExpiresAt`, and is cancelled when that passes unpaid (its term is computed when it
 * becomes active). Archived subscriptions are not sold (400); a full capacity rule is 409.
 */
export async function createContract(
  ctx: Ctx,
  companyId: string,
  subscriptionId: unknown,
  input: CreateContractInput,
): Promise<ContractJson> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.write');
  const c = new Check();
  if (typeof input !== 'object' || input === null) c.fail('body', 'must be an object');
  const body = input ?? {};
  const status = c.oneOf('status', body.status ?? undefined, CREATED_STATUSES) ?? 'active';
  const clientId = c.uuid('clientID', body.clientID === '' ? undefined : body.clientID);
  const from = c.timestamp('activeFrom', body.activeFrom === '' ? undefined : body.activeFrom);
  const duration = checkIsoDuration(c, 'duration', body.duration);
  const pendingUntil = c.timestamp('expiresAt', body.expiresAt === '' ? undefined : body.expiresAt);
  if (pendingUntil !== undefined && status !== 'pending_payment')
    c.fail('expiresAt', 'is only for a pending_payment contract (its payment deadline)');
  if (pendingUntil !== undefined && pendingUntil <= ctx.now.getTime()) c.fail('expiresAt', 'must be in the future');
  const metaData = c.metaData('metaData', body.metaData);
  c.done('invalid subscription contract');
  const subscription = await getSubscriptionInCompany(ctx, company.id, subscriptionId, 'subscription_id');
  if (subscription.archivedAt) throw invalid('the subscription is archived', [{ path: 'subscription_id', message: 'is archived' }]);
  if (clientId) await getClientInCompany(ctx, company.id, clientId);
  const length = duration ?? subscription.duration;
  const activeFrom = from !== undefined ? new Date(from) : ctx.now;
  const deadline =
    status === 'pending_payment' ? new Date(pendingUntil ?? ctx.now.getTime() + ctx.deps.config.paymentTimeoutSec * 1000) : null;
  const contract = await inTransaction(ctx, async (tx) => {
    await reserveCapacity(tx, company.id, subscription.id, ctx.now);
    return insertContract(tx, {
      companyId: company.id,
      subscription,
      clientId: clientId ?? null,
      status,
      activeFrom,
      duration: length,
      expiresAt: deadline ?? (length ? addDuration(activeFrom, length, company.timeZone) : null),
      pendingExpiresAt: deadline,
      metaData: metaData ?? {},
      now: ctx.now,
    });
  });
  return contractJson(contract, [], ctx.now);
}

export async function getContract(ctx: Ctx, companyId: string, id: unknown): Promise<ContractJson> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.read');
  return contractWithUsages(ctx, await getContractInCompany(ctx, company.id, id), ctx.now);
}

export interface UpdateContractInput {
  clientID?: unknown;
  duration?: unknown;
  metaDataUpdate?: unknown;
  status?: unknown;
  subscriptionID?: unknown;
}

/**
 * Merchant: changes a contract. Status transitions are the state machine's merchant events
 * (subscription.status.ts `merchantEvent`; others 409), judged on where the contract stands
 * now (an unpaid contract past its payment deadline already stands cancelled, an active one
 * past its end expired); asking for that status writes the due event as the sweeper would
 * (a lapsed contract's cancellation, an ended one's expiry with its unused visits and the
 * `subscription.expired` event). `pending_payment -> active` starts it, with the capacity it already holds (activeFrom
 * kept when set, else now; expiresAt = activeFrom + duration; first allocation), `-> cancelled`
 * and `-> expired` end it and expire its unused visits. `duration` recomputes expiresAt from
 * activeFrom; `subscriptionID` moves the contract to another subscription of the company and
 * copies that one's limitations and ids (409 when that one is sold out). Expired and cancelled
 * contracts only take metadata.
 */
export async function updateContract(ctx: Ctx, companyId: string, id: unknown, input: UpdateContractInput): Promise<ContractJson> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.write');
  const c = new Check();
  if (typeof input !== 'object' || input === null) c.fail('body', 'must be an object');
  const body = input ?? {};
  const status = c.oneOf('status', body.status ?? undefined, CONTRACT_STATUSES);
  const clientId = body.clientID === null ? null : c.uuid('clientID', body.clientID);
  const duration = body.duration === null ? undefined : checkIsoDuration(c, 'duration', body.duration);
  const subscriptionId = c.uuid('subscriptionID', body.subscriptionID ?? undefined);
  c.done('invalid subscription contract');
  const found = await getContractInCompany(ctx, company.id, id);
  const result = await inTransaction(ctx, async (tx) => {
    // A cancelled contract takes its pending payment (purchase or renewal) with it; the payment
    // is locked first, as a checkout locks it.
    const cancelPayments = await lockPendingPayments(tx, company.id, status === 'cancelled' ? [found.id] : []);
    const k = (await tx.em.findOne(
      SubscriptionContract,
      { id: found.id, companyId: company.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    ))!;
    const current = effectiveStatus(k, ctx.now);
    const changesTerms = duration !== undefined || subscriptionId !== undefined || clientId !== undefined;
    const event = status ? merchantEvent(current, status) : null;
    if (ended(current) && changesTerms) throw conflict(`the contract is ${current}: only metaData can change`);
    // asking for the status the contract already stands in writes its due time-driven event
    const due = status && !event ? dueEvent(k, ctx.now) : null;
    if (clientId) await getClientInCompany(ctx, company.id, clientId);
    if (clientId !== undefined) k.clientId = clientId;
    if (subscriptionId !== undefined && subscriptionId !== k.subscriptionId) {
      const s = await getSubscriptionInCompany(tx, company.id, subscriptionId, 'subscriptionID');
      // the contract takes a place of the other subscription's capacity
      await reserveCapacity(tx, company.id, s.id, ctx.now);
      Object.assign(k, {
        subscriptionId: s.id,
        limitations: s.limitations,
        serviceIds: s.serviceIds,
        resourceIds: s.resourceIds,
        ticketIds: s.ticketIds,
      });
    }
    if (duration !== undefined) {
      k.duration = duration;
      // an unpaid contract keeps its payment deadline as expiresAt; its term starts when it becomes active
      if (k.activeFrom && duration && current !== 'pending_payment') k.expiresAt = addDuration(k.activeFrom, duration, company.timeZone);
      if (k.status === 'active' && k.periodIndex === 0) k.periodEnd = k.expiresAt;
    }
    updateRecordMetaData(k, body.metaDataUpdate);
    if (event) {
      // no event is due (a due one leaves the contract cancelled or expired, where the merchant moves nothing)
      const to = transitionContract(k.status, event);
      if (event === 'activate') {
        k.activeFrom = k.activeFrom ?? ctx.now;
        k.expiresAt = k.duration ? addDuration(k.activeFrom, k.duration, company.timeZone) : null;
        Object.assign(k, { status: to, pendingExpiresAt: null, inCart: false, periodStart: k.activeFrom, periodEnd: k.expiresAt });
        await tx.em.flush();
        await allocatePeriod(tx, k, ctx.now, 'first period');
      } else {
        Object.assign(k, { status: to, inCart: false, pendingExpiresAt: null });
        if (to === 'cancelled') k.cancelledAt = ctx.now;
        await expireRemaining(tx, k, ctx.now, `contract ${to}`);
      }
    } else if (due) {
      // the stored status catches up with where the contract already stands, as the sweeper would write it
      Object.assign(k, { status: transitionContract(k.status, due), inCart: false });
      if (due === 'lapse') k.cancelledAt = ctx.now;
      else await expireRemaining(tx, k, ctx.now, 'contract expired');
    }
    k.updatedAt = ctx.now;
    await tx.em.flush();
    await cancelPayments(ctx.now);
    if (due === 'expire') await recordContractEvents(tx, company.id, [k.id], 'subscription.expired', ctx.now);
    return k;
  });
  return contractWithUsages(ctx, result, ctx.now);
}

export interface ContractSearchInput {
  clientIDs?: unknown;
  code?: unknown;
  fromDate?: unknown;
  ids?: unknown;
  limit?: unknown;
  metaDataQuery?: unknown;
  offset?: unknown;
  resourceIDs?: unknown;
  serviceIDs?: unknown;
  status?: unknown;
  subscriptionIDs?: unknown;
  toDate?: unknown;
}

export interface ContractPageJson {
  items: ContractJson[];
  limit: number;
  offset: number;
  total: number;
}

function statusList(c: Check, raw: unknown): ContractStatus[] | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',').map((s) => s.trim()) : null;
  if (!list) return (c.fail('status', 'must be a status or a list of statuses'), undefined);
  const out: ContractStatus[] = [];
  list.forEach((s, i) => {
    if (typeof s !== 'string' || !(CONTRACT_STATUSES as readonly string[]).includes(s))
      c.fail(Array.isArray(raw) ? `status[${i}]` : 'status', `must be one of ${CONTRACT_STATUSES.join(', ')}`);
    else out.push(s as ContractStatus);
  });
  return out;
}

function metaDataQuery(c: Check, raw: unknown): { path: string[]; value: unknown } | undefined {
  if (raw === undefined || raw === null) return undefined;
  const q = c.object('metaDataQuery', raw);
  if (!q) return undefined;
  c.oneOf('metaDataQuery.op', q.op ?? 'eq', ['eq'] as const);
  const path = c.string('metaDataQuery.path', q.path, { required: true, max: 500 });
  if (!('value' in q)) c.fail('metaDataQuery.value', 'is required');
  return path ? { path: path.split('.'), value: q.value } : undefined;
}

/**
 * Merchant: contracts matching every given filter, oldest first. Lists match any of their
 * values; `status` as the contract stands now; `serviceIDs`/`resourceIDs` match contracts
 * allowing any of them (a contract naming none allows all); `fromDate`/`toDate` match contracts
 * whose validity [activeFrom, expiresAt) overlaps [fromDate, toDate) (a contract not yet
 * started counts from its creation); `code` in any case, with or without hyphens;
 * `metaDataQuery` `{op: "eq", path, value}`.
 */
export async function searchContracts(ctx: Ctx, companyId: string, input: ContractSearchInput): Promise<ContractPageJson> {
  const page = parsePage(input ?? {}, CONTRACTS_MAX_LIMIT);
  const { companyId: company, where: cond, params } = await contractFilter(ctx, companyId, input);
  const [rows, count] = await Promise.all([
    ctx.em.execute<Record<string, unknown>[]>(
      `select * from subscription_contract where ${cond} order by created_at, id limit ? offset ?`,
      [...params, page.limit, page.offset],
    ),
    ctx.em.execute<{ n: string }[]>(`select count(*) as n from subscription_contract where ${cond}`, params),
  ]);
  const contracts = rows.map((r) => ctx.em.map(SubscriptionContract, r));
  return { items: await contractsJson(ctx, company, contracts), limit: page.limit, offset: page.offset, total: Number(count[0].n) };
}

/** GraphQL: the same search as a connection (kernel/connection.ts), oldest first. */
export async function contractsConnection(
  ctx: Ctx,
  companyId: string,
  input: ContractSearchInput,
  args: ConnectionArgs,
): Promise<ConnectionJson<ContractJson>> {
  const f = await contractFilter(ctx, companyId, input);
  const keys = ORDERS.creation;
  const source = sqlSource<ContractJson>(ctx.em.getConnection(), {
    from: 'subscription_contract',
    where: f.where,
    params: f.params,
    keys,
    map: (rows) =>
      contractsJson(
        ctx,
        f.companyId,
        rows.map((r) => ctx.em.map(SubscriptionContract, r)),
      ),
  });
  const spec = { ...listSpec(keys, 'subscriptionContracts', f.companyId, input), max: CONTRACTS_MAX_LIMIT };
  return connectionFrom(source, args, spec, 'subscriptionContracts');
}

async function contractsJson(ctx: Ctx, companyId: string, contracts: SubscriptionContract[]): Promise<ContractJson[]> {
  const usages = await usagesOf(
    ctx,
    companyId,
    contracts.map((k) => k.id),
  );
  return contracts.map((k) => contractJson(k, usages.get(k.id) ?? [], ctx.now));
}

/** The company checked and the contract search as SQL. */
async function contractFilter(
  ctx: Ctx,
  companyId: string,
  input: ContractSearchInput,
): Promise<{ companyId: string; where: string; params: unknown[] }> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.read');
  const c = new Check();
  const body = input ?? {};
  const ids = c.uuids('ids', body.ids);
  const clientIds = c.uuids('clientIDs', body.clientIDs);
  const subscriptionIds = c.uuids('subscriptionIDs', body.subscriptionIDs);
  const serviceIds = c.uuids('serviceIDs', body.serviceIDs);
  const resourceIds = c.uuids('resourceIDs', body.resourceIDs);
  const code = c.string('code', body.code === '' ? undefined : body.code, { max: 64 });
  const status = statusList(c, body.status);
  const from = c.timestamp('fromDate', body.fromDate === '' ? undefined : body.fromDate);
  const to = c.timestamp('toDate', body.toDate === '' ? undefined : body.toDate);
  if (from !== undefined && to !== undefined && to <= from) c.fail('toDate', 'must be after fromDate');
  const meta = metaDataQuery(c, body.metaDataQuery);
  c.done('invalid subscription contract search');
  const where = ['company_id = ?'];
  const params: unknown[] = [company.id];
  const add = (sql: string, ...p: unknown[]) => {
    where.push(sql);
    params.push(...p);
  };
  const list = (v: string[]) => `{${v.join(',')}}`;
  if (ids) add('id = any(?::uuid[])', list(ids));
  if (clientIds) add('client_id = any(?::uuid[])', list(clientIds));
  if (subscriptionIds) add('subscription_id = any(?::uuid[])', list(subscriptionIds));
  if (serviceIds) add(`(service_ids && ?::uuid[] or service_ids = '{}')`, list(serviceIds));
  if (resourceIds) add(`(resource_ids && ?::uuid[] or resource_ids = '{}')`, list(resourceIds));
  if (code !== undefined) add('code = ?', normaliseContractCode(code) ?? code.toUpperCase());
  const now = ctx.now.toISOString();
  if (status) add(`${EFFECTIVE_STATUS_SQL} = any(?::text[])`, ...effectiveStatusParams(now), `{${status.join(',')}}`);
  if (to !== undefined) add('coalesce(active_from, created_at) < ?::timestamptz', new Date(to).toISOString());
  if (from !== undefined) add('(expires_at is null or expires_at > ?::timestamptz)', new Date(from).toISOString());
  if (meta)
    add('meta_data #> ?::text[] = ?::jsonb', `{${meta.path.map((p) => JSON.stringify(p)).join(',')}}`, JSON.stringify(meta.value ?? null));
  return { companyId: company.id, where: where.join(' and '), params };
}
