import { createHash, randomBytes } from 'node:crypto';
import type { AppDeps, ChangeFeed, Ctx, MerchantActor, Permissions } from '../../kernel/context';
import { requireMerchant } from '../../kernel/access';
import { forbidden, invalid, notFound, type ErrorDetail } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import { ApiKey, Company, Merchant, type ApiKeyState } from './company.entity';
import { couldHaveGranted, escalations, grants, isPermission } from '../../kernel/permissions';
import { inTransaction } from '../../kernel/transaction';

export interface ApiKeyJson {
  id: string;
  name: string;
  key?: string;
  keyPrefix: string;
  permissions: Permissions;
  state: ApiKeyState;
  createdAt: string;
  revokedAt: string | null;
}

export const hashKey = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** A new secret: 32 random bytes, prefixed so that leaked keys are easy to recognise in scanners. */
const newSecret = (): string => `bpk_${randomBytes(32).toString('base64url')}`;

export function apiKeyJson(k: ApiKey, secret?: string): ApiKeyJson {
  return {
    id: k.id,
    name: k.name,
    ...(secret ? { key: secret } : {}),
    keyPrefix: k.keyPrefix,
    permissions: k.permissions,
    state: k.state,
    createdAt: formatTimestamp(k.createdAt)!,
    revokedAt: formatTimestamp(k.revokedAt),
  };
}

