import { authenticateKey } from '../modules/company/apikey.service';
import { DomainError } from '../shared/errors';
import { modules } from './registry';
import type { Actor, Ctx } from '../kernel/context';

/** Resolves a client access token (the client module's). */
const bearer = modules.find((m) => m.bearer)?.bearer;

/**
 * The caller named by credentials: an `X-API-Key` secret, else an `Authorization: Bearer <access
 * token>` value; null when neither is given. Credentials that are present but wrong are refused
 * (`unauthorized`; a blocked client is `forbidden`). `fresh` reads the key from the database
 * even when the process's cache holds it (a key announced as changed is checked again). Looked
 * up with `ctx`, the request's own context (its pool), before its actor is known.
 */
export async function actorOf(
  ctx: Ctx,
  key: string | undefined,
  authorization: string | undefined,
  opts: { fresh?: boolean } = {},
): Promise<Actor | null> {
  if (typeof key === 'string' && key.length > 0) {
    const actor = await authenticateKey(ctx, key.trim(), opts.fresh ? undefined : ctx.deps.changes);
    if (!actor) throw new DomainError('unauthorized', 'invalid or revoked API key');
    return actor;
  }
  if (typeof authorization === 'string' && /^bearer\s+/i.test(authorization)) {
    const token = authorization.replace(/^bearer\s+/i, '').trim();
    const actor = bearer ? await bearer(token, ctx.deps) : null;
    if (!actor) throw new DomainError('unauthorized', 'invalid or expired access token');
    return actor;
  }
  return null;
}
