import { LockMode } from '@mikro-orm/core';
import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { invalid, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { updateRecordMetaData } from '../../shared/metadata';
import { parsePage } from '../../shared/pagination';
import { listSpec, ORM_ORDERS, type ConnectionArgs, type ConnectionJson } from '../../kernel/connection';
import { connectionFrom, ormSource } from '../../kernel/keyset';
import { Check } from '../../shared/validate';
import {
  checkCompanyIds,
  checkSubscriptionFields,
  newSubscriptionDefaults,
  readSettingsInput,
  readSubscriptionInput,
  type SettingsInput,
  type SubscriptionFields,
  type SubscriptionInput,
} from './subscription.checks';
import { Subscription, SubscriptionSettings } from './subscription.entity';
import { settingsJson, subscriptionJson, type SettingsJson, type SubscriptionJson } from './subscription.json';
import { inTransaction } from '../../kernel/transaction';

/** Subscriptions (permissions `subscriptions.read` / `subscriptions.write`) and the company's subscription settings. */

export const SUBSCRIPTIONS_MAX_LIMIT = 100;

export interface SubscriptionPageJson {
  subscriptions: SubscriptionJson[];
  total: number;
  limit: number;
  offset: number;
}

const FIELDS: (keyof SubscriptionFields)[] = Object.keys(newSubscriptionDefaults()) as (keyof SubscriptionFields)[];

const fieldsOf = (s: Subscription): SubscriptionFields =>
  Object.fromEntries(FIELDS.map((k) => [k, s[k as keyof Subscription]])) as unknown as SubscriptionFields;

/** A subscription of the company: 400 for a malformed id, 404 when it is not in the company. */
export async function getSubscriptionInCompany(ctx: Ctx, companyId: string, id: unknown, path = 'subscriptionID'): Promise<Subscription> {
  if (!isUuid(id)) throw invalid(`${path} must be a UUID`, [{ path, message: 'must be a UUID' }]);
  const s = await ctx.em.findOne(Subscription, { id: id.toLowerCase(), companyId });
  if (!s) throw notFound('subscription');
  return s;
}

/** Services, resources and tickets named by the fields must be the company's (400 naming each unknown id). */
async function checkOwnership(ctx: Ctx, c: Check, companyId: string, f: Partial<SubscriptionFields>): Promise<void> {
  await checkCompanyIds(ctx, c, companyId, [
    { path: 'serviceIDs', table: 'service', ids: f.serviceIds ?? [] },
    { path: 'resourceIDs', table: 'resource', ids: f.resourceIds ?? [] },
    { path: 'ticketIDs', table: 'ticket', ids: f.ticketIds ?? [] },
    { path: 'limitations.maxTicketsPerBooking', table: 'ticket', ids: Object.keys(f.limitations?.maxTicketsPerBooking ?? {}) },
  ]);
}

export async function createSubscription(ctx: Ctx, companyId: string, input: SubscriptionInput): Promise<SubscriptionJson> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.write');
  const c = new Check();
  if (typeof input !== 'object' || input === null) c.fail('body', 'must be an object');
  const body = input ?? {};
  const fields = checkSubscriptionFields(c, newSubscriptionDefaults(), readSubscriptionInput(c, body, true));
  const metaData = c.metaData('metaData', body.metaData);
  c.done('invalid subscription');
  await checkOwnership(ctx, c, company.id, fields);
  c.done('invalid subscription');
  const s = new Subscription();
  Object.assign(s, fields, { companyId: company.id, metaData: metaData ?? {}, createdAt: ctx.now, updatedAt: ctx.now });
  ctx.em.persist(s);
  await ctx.em.flush();
  return subscriptionJson(s);
}

/**
 * Changes the sent fields; `archive: true` archives (no longer sold, contracts keep working),
 * `false` unarchives. Contracts already made keep the limitations and ids copied at creation.
 */
