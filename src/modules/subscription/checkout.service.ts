import { recordContractEvents } from './subscription.events';
import type { Ctx } from '../../kernel/context';
import { companyForClientInterface } from '../company/company.access';
import { getClientInCompany, upsertGuestClient, type GuestClientInput } from '../client/client.lookup';
import type { Client } from '../client/client.entity';
import { startPayment, takesPayments, type StartedPayment } from '../payment/payment.api';
import { conflict, invalid, notFound, unauthorized } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { parsePage } from '../../shared/pagination';
import { listSpec, ORM_ORDERS, type ConnectionArgs, type ConnectionJson } from '../../kernel/connection';
import { connectionFrom, ormSource } from '../../kernel/keyset';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import { cartContracts, contractForms, createPendingContracts, ownCompany, parseItems } from './cart.service';
import { activeRules } from './rules.service';
import { settingsOf } from './subscription.service';
import { SubscriptionContract } from './subscription.entity';
import type { ContractJson } from './subscription.json';
import { activateContract, extendContract, RENEWAL_ITEM, SUBSCRIPTION_ITEM } from './subscription.payable';
import { SUBSCRIPTION_NAMESPACE } from './subscription.codes';
import { taxLine } from './tax';
import { effectiveStatus, RUNNING } from './subscription.status';
import { inTransaction } from '../../kernel/transaction';

/**
 * Paying for subscriptions: the cart's checkout, a purchase in one step, and renewals. Each is
 * one payment transaction for all its contracts (tax per line, tax.ts), all or nothing: the
 * contracts are `pending_payment` until the payment is paid (then `active`, with their first
 * allocation), and cancelled when it fails, is cancelled or expires (subscription.payable.ts).
 * A total of zero needs no payment: the contracts are active at once (a renewal extended at
 * once). A company that takes no payments (no payment settings) sells no subscriptions, free
 * ones included: `409 conflict` before anything changes. A total above zero without a currency
 * in the subscription settings is `409 conflict` too.
 *
 * The answer (`CheckoutResult`, the specification's checkout result):
 * `{items, item, price, tax, taxRate, taxInclusive, currency, expiresAt, paymentURL,
 * transactionID, total}`: the contracts in their state after the call (`item` is the first,
 * the only one of a one-item purchase), what is paid in total and the tax in it (smallest
 * currency unit), the tax settings of the payment, and the payment's expiry, URL and id (all
 * three null when nothing is to be paid); `total` is the former name of `price`.
 */

export interface CheckoutResultJson {
  items: ContractJson[];
  item: ContractJson;
  /** what is paid in total, tax included (smallest currency unit) */
  price: number;
  tax: number;
  taxRate: number;
  taxInclusive: boolean;
  currency: string | null;
  /** when the unpaid checkout lapses; null when nothing is due */
  expiresAt: string | null;
  paymentURL: string | null;
  transactionID: string | null;
  /** deprecated: `price` */
  total: number;
}

/** What a checkout costs and under which tax settings. */
interface Due {
  price: number;
  tax: number;
  taxRate: number;
  taxInclusive: boolean;
  currency: string | null;
}

interface Payer {
  companyId: string;
  client: Pick<Client, 'id' | 'email'>;
}

const noPayments = () => conflict('the company takes no payments, so it sells no subscriptions');

/** Who sells: a company without payment settings sells no subscriptions (409, before anything changes). */
async function requireSales(ctx: Ctx, companyId: string): Promise<void> {
  if (!(await takesPayments(ctx, companyId))) throw noPayments();
}

/** Lines of the contracts at their stored price and tax; the contracts must be locked. */
function totals(
  contracts: SubscriptionContract[],
  price: (c: SubscriptionContract) => number,
  rate: (c: SubscriptionContract) => [boolean, number],
) {
  const lines = contracts.map((c) => ({ c, ...taxLine(price(c), rate(c)[1], rate(c)[0]) }));
  return { lines, total: lines.reduce((s, l) => s + l.total, 0), tax: lines.reduce((s, l) => s + l.tax, 0) };
}

