import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import { checkTicketIds, requireResources, getServiceInCompany } from '../catalog/catalog.lookup';
import type { DiscountRuleInput } from './engine/types';
import type { LimitationInput } from '../../shared/limitation';
import { Discount } from './pricing.entity';
import { checkLimitation, checkPriority, limitationResourceIds, typeFilter } from '../../shared/rule-checks';

export const DISCOUNT_TYPES = ['ticket', 'spots'] as const;
const MAX_INT = 2_147_483_647;
const MAX_RULES = 500;

export interface DiscountJson {
  id: string;
  serviceID: string;
  type: 'ticket' | 'spots';
  priority: number;
  sumsUp: boolean;
  rules: { from: number; to: number; price: number; ticketID: string | null }[];
  limitation: LimitationInput | null;
  createdAt: string;
  updatedAt: string;
}

export function discountJson(d: Discount): DiscountJson {
  return {
    id: d.id,
    serviceID: d.serviceId,
    type: d.type,
    priority: d.priority,
    sumsUp: d.sumsUp,
    rules: d.rules.map((r) => ({ from: r.from, to: r.to, price: r.price, ticketID: r.ticketID ?? null })),
    limitation: d.limitation,
    createdAt: formatTimestamp(d.createdAt)!,
    updatedAt: formatTimestamp(d.updatedAt)!,
  };
}

export interface DiscountInputBody {
  type?: unknown;
  priority?: unknown;
  sumsUp?: unknown;
  rules?: unknown;
  limitation?: unknown;
}

/**
 * Creates a volume discount: each rule prices a unit at `price` when the booked count (of a
 * ticket, or of spots) is within `[from, to]`.
 */
export async function createDiscount(ctx: Ctx, companyId: string, serviceId: string, input: DiscountInputBody): Promise<DiscountJson> {
  const company = await companyForMerchant(ctx, companyId, 'rules.write');
  const service = await getServiceInCompany(ctx, company.id, serviceId);
  const c = new Check();
  const type = c.oneOf('type', input.type, DISCOUNT_TYPES, true);
  const priority = checkPriority(c, input.priority, true);
  const sumsUp = c.bool('sumsUp', input.sumsUp) ?? false;
  const rules: DiscountRuleInput[] = [];
  const ticketRefs: { id: string; path: string }[] = [];
  if (input.rules !== undefined && input.rules !== null && !Array.isArray(input.rules)) c.fail('rules', 'must be an array');
  else if (Array.isArray(input.rules) && input.rules.length > MAX_RULES) c.fail('rules', `must have at most ${MAX_RULES} entries`);
  else {
    ((input.rules as unknown[] | undefined) ?? []).forEach((raw, i) => {
      const p = `rules[${i}]`;
      const r = c.object(p, raw, true);
      if (!r) return;
      const from = c.int(`${p}.from`, r.from, { required: true, min: 1, max: MAX_INT });
      const to = c.int(`${p}.to`, r.to, { required: true, min: 1, max: MAX_INT });
      const price = c.int(`${p}.price`, r.price, { required: true, min: 0, max: MAX_INT });
      if (from !== undefined && to !== undefined && to < from) c.fail(`${p}.to`, 'must not be less than from');
      const ticketID = c.uuid(`${p}.ticketID`, r.ticketID) ?? null;
      if (ticketID && type === 'spots') c.fail(`${p}.ticketID`, 'applies to ticket discounts only');
      if (ticketID) ticketRefs.push({ id: ticketID, path: `${p}.ticketID` });
      if (from !== undefined && to !== undefined && price !== undefined) rules.push({ from, to, price, ticketID });
    });
  }
  const limitation = checkLimitation(c, input.limitation);
  const limitedTo = limitationResourceIds(c, limitation);
  c.done('invalid discount');
  await requireResources(ctx, company.id, limitedTo);
  await checkTicketIds(ctx, c, company.id, service.id, ticketRefs);
  c.done('invalid discount');
  const discount = ctx.em.create(Discount, {
    companyId: company.id,
    serviceId: service.id,
    type: type!,
    priority: priority!,
    sumsUp,
    rules,
    limitation: limitation ?? null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  return discountJson(discount);
}

/** Discounts of a service (optionally of one type), in the order they are chosen. */
export async function listDiscounts(
  ctx: Ctx,
  companyId: string,
  serviceId: string,
  type?: unknown,
): Promise<{ discounts: DiscountJson[] }> {
  const company = await companyForMerchant(ctx, companyId, 'rules.read');
  const service = await getServiceInCompany(ctx, company.id, serviceId);
  const only = typeFilter(type, DISCOUNT_TYPES);
  const discounts = await ctx.em.find(
    Discount,
    { companyId: company.id, serviceId: service.id, ...(only ? { type: only } : {}) },
    { orderBy: { priority: 'desc', createdAt: 'desc', id: 'asc' } },
  );
  return { discounts: discounts.map(discountJson) };
}
