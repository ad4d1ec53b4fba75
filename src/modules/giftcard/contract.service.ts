import { AUDIT_BEGIN, auditScopeArg } from '../../kernel/audit';
import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { getClientInCompany } from '../client/client.lookup';
import { invalid, notFound } from '../../shared/errors';
import { isUuid, newId } from '../../shared/ids';
import { parsePage } from '../../shared/pagination';
import { listSpec, ORDERS, type ConnectionArgs, type ConnectionJson } from '../../kernel/connection';
import { connectionFrom, sqlSource } from '../../kernel/keyset';
import { Check } from '../../shared/validate';
import { newGiftCode, normaliseGiftCode } from './gift-code';
import { GiftCardContract, type GiftCard } from './giftcard.entity';
import { contractJson, type GiftCardContractJson } from './giftcard.json';
import { getGiftCardInCompany } from './giftcard.service';
import { CONTRACT_STATUSES, EFFECTIVE_STATUS_SQL, ISSUED_STATUSES, type ContractStatus } from './giftcard.status';

/** Gift card contracts: issued by the merchant, searched, and written for client purchases. */

export const CONTRACTS_MAX_LIMIT = 100;
const CODE_ATTEMPTS = 5;

export interface NewContract {
  companyId: string;
  card: GiftCard;
  clientId: string | null;
  status: ContractStatus;
  expiresAt: Date | null;
  metaData: Record<string, unknown>;
  now: Date;
}

/**
 * Inserts a contract with a new random code. A code already taken in the company (about one
 * chance in 10^17 per existing card) is drawn again, without aborting the caller's transaction.
 */
export async function insertContract(ctx: Ctx, n: NewContract): Promise<GiftCardContract> {
  for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
    const c = new GiftCardContract();
    Object.assign(c, {
      id: newId(),
      companyId: n.companyId,
      giftCardId: n.card.id,
      clientId: n.clientId,
      code: newGiftCode(),
      amount: n.card.amount,
      currency: n.card.currency,
      balance: n.card.amount,
      status: n.status,
      expiresAt: n.expiresAt,
      paymentTransactionId: null,
      paymentUrl: null,
      metaData: n.metaData,
      metaDataVersion: 1,
      createdAt: n.now,
      updatedAt: n.now,
    });
    // one statement, with the audit scope it is recorded under (a merchant's issue runs outside a transaction)
    const rows = await ctx.em.execute(
      `insert into gift_card_contract (id, company_id, gift_card_id, client_id, code, amount, currency, balance, status, expires_at, meta_data, created_at, updated_at)
       select ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::timestamptz, ?::jsonb, ?::timestamptz, ?::timestamptz from ${AUDIT_BEGIN}
       on conflict (company_id, code) do nothing returning id`,
      [
        c.id,
        c.companyId,
        c.giftCardId,
        c.clientId,
        c.code,
        c.amount,
        c.currency,
        c.balance,
        c.status,
        c.expiresAt?.toISOString() ?? null,
        JSON.stringify(c.metaData),
        n.now.toISOString(),
        n.now.toISOString(),
        auditScopeArg(),
      ],
    );
    if (rows.length) return c;
  }
  throw new Error('no free gift card code after several attempts');
}

/** When a card activated at `from` stops being valid (null: never). */
export const expiryOf = (card: GiftCard, from: Date): Date | null =>
  card.validitySec === null ? null : new Date(from.getTime() + card.validitySec * 1000);

/** A contract of the company: 400 for a malformed id, 404 when it is not in the company. */
export async function getContractInCompany(ctx: Ctx, companyId: string, id: unknown, path = 'contractID'): Promise<GiftCardContract> {
  if (!isUuid(id)) throw invalid(`${path} must be a UUID`, [{ path, message: 'must be a UUID' }]);
  const c = await ctx.em.findOne(GiftCardContract, { id: id.toLowerCase(), companyId });
  if (!c) throw notFound('gift card contract');
  return c;
}

export interface CreateContractInput {
  clientId?: unknown;
  clientID?: unknown;
  giftCardID?: unknown;
  giftCardId?: unknown;
  metaData?: unknown;
  status?: unknown;
}

/**
 * Merchant: issues a card to a client (or to nobody in particular). It is `active` at once,
 * valid for the card's validityDuration from now, with a new code; archived cards are not
 * issued (400).
 */
export async function createContract(ctx: Ctx, companyId: string, input: CreateContractInput): Promise<GiftCardContractJson> {
  const company = await companyForMerchant(ctx, companyId, 'giftcards.write');
  const c = new Check();
  const body = input ?? {};
  const cardId = c.uuid('giftCardID', body.giftCardID ?? body.giftCardId, true);
  const rawClient = body.clientId ?? body.clientID;
  const clientId = c.uuid('clientId', rawClient === '' ? undefined : rawClient);
  c.oneOf('status', body.status, ISSUED_STATUSES);
  const metaData = c.metaData('metaData', body.metaData);
  c.done('invalid gift card contract');
  const card = await getGiftCardInCompany(ctx, company.id, cardId);
  if (card.archivedAt) throw invalid('the gift card is archived', [{ path: 'giftCardID', message: 'is archived' }]);
  if (clientId) await getClientInCompany(ctx, company.id, clientId);
  const contract = await insertContract(ctx, {
    companyId: company.id,
    card,
    clientId: clientId ?? null,
    status: 'active',
    expiresAt: expiryOf(card, ctx.now),
    metaData: metaData ?? {},
    now: ctx.now,
  });
  return contractJson(contract, ctx.now);
}

