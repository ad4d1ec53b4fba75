import { isUuid } from '../../shared/ids';
import { startPayment, paidShare, refundItem } from '../payment/payment.api';
import type { ServiceType } from '../../shared/service-type';
import type { BookedTicket } from './booking.entity';
import { insertStatusChange, releaseCapacity, releaseOccupancy, ticketCounts, usesCapacity } from './booking.store';
import { transition, type BookingStatus } from './booking.status';
import type { SettlementOutcome } from '../../kernel/payable';
import { followCodes, type CodedStatusChange } from './booking-codes.service';
import { recordBookingEvents, statusEventTypes } from './booking.events';
import type { Ctx } from '../../kernel/context';

/** How bookings and payments meet: starting a booking's payment, and settling bookings once it ends. */

export interface BookingPaymentInput {
  companyId: string;
  /** the bookings the payment covers, in request order, each with its price and what the provider's page calls it */
  bookings: { id: string; amount: number; name?: string }[];
  clientId: string | null;
  email: string | null;
  currency: string;
  taxInclusive: boolean;
  taxRate: number;
  description: string | null;
}

/**
 * Starts the payment of a client's bookings (one, or a batch) inside their transaction: one
 * payment transaction whose items are the bookings in order, the first being `itemID`. Null
 * when the company takes no payments or the total is zero (the bookings then follow their
 * bookingPolicy).
 */
export async function startBookingPayment(ctx: Ctx, p: BookingPaymentInput): Promise<{ transactionId: string; paymentURL: string } | null> {
  return startPayment(ctx, {
    companyId: p.companyId,
    clientId: p.clientId,
    email: p.email,
    itemType: 'booking',
    itemIDs: p.bookings.map((b) => b.id),
    perItemAmounts: Object.fromEntries(p.bookings.map((b) => [b.id, b.amount])),
    amount: p.bookings.reduce((sum, b) => sum + b.amount, 0),
    currency: p.currency,
    taxInclusive: p.taxInclusive,
    taxRate: p.taxRate,
    description: p.description,
    itemNames: Object.fromEntries(p.bookings.filter((b) => b.name).map((b) => [b.id, b.name!])),
  });
}

interface Row {
  id: string;
  status: BookingStatus;
  booking_policy: 'instant' | 'manual';
  type: ServiceType;
  service_id: string;
  resource_id: string;
  start_ms: number;
  spots: number;
  tickets: Record<string, BookedTicket> | string;
  code: string | null;
}

/**
 * Applies a payment's outcome to its bookings, in the caller's transaction: `paid` confirms an
 * instant booking (a manual one stays pending for the merchant), any other outcome fails the
 * booking and gives its time and capacity back. Only bookings still pending change; the rows
 * are locked first so a concurrent cancel and a settlement cannot both win. The codes the
 * bookings carry follow: confirmed bookings use them, failed ones give them back.
 */
export async function settleBookings(
  ctx: Ctx,
  companyId: string,
  bookingIds: readonly string[],
  outcome: SettlementOutcome,
  now: Date,
): Promise<void> {
  const ids = [...new Set(bookingIds.filter(isUuid).map((id) => id.toLowerCase()))];
  if (!ids.length) return;
  const rows = await ctx.em.execute<Row[]>(
    `select id, status, booking_policy, type, service_id, resource_id, (extract(epoch from start_time) * 1000)::float8 as start_ms, spots, tickets, code from booking
      where company_id = ? and id = any(?::uuid[]) order by id for update`,
    [companyId, `{${ids.join(',')}}`],
  );
  const changed: CodedStatusChange[] = [];
  for (const b of rows) {
    if (b.status !== 'pending') continue;
    const to: BookingStatus | null = outcome === 'paid' ? (b.booking_policy === 'instant' ? 'confirmed' : null) : 'failed';
    if (!to) continue;
    const t = transition(b.status, to);
    if (t.releases) {
      if (usesCapacity(b.type)) {
        const tickets = typeof b.tickets === 'string' ? JSON.parse(b.tickets) : b.tickets;
        await releaseCapacity(
          ctx,
          { companyId, serviceId: b.service_id, resourceId: b.resource_id, start: b.start_ms },
          b.spots,
          ticketCounts(tickets),
        );
      } else {
        await releaseOccupancy(ctx, companyId, b.id);
      }
    }
    await ctx.em.execute(
      'update booking set status = ?, updated_at = ?::timestamptz where company_id = ? and id = ?',
      [to, now.toISOString(), companyId, b.id],
      'run',
    );
    await insertStatusChange(ctx, companyId, b.id, b.status, to, now, { payment: outcome });
    changed.push({ id: b.id, code: b.code, from: b.status, to });
  }
  await followCodes(ctx.deps.codes, ctx, companyId, changed, now);
  await recordBookingEvents(
    ctx,
    ctx.deps.jwtKey,
    companyId,
    changed.map((c) => ({ id: c.id, types: statusEventTypes(c.from!, c.to) })),
    now,
  );
}

/**
 * `refundPercent` on a booking is the share of what was paid for it that is refunded in all:
 * setting it refunds whatever is missing to reach floor(paid * percent / 100), in the
 * update's transaction. The missing amount is computed under the payment transaction's row
 * lock from the refunds that exist, so repeating the same update refunds nothing more, and
 * concurrent updates (or refunds made through the payments API) can never together refund
 * more than was paid. A lower percent than what is already refunded, 0, or a booking without
 * a paid transaction only stores the value: money is never taken back.
 */
export async function refundBookingTo(ctx: Ctx, companyId: string, bookingId: string, percent: number): Promise<void> {
  if (!(percent > 0)) return;
  const share = await paidShare(ctx, companyId, bookingId);
  if (!share) return;
  const missing = Math.floor((share.paid * percent) / 100) - share.refunded;
  if (missing <= 0) return;
  await refundItem(ctx, {
    companyId,
    transactionId: share.transactionId,
    itemId: bookingId,
    amount: missing,
    // Derived from the booking and the percent, so the refund is recognisable and cannot be repeated under the same key.
    idempotencyKey: `booking:${bookingId}:refund:${percent}`,
    reason: `booking refundPercent set to ${percent}`,
  });
}
