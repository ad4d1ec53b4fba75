import type { Ctx, ClientActor, MerchantActor } from './context';
import { forbidden, unauthorized } from '../shared/errors';
import { grants } from './permissions';

/** The calling merchant key; 401 without credentials, 403 for a client token. */
export function requireMerchant(ctx: Ctx): MerchantActor {
  if (!ctx.actor) throw unauthorized();
  if (ctx.actor.kind !== 'merchant') throw forbidden('this operation needs an API key');
  return ctx.actor;
}

/** The calling client; 401 without a client access token. */
export function requireClient(ctx: Ctx): ClientActor {
  if (!ctx.actor) throw unauthorized();
  if (ctx.actor.kind !== 'client') throw unauthorized('this operation needs a client access token');
  return ctx.actor;
}

/** Checks a merchant-wide permission (held under `*`). */
export function requireGlobalPermission(ctx: Ctx, permission: string): MerchantActor {
  const actor = requireMerchant(ctx);
  if (!grants(actor.permissions, '*', permission)) throw forbidden(`missing permission ${permission}`);
  return actor;
}