async function answer(
  ctx: Ctx,
  companyId: string,
  ids: string[],
  now: Date,
  due: Due,
  payment: StartedPayment | null,
): Promise<CheckoutResultJson> {
  const found = await ctx.em.find(SubscriptionContract, { companyId, id: { $in: ids } }, { refresh: true });
  const rows = ids.flatMap((id) => found.filter((c) => c.id === id));
  const items = await contractForms(ctx, companyId, rows, now);
  return {
    items,
    item: items[0],
    ...due,
    expiresAt: formatTimestamp(payment?.expiresAt ?? null),
    paymentURL: payment?.paymentURL ?? null,
    transactionID: payment?.transactionId ?? null,
    total: due.price,
  };
}

/** Starts the one payment for locked pending contracts, or activates them when nothing is due. */
async function payFor(ctx: Ctx, payer: Payer, contracts: SubscriptionContract[]): Promise<CheckoutResultJson> {
  const { lines, total, tax } = totals(
    contracts,
    (c) => c.price,
    (c) => [c.taxInclusive, c.taxRate],
  );
  const currency = contracts.find((c) => c.currency)?.currency ?? null;
  const due: Due = { price: total, tax, taxRate: contracts[0].taxRate, taxInclusive: contracts[0].taxInclusive, currency };
  const ids = contracts.map((c) => c.id);
  const now = ctx.now;
  for (const l of lines)
    await ctx.em.execute(
      'update subscription_contract set tax_amount = ?, in_cart = false, updated_at = ?::timestamptz where company_id = ? and id = ?',
      [l.tax, now.toISOString(), payer.companyId, l.c.id],
      'run',
    );
  if (total === 0) {
    for (const c of contracts) await activateContract(ctx, c, now);
    return answer(ctx, payer.companyId, ids, now, due, null);
  }
  if (!currency) throw conflict('the subscription settings have no currency, so priced subscriptions cannot be paid');
  const payment = await startPayment(ctx, {
    companyId: payer.companyId,
    clientId: payer.client.id,
    email: payer.client.email,
    itemType: SUBSCRIPTION_ITEM,
    itemIDs: ids,
    perItemAmounts: Object.fromEntries(lines.map((l) => [l.c.id, l.total])),
    amount: total,
    currency,
    taxInclusive: due.taxInclusive,
    taxRate: due.taxRate,
    pluginNamespace: SUBSCRIPTION_NAMESPACE,
    description: await titles(ctx, payer.companyId, contracts),
  });
  if (!payment) throw noPayments();
  // The payment's own expiry now decides: a failed, cancelled or expired payment cancels the contracts.
  await ctx.em.execute(
    `update subscription_contract set payment_transaction_id = ?, payment_url = ?, pending_expires_at = null, updated_at = ?::timestamptz
      where company_id = ? and id = any(?::uuid[])`,
    [payment.transactionId, payment.paymentURL, now.toISOString(), payer.companyId, `{${ids.join(',')}}`],
    'run',
  );
  await recordContractEvents(ctx, payer.companyId, ids, 'subscription.purchased', now);
  return answer(ctx, payer.companyId, ids, now, due, payment);
}

async function titles(ctx: Ctx, companyId: string, contracts: SubscriptionContract[]): Promise<string> {
  const rows = await ctx.em.execute<{ id: string; title: string }[]>(
    'select id, title from subscription where company_id = ? and id = any(?::uuid[])',
    [companyId, `{${[...new Set(contracts.map((c) => c.subscriptionId))].join(',')}}`],
  );
  const byId = new Map(rows.map((r) => [r.id, r.title]));
  const text = contracts.map((c) => byId.get(c.subscriptionId) ?? 'Subscription').join(', ');
  return text.length > 1000 ? `${text.slice(0, 997)}...` : text;
}

/** Client: checks out the whole cart (items past their cart expiry are no longer in it); an empty cart is 409. */
export async function checkoutCart(ctx: Ctx, companyId: string): Promise<CheckoutResultJson> {
  const { company, clientId } = await ownCompany(ctx, companyId);
  const client = await getClientInCompany(ctx, company.id, clientId, { requireActive: true });
  await requireSales(ctx, company.id);
  return inTransaction(ctx, async (tx) => {
    const contracts = await cartContracts(tx, company.id, clientId, ctx.now, true);
    if (!contracts.length) throw conflict('the cart is empty');
    return payFor(tx, { companyId: company.id, client }, contracts);
  });
}

export interface PurchaseInput {
  client?: unknown;
  items?: unknown;
}

/**
 * Buys subscriptions in one step (the cart is not touched): a client token buys for its
 * client; an API key with `client.create` buys for the guest in `client` (found or created by
 * e-mail, as gift card purchases do).
 */
