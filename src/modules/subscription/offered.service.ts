import { companyForClientInterface } from '../company/company.access';
import { Check } from '../../shared/validate';
import { activeRules } from './rules.service';
import { Subscription } from './subscription.entity';
import { offeredJson, type OfferedSubscriptionJson } from './subscription.json';
import { settingsOf } from './subscription.service';
import type { Ctx } from '../../kernel/context';

/** Subscriptions offered to clients (client interface, API key with `client.read` or a client token). */

/** `?ids=` as a comma-separated list, repeated keys or a GraphQL list; absent: every subscription. */
function readIds(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const list = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]));
  const c = new Check();
  const ids = c.uuids(
    'ids',
    list.map((v) => (typeof v === 'string' ? v.trim() : v)).filter((v) => v !== ''),
  );
  if (ids && ids.length > 100) c.fail('ids', 'must name at most 100 subscriptions');
  c.done('invalid ids');
  return ids;
}

/**
 * The subscriptions clients can buy now, oldest first: not archived, inside their
 * availableFrom/availableTo window, and priced: a subscription without a price rule applying
 * now has no price and is not offered. The price and comparedPrice are those of the
 * highest-priority price rule applying now; the currency is the settings' one. Ids that are
 * unknown, archived, outside their window or unpriced are left out (no error).
 */
export async function offeredSubscriptions(ctx: Ctx, companyId: string, rawIds: unknown): Promise<OfferedSubscriptionJson[]> {
  return (await offeredSubscriptionsInOrder(ctx, companyId, rawIds)).offered;
}

/** The same list with each subscription's creation, the first key of its order (the offered form leaves it out). */
export async function offeredSubscriptionsInOrder(
  ctx: Ctx,
  companyId: string,
  rawIds: unknown,
): Promise<{ offered: OfferedSubscriptionJson[]; createdAt: Map<string, Date> }> {
  const company = await companyForClientInterface(ctx, companyId, 'client.read');
  const ids = readIds(rawIds);
  const now = ctx.now;
  const rows = await ctx.em.find(
    Subscription,
    {
      companyId: company.id,
      archivedAt: null,
      ...(ids ? { id: { $in: ids } } : {}),
      $and: [
        { $or: [{ availableFrom: null }, { availableFrom: { $lte: now } }] },
        { $or: [{ availableTo: null }, { availableTo: { $gt: now } }] },
      ],
    },
    { orderBy: { createdAt: 'asc', id: 'asc' }, limit: 1000 },
  );
  const createdAt = new Map(rows.map((s) => [s.id, s.createdAt]));
  if (!rows.length) return { offered: [], createdAt };
  const [prices, settings] = await Promise.all([
    activeRules(
      ctx,
      'price',
      company.id,
      rows.map((s) => s.id),
      now,
    ),
    settingsOf(ctx, company.id),
  ]);
  const offered = rows.flatMap((s) => {
    const rule = prices.get(s.id);
    return rule ? [offeredJson(s, rule, settings.currency)] : [];
  });
  return { offered, createdAt };
}