/** Validates a permissions object `{companyID | "*": [permission...]}`. */
export function parsePermissions(raw: unknown): Permissions {
  const details: ErrorDetail[] = [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw invalid('permissions must be an object', [{ path: 'permissions', message: 'must be an object' }]);
  const out: Permissions = {};
  for (const [scope, list] of Object.entries(raw as Record<string, unknown>)) {
    if (scope !== '*' && !isUuid(scope)) details.push({ path: `permissions.${scope}`, message: 'scope must be a company id or "*"' });
    if (!Array.isArray(list) || list.some((p) => typeof p !== 'string' || !isPermission(p))) {
      details.push({ path: `permissions.${scope}`, message: 'must be a list of permissions such as bookings.read, bookings.* or *' });
      continue;
    }
    out[scope === '*' ? '*' : scope.toLowerCase()] = [...new Set(list as string[])];
  }
  if (details.length) throw invalid('invalid permissions', details);
  return out;
}

async function insertKey(
  ctx: Ctx,
  merchantId: string,
  name: string,
  permissions: Permissions,
  now: Date,
  secret = newSecret(),
): Promise<{ key: ApiKey; secret: string }> {
  const key = ctx.em.create(ApiKey, {
    merchantId,
    name,
    keyHash: hashKey(secret),
    keyPrefix: secret.slice(0, 12),
    permissions,
    state: 'active',
    revokedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  await ctx.em.flush();
  return { key, secret };
}

/** Creates a key for the caller's merchant; it can only hold what the caller holds. */
export async function createApiKey(ctx: Ctx, input: { name?: unknown; permissions?: unknown }): Promise<ApiKeyJson> {
  const actor = requireMerchant(ctx);
  const check = new Check();
  const name = check.string('name', input.name, { required: true });
  if (input.permissions === undefined) check.fail('permissions', 'is required');
  check.done('invalid API key');
  const permissions = parsePermissions(input.permissions);
  const scopes = Object.keys(permissions);
  if (!scopes.every((s) => grants(actor.permissions, s, 'apikeys.write'))) throw forbidden('missing permission apikeys.write');
  const over = escalations(actor.permissions, permissions);
  if (over.length) throw forbidden(`a key cannot grant permissions it does not hold: ${over.join(', ')}`);
  const { key, secret } = await insertKey(ctx, actor.merchantId, name!, permissions, ctx.now);
  return apiKeyJson(key, secret);
}

function requireKeyAdmin(ctx: Ctx): MerchantActor {
  const actor = requireMerchant(ctx);
  const any = Object.values(actor.permissions).some((list) => list.some((p) => p === '*' || p === 'apikeys.write' || p === 'apikeys.*'));
  if (!any) throw forbidden('missing permission apikeys.write');
  return actor;
}

/**
 * Keys of the caller's merchant that the caller could itself have granted, newest first;
 * secrets are never returned.
 */
export async function listApiKeys(ctx: Ctx): Promise<ApiKeyJson[]> {
  const actor = requireKeyAdmin(ctx);
  const keys = await ctx.em.find(ApiKey, { merchantId: actor.merchantId }, { orderBy: { createdAt: 'desc', id: 'asc' } });
  return keys.filter((k) => couldHaveGranted(actor.permissions, k.permissions)).map((k) => apiKeyJson(k));
}

/** Revokes a key of the caller's merchant; it is refused (401) from the next request on. */
export async function revokeApiKey(ctx: Ctx, id: string): Promise<ApiKeyJson> {
  const actor = requireKeyAdmin(ctx);
  if (!isUuid(id)) throw invalid('id must be a UUID', [{ path: 'id', message: 'must be a UUID' }]);
  const key = await ctx.em.findOne(ApiKey, { id: id.toLowerCase(), merchantId: actor.merchantId });
  if (!key) throw notFound('API key');
  // Revoking a key that holds more than the caller would be a way around the escalation rule.
  if (!couldHaveGranted(actor.permissions, key.permissions))
    throw forbidden('cannot revoke a key with permissions the caller does not hold');
  if (key.state !== 'revoked') {
    key.state = 'revoked';
    key.revokedAt = ctx.now;
    await ctx.em.flush();
    // refused from this process's next request on, without waiting for the announcement
    forgetApiKey(key.id);
  }
  return apiKeyJson(key);
}

/**
 * Active keys are cached per process, by the hash of their secret: authenticating a request
 * then costs no SQL statement. Any change to a key row (revoked through the API, changed or
 * deleted by any process or by an operator's SQL) is announced by the database
 * (`api_key_changed` with the key's id, migration 20261124002100) and every process drops its
 * copy; the process that revokes a key drops it before it answers. The cache is used only while
 * the announcements can be heard (`deps.changes.live`), and a row read while a change is
 * announced is not cached. Unknown and revoked secrets are never cached.
 */
const keyCache = new Map<string, MerchantActor>();
const KEY_CACHE_MAX = 10_000;
let keyGeneration = 0;

/** Drops one cached key by id, or all of them (`null`: changes may have been missed). */
export function forgetApiKey(id: string | null): void {
  keyGeneration++;
  if (id === null) keyCache.clear();
  else for (const [hash, actor] of keyCache) if (actor.apiKeyId === id) keyCache.delete(hash);
}

/** Keeps the key cache of this process in step with changes made by any process. */
export function followApiKeyChanges(deps: AppDeps): (() => Promise<void>) | void {
  return deps.changes?.subscribe('api_key_changed', forgetApiKey);
}

/**
 * Resolves an `X-API-Key` secret to a merchant actor, or null when unknown or revoked. Runs on
 * every authenticated request: a cached active key (see `keyCache`), else one plain indexed
 * statement without entity hydration.
 */
export async function authenticateKey(ctx: Ctx, secret: string, changes?: ChangeFeed): Promise<MerchantActor | null> {
  if (secret.length < 16 || secret.length > 200) return null;
  const hash = hashKey(secret);
  const trusted = changes?.live === true;
  const cached = trusted ? keyCache.get(hash) : undefined;
  if (cached) return { ...cached };
  const seen = keyGeneration;
  const rows = await ctx.em
    .getConnection()
    .execute<{ id: string; merchant_id: string; name: string; permissions: Permissions | string; state: string }[]>(
      'select id, merchant_id, name, permissions, state from api_key where key_hash = ?',
      [hash],
    );
  const key = rows[0];
  if (!key || key.state !== 'active') return null;
  const permissions = typeof key.permissions === 'string' ? (JSON.parse(key.permissions) as Permissions) : key.permissions;
  const actor: MerchantActor = { kind: 'merchant', merchantId: key.merchant_id, apiKeyId: key.id, apiKeyName: key.name, permissions };
  if (trusted && changes.live && seen === keyGeneration) {
    if (keyCache.size >= KEY_CACHE_MAX) keyCache.clear();
    keyCache.set(hash, actor);
  }
  return { ...actor };
}

/** Creates a merchant with an all-powerful key; used by the CLI. */
export async function createMerchant(ctx: Ctx, name: string, now = new Date()): Promise<{ merchant: Merchant; secret: string }> {
  const merchant = ctx.em.create(Merchant, { name, createdAt: now, updatedAt: now });
  await ctx.em.flush();
  const { secret } = await insertKey(ctx, merchant.id, `${name} admin`, { '*': ['*'] }, now);
  return { merchant, secret };
}

/**
 * Makes sure the ADMIN_API_KEY merchant exists (idempotent across restarts). Processes that
 * start at once on one database take turns (a transaction-scoped advisory lock): one creates
 * the merchant and its key, the others find them.
 */
export async function bootstrapAdminKey(ctx: Ctx, secret: string): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    await tx.em.execute(`select pg_advisory_xact_lock(hashtext('api_key:ADMIN_API_KEY'))`);
    const existing = await tx.em.findOne(ApiKey, { keyHash: hashKey(secret) });
    if (existing) {
      if (existing.state !== 'active') {
        existing.state = 'active';
        existing.revokedAt = null;
        await tx.em.flush();
      }
      return;
    }
    const now = new Date();
    const merchant = tx.em.create(Merchant, { name: 'Administrator', createdAt: now, updatedAt: now });
    await tx.em.flush();
    await insertKey(tx, merchant.id, 'ADMIN_API_KEY', { '*': ['*'] }, now, secret);
  });
}

