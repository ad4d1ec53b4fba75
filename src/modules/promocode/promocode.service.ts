import { companyForMerchant } from '../company/company.access';
import { unknownServices } from '../catalog/catalog.lookup';
import { getClientInCompany } from '../client/client.lookup';
import { conflict, invalid, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { updateRecordMetaData } from '../../shared/metadata';
import { parsePage } from '../../shared/pagination';
import { listSpec, ORM_ORDERS, type ConnectionArgs, type ConnectionJson } from '../../kernel/connection';
import { connectionFrom, ormSource } from '../../kernel/keyset';
import { Check } from '../../shared/validate';
import { evaluatePromo, REFUSAL_MESSAGES, discountFor } from './discount';
import { PromoCode, PromoUsage } from './promocode.entity';
import {
  checkLimitAgainstUsage,
  checkPromoFields,
  newPromoDefaults,
  readPromoInput,
  type PromoCodeInput,
  type PromoFields,
} from './promocode.checks';
import { promoCodeJson, promoUsageJson, ruleOf, type PromoCodeJson, type PromoUsageJson } from './promocode.json';
import { clientHasUsage, findPromoByCode } from './promocode.store';
import type { Ctx } from '../../kernel/context';

/** Admin operations on promo codes (permissions `promocodes.read` / `promocodes.write`). */

export const PROMO_MAX_LIMIT = 100;

export interface PromoCodePageJson {
  promoCodes: PromoCodeJson[];
  total: number;
}

export interface PromoUsagePageJson {
  promoUsages: PromoUsageJson[];
  total: number;
}

const toDate = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));

function fieldsOf(p: PromoCode): PromoFields {
  return {
    title: p.title,
    code: p.code,
    description: p.description,
    active: p.active,
    activeFrom: p.activeFrom?.getTime() ?? null,
    activeTo: p.activeTo?.getTime() ?? null,
    reservationAllowanceFrom: p.reservationAllowanceFrom?.getTime() ?? null,
    reservationAllowanceTo: p.reservationAllowanceTo?.getTime() ?? null,
    discountType: p.discountType,
    discountAmount: p.discountAmount,
    discountPercent: p.discountPercent,
    maxDiscountAmount: p.maxDiscountAmount,
    serviceIds: p.serviceIds ?? [],
    usageType: p.usageType,
    usageLimit: p.usageLimit,
  };
}

function assign(p: PromoCode, f: PromoFields): void {
  Object.assign(p, {
    ...f,
    activeFrom: toDate(f.activeFrom),
    activeTo: toDate(f.activeTo),
    reservationAllowanceFrom: toDate(f.reservationAllowanceFrom),
    reservationAllowanceTo: toDate(f.reservationAllowanceTo),
  });
}

/** 409 when another code of the company has the same text in any case (the unique index decides races). */
async function requireFreeCode(ctx: Ctx, companyId: string, code: string, except?: string): Promise<void> {
  const other = await findPromoByCode(ctx, companyId, code);
  if (other && other.id !== except)
    throw conflict('a promo code with this code already exists in the company', [
      { path: 'code', message: 'is already used (codes ignore case)' },
    ]);
}

async function requireServices(ctx: Ctx, companyId: string, ids: readonly string[]): Promise<void> {
  const unknown = await unknownServices(ctx, companyId, ids);
  if (unknown.length)
    throw invalid('serviceIds names services that are not in the company', [
      { path: `serviceIds[${ids.indexOf(unknown[0])}]`, message: 'is not a service of the company' },
    ]);
}

/** A promo code of the company: 400 for a malformed id, 404 when it is not in the company. */
export async function getPromoInCompany(ctx: Ctx, companyId: string, id: unknown): Promise<PromoCode> {
  if (!isUuid(id)) throw invalid('promo code id must be a UUID', [{ path: 'promoCodeID', message: 'must be a UUID' }]);
  const p = await ctx.em.findOne(PromoCode, { id: id.toLowerCase(), companyId });
  if (!p) throw notFound('promo code');
  return p;
}

