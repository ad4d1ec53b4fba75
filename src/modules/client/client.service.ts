import { companyForMerchant } from '../company/company.access';
import { conflict } from '../../shared/errors';
import { updateRecordMetaData, type MetaData } from '../../shared/metadata';
import { parsePage } from '../../shared/pagination';
import { listSpec, ORM_ORDERS, type ConnectionArgs, type ConnectionJson } from '../../kernel/connection';
import { connectionFrom, keysetFilter, keysetOrder, ormSource, type KeysetSource } from '../../kernel/keyset';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import { CLIENT_STATES, Client, type ClientState } from './client.entity';
import { checkEmail, checkLanguage, checkName, likePattern } from './client.checks';
import { getClientInCompany } from './client.lookup';
import { revokeRefreshTokens } from './refresh-tokens';
import { inTransaction } from '../../kernel/transaction';
import type { Ctx } from '../../kernel/context';

export const CLIENTS_MAX_LIMIT = 100;
export const SEARCH_MAX_RESULTS = 100;

export interface ClientJson {
  id: string;
  companyID: string;
  externalUserID: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  language: string | null;
  metaData: MetaData;
  metaDataVersion: number;
  state: ClientState;
  createdAt: string;
  updatedAt: string;
}

export interface ClientPageJson {
  clients: ClientJson[];
  limit: number;
  offset: number;
  total: number;
}

export function clientJson(c: Client): ClientJson {
  return {
    id: c.id,
    companyID: c.companyId,
    externalUserID: c.externalUserId,
    email: c.email,
    firstName: c.firstName,
    lastName: c.lastName,
    language: c.language ?? null,
    metaData: c.metaData ?? {},
    metaDataVersion: c.metaDataVersion,
    state: c.state,
    createdAt: formatTimestamp(c.createdAt)!,
    updatedAt: formatTimestamp(c.updatedAt)!,
  };
}

export interface CreateClientInput {
  email?: unknown;
  externalUserID?: unknown;
  firstName?: unknown;
  lastName?: unknown;
  language?: unknown;
  metaData?: unknown;
}

export interface UpdateClientInput {
  email?: unknown;
  firstName?: unknown;
  lastName?: unknown;
  language?: unknown;
  metaDataUpdate?: unknown;
  state?: unknown;
}

export interface ClientSearch {
  clientID?: unknown;
  email?: unknown;
  externalUserID?: unknown;
  query?: unknown;
}