export async function purchaseSubscriptions(ctx: Ctx, companyId: string, input: PurchaseInput | null): Promise<CheckoutResultJson> {
  if (!ctx.actor) throw unauthorized();
  const c = new Check();
  if (typeof input !== 'object' || input === null || Array.isArray(input)) c.fail('body', 'must be an object');
  const items = parseItems(c, input?.items);
  c.done('invalid subscription purchase');
  const company = await companyForClientInterface(ctx, companyId, 'client.create');
  let client: Client | null = null;
  if (ctx.actor.kind === 'client') client = await getClientInCompany(ctx, company.id, ctx.actor.clientId, { requireActive: true });
  else if (input?.client === undefined || input.client === null)
    throw invalid('a guest purchase needs a client object', [
      { path: 'client', message: 'is required when buying without a client token' },
    ]);
  await requireSales(ctx, company.id);
  return inTransaction(ctx, async (tx) => {
    const payer = client ?? (await upsertGuestClient(tx, company.id, input!.client as GuestClientInput));
    const contracts = await createPendingContracts(tx, { companyId: company.id, clientId: payer.id, items, inCart: false, now: ctx.now });
    return payFor(tx, { companyId: company.id, client: payer }, contracts);
  });
}

export interface RenewInput {
  ids?: unknown;
  allowPartialRenewal?: unknown;
}

/**
 * Client: renews its contracts for one more duration each, at today's price (the
 * highest-priority active price rule) and tax (settings), with one payment (`itemType`
 * `subscription_renewal`); once paid each contract's `expiresAt` moves one duration later
 * (subscription.payable.ts). A contract can be renewed when it is active, has a duration,
 * waits for no other renewal, and its subscription is not archived and has a price now. Some
 * that cannot: `409` naming them, unless `allowPartialRenewal` (then the others renew; none
 * left is still 409). Another client's contract is 404.
 */
export async function renewSubscriptions(ctx: Ctx, companyId: string, input: RenewInput | null): Promise<CheckoutResultJson> {
  const { company, clientId } = await ownCompany(ctx, companyId);
  const c = new Check();
  const ids = c.uuids('ids', input?.ids, true);
  const partial = c.bool('allowPartialRenewal', input?.allowPartialRenewal) ?? false;
  if (ids && (ids.length === 0 || ids.length > 20)) c.fail('ids', 'must list 1 to 20 contract ids');
  c.done('invalid renewal');
  const client = await getClientInCompany(ctx, company.id, clientId, { requireActive: true });
  await requireSales(ctx, company.id);
  const wanted = [...new Set(ids!.map((id) => id.toLowerCase()))];
  return inTransaction(ctx, async (tx) => {
    const rows = await tx.em.execute<Record<string, unknown>[]>(
      'select * from subscription_contract where company_id = ? and client_id = ? and id = any(?::uuid[]) order by id for update',
      [company.id, clientId, `{${wanted.join(',')}}`],
    );
    if (rows.length !== wanted.length) throw notFound('subscription contract');
    const contracts = rows.map((r) => tx.em.map(SubscriptionContract, r));
    const subs = await tx.em.execute<{ id: string; archived_at: Date | null }[]>(
      'select id, archived_at from subscription where company_id = ? and id = any(?::uuid[])',
      [company.id, `{${[...new Set(contracts.map((x) => x.subscriptionId))].join(',')}}`],
    );
    const prices = await activeRules(tx, 'price', company.id, [...new Set(contracts.map((x) => x.subscriptionId))], ctx.now);
    const why = (x: SubscriptionContract): string | null => {
      if (!RUNNING.includes(effectiveStatus(x, ctx.now))) return 'is not active';
      if (!x.duration) return 'has no duration to renew by';
      if (x.renewalTransactionId) return 'waits for the payment of another renewal';
      if (subs.find((s) => s.id === x.subscriptionId)?.archived_at) return 'belongs to an archived subscription';
      if (!prices.has(x.subscriptionId)) return 'has no price now';
      return null;
    };
    const refused = contracts.map((x) => ({ x, reason: why(x) })).filter((r) => r.reason);
    const renewable = contracts.filter((x) => !why(x));
    const details = refused.map((r) => ({ path: `ids[${wanted.indexOf(r.x.id)}]`, message: `contract ${r.x.id} ${r.reason}` }));
    if ((refused.length && !partial) || !renewable.length) throw conflict('some subscription contracts cannot be renewed', details);
    const settings = await settingsOf(tx, company.id);
    const { lines, total, tax } = totals(
      renewable,
      (x) => prices.get(x.subscriptionId)!.price,
      () => [settings.taxInclusive, settings.taxRate],
    );
    const ids2 = renewable.map((x) => x.id);
    const currency = settings.currency;
    const due: Due = { price: total, tax, taxRate: settings.taxRate, taxInclusive: settings.taxInclusive, currency };
    if (total === 0) {
      for (const x of renewable) await extendContract(tx, x, ctx.now);
      return answer(tx, company.id, ids2, ctx.now, due, null);
    }
    if (!currency) throw conflict('the subscription settings have no currency, so priced subscriptions cannot be paid');
    const payment = await startPayment(tx, {
      companyId: company.id,
      clientId: client.id,
      email: client.email,
      itemType: RENEWAL_ITEM,
      itemIDs: ids2,
      perItemAmounts: Object.fromEntries(lines.map((l) => [l.c.id, l.total])),
      amount: total,
      currency,
      taxInclusive: due.taxInclusive,
      taxRate: due.taxRate,
      pluginNamespace: SUBSCRIPTION_NAMESPACE,
      description: `Renewal: ${await titles(tx, company.id, renewable)}`,
    });
    if (!payment) throw noPayments();
    await tx.em.execute(
      `update subscription_contract set renewal_transaction_id = ?, renewal_payment_url = ?, updated_at = ?::timestamptz
        where company_id = ? and id = any(?::uuid[])`,
      [payment.transactionId, payment.paymentURL, ctx.now.toISOString(), company.id, `{${ids2.join(',')}}`],
      'run',
    );
    return answer(tx, company.id, ids2, ctx.now, due, payment);
  });
}

