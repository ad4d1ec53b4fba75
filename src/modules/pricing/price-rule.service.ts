import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { notFound } from '../../shared/errors';
import { formatDuration } from '../../shared/duration';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import { resourceJson, ticketJson, type ResourceJson, type TicketJson } from '../catalog/catalog.json';
import { SERVICE_TYPES } from '../../shared/service-type';
import { checkTicketIds, linkedResources, requireResources, getServiceInCompany, ticketsById } from '../catalog/catalog.lookup';
import type { LimitationInput } from '../../shared/limitation';
import type { ServiceType } from '../../shared/service-type';
import { PriceRule } from './pricing.entity';
import { checkLimitation, checkPriority, limitationResourceIds } from '../../shared/rule-checks';

const MAX_INT = 2_147_483_647;

export interface PriceRuleJson {
  id: string;
  serviceID: string;
  type: ServiceType;
  priority: number;
  duration: string | null;
  minDuration: string | null;
  maxDuration: string | null;
  price: { price: number; comparedPrice: number | null };
  ticketID: string | null;
  limitation: LimitationInput | null;
  createdAt: string;
  updatedAt: string;
}

const dur = (s: number | null) => (s === null ? null : formatDuration(s));

export function priceRuleJson(r: PriceRule): PriceRuleJson {
  return {
    id: r.id,
    serviceID: r.serviceId,
    type: r.type,
    priority: r.priority,
    duration: dur(r.durationSec),
    minDuration: dur(r.minDurationSec),
    maxDuration: dur(r.maxDurationSec),
    price: { price: r.price, comparedPrice: r.comparedPrice },
    ticketID: r.ticketId,
    limitation: r.limitation,
    createdAt: formatTimestamp(r.createdAt)!,
    updatedAt: formatTimestamp(r.updatedAt)!,
  };
}

export interface PriceRuleInputBody {
  type?: unknown;
  priority?: unknown;
  price?: unknown;
  duration?: unknown;
  minDuration?: unknown;
  maxDuration?: unknown;
  ticketID?: unknown;
  limitation?: unknown;
}

type Changes = Partial<
  Pick<
    PriceRule,
    'type' | 'priority' | 'price' | 'comparedPrice' | 'durationSec' | 'minDurationSec' | 'maxDurationSec' | 'ticketId' | 'limitation'
  >
>;

/** Seconds of an optional duration field: undefined when absent, null when sent as null. */
function seconds(c: Check, path: string, v: unknown, positive: boolean): number | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  const d = c.duration(path, v, { positive });
  if (d && d.seconds > MAX_INT) return (c.fail(path, 'is too long'), undefined);
  return d?.seconds;
}

/**
 * Parses the fields of a create (`partial` false: type, priority and price required) or of a
 * PATCH (only type required; absent fields stay as they are, nullable ones clear with null).
 */
async function parse(
  ctx: Ctx,
  companyId: string,
  serviceId: string,
  input: PriceRuleInputBody,
  existing: PriceRule | null,
): Promise<Changes> {
  const c = new Check();
  const out: Changes = {};
  out.type = c.oneOf('type', input.type, SERVICE_TYPES, true);
  const priority = checkPriority(c, input.priority, !existing);
  if (priority !== undefined) out.priority = priority;
  const price = c.object('price', input.price, !existing);
  if (price) {
    out.price = c.int('price.price', price.price, { required: true, min: 0, max: MAX_INT });
    out.comparedPrice = c.int('price.comparedPrice', price.comparedPrice, { min: 0, max: MAX_INT }) ?? null;
  }
  const duration = seconds(c, 'duration', input.duration, true);
  const min = seconds(c, 'minDuration', input.minDuration, false);
  const max = seconds(c, 'maxDuration', input.maxDuration, false);
  if (duration !== undefined) out.durationSec = duration;
  if (min !== undefined) out.minDurationSec = min;
  if (max !== undefined) out.maxDurationSec = max;
  const effMin = min !== undefined ? min : (existing?.minDurationSec ?? null);
  const effMax = max !== undefined ? max : (existing?.maxDurationSec ?? null);
  if (effMin !== null && effMax !== null && effMin > effMax)
    c.fail(min !== undefined ? 'minDuration' : 'maxDuration', 'minDuration must not be longer than maxDuration');
  if (input.ticketID !== undefined) out.ticketId = input.ticketID === null ? null : (c.uuid('ticketID', input.ticketID) ?? null);
  const limitation = checkLimitation(c, input.limitation);
  if (limitation !== undefined) out.limitation = limitation;
  const limitedTo = limitationResourceIds(c, limitation);
  c.done('invalid price rule');
  await requireResources(ctx, companyId, limitedTo);
  if (out.ticketId) await checkTicketIds(ctx, c, companyId, serviceId, [{ id: out.ticketId, path: 'ticketID' }]);
  c.done('invalid price rule');
  return out;
}

