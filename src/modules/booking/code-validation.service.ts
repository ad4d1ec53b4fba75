import { companyForClientInterface } from '../company/company.access';
import { getClientInCompany } from '../client/client.lookup';
import { invalid } from '../../shared/errors';
import { Check } from '../../shared/validate';
import { checkPlacement } from './booking.checks';
import { findCode, targetOf } from './booking-codes.service';
import { prepareClientBooking, type Caller } from './client-booking.service';
import type { Ctx } from '../../kernel/context';

/** Client interface: what a code would do to a booking before it is requested. */

export interface ValidateCodeInput {
  code?: unknown;
  companyID?: unknown;
  duration?: unknown;
  resourceID?: unknown;
  serviceID?: unknown;
  spots?: unknown;
  startTime?: unknown;
  tickets?: unknown;
}

export interface CodeValidationJson {
  canApply: boolean;
  clientEmail: string | null;
  clientID: string | null;
  pluginNameSpace: string | null;
  pluginResponse: Record<string, unknown>;
  price: number;
}

/**
 * Checks one code against the booking the request describes (the time must be bookable, as
 * for the request itself). A code that cannot apply, an unknown one included, answers
 * `canApply: false` with the reason in `pluginResponse.errorMessage`; `price` is what the
 * booking would cost to pay with the code (the price itself when it cannot apply). The body's
 * `code` may be left out; when it differs from the path's (in more than case) it is 400.
 * `clientID`/`clientEmail` are the calling client's (null with an API key). Another client's
 * code answers exactly as an unknown one.
 */
export async function validateClientCode(
  ctx: Ctx,
  pathCode: unknown,
  input: ValidateCodeInput | null | undefined,
): Promise<CodeValidationJson> {
  const c = new Check();
  if (typeof input !== 'object' || input === null || Array.isArray(input)) c.fail('body', 'must be an object');
  const body = (input ?? {}) as ValidateCodeInput;
  const fromPath = c.string('code', pathCode === '' ? undefined : pathCode, { max: 255 });
  const fromBody = c.string('code', body.code === '' ? undefined : body.code, { max: 255 });
  const companyId = c.uuid('companyID', body.companyID, true);
  const p = checkPlacement(c, body, false);
  c.done('invalid code validation');
  if (fromPath && fromBody && fromPath.toLowerCase() !== fromBody.toLowerCase())
    throw invalid('the code in the body differs from the code in the path', [{ path: 'code', message: 'must match the path' }]);
  const code = fromPath || fromBody;
  if (!code) throw invalid('a code is required', [{ path: 'code', message: 'is required' }]);

  const company = await companyForClientInterface(ctx, companyId!, 'client.read');
  const client =
    ctx.actor?.kind === 'client' ? await getClientInCompany(ctx, company.id, ctx.actor.clientId, { requireActive: true }) : null;
  const who: Caller = { company, client, guest: null, id: client ? `client:${client.id}` : `merchant:${company.merchantId}` };
  const b = await prepareClientBooking(ctx, who, { companyId, p, code: undefined, pluginData: undefined, description: undefined });
  const answer = { clientEmail: client?.email ?? null, clientID: client?.id ?? null };
  const price = b.row.price;
  const unknown = { canApply: false, ...answer, pluginNameSpace: null, pluginResponse: { errorMessage: 'unknown code' }, price };
  const hit = await findCode(ctx, company.id, code);
  if (!hit) return unknown;
  const checked = await hit.handler.check(
    ctx,
    hit.found,
    targetOf(b.row, client?.id ?? null, { price, due: price }, company.timeZone),
    ctx.now,
  );
  // Another client's code (a subscription contract): its id, state and expiry are not the caller's to know.
  if (!checked.ok && checked.unknown) return unknown;
  const pluginNameSpace = hit.handler.namespace;
  if (!checked.ok)
    return {
      canApply: false,
      ...answer,
      pluginNameSpace,
      pluginResponse: { ...checked.response, errorMessage: checked.error.message },
      price,
    };
  const discounted = Math.max(0, price - checked.discount);
  return { canApply: true, ...answer, pluginNameSpace, pluginResponse: checked.response, price: Math.max(0, discounted - checked.covered) };
}