export interface ApiKeyListing {
  id: string;
  keyPrefix: string;
  name: string;
  merchant: string;
  /** the companies the key reaches: `*` (all of its merchant's) or their names (ids when deleted) */
  companies: string[];
  createdAt: string;
  revokedAt: string | null;
}

/** Every API key of every merchant, oldest first, for the operator's command line; never a secret. */
export async function listAllApiKeys(ctx: Ctx): Promise<ApiKeyListing[]> {
  const keys = await ctx.em.find(ApiKey, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });
  const merchants = new Map(
    (await ctx.em.find(Merchant, { id: { $in: [...new Set(keys.map((k) => k.merchantId))] } })).map((m) => [m.id, m.name]),
  );
  const scoped = [...new Set(keys.flatMap((k) => Object.keys(k.permissions).filter((s) => s !== '*')))];
  const companies = new Map((await ctx.em.find(Company, { id: { $in: scoped } })).map((c) => [c.id, c.name]));
  return keys.map((k) => ({
    id: k.id,
    keyPrefix: k.keyPrefix,
    name: k.name,
    merchant: merchants.get(k.merchantId) ?? k.merchantId,
    companies: Object.keys(k.permissions).map((s) => (s === '*' ? '*' : (companies.get(s) ?? s))),
    createdAt: formatTimestamp(k.createdAt)!,
    revokedAt: formatTimestamp(k.revokedAt),
  }));
}

/**
 * Revokes any key by id, for the operator's command line: every process refuses it from its
 * next request on (the database announces the change, see `keyCache`). Null: no such key.
 */
export async function revokeApiKeyById(ctx: Ctx, id: string, now = new Date()): Promise<ApiKeyListing | null> {
  if (!isUuid(id)) throw invalid('id must be a UUID', [{ path: 'id', message: 'must be a UUID' }]);
  const key = await ctx.em.findOne(ApiKey, { id: id.toLowerCase() });
  if (!key) return null;
  if (key.state !== 'revoked') {
    key.state = 'revoked';
    key.revokedAt = now;
    await ctx.em.flush();
  }
  return (await listAllApiKeys(ctx)).find((k) => k.id === key.id) ?? null;
}