/** Creates a price rule of a service. */
export async function createPriceRule(ctx: Ctx, companyId: string, serviceId: string, input: PriceRuleInputBody): Promise<PriceRuleJson> {
  const company = await companyForMerchant(ctx, companyId, 'rules.write');
  const service = await getServiceInCompany(ctx, company.id, serviceId);
  const fields = await parse(ctx, company.id, service.id, input, null);
  const rule = ctx.em.create(PriceRule, {
    companyId: company.id,
    serviceId: service.id,
    type: fields.type!,
    priority: fields.priority!,
    price: fields.price!,
    comparedPrice: fields.comparedPrice ?? null,
    durationSec: fields.durationSec ?? null,
    minDurationSec: fields.minDurationSec ?? null,
    maxDurationSec: fields.maxDurationSec ?? null,
    ticketId: fields.ticketId ?? null,
    limitation: fields.limitation ?? null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  return priceRuleJson(rule);
}

/** Changes the fields sent (type always required, as in the specification). */
export async function updatePriceRule(
  ctx: Ctx,
  companyId: string,
  serviceId: string,
  ruleId: string,
  input: PriceRuleInputBody,
): Promise<PriceRuleJson> {
  const company = await companyForMerchant(ctx, companyId, 'rules.write');
  const service = await getServiceInCompany(ctx, company.id, serviceId);
  const c = new Check();
  const id = c.uuid('priceRuleID', ruleId, true);
  c.done('invalid price rule id');
  const rule = await ctx.em.findOne(PriceRule, { id: id!, companyId: company.id, serviceId: service.id });
  if (!rule) throw notFound('price rule');
  const fields = await parse(ctx, company.id, service.id, input, rule);
  ctx.em.assign(rule, { ...fields, updatedAt: ctx.now });
  await ctx.em.flush();
  return priceRuleJson(rule);
}

export interface PriceRuleList {
  resources: ResourceJson[];
  rules: PriceRuleJson[];
  tickets: TicketJson[];
}

/** Price rules of a service in the order they are chosen, with its linked resources and the tickets the rules name. */
export async function listPriceRules(ctx: Ctx, companyId: string, serviceId: string): Promise<PriceRuleList> {
  const company = await companyForMerchant(ctx, companyId, 'rules.read');
  const service = await getServiceInCompany(ctx, company.id, serviceId);
  const rules = await ctx.em.find(
    PriceRule,
    { companyId: company.id, serviceId: service.id },
    { orderBy: { priority: 'desc', createdAt: 'desc', id: 'asc' } },
  );
  const ticketIds = [...new Set(rules.map((r) => r.ticketId).filter((t): t is string => t !== null))];
  const { resources } = await linkedResources(ctx, company.id, service.id);
  const tickets = await ticketsById(ctx, company.id, service.id, ticketIds);
  return { resources: resources.map(resourceJson), rules: rules.map(priceRuleJson), tickets: tickets.map(ticketJson) };
}
