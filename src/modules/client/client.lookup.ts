import DataLoader from 'dataloader';
import { AUDIT_BEGIN, auditScopeArg } from '../../kernel/audit';
import { loader, type Ctx } from '../../kernel/context';
import { forbidden, invalid, notFound } from '../../shared/errors';
import { isUuid, newId } from '../../shared/ids';
import type { MetaData } from '../../shared/metadata';
import { Check } from '../../shared/validate';
import { Client } from './client.entity';
import { checkEmail, checkName, guestExternalUserId } from './client.checks';

/**
 * What other contexts (bookings, purchases) use to reach clients. None of these check the
 * caller's access to the company: the caller has already done that for its own operation.
 */

/** The guest client object of client-side booking and purchase requests. */
export interface GuestClientInput {
  email?: unknown;
  firstName?: unknown;
  lastName?: unknown;
  id?: unknown;
  platformID?: unknown;
}

/** A client of the company: 400 for a malformed id, 404 when not in this company, 403 when blocked and `requireActive`. */
export async function getClientInCompany(
  ctx: Ctx,
  companyId: string,
  clientId: string,
  opts: { requireActive?: boolean } = {},
): Promise<Client> {
  if (!isUuid(clientId)) throw invalid('client id must be a UUID', [{ path: 'clientID', message: 'must be a UUID' }]);
  const client = await ctx.em.findOne(Client, { id: clientId.toLowerCase(), companyId });
  if (!client) throw notFound('client');
  if (opts.requireActive && client.state === 'blocked') throw forbidden('the client is blocked');
  return client;
}

/** Clients of the company by id in one query; ids that are malformed or not in the company are absent from the map. */
export async function loadClients(ctx: Ctx, companyId: string, ids: readonly string[]): Promise<Map<string, Client>> {
  const wanted = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  if (!wanted.length) return new Map();
  const rows = await ctx.em.find(Client, { companyId, id: { $in: wanted } });
  return new Map(rows.map((c) => [c.id, c]));
}

/** Per-request DataLoader of one company's clients, for `...client` field resolvers. */
export function clientLoader(ctx: Ctx, companyId: string): DataLoader<string, Client | null> {
  return loader(
    ctx,
    `client:${companyId}`,
    () =>
      new DataLoader<string, Client | null>(async (ids) => {
        const found = await loadClients(ctx, companyId, ids);
        return ids.map((id) => found.get(id.toLowerCase()) ?? null);
      }),
  );
}

export interface NewClient {
  externalUserId: string;
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  language?: string | null;
  metaData?: MetaData;
}

/**
 * The client with `externalUserId` in the company, inserted first when absent. The insert
 * ignores a conflict on (company_id, external_user_id), so concurrent first logins or guest
 * requests for the same person converge on one row instead of failing with 409.
 */
export async function ensureClient(ctx: Ctx, companyId: string, data: NewClient, now: Date): Promise<{ client: Client; created: boolean }> {
  // one statement, with the audit scope it is recorded under (it often runs outside a transaction)
  const inserted = await ctx.em.execute<{ id: string }[]>(
    `insert into client (id, company_id, external_user_id, email, first_name, last_name, language, meta_data, meta_data_version, state, created_at, updated_at)
     select ?, ?, ?, ?, ?, ?, ?, ?::jsonb, 1, 'active', ?::timestamptz, ?::timestamptz from ${AUDIT_BEGIN}
     on conflict (company_id, external_user_id) do nothing returning id`,
    [
      newId(),
      companyId,
      data.externalUserId,
      data.email,
      data.firstName ?? null,
      data.lastName ?? null,
      data.language ?? null,
      JSON.stringify(data.metaData ?? {}),
      now.toISOString(),
      now.toISOString(),
      auditScopeArg(),
    ],
  );
  const client = await ctx.em.findOneOrFail(Client, { companyId, externalUserId: data.externalUserId });
  return { client, created: inserted.length > 0 };
}

/**
 * Resolves a guest client object to a client of the company: the client with that email
 * (case-insensitively; the oldest when several share it), else a new client whose
 * externalUserID is `guest:<email lowercased>`. An existing client is never modified by guest
 * data, since a guest proves no identity. `id` is honoured only when it names a client of the
 * company with the same email; `platformID` is accepted and not used for identity.
 * A blocked client is 403.
 */
export async function upsertGuestClient(ctx: Ctx, companyId: string, guest: GuestClientInput): Promise<Client> {
  const c = new Check();
  if (c.object('client', guest, true) === undefined) c.done('invalid guest client');
  const email = checkEmail(c, 'client.email', guest.email, true);
  const firstName = checkName(c, 'client.firstName', guest.firstName);
  const lastName = checkName(c, 'client.lastName', guest.lastName);
  const id = c.uuid('client.id', guest.id);
  c.string('client.platformID', guest.platformID);
  c.done('invalid guest client');
  const lower = email!.toLowerCase();
  let client: Client | null = null;
  if (id) {
    const byId = await ctx.em.findOne(Client, { id, companyId });
    if (byId && byId.email.toLowerCase() === lower) client = byId;
  }
  client ??= await ctx.em
    .createQueryBuilder(Client, 'c')
    .where({ companyId })
    .andWhere('lower(c.email) = ?', [lower])
    .orderBy({ createdAt: 'asc', id: 'asc' })
    .limit(1)
    .getSingleResult();
  client ??= (
    await ensureClient(ctx, companyId, { externalUserId: guestExternalUserId(email!), email: email!, firstName, lastName }, ctx.now)
  ).client;
  if (client.state === 'blocked') throw forbidden('the client is blocked');
  return client;
}
