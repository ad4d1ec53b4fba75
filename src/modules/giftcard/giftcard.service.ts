import type { Ctx } from '../../kernel/context';
import { companyForClientInterface, companyForMerchant } from '../company/company.access';
import { invalid, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { updateRecordMetaData } from '../../shared/metadata';
import { parsePage } from '../../shared/pagination';
import { listSpec, ORM_ORDERS, type ConnectionArgs, type ConnectionJson } from '../../kernel/connection';
import { connectionFrom, ormSource } from '../../kernel/keyset';
import { Check } from '../../shared/validate';
import { checkGiftCardFields, newGiftCardDefaults, readGiftCardInput, type GiftCardFields, type GiftCardInput } from './giftcard.checks';
import { GiftCard } from './giftcard.entity';
import { giftCardJson, type GiftCardJson } from './giftcard.json';

/** Gift card definitions (permissions `giftcards.read` / `giftcards.write`) and the cards offered to clients. */

export const GIFTCARDS_MAX_LIMIT = 100;

export interface GiftCardPageJson {
  giftCards: GiftCardJson[];
  total: number;
}

const toDate = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));

function fieldsOf(g: GiftCard): GiftCardFields {
  return {
    title: g.title,
    amount: g.amount,
    currency: g.currency,
    active: g.active,
    taxInclusive: g.taxInclusive,
    taxRate: g.taxRate,
    availableFrom: g.availableFrom?.getTime() ?? null,
    availableTo: g.availableTo?.getTime() ?? null,
    validityDuration: g.validityDuration,
    validitySec: g.validitySec,
  };
}

function assign(g: GiftCard, f: GiftCardFields): void {
  Object.assign(g, { ...f, availableFrom: toDate(f.availableFrom), availableTo: toDate(f.availableTo) });
}

/** A gift card of the company: 400 for a malformed id, 404 when it is not in the company. */
export async function getGiftCardInCompany(ctx: Ctx, companyId: string, id: unknown, path = 'giftCardID'): Promise<GiftCard> {
  if (!isUuid(id)) throw invalid(`${path} must be a UUID`, [{ path, message: 'must be a UUID' }]);
  const g = await ctx.em.findOne(GiftCard, { id: id.toLowerCase(), companyId });
  if (!g) throw notFound('gift card');
  return g;
}

/** True while clients can buy the card: active, not archived, inside its availability window. */
export function onSale(g: GiftCard, now: Date): boolean {
  const t = now.getTime();
  return (
    g.active &&
    g.archivedAt === null &&
    (g.availableFrom === null || g.availableFrom.getTime() <= t) &&
    (g.availableTo === null || t < g.availableTo.getTime())
  );
}

export async function createGiftCard(ctx: Ctx, companyId: string, input: GiftCardInput): Promise<GiftCardJson> {
  const company = await companyForMerchant(ctx, companyId, 'giftcards.write');
  const c = new Check();
  if (typeof input !== 'object' || input === null) c.fail('body', 'must be an object');
  const body = input ?? {};
  const fields = checkGiftCardFields(c, newGiftCardDefaults(), readGiftCardInput(c, body, true));
  const metaData = c.metaData('metaData', body.metaData);
  c.done('invalid gift card');
  const g = new GiftCard();
  assign(g, fields);
  Object.assign(g, { companyId: company.id, metaData: metaData ?? {}, createdAt: ctx.now, updatedAt: ctx.now });
  ctx.em.persist(g);
  await ctx.em.flush();
  return giftCardJson(g);
}

/** Changes the sent fields (contracts already sold keep their amount, currency and expiry). */
export async function updateGiftCard(ctx: Ctx, companyId: string, id: unknown, input: GiftCardInput): Promise<GiftCardJson> {
  const company = await companyForMerchant(ctx, companyId, 'giftcards.write');
  const c = new Check();
  if (typeof input !== 'object' || input === null) c.fail('body', 'must be an object');
  const body = input ?? {};
  const patch = readGiftCardInput(c, body, false);
  c.done('invalid gift card');
  const g = await getGiftCardInCompany(ctx, company.id, id, 'giftCardID');
  const next = checkGiftCardFields(c, fieldsOf(g), patch);
  c.done('invalid gift card');
  updateRecordMetaData(g, body.metaDataUpdate);
  assign(g, next);
  g.updatedAt = ctx.now;
  await ctx.em.flush();
  return giftCardJson(g);
}