export const PURCHASES_MAX_LIMIT = 100;

const PURCHASED = { inCart: false, $or: [{ status: { $ne: 'cancelled' as const } }, { paymentTransactionId: { $ne: null } }] };

/**
 * Client: its purchased subscriptions, newest first: every contract not in the cart, except
 * cart items that lapsed or were taken out before checkout (cancelled without a payment).
 */
export async function listPurchases(
  ctx: Ctx,
  companyId: string,
  raw: { limit?: unknown; offset?: unknown },
): Promise<{ items: ContractJson[]; total: number; limit: number; offset: number }> {
  const { company, clientId } = await ownCompany(ctx, companyId);
  const { limit, offset } = parsePage(raw, PURCHASES_MAX_LIMIT);
  const [rows, total] = await ctx.em.findAndCount(
    SubscriptionContract,
    { companyId: company.id, clientId, ...PURCHASED },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset },
  );
  return { items: await contractForms(ctx, company.id, rows, ctx.now), total, limit, offset };
}

/** GraphQL: the same list as a connection (kernel/connection.ts), newest first (then by id, descending). */
export async function purchasesConnection(ctx: Ctx, companyId: string, args: ConnectionArgs): Promise<ConnectionJson<ContractJson>> {
  const { company, clientId } = await ownCompany(ctx, companyId);
  const keys = ORM_ORDERS.newest.map((k) => ({ ...k, desc: true }));
  const where = { companyId: company.id, clientId, ...PURCHASED };
  const source = ormSource(ctx.em, SubscriptionContract, where, keys, (rows: SubscriptionContract[]) =>
    contractForms(ctx, company.id, rows, ctx.now),
  );
  const spec = { ...listSpec(keys, 'subscriptionPurchases', `${company.id}|${clientId}`), max: PURCHASES_MAX_LIMIT };
  return connectionFrom(source, args, spec, 'subscriptionContracts');
}

/** Client: one of its purchased subscriptions; anybody else's is 404. */
export async function getPurchase(ctx: Ctx, companyId: string, id: unknown): Promise<ContractJson> {
  const { company, clientId } = await ownCompany(ctx, companyId);
  if (!isUuid(id)) throw invalid('item id must be a UUID', [{ path: 'itemID', message: 'must be a UUID' }]);
  const row = await ctx.em.findOne(SubscriptionContract, { companyId: company.id, clientId, id: id.toLowerCase(), ...PURCHASED });
  if (!row) throw notFound('subscription purchase');
  return (await contractForms(ctx, company.id, [row], ctx.now))[0];
}
