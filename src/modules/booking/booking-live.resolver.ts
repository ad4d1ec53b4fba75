import { Arg, Ctx as GqlCtx, ID, Resolver, Root, Subscription } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { DOC } from '../../kernel/graphql-types';
import type { BookingNote } from '../../kernel/live';
import { bookingChange, bookingChanges } from './booking-live.service';
import { BookingChangeType } from './booking-live.types';

@Resolver()
export class BookingLiveResolver {
  @Subscription(() => BookingChangeType, {
    description:
      "Every committed change of the company's bookings (made through either API, by any server process), within a second of its " +
      'commit; a change that rolled back is never sent. Needs bookings.read. GraphQL over WebSocket (graphql-transport-ws) on /graphql.',
    subscribe: ({ args, context }) => bookingChanges(context as Ctx, (args as { companyID: string }).companyID),
  })
  bookingChanged(
    @Root() note: BookingNote,
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
  ) {
    return bookingChange(ctx, companyID, note);
  }
}