/** Creates a promo code; validation at save time, a code already used in the company (any case) is 409. */
export async function createPromoCode(ctx: Ctx, companyId: string, input: PromoCodeInput): Promise<PromoCodeJson> {
  const company = await companyForMerchant(ctx, companyId, 'promocodes.write');
  const c = new Check();
  if (typeof input !== 'object' || input === null) c.fail('body', 'must be an object');
  const body = input ?? {};
  const patch = readPromoInput(c, body, true);
  const metaData = c.metaData('metaData', body.metaData);
  const fields = checkPromoFields(c, newPromoDefaults(), patch);
  c.done('invalid promo code');
  fields.title = patch.title || fields.code;
  await requireServices(ctx, company.id, fields.serviceIds);
  await requireFreeCode(ctx, company.id, fields.code);
  const p = new PromoCode();
  assign(p, fields);
  Object.assign(p, { companyId: company.id, metaData: metaData ?? {}, createdAt: ctx.now, updatedAt: ctx.now });
  ctx.em.persist(p);
  await ctx.em.flush();
  return promoCodeJson(p);
}

/** Changes the sent fields; `metaDataUpdate` is versioned. A limit below the usages already held is 409. */
export async function updatePromoCode(ctx: Ctx, companyId: string, id: unknown, input: PromoCodeInput): Promise<PromoCodeJson> {
  const company = await companyForMerchant(ctx, companyId, 'promocodes.write');
  const c = new Check();
  if (typeof input !== 'object' || input === null) c.fail('body', 'must be an object');
  const body = input ?? {};
  const patch = readPromoInput(c, body, false);
  c.done('invalid promo code');
  const p = await getPromoInCompany(ctx, company.id, id);
  const next = checkPromoFields(c, fieldsOf(p), patch);
  c.done('invalid promo code');
  if (patch.serviceIds) await requireServices(ctx, company.id, patch.serviceIds);
  if (patch.code !== undefined && patch.code.toLowerCase() !== p.code.toLowerCase())
    await requireFreeCode(ctx, company.id, patch.code, p.id);
  checkLimitAgainstUsage(next, p.currentUsageCount);
  updateRecordMetaData(p, body.metaDataUpdate);
  assign(p, next);
  p.updatedAt = ctx.now;
  await ctx.em.flush();
  return promoCodeJson(p);
}

/** Archives (`archived: true`, the default) or unarchives a code; an archived code cannot be used. */
export async function archivePromoCode(ctx: Ctx, companyId: string, id: unknown, input: { archived?: unknown } | null | undefined) {
  const company = await companyForMerchant(ctx, companyId, 'promocodes.write');
  const c = new Check();
  const archived = c.bool('archived', input?.archived) ?? true;
  c.done('invalid archive request');
  const p = await getPromoInCompany(ctx, company.id, id);
  if (archived !== (p.archivedAt !== null)) {
    p.archivedAt = archived ? ctx.now : null;
    p.updatedAt = ctx.now;
    await ctx.em.flush();
  }
  return promoCodeJson(p);
}

export async function getPromoCode(ctx: Ctx, companyId: string, id: unknown): Promise<PromoCodeJson> {
  const company = await companyForMerchant(ctx, companyId, 'promocodes.read');
  return promoCodeJson(await getPromoInCompany(ctx, company.id, id));
}

/** The company's promo codes, oldest first (archived ones included), `limit` 1-100 (default 100). */
export async function listPromoCodes(ctx: Ctx, companyId: string, raw: { limit?: unknown; offset?: unknown }): Promise<PromoCodePageJson> {
  const company = await companyForMerchant(ctx, companyId, 'promocodes.read');
  const { limit, offset } = parsePage(raw, PROMO_MAX_LIMIT);
  const [rows, total] = await ctx.em.findAndCount(
    PromoCode,
    { companyId: company.id },
    { orderBy: { createdAt: 'asc', id: 'asc' }, limit, offset },
  );
  return { promoCodes: rows.map(promoCodeJson), total };
}

/** The usages of one code, oldest first, `limit` 1-100 (default 100). */
export async function listPromoUsages(
  ctx: Ctx,
  companyId: string,
  id: unknown,
  raw: { limit?: unknown; offset?: unknown },
): Promise<PromoUsagePageJson> {
  const company = await companyForMerchant(ctx, companyId, 'promocodes.read');
  const page = parsePage(raw, PROMO_MAX_LIMIT);
  const p = await getPromoInCompany(ctx, company.id, id);
  const [rows, total] = await ctx.em.findAndCount(
    PromoUsage,
    { companyId: company.id, promoCodeId: p.id },
    { orderBy: { createdAt: 'asc', id: 'asc' }, limit: page.limit, offset: page.offset, disableIdentityMap: true },
  );
  return { promoUsages: rows.map(promoUsageJson), total };
}

