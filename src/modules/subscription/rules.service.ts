import { companyForMerchant } from '../company/company.access';
import { invalid, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { updateRecordMetaData } from '../../shared/metadata';
import { Check } from '../../shared/validate';
import { checkRuleFields, readRuleInput, type RuleFields, type RuleInput, type RuleKind } from './subscription.checks';
import { SubscriptionCapacityRule, SubscriptionPriceRule } from './subscription.entity';
import { capacityRuleJson, priceRuleJson, type CapacityRuleJson, type PriceRuleJson } from './subscription.json';
import type { Ctx } from '../../kernel/context';

/**
 * Price and capacity rules of subscriptions. A rule names subscriptions and applies while it is
 * not archived and `startDate <= now < endDate` (open ends allowed); of the rules applying to a
 * subscription the highest `priority` wins, ties to the most recently created (the contract's
 * rule choice). A capacity rule caps each named subscription separately: at most `maxCount`
 * of its contracts active or pending payment at once.
 */

type RuleEntity = SubscriptionPriceRule | SubscriptionCapacityRule;
const entityOf = (kind: RuleKind) => (kind === 'price' ? SubscriptionPriceRule : SubscriptionCapacityRule);
const jsonOf = (r: RuleEntity) => (r instanceof SubscriptionPriceRule ? priceRuleJson(r) : capacityRuleJson(r as SubscriptionCapacityRule));
const NAME: Record<RuleKind, string> = { price: 'subscription price rule', capacity: 'subscription capacity rule' };

const fieldsOf = (r: RuleEntity): RuleFields => ({
  subscriptionIds: r.subscriptionIds,
  priority: r.priority,
  startDate: r.startDate,
  endDate: r.endDate,
  price: r instanceof SubscriptionPriceRule ? r.price : 0,
  comparedPrice: r instanceof SubscriptionPriceRule ? r.comparedPrice : null,
  maxCount: r instanceof SubscriptionCapacityRule ? r.maxCount : 0,
});

function assign(r: RuleEntity, f: RuleFields): void {
  Object.assign(r, { subscriptionIds: f.subscriptionIds, priority: f.priority, startDate: f.startDate, endDate: f.endDate });
  if (r instanceof SubscriptionPriceRule) Object.assign(r, { price: f.price, comparedPrice: f.comparedPrice });
  else Object.assign(r, { maxCount: f.maxCount });
}

/** Subscription ids named by a rule must be the company's (400 naming each unknown one). */
async function checkSubscriptionIds(ctx: Ctx, c: Check, companyId: string, ids: string[] | undefined): Promise<void> {
  if (!ids?.length) return;
  const rows = await ctx.em.execute<{ id: string }[]>(`select id from subscription where company_id = ? and id = any(?::uuid[])`, [
    companyId,
    `{${ids.join(',')}}`,
  ]);
  const found = new Set(rows.map((r) => r.id));
  ids.forEach((id, i) => found.has(id) || c.fail(`subscriptionIDs[${i}]`, 'is not a subscription of the company'));
}

export async function createRule(ctx: Ctx, kind: RuleKind, companyId: string, input: RuleInput): Promise<PriceRuleJson | CapacityRuleJson> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.write');
  const c = new Check();
  if (typeof input !== 'object' || input === null) c.fail('body', 'must be an object');
  const body = input ?? {};
  const defaults: RuleFields = {
    subscriptionIds: [],
    priority: 0,
    startDate: null,
    endDate: null,
    price: 0,
    comparedPrice: null,
    maxCount: 0,
  };
  const fields = checkRuleFields(c, defaults, readRuleInput(c, body, kind, true));
  const metaData = c.metaData('metaData', body.metaData);
  c.done(`invalid ${NAME[kind]}`);
  await checkSubscriptionIds(ctx, c, company.id, fields.subscriptionIds);
  c.done(`invalid ${NAME[kind]}`);
  const r = new (entityOf(kind))();
  assign(r, fields);
  Object.assign(r, { companyId: company.id, metaData: metaData ?? {}, createdAt: ctx.now, updatedAt: ctx.now });
  ctx.em.persist(r);
  await ctx.em.flush();
  return jsonOf(r);
}

async function ruleInCompany(ctx: Ctx, kind: RuleKind, companyId: string, id: unknown): Promise<RuleEntity> {
  if (!isUuid(id)) throw invalid('item_id must be a UUID', [{ path: 'item_id', message: 'must be a UUID' }]);
  const r = await ctx.em.findOne(entityOf(kind), { id: id.toLowerCase(), companyId });
  if (!r) throw notFound(NAME[kind]);
  return r;
}

/** Changes the sent fields; `archive: true` archives the rule (it no longer applies), `false` unarchives. */
export async function updateRule(
  ctx: Ctx,
  kind: RuleKind,
  companyId: string,
  id: unknown,
  input: RuleInput,
): Promise<PriceRuleJson | CapacityRuleJson> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.write');
  const c = new Check();
  if (typeof input !== 'object' || input === null) c.fail('body', 'must be an object');
  const body = input ?? {};
  const patch = readRuleInput(c, body, kind, false);
  const archive = c.bool('archive', body.archive);
  c.done(`invalid ${NAME[kind]}`);
  const r = await ruleInCompany(ctx, kind, company.id, id);
  const next = checkRuleFields(c, fieldsOf(r), patch);
  c.done(`invalid ${NAME[kind]}`);
  await checkSubscriptionIds(ctx, c, company.id, patch.subscriptionIds);
  c.done(`invalid ${NAME[kind]}`);
  updateRecordMetaData(r, body.metaDataUpdate);
  assign(r, next);
  if (archive !== undefined && archive !== (r.archivedAt !== null)) r.archivedAt = archive ? ctx.now : null;
  r.updatedAt = ctx.now;
  await ctx.em.flush();
  return jsonOf(r);
}

