import { requireClient } from '../../kernel/access';
import { companyForClientInterface } from '../company/company.access';
import { getClientInCompany } from '../client/client.lookup';
import { invalid, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { parseDuration } from '../../shared/duration';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import type { MetaData } from '../../shared/metadata';
import { activeRules } from './rules.service';
import { insertContract, reserveCapacity, usagesOf } from './contract.service';
import { settingsOf } from './subscription.service';
import { Subscription, SubscriptionContract } from './subscription.entity';
import { contractJson, type ContractJson } from './subscription.json';
import { cancelPending } from './subscription.payable';
import { fromStatusesSql } from './subscription.status';
import { inTransaction } from '../../kernel/transaction';
import type { Ctx } from '../../kernel/context';

/**
 * The client's subscription cart: its `pending_payment` contracts with `in_cart`, each holding
 * capacity until its `pendingExpiresAt` (added + the settings' `cartExpiration`). Items past
 * that time are no longer in the cart (the sweeper cancels them); the cart's `expiresAt` is the
 * earliest expiry of what is left. Adding an item does not extend the others.
 */

export const MAX_CART_ITEMS = 20;

export interface CartJson {
  expiresAt: string | null;
  items: ContractJson[];
}

export interface ItemInput {
  subscriptionID?: unknown;
  subscriptionId?: unknown;
  metaData?: unknown;
}

export interface ParsedItem {
  subscriptionId: string;
  metaData: MetaData;
}

/** The `items` of a cart addition or purchase: 1-20 of `{subscriptionID, metaData}`. */
export function parseItems(c: Check, raw: unknown): ParsedItem[] {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_CART_ITEMS) {
    c.fail('items', `must be a list of 1 to ${MAX_CART_ITEMS} items`);
    return [];
  }
  const out: ParsedItem[] = [];
  raw.forEach((item: ItemInput, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return c.fail(`items[${i}]`, 'must be an object');
    const subscriptionId = c.uuid(`items[${i}].subscriptionID`, item.subscriptionID ?? item.subscriptionId, true);
    const metaData = c.metaData(`items[${i}].metaData`, item.metaData);
    if (subscriptionId) out.push({ subscriptionId, metaData: metaData ?? {} });
  });
  return out;
}

export interface NewContracts {
  companyId: string;
  clientId: string;
  items: ParsedItem[];
  inCart: boolean;
  now: Date;
}

/**
 * Creates `pending_payment` contracts for the items, all or none, inside the caller's
 * transaction. Each subscription must be on sale (not archived, inside its availability
 * window) and have a price now (the highest-priority active price rule); currency and tax come
 * from the settings. Capacity is taken per contract with `reserveCapacity` (the subscription's
 * row locked, then active + pending contracts counted against the capacity rule applying now),
 * subscriptions in id order so that two carts cannot deadlock; over capacity is `409 conflict`.
 */
export async function createPendingContracts(ctx: Ctx, n: NewContracts): Promise<SubscriptionContract[]> {
  const ids = [...new Set(n.items.map((i) => i.subscriptionId))];
  const subs = await ctx.em.find(Subscription, { companyId: n.companyId, id: { $in: ids } });
  const byId = new Map(subs.map((s) => [s.id, s]));
  n.items.forEach((item, i) => {
    const s = byId.get(item.subscriptionId);
    if (!s) throw notFound('subscription');
    const onSale = !s.archivedAt && (!s.availableFrom || s.availableFrom <= n.now) && (!s.availableTo || s.availableTo > n.now);
    if (!onSale) throw invalid('the subscription is not on sale', [{ path: `items[${i}].subscriptionID`, message: 'is not on sale' }]);
  });
  const prices = await activeRules(ctx, 'price', n.companyId, ids, n.now);
  n.items.forEach((item, i) => {
    if (!prices.has(item.subscriptionId))
      throw invalid('the subscription has no price now', [{ path: `items[${i}].subscriptionID`, message: 'has no active price rule' }]);
  });
  const settings = await settingsOf(ctx, n.companyId);
  const holdSec = parseDuration(settings.cartExpiration) ?? 900;
  const pendingExpiresAt = new Date(n.now.getTime() + holdSec * 1000);
  const order = n.items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => a.item.subscriptionId.localeCompare(b.item.subscriptionId) || a.i - b.i);
  const out: SubscriptionContract[] = [];
  for (const { item, i } of order) {
    const subscription = byId.get(item.subscriptionId)!;
    await reserveCapacity(ctx, n.companyId, subscription.id, n.now);
    out[i] = await insertContract(ctx, {
      companyId: n.companyId,
      subscription,
      clientId: n.clientId,
      status: 'pending_payment',
      activeFrom: null,
      duration: subscription.duration,
      expiresAt: null,
      pendingExpiresAt,
      inCart: n.inCart,
      price: prices.get(subscription.id)!.price,
      currency: settings.currency,
      taxInclusive: settings.taxInclusive,
      taxRate: settings.taxRate,
      metaData: item.metaData,
      now: n.now,
    });
  }
  return out;
}