/** Archives (`archived: true`, the default) or unarchives a card; an archived card is neither sold nor issued. */
export async function archiveGiftCard(ctx: Ctx, companyId: string, id: unknown, input: { archived?: unknown } | null | undefined) {
  const company = await companyForMerchant(ctx, companyId, 'giftcards.write');
  const c = new Check();
  const archived = c.bool('archived', input?.archived) ?? true;
  c.done('invalid archive request');
  const g = await getGiftCardInCompany(ctx, company.id, id, 'giftCardID');
  if (archived !== (g.archivedAt !== null)) {
    g.archivedAt = archived ? ctx.now : null;
    g.updatedAt = ctx.now;
    await ctx.em.flush();
  }
  return giftCardJson(g);
}

/** The company's gift cards, oldest first (archived ones included). */
export async function listGiftCards(ctx: Ctx, companyId: string, raw: { limit?: unknown; offset?: unknown }): Promise<GiftCardPageJson> {
  const company = await companyForMerchant(ctx, companyId, 'giftcards.read');
  const { limit, offset } = parsePage(raw, GIFTCARDS_MAX_LIMIT);
  const [rows, total] = await ctx.em.findAndCount(
    GiftCard,
    { companyId: company.id },
    { orderBy: { createdAt: 'asc', id: 'asc' }, limit, offset },
  );
  return { giftCards: rows.map(giftCardJson), total };
}

/** Client interface: the cards on sale now (active, not archived, inside their window), oldest first. */
export async function offeredGiftCards(ctx: Ctx, companyId: string, raw: { limit?: unknown; offset?: unknown }): Promise<GiftCardPageJson> {
  const company = await companyForClientInterface(ctx, companyId, 'client.read');
  const { limit, offset } = parsePage(raw, GIFTCARDS_MAX_LIMIT);
  const [rows, total] = await ctx.em.findAndCount(GiftCard, onSaleWhere(company.id, ctx.now), {
    orderBy: { createdAt: 'asc', id: 'asc' },
    limit,
    offset,
  });
  return { giftCards: rows.map(giftCardJson), total };
}

/** The filter of the cards on sale now (the SQL form of `onSale`). */
const onSaleWhere = (companyId: string, now: Date) => ({
  companyId,
  active: true,
  archivedAt: null,
  $and: [
    { $or: [{ availableFrom: null }, { availableFrom: { $lte: now } }] },
    { $or: [{ availableTo: null }, { availableTo: { $gt: now } }] },
  ],
});

/** GraphQL: the company's gift cards as a connection (kernel/connection.ts), oldest first. */
export async function giftCardsConnection(ctx: Ctx, companyId: string, args: ConnectionArgs): Promise<ConnectionJson<GiftCardJson>> {
  const company = await companyForMerchant(ctx, companyId, 'giftcards.read');
  const keys = ORM_ORDERS.creation;
  const source = ormSource(ctx.em, GiftCard, { companyId: company.id }, keys, (rows: GiftCard[]) => rows.map(giftCardJson));
  return connectionFrom(source, args, { ...listSpec(keys, 'giftCards', company.id), max: GIFTCARDS_MAX_LIMIT }, 'giftCards');
}

/** GraphQL: the cards on sale now as a connection, oldest first. */
export async function offeredGiftCardsConnection(ctx: Ctx, companyId: string, args: ConnectionArgs): Promise<ConnectionJson<GiftCardJson>> {
  const company = await companyForClientInterface(ctx, companyId, 'client.read');
  const keys = ORM_ORDERS.creation;
  const source = ormSource(ctx.em, GiftCard, onSaleWhere(company.id, ctx.now), keys, (rows: GiftCard[]) => rows.map(giftCardJson));
  return connectionFrom(source, args, { ...listSpec(keys, 'clientGiftCards', company.id), max: GIFTCARDS_MAX_LIMIT }, 'giftCards');
}
