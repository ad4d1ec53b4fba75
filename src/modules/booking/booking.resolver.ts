import { Arg, Args, Ctx as GqlCtx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { runHeavy } from '../../kernel/bulkhead';
import type { Ctx } from '../../kernel/context';
import { DOC } from '../../kernel/graphql-types';
import { ConnectionArgs } from '../../kernel/connection';
import { resourceJson, serviceJson } from '../catalog/catalog.json';
import { ResourceType, ServiceType, ticketMap, TicketType } from '../catalog/catalog.types';
import { clientLoader } from '../client/client.lookup';
import { clientJson } from '../client/client.service';
import { ClientType } from '../client/client.types';
import { SlotType } from '../scheduling/scheduling.types';
import { requestBookings } from './booking-batch.service';
import { cancelClientBooking, clientBooking, clientBookingsConnection, requestBooking } from './client-booking.service';
import { createBooking, moveBooking, updateBooking } from './booking.service';
import { statusChangeJson } from './booking.json';
import { resourceLoader, serviceLoader, statusChangesLoader } from './booking.loaders';
import { bookingSideLists, bookingsConnection, getBooking, type BookingConnection, type ListedBooking } from './booking-query.service';
import {
  BlockedTimeType,
  BOOKING_OUTCOMES,
  BookingBatchType,
  BookingFilter,
  BookingConnectionType,
  BookingStatusChangeType,
  BookingType,
  CancelClientBookingInput,
  ClientBookingConnectionType,
  ClientBookingType,
  CreateBookingInput,
  MoveBookingInput,
  RequestBookingInput,
  RequestBookingsInput,
  UpdateBookingInput,
} from './booking.types';

const IDEMPOTENCY = 'Same as the REST Idempotency-Key header: a repeated key with the same input replays the first answer for 24 hours.';

/** The client-interface input with its ticket list as the REST map. */
const requestOf = (i: RequestBookingInput) => ({ ...i, tickets: ticketMap(i.tickets) });

@Resolver(() => BookingType)
export class BookingResolver {
  @Query(() => BookingConnectionType, {
    nullable: true,
    description: "The company's bookings (first/last 1-100, default first 100), ordered by startTime then id.",
  })
  bookings(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
    @Arg('filter', () => BookingFilter, {
      nullable: true,
      description: 'The filters; left out: every booking but rejected and failed ones.',
    })
    filter?: BookingFilter,
  ) {
    return runHeavy(ctx, 'lists', () => bookingsConnection(ctx, companyID, filter ?? {}, page));
  }

  @Query(() => BookingType, { nullable: true, description: 'One booking of the company.' })
  booking(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
  ) {
    return getBooking(ctx, companyID, id);
  }

  @Mutation(() => BookingType, {
    description: `Creates a booking, or a recurring series with repeat (the first booking is returned). ${BOOKING_OUTCOMES}`,
  })
  createBooking(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('input', () => CreateBookingInput, { description: DOC.inputArg }) input: CreateBookingInput,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY }) idempotencyKey?: string,
  ) {
    const repeat = input.repeat
      ? { ...input.repeat, until: input.repeat.until ? input.repeat.until.toISOString() : input.repeat.until }
      : input.repeat;
    return createBooking(ctx, companyID, { ...input, repeat, tickets: ticketMap(input.tickets) }, { idempotencyKey });
  }

  @Mutation(() => BookingType, {
    description: `Changes the fields sent (time, resource, spots, price, status); a stale metaDataUpdate.expectedVersion is \`version_conflict\`. ${BOOKING_OUTCOMES}`,
  })
  updateBooking(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
    @Arg('input', () => UpdateBookingInput, { description: DOC.inputArg }) input: UpdateBookingInput,
  ) {
    return updateBooking(ctx, companyID, id, input);
  }

  @Mutation(() => BookingType, {
    description: `Moves a booking (or a series with upcoming) to another time or resource. ${BOOKING_OUTCOMES}`,
  })
  moveBooking(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
    @Arg('input', () => MoveBookingInput, { description: DOC.inputArg }) input: MoveBookingInput,
  ) {
    return moveBooking(ctx, companyID, id, input);
  }

  @FieldResolver(() => [BookingStatusChangeType], { description: 'Every status change, oldest first.' })
  async statusChanges(@Root() b: ListedBooking, @GqlCtx() ctx: Ctx) {
    if (b.statusChanges) return b.statusChanges;
    return (await statusChangesLoader(ctx).load(`${b.companyID}|${b.id}`)).map(statusChangeJson);
  }

  @FieldResolver(() => ClientType, { nullable: true, description: 'The client; null for a booking without one.' })
  async client(@Root() b: ListedBooking, @GqlCtx() ctx: Ctx) {
    if (!b.clientID) return null;
    const c = await clientLoader(ctx, b.companyID).load(b.clientID);
    return c ? clientJson(c) : null;
  }

  @FieldResolver(() => ServiceType, { nullable: true, description: 'The service booked.' })
  async service(@Root() b: ListedBooking, @GqlCtx() ctx: Ctx) {
    const s = await serviceLoader(ctx).load(`${b.companyID}|${b.serviceID}`);
    return s ? serviceJson(s) : null;
  }

  @FieldResolver(() => ResourceType, { nullable: true, description: 'The resource booked.' })
  async resource(@Root() b: ListedBooking, @GqlCtx() ctx: Ctx) {
    const r = await resourceLoader(ctx).load(`${b.companyID}|${b.resourceID}`);
    return r ? resourceJson(r) : null;
  }
}

