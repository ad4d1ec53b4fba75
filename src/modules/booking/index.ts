import type { AppModule } from '../../kernel/module';
import { Booking, BookingOccupancy, BookingStatusChange, IdempotencyKey, SlotUsage } from './booking.entity';
import { BookingPageResolver, BookingResolver, ClientBookingResolver } from './booking.resolver';
import { bookingRoutes } from './booking.routes';
import { codeRoutes } from './booking-codes.routes';
import { CodeValidationResolver } from './booking-codes.resolver';
import { BookingLiveResolver } from './booking-live.resolver';
import { startIdempotencyPurge } from './idempotency';
import { settleBookings } from './booking.payable';
import { UNDONE } from './booking.status';
import { abandonedWhen } from '../../kernel/payable';

export const bookingModule: AppModule = {
  name: 'booking',
  description:
    'Bookings: made by merchants or requested through the client interface, moved, updated, cancelled; codes checked before booking.',
  entities: [Booking, BookingStatusChange, BookingOccupancy, SlotUsage, IdempotencyKey],
  resolvers: [BookingResolver, BookingPageResolver, ClientBookingResolver, CodeValidationResolver, BookingLiveResolver],
  routes: (app) => {
    bookingRoutes(app);
    codeRoutes(app);
  },
  start: (deps) => startIdempotencyPurge(deps),
  // a pending payment is no longer wanted once its bookings are cancelled, rejected or failed
  payables: { booking: { settle: settleBookings, abandoned: abandonedWhen('booking', UNDONE) } },
};
