import type { Ctx } from '../../kernel/context';
import type { DiscountInput, PriceRuleInput } from './engine/types';
import { Discount, PriceRule } from './pricing.entity';

/**
 * Single-query loaders for the availability and booking services, in the pricing engine's
 * shapes (epoch ms, seconds). They scope by company only: the caller has already checked the
 * actor against the company.
 */

/** Price rules of a service, best first (priority, then newest). One query. */
export async function loadPriceRules(ctx: Ctx, companyId: string, serviceId: string): Promise<PriceRuleInput[]> {
  const rules = await ctx.em.find(PriceRule, { companyId, serviceId }, { orderBy: { priority: 'desc', createdAt: 'desc', id: 'asc' } });
  return rules.map((r) => ({
    id: r.id,
    type: r.type,
    priority: r.priority,
    createdAt: r.createdAt.getTime(),
    durationSec: r.durationSec,
    minDurationSec: r.minDurationSec,
    maxDurationSec: r.maxDurationSec,
    price: r.price,
    comparedPrice: r.comparedPrice,
    ticketID: r.ticketId,
    limitation: r.limitation,
  }));
}

/** Discounts of a service, best first (priority, then newest). One query. */
export async function loadDiscounts(ctx: Ctx, companyId: string, serviceId: string): Promise<DiscountInput[]> {
  const discounts = await ctx.em.find(Discount, { companyId, serviceId }, { orderBy: { priority: 'desc', createdAt: 'desc', id: 'asc' } });
  return discounts.map((d) => ({
    id: d.id,
    type: d.type,
    priority: d.priority,
    createdAt: d.createdAt.getTime(),
    sumsUp: d.sumsUp,
    rules: d.rules.map((r) => ({ from: r.from, to: r.to, price: r.price, ticketID: r.ticketID ?? null })),
    limitation: d.limitation,
  }));
}