/** The side lists of a page of bookings, each computed only when the query selects it. */
@Resolver(() => BookingConnectionType)
export class BookingPageResolver {
  @FieldResolver(() => [ClientType], { description: 'The clients of the bookings, by email.' })
  clients(@Root() p: BookingConnection, @GqlCtx() ctx: Ctx) {
    return bookingSideLists.clients(ctx, p.companyId, p.rows);
  }

  @FieldResolver(() => [ServiceType], { description: 'The services of the bookings, by name.' })
  services(@Root() p: BookingConnection, @GqlCtx() ctx: Ctx) {
    return bookingSideLists.services(ctx, p.companyId, p.rows);
  }

  @FieldResolver(() => [ResourceType], { description: 'The resources (and related resources) of the bookings, by name.' })
  resources(@Root() p: BookingConnection, @GqlCtx() ctx: Ctx) {
    return bookingSideLists.resources(ctx, p.companyId, p.rows);
  }

  @FieldResolver(() => [TicketType], { description: 'The tickets booked, by name.' })
  tickets(@Root() p: BookingConnection, @GqlCtx() ctx: Ctx) {
    return bookingSideLists.tickets(ctx, p.companyId, p.rows);
  }

  @FieldResolver(() => [SlotType], { description: 'The slots the group and ticket bookings sit in, by start.' })
  slots(@Root() p: BookingConnection, @GqlCtx() ctx: Ctx) {
    return bookingSideLists.slots(ctx, p.companyId, p.rows);
  }

  @FieldResolver(() => [BlockedTimeType], { description: 'Times the bookings of the page block on related resources.' })
  blockedTimes(@Root() p: BookingConnection, @GqlCtx() ctx: Ctx) {
    return bookingSideLists.blockedTimes(ctx, p.companyId, p.rows);
  }
}

@Resolver(() => ClientBookingType)
export class ClientBookingResolver {
  @Mutation(() => ClientBookingType, {
    description:
      'Client interface: books a time the availability endpoints offer (client token, or an API key with client.create and a guest client). ' +
      BOOKING_OUTCOMES,
  })
  requestBooking(
    @GqlCtx() ctx: Ctx,
    @Arg('input', () => RequestBookingInput, { description: 'The booking asked for.' }) input: RequestBookingInput,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY }) idempotencyKey?: string,
  ) {
    return requestBooking(ctx, requestOf(input), { idempotencyKey });
  }

  @Mutation(() => BookingBatchType, {
    description:
      'Client interface: books several times of one company with one payment, all or nothing (authorised like requestBooking). ' +
      BOOKING_OUTCOMES,
  })
  requestBookings(
    @GqlCtx() ctx: Ctx,
    @Arg('input', () => RequestBookingsInput, { description: 'The bookings asked for.' }) input: RequestBookingsInput,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY }) idempotencyKey?: string,
  ) {
    return requestBookings(ctx, { ...input, bookings: input.bookings?.map(requestOf) }, { idempotencyKey });
  }

  @Query(() => ClientBookingConnectionType, { nullable: true, description: "The calling client's bookings, by startTime then id." })
  clientBookings(@GqlCtx() ctx: Ctx, @Args(() => ConnectionArgs) page: ConnectionArgs) {
    return clientBookingsConnection(ctx, page);
  }

  @Query(() => ClientBookingType, { nullable: true, description: 'One booking of the calling client, or any booking by its accessToken.' })
  clientBooking(
    @GqlCtx() ctx: Ctx,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
    @Arg('accessToken', () => String, { nullable: true, description: 'The booking’s accessToken (instead of a client token).' })
    accessToken?: string,
  ) {
    return clientBooking(ctx, id, accessToken);
  }

  @Mutation(() => ClientBookingType, {
    description: 'Cancels a booking of the calling client (or by its accessToken); a booking that cannot be cancelled is `conflict`.',
  })
  cancelClientBooking(
    @GqlCtx() ctx: Ctx,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
    @Arg('input', () => CancelClientBookingInput, { nullable: true, description: 'What to record with the cancellation.' })
    input?: CancelClientBookingInput,
    @Arg('accessToken', () => String, { nullable: true, description: 'The booking’s accessToken (instead of a client token).' })
    accessToken?: string,
  ) {
    return cancelClientBooking(ctx, id, input ?? {}, accessToken);
  }
}
