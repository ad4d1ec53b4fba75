import type { Ctx } from '../../kernel/context';
import { liveFeed, liveStream, type BookingNote } from '../../kernel/live';
import { companyForMerchant } from '../company/company.access';
import { getBooking } from './booking-query.service';

/**
 * Merchant: the committed changes of the company's bookings, as they happen (GraphQL
 * `bookingChanged`); each is sent with the booking as it is then, read with the subscriber's
 * permissions.
 */
export async function bookingChanges(ctx: Ctx, companyId: string): Promise<AsyncIterableIterator<BookingNote>> {
  const company = await companyForMerchant(ctx, companyId, 'bookings.read');
  const feed = await liveFeed(ctx.deps);
  const release = await feed.watch(company.id, 'bookings');
  return liveStream<BookingNote>(ctx, (push) => {
    const stop = feed.onBookings(company.id, (notes) => notes.forEach(push));
    return () => {
      stop();
      release();
    };
  });
}

/** One event of `bookingChanges`: the booking read now (`bookings.read` checked again). */
export async function bookingChange(ctx: Ctx, companyId: string, note: BookingNote) {
  return { type: note.type, booking: await getBooking(ctx, companyId, note.bookingId), occurredAt: note.at };
}
