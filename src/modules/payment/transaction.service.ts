import { requireClient } from '../../kernel/access';
import { companyForMerchant } from '../company/company.access';
import { invalid, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { parsePage, type Page } from '../../shared/pagination';
import { listSpec, type ConnectionArgs, type ConnectionJson, type SortKey } from '../../kernel/connection';
import { connectionFrom, sqlSource } from '../../kernel/keyset';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import { PaymentTransaction } from './payment.entity';
import { PAYMENT_STATUSES } from './payment.status';
import { PROVIDER_NAMES } from './providers/provider-names';
import type { Ctx } from '../../kernel/context';

export const PAYMENTS_MAX_LIMIT = 100;

export interface PaymentTransactionJson {
  id: string;
  companyID: string;
  amount: number;
  currency: string;
  email: string | null;
  itemID: string;
  itemIDs: string[];
  itemType: string;
  perItemAmounts: Record<string, number>;
  pluginNamespace: string | null;
  providerType: string;
  purchaseID: string | null;
  purchaseName: string | null;
  referenceID: string | null;
  status: string;
  taxInclusive: boolean;
  taxRate: number;
  userID: string | null;
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface PaymentPageJson {
  transactions: PaymentTransactionJson[];
  limit: number;
  offset: number;
  total: number;
}

export function paymentJson(t: PaymentTransaction): PaymentTransactionJson {
  return {
    id: t.id,
    companyID: t.companyId,
    amount: t.amount,
    currency: t.currency,
    email: t.email,
    itemID: t.itemId,
    itemIDs: t.itemIds,
    itemType: t.itemType,
    perItemAmounts: t.perItemAmounts,
    pluginNamespace: t.pluginNamespace,
    providerType: t.providerType,
    purchaseID: t.purchaseId,
    purchaseName: t.purchaseName,
    referenceID: t.referenceId,
    status: t.status,
    taxInclusive: t.taxInclusive,
    taxRate: t.taxRate,
    userID: t.clientId,
    expiresAt: formatTimestamp(t.expiresAt),
    createdAt: formatTimestamp(t.createdAt)!,
    updatedAt: formatTimestamp(t.updatedAt)!,
  };
}

/** Filter of the company payments list; lists come as arrays (GraphQL) or comma-separated text (REST). */
export interface PaymentFilterInput {
  from?: unknown;
  to?: unknown;
  ids?: unknown;
  itemIDs?: unknown;
  pluginNamespaces?: unknown;
  providerTypes?: unknown;
  statuses?: unknown;
}

interface PaymentFilter {
  from?: number;
  to?: number;
  ids?: string[];
  itemIDs?: string[];
  pluginNamespaces?: string[];
  providerTypes?: string[];
  statuses?: string[];
}

function list(c: Check, path: string, v: unknown): string[] | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const parts = typeof v === 'string' ? v.split(',') : Array.isArray(v) ? v : null;
  if (!parts || parts.some((p) => typeof p !== 'string')) return (c.fail(path, 'must be a comma-separated list'), undefined);
  const out = [...new Set((parts as string[]).map((p) => p.trim()).filter(Boolean))];
  if (out.length > 100) return (c.fail(path, 'must have at most 100 entries'), undefined);
  return out.length ? out : undefined;
}

function parseFilter(input: PaymentFilterInput | null | undefined): PaymentFilter {
  const c = new Check();
  const f: PaymentFilter = {
    from: c.timestamp('from', input?.from || undefined),
    to: c.timestamp('to', input?.to || undefined),
    ids: list(c, 'ids', input?.ids),
    itemIDs: list(c, 'itemIDs', input?.itemIDs),
    pluginNamespaces: list(c, 'pluginNamespaces', input?.pluginNamespaces),
    providerTypes: list(c, 'providerTypes', input?.providerTypes),
    statuses: list(c, 'statuses', input?.statuses),
  };
  for (const key of ['ids', 'itemIDs'] as const) {
    f[key]?.forEach((id: string, i) => {
      if (isUuid(id)) f[key]![i] = id.toLowerCase();
      else c.fail(key, `${JSON.stringify(String(id).slice(0, 40))} is not a UUID`);
    });
  }
  f.providerTypes?.forEach(
    (p) => (PROVIDER_NAMES as readonly string[]).includes(p) || c.fail('providerTypes', `must be among ${PROVIDER_NAMES.join(', ')}`),
  );
  f.statuses?.forEach(
    (s) => (PAYMENT_STATUSES as readonly string[]).includes(s) || c.fail('statuses', `must be among ${PAYMENT_STATUSES.join(', ')}`),
  );
  if (f.from !== undefined && f.to !== undefined && f.to <= f.from) c.fail('to', 'must be after from');
  c.done('invalid payments filter');
  return f;
}

/** One page of transactions matching `where` (raw SQL with `?` bindings), newest first. */
async function page(ctx: Ctx, where: string[], params: unknown[], p: Page): Promise<PaymentPageJson> {
  const sql = where.join(' and ');
  const [count] = await ctx.em.execute<{ total: string | number }[]>(
    `select count(*) as total from payment_transaction where ${sql}`,
    params,
  );
  const rows = await ctx.em.execute<Record<string, unknown>[]>(
    `select * from payment_transaction where ${sql} order by created_at desc, id desc limit ? offset ?`,
    [...params, p.limit, p.offset],
  );
  return {
    transactions: rows.map((r) => paymentJson(ctx.em.map(PaymentTransaction, r))),
    limit: p.limit,
    offset: p.offset,
    total: Number(count.total),
  };
}

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/**
 * The company's payment transactions, newest first (`payments.read`). `from`/`to` bound
 * `createdAt` (from inclusive, to exclusive); every list filter matches any of its values;
 * `itemIDs` matches a transaction covering any of the items.
 */
export async function listPayments(
  ctx: Ctx,
  companyId: string,
  filter: PaymentFilterInput | null | undefined,
  raw: { limit?: unknown; offset?: unknown },
): Promise<PaymentPageJson> {
  const f = await paymentFilter(ctx, companyId, filter);
  const pg = parsePage(raw, PAYMENTS_MAX_LIMIT);
  return page(ctx, f.where, f.params, pg);
}

/** The company checked and the filter of its transactions as SQL. */
async function paymentFilter(
  ctx: Ctx,
  companyId: string,
  filter: PaymentFilterInput | null | undefined,
): Promise<{ companyId: string; where: string[]; params: unknown[] }> {
  const company = await companyForMerchant(ctx, companyId, 'payments.read');
  const f = parseFilter(filter);
  const where = ['company_id = ?'];
  const params: unknown[] = [company.id];
  if (f.from !== undefined) {
    where.push('created_at >= ?');
    params.push(new Date(f.from));
  }
  if (f.to !== undefined) {
    where.push('created_at < ?');
    params.push(new Date(f.to));
  }
  const inList = (column: string, values: string[] | undefined) => {
    if (!values) return;
    where.push(`${column} in (${placeholders(values.length)})`);
    params.push(...values);
  };
  inList('id', f.ids);
  inList('plugin_namespace', f.pluginNamespaces);
  inList('provider_type', f.providerTypes);
  inList('status', f.statuses);
  if (f.itemIDs) {
    where.push(`(${f.itemIDs.map(() => 'item_ids @> ?::jsonb').join(' or ')})`);
    params.push(...f.itemIDs.map((id) => JSON.stringify([id])));
  }
  return { companyId: company.id, where, params };
}

/** The calling client's own transactions, newest first. */
export async function listClientPayments(ctx: Ctx, raw: { limit?: unknown; offset?: unknown }): Promise<PaymentPageJson> {
  const actor = requireClient(ctx);
  const pg = parsePage(raw, PAYMENTS_MAX_LIMIT);
  return page(ctx, ['company_id = ?', 'client_id = ?'], [actor.companyId, actor.clientId], pg);
}

const PAYMENT_KEYS: SortKey<PaymentTransactionJson>[] = [
  { column: 'created_at', time: true, desc: true, of: (t) => t.createdAt },
  { column: 'id', desc: true, of: (t) => t.id },
];

function paymentsOf(ctx: Ctx, where: string[], params: unknown[]) {
  return sqlSource(ctx.em.getConnection(), {
    from: 'payment_transaction',
    where: where.join(' and '),
    params,
    keys: PAYMENT_KEYS,
    map: (rows) => rows.map((r) => paymentJson(ctx.em.map(PaymentTransaction, r))),
  });
}

/** GraphQL: the company's transactions as a connection (kernel/connection.ts), newest first (then by id, descending). */
export async function paymentsConnection(
  ctx: Ctx,
  companyId: string,
  filter: PaymentFilterInput | null | undefined,
  args: ConnectionArgs,
): Promise<ConnectionJson<PaymentTransactionJson>> {
  const f = await paymentFilter(ctx, companyId, filter);
  const spec = { ...listSpec(PAYMENT_KEYS, 'payments', f.companyId, filter), max: PAYMENTS_MAX_LIMIT };
  return connectionFrom(paymentsOf(ctx, f.where, f.params), args, spec, 'transactions');
}

/** GraphQL: the calling client's transactions as a connection, newest first. */
export async function clientPaymentsConnection(ctx: Ctx, args: ConnectionArgs): Promise<ConnectionJson<PaymentTransactionJson>> {
  const actor = requireClient(ctx);
  const spec = { ...listSpec(PAYMENT_KEYS, 'clientPayments', `${actor.companyId}|${actor.clientId}`), max: PAYMENTS_MAX_LIMIT };
  const source = paymentsOf(ctx, ['company_id = ?', 'client_id = ?'], [actor.companyId, actor.clientId]);
  return connectionFrom(source, args, spec, 'transactions');
}

/** One of the calling client's transactions; another client's is 404. */
export async function getClientPayment(ctx: Ctx, id: string): Promise<PaymentTransactionJson> {
  const actor = requireClient(ctx);
  if (!isUuid(id)) throw invalid('transaction id must be a UUID', [{ path: 'transaction_id', message: 'must be a UUID' }]);
  const t = await ctx.em.findOne(PaymentTransaction, { id: id.toLowerCase(), companyId: actor.companyId, clientId: actor.clientId });
  if (!t) throw notFound('payment transaction');
  return paymentJson(t);
}