/** GraphQL: the company's promo codes as a connection (kernel/connection.ts), oldest first. */
export async function promoCodesConnection(ctx: Ctx, companyId: string, args: ConnectionArgs): Promise<ConnectionJson<PromoCodeJson>> {
  const company = await companyForMerchant(ctx, companyId, 'promocodes.read');
  const keys = ORM_ORDERS.creation;
  const source = ormSource(ctx.em, PromoCode, { companyId: company.id }, keys, (rows: PromoCode[]) => rows.map(promoCodeJson));
  return connectionFrom(source, args, { ...listSpec(keys, 'promoCodes', company.id), max: PROMO_MAX_LIMIT }, 'promoCodes');
}

/** GraphQL: the usages of one code as a connection, oldest first. */
export async function promoUsagesConnection(
  ctx: Ctx,
  companyId: string,
  id: unknown,
  args: ConnectionArgs,
): Promise<ConnectionJson<PromoUsageJson>> {
  const company = await companyForMerchant(ctx, companyId, 'promocodes.read');
  const p = await getPromoInCompany(ctx, company.id, id);
  const keys = ORM_ORDERS.creation;
  const where = { companyId: company.id, promoCodeId: p.id };
  const source = ormSource(ctx.em, PromoUsage, where, keys, (rows: PromoUsage[]) => rows.map(promoUsageJson), { disableIdentityMap: true });
  return connectionFrom(source, args, { ...listSpec(keys, 'promoCodeUsages', p.id), max: PROMO_MAX_LIMIT }, 'promoUsages');
}

export interface ValidatePromoInput {
  bookingAmount?: unknown;
  bookingDate?: unknown;
  clientID?: unknown;
  code?: unknown;
  currency?: unknown;
  serviceIDs?: unknown;
}

export interface PromoValidationJson {
  valid: boolean;
  discountAmount: number | null;
  errorMessage: string | null;
  promoCode: PromoCodeJson | null;
}

/**
 * Merchant validation of a code for a booking: `200 {valid: false, errorMessage}` for a code
 * that cannot apply (an unknown one included). The discount is taken from `bookingAmount`;
 * without it, an `amount` code reports its (capped) amount and a `percent` code null.
 * `bookingDate` is checked against the reservation allowance, `serviceIDs` (every one) against
 * the code's services, `clientID` against one use per customer.
 */
export async function validatePromoCode(ctx: Ctx, companyId: string, input: ValidatePromoInput): Promise<PromoValidationJson> {
  const company = await companyForMerchant(ctx, companyId, 'promocodes.read');
  const c = new Check();
  const body = input ?? {};
  const code = c.string('code', body.code, { required: true, max: 255 });
  const amount = c.int('bookingAmount', body.bookingAmount, { min: 0, max: 2_147_483_647 });
  const date = c.timestamp('bookingDate', body.bookingDate);
  const clientId = c.uuid('clientID', body.clientID === '' ? undefined : body.clientID);
  c.currency('currency', body.currency);
  const serviceIds = c.uuids('serviceIDs', body.serviceIDs) ?? [];
  c.done('invalid promo code validation');
  if (clientId) await getClientInCompany(ctx, company.id, clientId);
  const p = await findPromoByCode(ctx, company.id, code!);
  if (!p) return { valid: false, discountAmount: null, errorMessage: 'unknown promo code', promoCode: null };
  const rule = ruleOf(p);
  const used = clientId && p.usageType === 'one_per_customer' ? await clientHasUsage(ctx, company.id, p.id, clientId) : false;
  const outcome = evaluatePromo(rule, {
    now: ctx.now.getTime(),
    price: amount ?? 0,
    serviceIds,
    bookingStart: date ?? null,
    clientHasUsage: used,
  });
  if (!outcome.ok)
    return { valid: false, discountAmount: null, errorMessage: REFUSAL_MESSAGES[outcome.reason], promoCode: promoCodeJson(p) };
  const discount =
    amount !== undefined ? outcome.discount : rule.discountType === 'amount' ? discountFor(rule, Number.MAX_SAFE_INTEGER) : null;
  return { valid: true, discountAmount: discount, errorMessage: null, promoCode: promoCodeJson(p) };
}