/** The calling client's company and client id (client token only). */
export async function ownCompany(ctx: Ctx, companyId: string) {
  const actor = requireClient(ctx);
  const company = await companyForClientInterface(ctx, companyId, 'client.read');
  return { company, clientId: actor.clientId };
}

/** The client forms of contracts, with their usages in one more query. */
export async function contractForms(ctx: Ctx, companyId: string, contracts: SubscriptionContract[], now: Date): Promise<ContractJson[]> {
  const usages = await usagesOf(
    ctx,
    companyId,
    contracts.map((c) => c.id),
  );
  return contracts.map((c) => contractJson(c, usages.get(c.id) ?? [], now));
}

/** The client's cart items now, oldest first; with `lock` their rows are locked for the transaction. */
export async function cartContracts(
  ctx: Ctx,
  companyId: string,
  clientId: string,
  now: Date,
  lock = false,
): Promise<SubscriptionContract[]> {
  const rows = await ctx.em.execute<Record<string, unknown>[]>(
    `select * from subscription_contract
      where company_id = ? and client_id = ? and status = 'pending_payment' and in_cart and pending_expires_at > ?::timestamptz
      order by ${lock ? 'id for update' : 'created_at, id'}`,
    [companyId, clientId, now.toISOString()],
  );
  const out = rows.map((r) => ctx.em.map(SubscriptionContract, r));
  return lock ? out.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id)) : out;
}

async function cartOf(ctx: Ctx, companyId: string, clientId: string, now: Date): Promise<CartJson> {
  const items = await cartContracts(ctx, companyId, clientId, now);
  const earliest = items.reduce<Date | null>(
    (m, c) => (c.pendingExpiresAt && (!m || c.pendingExpiresAt < m) ? c.pendingExpiresAt : m),
    null,
  );
  return { expiresAt: formatTimestamp(earliest), items: await contractForms(ctx, companyId, items, now) };
}

/** Client: the cart. */
export async function getCart(ctx: Ctx, companyId: string): Promise<CartJson> {
  const { company, clientId } = await ownCompany(ctx, companyId);
  return cartOf(ctx, company.id, clientId, ctx.now);
}

/** Client: adds subscriptions to the cart (all or none); the answer is the whole cart. */
export async function addToCart(ctx: Ctx, companyId: string, input: { items?: unknown } | null): Promise<CartJson> {
  const { company, clientId } = await ownCompany(ctx, companyId);
  const c = new Check();
  if (typeof input !== 'object' || input === null || Array.isArray(input)) c.fail('body', 'must be an object');
  const items = parseItems(c, input?.items);
  c.done('invalid cart items');
  await getClientInCompany(ctx, company.id, clientId, { requireActive: true });
  await inTransaction(ctx, (tx) => createPendingContracts(tx, { companyId: company.id, clientId, items, inCart: true, now: ctx.now }));
  return cartOf(ctx, company.id, clientId, ctx.now);
}

/** Client: takes one item out of the cart (cancelled: its capacity comes back). Anything but an item of this cart is 404. */
export async function removeFromCart(ctx: Ctx, companyId: string, itemId: unknown): Promise<CartJson> {
  const { company, clientId } = await ownCompany(ctx, companyId);
  if (!isUuid(itemId)) throw invalid('item id must be a UUID', [{ path: 'itemID', message: 'must be a UUID' }]);
  await inTransaction(ctx, async (tx) => {
    const rows = await tx.em.execute<{ id: string }[]>(
      `select id from subscription_contract where company_id = ? and client_id = ? and id = ? and ${fromStatusesSql('remove')} and in_cart
          and pending_expires_at > ?::timestamptz for update`,
      [company.id, clientId, itemId.toLowerCase(), ctx.now.toISOString()],
    );
    if (!rows.length) throw notFound('cart item');
    await cancelPending(tx, company.id, [rows[0].id], ctx.now, 'remove');
  });
  return cartOf(ctx, company.id, clientId, ctx.now);
}