/** `?subscription_ids=` as a comma-separated list, repeated keys or a GraphQL list: at least one UUID (400 otherwise). */
export function parseSubscriptionIds(raw: unknown, path = 'subscription_ids'): string[] {
  const list = Array.isArray(raw)
    ? raw.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]))
    : typeof raw === 'string'
      ? raw.split(',')
      : raw;
  const c = new Check();
  const cleaned = Array.isArray(list) ? list.map((v) => (typeof v === 'string' ? v.trim() : v)).filter((v) => v !== '') : list;
  const ids = c.uuids(path, cleaned, true);
  if (ids && ids.length === 0) c.fail(path, 'must name at least one subscription');
  if (ids && ids.length > 100) c.fail(path, 'must name at most 100 subscriptions');
  c.done('invalid subscription_ids');
  return ids!;
}

/** Rules naming any of the subscriptions (archived ones included), oldest first. */
export async function listRules(
  ctx: Ctx,
  kind: RuleKind,
  companyId: string,
  rawIds: unknown,
): Promise<(PriceRuleJson | CapacityRuleJson)[]> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.read');
  const ids = parseSubscriptionIds(rawIds);
  const rows = await rulesNaming(ctx, kind, company.id, ids, null);
  return rows.map(jsonOf);
}

/**
 * Rules of the company naming any of `ids`; with `now`, only those applying then, best first
 * (priority, then the most recently created).
 */
async function rulesNaming(ctx: Ctx, kind: RuleKind, companyId: string, ids: string[], now: Date | null): Promise<RuleEntity[]> {
  const table = kind === 'price' ? 'subscription_price_rule' : 'subscription_capacity_rule';
  const active = now
    ? `and archived_at is null and (start_date is null or start_date <= ?::timestamptz) and (end_date is null or end_date > ?::timestamptz)`
    : '';
  const order = now ? 'priority desc, created_at desc, id desc' : 'created_at, id';
  const params: unknown[] = [companyId, `{${ids.join(',')}}`];
  if (now) params.push(now.toISOString(), now.toISOString());
  const rows = await ctx.em.execute<Record<string, unknown>[]>(
    `select * from ${table} where company_id = ? and subscription_ids && ?::uuid[] ${active} order by ${order}`,
    params,
  );
  return rows.map((row) => ctx.em.map(entityOf(kind), row) as RuleEntity);
}

/** The rule of `kind` applying to each subscription at `now` (absent: none applies). */
export async function activeRules<K extends RuleKind>(
  ctx: Ctx,
  kind: K,
  companyId: string,
  subscriptionIds: string[],
  now: Date,
): Promise<Map<string, K extends 'price' ? SubscriptionPriceRule : SubscriptionCapacityRule>> {
  const out = new Map<string, RuleEntity>();
  if (!subscriptionIds.length) return out as never;
  for (const r of await rulesNaming(ctx, kind, companyId, subscriptionIds, now))
    for (const id of r.subscriptionIds) if (subscriptionIds.includes(id) && !out.has(id)) out.set(id, r);
  return out as never;
}

export interface CapacityItem {
  subscriptionID: string;
  active: number;
  pending: number;
  /** maxCount of the capacity rule applying now; null: no rule applies (no cap) */
  max: number | null;
}

/**
 * Contracts of each subscription that hold capacity at `now`: `active` (active and not past
 * `expiresAt`) and `pending` (pending payment and not past `pendingExpiresAt`), with the cap.
 */
export async function capacityOf(ctx: Ctx, companyId: string, subscriptionIds: string[], now: Date): Promise<CapacityItem[]> {
  const rules = await activeRules(ctx, 'capacity', companyId, subscriptionIds, now);
  const rows = await ctx.em.execute<{ subscription_id: string; active: string; pending: string }[]>(
    `select subscription_id,
            count(*) filter (where status = 'active' and (expires_at is null or expires_at > ?::timestamptz)) as active,
            count(*) filter (where status = 'pending_payment' and (pending_expires_at is null or pending_expires_at > ?::timestamptz)) as pending
       from subscription_contract
      where company_id = ? and subscription_id = any(?::uuid[]) and status in ('active', 'pending_payment')
      group by subscription_id`,
    [now.toISOString(), now.toISOString(), companyId, `{${subscriptionIds.join(',')}}`],
  );
  const counts = new Map(rows.map((r) => [r.subscription_id, r]));
  return subscriptionIds.map((id) => ({
    subscriptionID: id,
    active: Number(counts.get(id)?.active ?? 0),
    pending: Number(counts.get(id)?.pending ?? 0),
    max: rules.get(id)?.maxCount ?? null,
  }));
}

/** Capacity availability for subscriptions of the company (unknown ids: 404). */
export async function capacityAvailability(ctx: Ctx, companyId: string, rawIds: unknown): Promise<{ items: CapacityItem[] }> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.read');
  const ids = parseSubscriptionIds(rawIds);
  const known = await ctx.em.execute<{ id: string }[]>(`select id from subscription where company_id = ? and id = any(?::uuid[])`, [
    company.id,
    `{${ids.join(',')}}`,
  ]);
  if (known.length !== ids.length) throw notFound('subscription');
  return { items: await capacityOf(ctx, company.id, ids, ctx.now) };
}