export async function updateSubscription(ctx: Ctx, companyId: string, id: unknown, input: SubscriptionInput): Promise<SubscriptionJson> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.write');
  const c = new Check();
  if (typeof input !== 'object' || input === null) c.fail('body', 'must be an object');
  const body = input ?? {};
  const patch = readSubscriptionInput(c, body, false);
  const archive = c.bool('archive', body.archive);
  c.done('invalid subscription');
  const s = await getSubscriptionInCompany(ctx, company.id, id);
  const next = checkSubscriptionFields(c, fieldsOf(s), patch);
  c.done('invalid subscription');
  await checkOwnership(ctx, c, company.id, patch);
  c.done('invalid subscription');
  updateRecordMetaData(s, body.metaDataUpdate);
  Object.assign(s, next);
  if (archive !== undefined && archive !== (s.archivedAt !== null)) s.archivedAt = archive ? ctx.now : null;
  s.updatedAt = ctx.now;
  await ctx.em.flush();
  return subscriptionJson(s);
}

export async function getSubscription(ctx: Ctx, companyId: string, id: unknown): Promise<SubscriptionJson> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.read');
  return subscriptionJson(await getSubscriptionInCompany(ctx, company.id, id));
}

/** The company's subscriptions, oldest first (archived ones included). */
export async function listSubscriptions(
  ctx: Ctx,
  companyId: string,
  raw: { limit?: unknown; offset?: unknown },
): Promise<SubscriptionPageJson> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.read');
  const { limit, offset } = parsePage(raw ?? {}, SUBSCRIPTIONS_MAX_LIMIT);
  const [rows, total] = await ctx.em.findAndCount(
    Subscription,
    { companyId: company.id },
    { orderBy: { createdAt: 'asc', id: 'asc' }, limit, offset },
  );
  return { subscriptions: rows.map(subscriptionJson), total, limit, offset };
}

/** GraphQL: the company's subscriptions as a connection (kernel/connection.ts), oldest first. */
export async function subscriptionsConnection(
  ctx: Ctx,
  companyId: string,
  args: ConnectionArgs,
): Promise<ConnectionJson<SubscriptionJson>> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.read');
  const keys = ORM_ORDERS.creation;
  const source = ormSource(ctx.em, Subscription, { companyId: company.id }, keys, (rows: Subscription[]) => rows.map(subscriptionJson));
  return connectionFrom(source, args, { ...listSpec(keys, 'subscriptions', company.id), max: SUBSCRIPTIONS_MAX_LIMIT }, 'subscriptions');
}

/**
 * The company's settings as every computation uses them: the stored row, or the defaults
 * (cart expiration PT15M, no currency, no tax) before the first update.
 */
export async function settingsOf(ctx: Ctx, companyId: string): Promise<SubscriptionSettings> {
  const row = await ctx.em.findOne(SubscriptionSettings, { companyId });
  if (row) return row;
  const d = new SubscriptionSettings();
  d.companyId = companyId;
  return d;
}

/** The stored settings; 404 until the first update (the specification's answer), while computations use the defaults. */
export async function getSettings(ctx: Ctx, companyId: string): Promise<SettingsJson> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.read');
  const row = await ctx.em.findOne(SubscriptionSettings, { companyId: company.id });
  if (!row) throw notFound('subscription settings');
  return settingsJson(row);
}

/**
 * Creates the settings on the first update (from the defaults) and changes the sent fields.
 * Two first updates at once both succeed: the row is inserted with `on conflict do nothing`
 * and then changed under its row lock.
 */
export async function updateSettings(ctx: Ctx, companyId: string, input: SettingsInput): Promise<SettingsJson> {
  const company = await companyForMerchant(ctx, companyId, 'subscriptions.write');
  const c = new Check();
  if (typeof input !== 'object' || input === null) c.fail('body', 'must be an object');
  const body = input ?? {};
  const patch = readSettingsInput(c, body);
  c.done('invalid subscription settings');
  return inTransaction(ctx, async (tx) => {
    const fresh = new SubscriptionSettings();
    await tx.em.execute(
      `insert into subscription_settings (id, company_id, created_at, updated_at) values (?, ?, ?::timestamptz, ?::timestamptz)
       on conflict (company_id) do nothing`,
      [fresh.id, company.id, ctx.now.toISOString(), ctx.now.toISOString()],
    );
    const row = await tx.em.findOneOrFail(SubscriptionSettings, { companyId: company.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    updateRecordMetaData(row, body.metaDataUpdate);
    Object.assign(row, patch);
    row.updatedAt = ctx.now;
    await tx.em.flush();
    return settingsJson(row);
  });
}
