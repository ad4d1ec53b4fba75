import { Arg, Ctx as GqlCtx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { resourceJson, serviceJson } from '../catalog/catalog.json';
import { ResourceType, ServiceType } from '../catalog/catalog.types';
import { clientLoader } from '../client/client.lookup';
import { clientJson } from '../client/client.service';
import { ClientType } from '../client/client.types';
import { requestBookings } from './booking-batch.service';
import { cancelClientBooking, clientBooking, clientBookings, requestBooking } from './client-booking.service';
import { createBooking, moveBooking, updateBooking } from './booking.service';
import type { BookingJson } from './booking.json';
import { resourceLoader, serviceLoader } from './booking.loaders';
import { getBooking, listBookings } from './booking-query.service';
import {
  BookingBatchType,
  BookingFilter,
  BookingPageType,
  BookingType,
  CancelClientBookingInput,
  ClientBookingPageType,
  ClientBookingType,
  CreateBookingInput,
  MoveBookingInput,
  RequestBookingInput,
  RequestBookingsInput,
  UpdateBookingInput,
} from './booking.types';

const IDEMPOTENCY = 'Same as the REST Idempotency-Key header: a repeated key with the same input replays the first answer for 24 hours.';

@Resolver(() => BookingType)
export class BookingResolver {
  @Query(() => BookingPageType, {
    nullable: true,
    description: "A page of the company's bookings (limit 1-100, default 100), ordered by startTime then id.",
  })
  bookings(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('filter', () => BookingFilter, { nullable: true }) filter?: BookingFilter,
    @Arg('limit', () => Int, { nullable: true }) limit?: number,
    @Arg('offset', () => Int, { nullable: true }) offset?: number,
  ) {
    return listBookings(ctx, companyID, { ...(filter ?? {}), limit, offset });
  }

  @Query(() => BookingType, { nullable: true })
  booking(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string, @Arg('id', () => ID) id: string) {
    return getBooking(ctx, companyID, id);
  }

  @Mutation(() => BookingType, { description: 'Creates a booking, or a recurring series with repeat (the first booking is returned).' })
  createBooking(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('input', () => CreateBookingInput) input: CreateBookingInput,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY }) idempotencyKey?: string,
  ) {
    const repeat = input.repeat
      ? { ...input.repeat, until: input.repeat.until ? input.repeat.until.toISOString() : input.repeat.until }
      : input.repeat;
    return createBooking(ctx, companyID, { ...input, repeat }, { idempotencyKey });
  }

  @Mutation(() => BookingType)
  updateBooking(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateBookingInput) input: UpdateBookingInput,
  ) {
    return updateBooking(ctx, companyID, id, input);
  }

  @Mutation(() => BookingType)
  moveBooking(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => MoveBookingInput) input: MoveBookingInput,
  ) {
    return moveBooking(ctx, companyID, id, input);
  }

  @FieldResolver(() => ClientType, { nullable: true })
  async client(@Root() b: BookingJson, @GqlCtx() ctx: Ctx) {
    if (!b.clientID) return null;
    const c = await clientLoader(ctx, b.companyID).load(b.clientID);
    return c ? clientJson(c) : null;
  }

  @FieldResolver(() => ServiceType, { nullable: true })
  async service(@Root() b: BookingJson, @GqlCtx() ctx: Ctx) {
    const s = await serviceLoader(ctx).load(`${b.companyID}|${b.serviceID}`);
    return s ? serviceJson(s) : null;
  }

  @FieldResolver(() => ResourceType, { nullable: true })
  async resource(@Root() b: BookingJson, @GqlCtx() ctx: Ctx) {
    const r = await resourceLoader(ctx).load(`${b.companyID}|${b.resourceID}`);
    return r ? resourceJson(r) : null;
  }
}

@Resolver(() => ClientBookingType)
export class ClientBookingResolver {
  @Mutation(() => ClientBookingType, {
    description:
      'Client interface: books a time the availability endpoints offer (client token, or an API key with client.create and a guest client).',
  })
  requestBooking(
    @GqlCtx() ctx: Ctx,
    @Arg('input', () => RequestBookingInput) input: RequestBookingInput,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY }) idempotencyKey?: string,
  ) {
    return requestBooking(ctx, input, { idempotencyKey });
  }

  @Mutation(() => BookingBatchType, {
    description: 'Client interface: books several times of one company with one payment, all or nothing (authorised like requestBooking).',
  })
  requestBookings(
    @GqlCtx() ctx: Ctx,
    @Arg('input', () => RequestBookingsInput) input: RequestBookingsInput,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY }) idempotencyKey?: string,
  ) {
    return requestBookings(ctx, input, { idempotencyKey });
  }

  @Query(() => ClientBookingPageType, { nullable: true, description: "The calling client's bookings." })
  clientBookings(
    @GqlCtx() ctx: Ctx,
    @Arg('limit', () => Int, { nullable: true }) limit?: number,
    @Arg('offset', () => Int, { nullable: true }) offset?: number,
  ) {
    return clientBookings(ctx, { limit, offset });
  }

  @Query(() => ClientBookingType, { nullable: true, description: 'One booking of the calling client, or any booking by its accessToken.' })
  clientBooking(
    @GqlCtx() ctx: Ctx,
    @Arg('id', () => ID) id: string,
    @Arg('accessToken', () => String, { nullable: true }) accessToken?: string,
  ) {
    return clientBooking(ctx, id, accessToken);
  }

  @Mutation(() => ClientBookingType, { description: 'Cancels a booking of the calling client (or by its accessToken).' })
  cancelClientBooking(
    @GqlCtx() ctx: Ctx,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => CancelClientBookingInput, { nullable: true }) input?: CancelClientBookingInput,
    @Arg('accessToken', () => String, { nullable: true }) accessToken?: string,
  ) {
    return cancelClientBooking(ctx, id, input ?? {}, accessToken);
  }
}
