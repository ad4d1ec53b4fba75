import { LockMode } from '@mikro-orm/core';
import type { AppDeps, ClientActor, Ctx } from '../../kernel/context';
import { requireClient, requireMerchant } from '../../kernel/access';
import { companyForMerchant } from '../company/company.access';
import { DomainError, forbidden, unauthorized } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import { Client, ClientRefreshToken } from './client.entity';
import { checkEmail, checkLanguage, checkName } from './client.checks';
import { ensureClient } from './client.lookup';
import { clientJson, type ClientJson } from './client.service';
import { revokeRefreshTokens } from './refresh-tokens';
import { REFRESH_TTL_SEC, hashToken, newRefreshToken, signAccessToken, verifyAccessToken } from './client-token';
import { inTransaction } from '../../kernel/transaction';

export interface TokenPairJson {
  accessToken: string;
  refreshToken: string;
  expiresAt: string;
  expiresIn: number;
}

export interface ClientLoginInput {
  companyID?: unknown;
  email?: unknown;
  externalUserID?: unknown;
  firstName?: unknown;
  lastName?: unknown;
  language?: unknown;
  metaData?: unknown;
}

/** Stores a new refresh token of `familyId` and signs an access token, both issued at `ctx.now`. */
async function issuePair(ctx: Ctx, client: Client, familyId: string): Promise<TokenPairJson> {
  const refreshToken = newRefreshToken();
  ctx.em.create(ClientRefreshToken, {
    companyId: client.companyId,
    clientId: client.id,
    familyId,
    tokenHash: hashToken(refreshToken),
    expiresAt: new Date(ctx.now.getTime() + REFRESH_TTL_SEC * 1000),
    usedAt: null,
    revokedAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  const ttl = ctx.deps.config.accessTokenTtlSec;
  const { token, expiresAtMs } = await signAccessToken(
    ctx.deps.jwtKey,
    { clientId: client.id, companyId: client.companyId },
    ctx.now.getTime(),
    ttl,
  );
  return { accessToken: token, refreshToken, expiresAt: formatTimestamp(expiresAtMs)!, expiresIn: ttl };
}

/**
 * Client authorization: an API key with `client.login` for the company exchanges the
 * client's identity for a token pair. Not `client.create`: that is the permission of a browser
 * widget's key, and whoever holds this one can act as any client of the company. The client is found by externalUserID (created when
 * new); email, the sent names and the sent language are updated on every login, metaData is used only when the
 * client is created. A blocked client is 403. Every login starts a new refresh token family.
 */
export async function clientLogin(ctx: Ctx, input: ClientLoginInput): Promise<TokenPairJson> {
  requireMerchant(ctx);
  const c = new Check();
  const companyId = c.uuid('companyID', input.companyID, true);
  const email = checkEmail(c, 'email', input.email, true);
  const externalUserId = c.string('externalUserID', input.externalUserID, { required: true });
  const firstName = checkName(c, 'firstName', input.firstName);
  const lastName = checkName(c, 'lastName', input.lastName);
  const language = checkLanguage(c, 'language', input.language);
  const metaData = c.metaData('metaData', input.metaData);
  c.done('invalid client authorization');
  const company = await companyForMerchant(ctx, companyId!, 'client.login');
  const { client, created } = await ensureClient(
    ctx,
    company.id,
    { externalUserId: externalUserId!, email: email!, firstName, lastName, language, metaData },
    ctx.now,
  );
  if (client.state === 'blocked') throw forbidden('the client is blocked');
  if (!created) {
    client.email = email!;
    if (firstName !== undefined) client.firstName = firstName;
    if (lastName !== undefined) client.lastName = lastName;
    if (language !== undefined) client.language = language;
  }
  return issuePair(ctx, client, newId());
}

/**
 * Exchanges a refresh token for a new pair (the old one is spent). Presenting a spent token
 * again means it leaked or was replayed: the whole family is revoked, so the holder of the
 * newest token must log in again too. Unknown, revoked or expired tokens are 401.
 */
export async function refreshClientTokens(ctx: Ctx, refreshToken: string | undefined): Promise<TokenPairJson> {
  if (!refreshToken || refreshToken.length > 200) throw unauthorized('missing or invalid refresh token');
  const tokenHash = hashToken(refreshToken);
  // The revocation must commit even though the caller gets a 401, so errors are returned, not thrown, inside the transaction.
  const outcome = await inTransaction(ctx, async (tx): Promise<TokenPairJson | DomainError> => {
    const row = await tx.em.findOne(ClientRefreshToken, { tokenHash }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!row || row.revokedAt) return unauthorized('invalid or revoked refresh token');
    if (row.usedAt) {
      await revokeRefreshTokens(tx, row.companyId, { familyId: row.familyId }, ctx.now);
      return unauthorized('the refresh token was already used; the session is revoked');
    }
    if (row.expiresAt.getTime() <= ctx.now.getTime()) return unauthorized('the refresh token has expired');
    const client = await tx.em.findOne(Client, { id: row.clientId, companyId: row.companyId });
    if (!client) return unauthorized('invalid or revoked refresh token');
    if (client.state === 'blocked') return forbidden('the client is blocked');
    row.usedAt = ctx.now;
    return issuePair(tx, client, row.familyId);
  });
  if (outcome instanceof DomainError) throw outcome;
  return outcome;
}

/** The calling client's own record. */
export async function clientProfile(ctx: Ctx): Promise<ClientJson> {
  const actor = requireClient(ctx);
  const client = await ctx.em.findOne(Client, { id: actor.clientId, companyId: actor.companyId });
  if (!client) throw unauthorized('the client no longer exists');
  return clientJson(client);
}

/**
 * Resolves `Authorization: Bearer <access token>`: signature and expiry against the injected
 * clock, then one primary-key lookup so that a blocked (403) or removed (401) client is
 * refused at once rather than when the token expires.
 */
export async function bearer(token: string, deps: AppDeps): Promise<ClientActor | null> {
  const claims = await verifyAccessToken(deps.jwtKey, token, deps.clock.now());
  if (!claims) return null;
  const client = await deps.orm.em
    .fork()
    .findOne(Client, { id: claims.clientId, companyId: claims.companyId }, { fields: ['id', 'state'], disableIdentityMap: true });
  if (!client) return null;
  if (client.state === 'blocked') throw forbidden('the client is blocked');
  return { kind: 'client', clientId: claims.clientId, companyId: claims.companyId };
}
