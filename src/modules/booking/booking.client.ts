import type { Ctx } from '../../kernel/context';
import { requireClient } from '../../kernel/access';
import { invalid, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { parsePage } from '../../shared/pagination';
import { Check } from '../../shared/validate';
import { verifyBookingAccessToken } from './access-token';
import { applyChanges, copyOf } from './booking-changes.service';
import { Booking } from './booking.entity';
import { clientBookingJson, type ClientBookingJson } from './booking.json';
import { BOOKINGS_MAX_LIMIT } from './booking-query.service';
import { transition } from './booking.status';

/**
 * The client interface's own bookings. A booking is reached with the client's access token
 * (only that client's bookings exist for it), or with the booking's `accessToken` (guests have
 * no login): as the `X-Booking-Token` header, or `?accessToken=` for links in e-mails. Anything
 * else that does not match is 404, so nobody learns whether another person's booking exists.
 */

export interface ClientBookingPageJson {
  bookings: ClientBookingJson[];
  limit: number;
  offset: number;
  total: number;
}

/** The booking a client-interface call may see. */
export async function reachableBooking(ctx: Ctx, id: unknown, accessToken: unknown): Promise<Booking> {
  if (!isUuid(id)) throw invalid('booking id must be a UUID', [{ path: 'bookingID', message: 'must be a UUID' }]);
  const bookingId = id.toLowerCase();
  if (accessToken !== undefined && accessToken !== null && accessToken !== '') {
    const b = verifyBookingAccessToken(ctx.deps.jwtKey, bookingId, accessToken) ? await ctx.em.findOne(Booking, { id: bookingId }, { disableIdentityMap: true }) : null;
    if (!b) throw notFound('booking');
    return b;
  }
  const actor = requireClient(ctx);
  const b = await ctx.em.findOne(Booking, { id: bookingId, companyId: actor.companyId, clientId: actor.clientId }, { disableIdentityMap: true });
  if (!b) throw notFound('booking');
  return b;
}

/** Client: the calling client's bookings, ordered by startTime then id. */
export async function clientBookings(ctx: Ctx, raw: { limit?: unknown; offset?: unknown }): Promise<ClientBookingPageJson> {
  const actor = requireClient(ctx);
  const page = parsePage(raw, BOOKINGS_MAX_LIMIT);
  const where = { companyId: actor.companyId, clientId: actor.clientId };
  const [rows, total] = await Promise.all([
    ctx.em.find(Booking, where, { orderBy: { startTime: 'asc', id: 'asc' }, limit: page.limit, offset: page.offset, disableIdentityMap: true }),
    ctx.em.count(Booking, where),
  ]);
  return { bookings: rows.map((b) => clientBookingJson(b, ctx.deps.jwtKey)), limit: page.limit, offset: page.offset, total };
}

/** Client: one booking (own, or by its access token). */
export async function clientBooking(ctx: Ctx, id: unknown, accessToken?: unknown): Promise<ClientBookingJson> {
  return clientBookingJson(await reachableBooking(ctx, id, accessToken), ctx.deps.jwtKey);
}

/** Client: cancels a booking; `metaData` is merged into the booking's metadata. */
export async function cancelClientBooking(ctx: Ctx, id: unknown, input: { metaData?: unknown } | null | undefined, accessToken?: unknown): Promise<ClientBookingJson> {
  const c = new Check();
  if (input !== undefined && input !== null && (typeof input !== 'object' || Array.isArray(input))) c.fail('body', 'must be an object');
  const metaData = c.metaData('metaData', input?.metaData);
  c.done('invalid cancellation');
  const before = await reachableBooking(ctx, id, accessToken);
  transition(before.status, 'cancelled');
  const after = copyOf(before);
  after.status = 'cancelled';
  if (metaData && Object.keys(metaData).length) {
    after.metaData = { ...(after.metaData ?? {}), ...metaData };
    if (c.metaData('metaData', after.metaData) === undefined) c.done('invalid cancellation');
    after.metaDataVersion += 1;
  }
  await applyChanges(ctx, [{ before, after, statusMeta: { source: 'client', ...(metaData ? { metaData } : {}) } }]);
  return clientBookingJson(after, ctx.deps.jwtKey);
}