/** Creates a client; a reused externalUserID in the company is 409. */
export async function createClient(ctx: Ctx, companyId: string, input: CreateClientInput): Promise<ClientJson> {
  const company = await companyForMerchant(ctx, companyId, 'clients.write');
  const c = new Check();
  const email = checkEmail(c, 'email', input.email, true);
  const externalUserId = c.string('externalUserID', input.externalUserID, { required: true });
  const firstName = checkName(c, 'firstName', input.firstName);
  const lastName = checkName(c, 'lastName', input.lastName);
  const language = checkLanguage(c, 'language', input.language);
  const metaData = c.metaData('metaData', input.metaData);
  c.done('invalid client');
  // A friendly message for the common case; the unique constraint decides races.
  if (await ctx.em.count(Client, { companyId: company.id, externalUserId })) {
    throw conflict('a client with this externalUserID already exists in the company', [
      { path: 'externalUserID', message: 'is already used' },
    ]);
  }
  const client = ctx.em.create(Client, {
    companyId: company.id,
    externalUserId: externalUserId!,
    email: email!,
    firstName: firstName ?? null,
    lastName: lastName ?? null,
    language: language ?? null,
    metaData: metaData ?? {},
    metaDataVersion: 1,
    state: 'active',
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  return clientJson(client);
}

/**
 * Changes the sent fields. `state: "blocked"` also revokes the client's refresh tokens, so
 * unblocking later needs a fresh login rather than reviving old sessions.
 */
export async function updateClient(ctx: Ctx, companyId: string, id: string, input: UpdateClientInput): Promise<ClientJson> {
  const company = await companyForMerchant(ctx, companyId, 'clients.write');
  const client = await getClientInCompany(ctx, company.id, id);
  const c = new Check();
  if (input.email === null) c.fail('email', 'cannot be removed');
  const email = checkEmail(c, 'email', input.email, false);
  const firstName = checkName(c, 'firstName', input.firstName);
  const lastName = checkName(c, 'lastName', input.lastName);
  const language = checkLanguage(c, 'language', input.language);
  const state = c.oneOf('state', input.state, CLIENT_STATES);
  c.done('invalid client');
  if (email !== undefined) client.email = email;
  if (firstName !== undefined) client.firstName = firstName;
  if (lastName !== undefined) client.lastName = lastName;
  if (language !== undefined) client.language = language;
  updateRecordMetaData(client, input.metaDataUpdate);
  const blocking = state === 'blocked' && client.state !== 'blocked';
  if (state !== undefined) client.state = state;
  await ctx.em.flush();
  if (blocking) {
    await inTransaction(ctx, (tx) => revokeRefreshTokens(tx, company.id, { clientId: client.id }, ctx.now));
  }
  return clientJson(client);
}

/** One client of the company. */
export async function getClient(ctx: Ctx, companyId: string, id: string): Promise<ClientJson> {
  const company = await companyForMerchant(ctx, companyId, 'clients.read');
  return clientJson(await getClientInCompany(ctx, company.id, id));
}

/** A page of the company's clients, oldest first (ties by id). */
export async function listClients(ctx: Ctx, companyId: string, raw: { limit?: unknown; offset?: unknown }): Promise<ClientPageJson> {
  const company = await companyForMerchant(ctx, companyId, 'clients.read');
  const { limit, offset } = parsePage(raw, CLIENTS_MAX_LIMIT);
  const [rows, total] = await ctx.em.findAndCount(
    Client,
    { companyId: company.id },
    { orderBy: { createdAt: 'asc', id: 'asc' }, limit, offset },
  );
  return { clients: rows.map(clientJson), limit, offset, total };
}

/**
 * Clients matching every given filter: `clientID` and `externalUserID` exactly, `email`
 * exactly but case-insensitively, `query` as a case-insensitive substring of the first name,
 * last name, email or any scalar value inside metaData. At most 100, oldest first.
 */
export async function searchClients(ctx: Ctx, companyId: string, filter: ClientSearch): Promise<ClientJson[]> {
  const { qb } = await searchQuery(ctx, companyId, filter);
  const rows = await qb.limit(SEARCH_MAX_RESULTS).getResultList();
  return rows.map(clientJson);
}

/** GraphQL: the company's clients as a connection (kernel/connection.ts), oldest first. */
export async function clientsConnection(ctx: Ctx, companyId: string, args: ConnectionArgs): Promise<ConnectionJson<ClientJson>> {
  const company = await companyForMerchant(ctx, companyId, 'clients.read');
  const keys = ORM_ORDERS.creation;
  const source = ormSource(ctx.em, Client, { companyId: company.id }, keys, (rows: Client[]) => rows.map(clientJson));
  return connectionFrom(source, args, { ...listSpec(keys, 'clients', company.id), max: CLIENTS_MAX_LIMIT }, 'clients');
}

/** GraphQL: the client search as a connection, oldest first. */
export async function searchClientsConnection(
  ctx: Ctx,
  companyId: string,
  filter: ClientSearch,
  args: ConnectionArgs,
): Promise<ConnectionJson<ClientJson>> {
  const { qb } = await searchQuery(ctx, companyId, filter);
  const keys = ORM_ORDERS.creation;
  const spec = { ...listSpec(keys, 'searchClients', companyId, filter), max: SEARCH_MAX_RESULTS };
  const source: KeysetSource<ClientJson> = {
    async rows(bounds, reverse, limit, offset) {
      const q = qb.clone().orderBy(keysetOrder(keys, reverse)).limit(limit).offset(offset);
      for (const b of bounds) q.andWhere(keysetFilter(keys, b));
      return (await q.getResultList()).map(clientJson);
    },
    count: () => qb.clone().getCount(),
    async exists(bound) {
      return (await qb.clone().andWhere(keysetFilter(keys, bound)).limit(1).getResultList()).length > 0;
    },
  };
  return connectionFrom(source, args, spec, 'clients');
}

async function searchQuery(ctx: Ctx, companyId: string, filter: ClientSearch) {
  const company = await companyForMerchant(ctx, companyId, 'clients.read');
  const c = new Check();
  const blank = (v: unknown) => (v === '' ? undefined : v);
  const id = c.uuid('clientID', blank(filter.clientID));
  const email = c.string('email', blank(filter.email), { max: 254 });
  const externalUserId = c.string('externalUserID', blank(filter.externalUserID));
  const query = c.string('query', blank(filter.query));
  c.done('invalid client search');
  const qb = ctx.em.createQueryBuilder(Client, 'c').where({ companyId: company.id });
  if (id) qb.andWhere({ id });
  if (externalUserId) qb.andWhere({ externalUserId });
  if (email) qb.andWhere('lower(c.email) = ?', [email.toLowerCase()]);
  if (query) {
    const p = likePattern(query);
    // Metadata matches on values only (keys are schema, not content); strict mode avoids duplicates from array unwrapping.
    qb.andWhere(
      `(c.first_name ilike ? or c.last_name ilike ? or c.email ilike ? or exists (select 1 from jsonb_path_query(c.meta_data, 'strict $.**') v where jsonb_typeof(v) in ('string', 'number', 'boolean') and v #>> '{}' ilike ?))`,
      [p, p, p, p],
    );
  }
  // Wrapped: a query builder is thenable, and returning it from an async function would run it.
  return { qb: qb.orderBy({ createdAt: 'asc', id: 'asc' }) };
}