export interface ContractSearchInput {
  clientIds?: unknown;
  code?: unknown;
  fromDate?: unknown;
  giftCardIds?: unknown;
  ids?: unknown;
  limit?: unknown;
  offset?: unknown;
  status?: unknown;
  toDate?: unknown;
}

export interface ContractPageJson {
  items: GiftCardContractJson[];
  limit: number;
  offset: number;
  total: number;
}

function statuses(c: Check, raw: unknown): ContractStatus[] | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',').map((s) => s.trim()) : null;
  if (!list) return (c.fail('status', 'must be a status or a list of statuses'), undefined);
  const out: ContractStatus[] = [];
  for (const s of list) {
    if (typeof s !== 'string' || !(CONTRACT_STATUSES as readonly string[]).includes(s))
      c.fail('status', `must be among ${CONTRACT_STATUSES.join(', ')}`);
    else out.push(s as ContractStatus);
  }
  return out;
}

/**
 * Merchant: contracts matching every given filter (each list matches any of its values;
 * `status` as the contract stands now, so an active card past its validity is `expired`;
 * `fromDate` inclusive and `toDate` exclusive on the creation time; `code` in any case, with
 * or without hyphens), oldest first.
 */
export async function searchContracts(ctx: Ctx, companyId: string, input: ContractSearchInput): Promise<ContractPageJson> {
  const page = parsePage(input ?? {}, CONTRACTS_MAX_LIMIT);
  const { where: cond, params } = await contractFilter(ctx, companyId, input);
  const [rows, count] = await Promise.all([
    ctx.em.execute<Record<string, unknown>[]>(`select * from gift_card_contract where ${cond} order by created_at, id limit ? offset ?`, [
      ...params,
      page.limit,
      page.offset,
    ]),
    ctx.em.execute<{ n: string }[]>(`select count(*) as n from gift_card_contract where ${cond}`, params),
  ]);
  return {
    items: rows.map((r) => contractJson(ctx.em.map(GiftCardContract, r), ctx.now)),
    limit: page.limit,
    offset: page.offset,
    total: Number(count[0].n),
  };
}

/** GraphQL: the same search as a connection (kernel/connection.ts), oldest first. */
export async function contractsConnection(
  ctx: Ctx,
  companyId: string,
  input: ContractSearchInput,
  args: ConnectionArgs,
): Promise<ConnectionJson<GiftCardContractJson>> {
  const f = await contractFilter(ctx, companyId, input);
  const keys = ORDERS.creation;
  const source = sqlSource<GiftCardContractJson>(ctx.em.getConnection(), {
    from: 'gift_card_contract',
    where: f.where,
    params: f.params,
    keys,
    map: (rows) => rows.map((r) => contractJson(ctx.em.map(GiftCardContract, r), ctx.now)),
  });
  const spec = { ...listSpec(keys, 'giftCardContracts', f.companyId, input), max: CONTRACTS_MAX_LIMIT };
  return connectionFrom(source, args, spec, 'giftCardContracts');
}

/** The company checked and the contract search as SQL. */
async function contractFilter(
  ctx: Ctx,
  companyId: string,
  input: ContractSearchInput,
): Promise<{ companyId: string; where: string; params: unknown[] }> {
  const company = await companyForMerchant(ctx, companyId, 'giftcards.read');
  const c = new Check();
  const body = input ?? {};
  const ids = c.uuids('ids', body.ids);
  const clientIds = c.uuids('clientIds', body.clientIds);
  const cardIds = c.uuids('giftCardIds', body.giftCardIds);
  const code = c.string('code', body.code === '' ? undefined : body.code, { max: 64 });
  const status = statuses(c, body.status);
  const from = c.timestamp('fromDate', body.fromDate === '' ? undefined : body.fromDate);
  const to = c.timestamp('toDate', body.toDate === '' ? undefined : body.toDate);
  if (from !== undefined && to !== undefined && to <= from) c.fail('toDate', 'must be after fromDate');
  c.done('invalid gift card contract search');
  const where = ['company_id = ?'];
  const params: unknown[] = [company.id];
  const add = (sql: string, ...p: unknown[]) => {
    where.push(sql);
    params.push(...p);
  };
  const uuidList = (v: string[]) => `{${v.join(',')}}`;
  if (ids) add('id = any(?::uuid[])', uuidList(ids));
  if (clientIds) add('client_id = any(?::uuid[])', uuidList(clientIds));
  if (cardIds) add('gift_card_id = any(?::uuid[])', uuidList(cardIds));
  if (code !== undefined) add('code = ?', normaliseGiftCode(code) ?? code.toUpperCase());
  if (status) add(`${EFFECTIVE_STATUS_SQL} = any(?::text[])`, ctx.now.toISOString(), `{${status.join(',')}}`);
  if (from !== undefined) add('created_at >= ?::timestamptz', new Date(from).toISOString());
  if (to !== undefined) add('created_at < ?::timestamptz', new Date(to).toISOString());
  return { companyId: company.id, where: where.join(' and '), params };
}
