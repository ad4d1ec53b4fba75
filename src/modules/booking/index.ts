import type { AppModule } from '../../kernel/module';
import { Booking, BookingOccupancy, BookingStatusChange, IdempotencyKey, SlotUsage } from './booking.entity';
import { BookingPageResolver, BookingResolver, ClientBookingResolver } from './booking.resolver';
import { bookingRoutes } from './booking.routes';
import { startIdempotencyPurge } from './idempotency';
import { settleBookings } from './booking.payable';

export const bookingModule: AppModule = {
  name: 'booking',
  entities: [Booking, BookingStatusChange, BookingOccupancy, SlotUsage, IdempotencyKey],
  resolvers: [BookingResolver, BookingPageResolver, ClientBookingResolver],
  routes: bookingRoutes,
  start: (deps) => startIdempotencyPurge(deps),
  payables: { booking: { settle: settleBookings } },
};
