import type { AppModule } from '../../kernel/module';
import { Booking, BookingOccupancy, BookingStatusChange, IdempotencyKey, SlotUsage } from './booking.entity';
import { BookingPageResolver, BookingResolver, ClientBookingResolver } from './booking.resolver';
import { bookingRoutes } from './booking.routes';
import { codeRoutes } from './booking-codes.routes';
import { CodeValidationResolver } from './booking-codes.resolver';
import { startIdempotencyPurge } from './idempotency';
import { settleBookings } from './booking.payable';

export const bookingModule: AppModule = {
  name: 'booking',
  entities: [Booking, BookingStatusChange, BookingOccupancy, SlotUsage, IdempotencyKey],
  resolvers: [BookingResolver, BookingPageResolver, ClientBookingResolver, CodeValidationResolver],
  routes: (app) => {
    bookingRoutes(app);
    codeRoutes(app);
  },
  start: (deps) => startIdempotencyPurge(deps),
  payables: { booking: { settle: settleBookings } },
};
