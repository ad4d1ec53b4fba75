import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { DurationResolver, GraphQLJSONObject } from 'graphql-scalars';
import type { MetaData } from '../../shared/metadata';
import { ResourceType, ServiceType, TicketType } from '../catalog/catalog.types';
import { ClientType } from '../client/client.types';
import { SlotType } from '../scheduling/scheduling.types';

/** GraphQL types of bookings; field names are the REST JSON names and resolvers return the REST objects. */

const STATUS_HELP = 'pending, confirmed, cancelled, rejected, failed, finished or no_show';

@ObjectType('BookingStatusChange')
export class BookingStatusChangeType {
  @Field(() => ID) id!: string;
  @Field(() => ID) bookingID!: string;
  @Field(() => String, { nullable: true, description: 'null for the first change (creation)' }) oldStatus!: string | null;
  @Field() newStatus!: string;
  @Field(() => GraphQLJSONObject) metaData!: MetaData;
  @Field(() => Date) createdAt!: string;
}

@ObjectType('ClientBooking', { description: 'A booking as the client interface shows it.' })
export class ClientBookingType {
  @Field(() => ID) id!: string;
  @Field(() => ID) companyID!: string;
  @Field(() => ID) serviceID!: string;
  @Field(() => ID) resourceID!: string;
  @Field(() => [ID]) relatedResourceIDs!: string[];
  @Field(() => Date) startTime!: string;
  @Field(() => Date, { nullable: true, description: 'null while a sharable booking runs' }) endTime!: string | null;
  @Field(() => DurationResolver, { nullable: true }) duration!: string | null;
  @Field(() => Int) spots!: number;
  @Field(() => GraphQLJSONObject, { description: 'ticketID -> {spots, price, comparedPrice}' }) tickets!: Record<string, unknown>;
  @Field(() => Int) price!: number;
  @Field(() => String, { nullable: true }) currency!: string | null;
  @Field({ description: STATUS_HELP }) status!: string;
  @Field() bookingPolicy!: string;
  @Field({ description: 'the service type' }) type!: string;
  @Field({ description: 'Lets its holder read and cancel this booking through the client interface.' }) accessToken!: string;
  @Field(() => String, { nullable: true }) paymentURL!: string | null;
  @Field(() => GraphQLJSONObject) pluginData!: Record<string, unknown>;
  @Field(() => GraphQLJSONObject) metaData!: MetaData;
  @Field(() => Date) createdAt!: string;
}

@ObjectType('Booking')
export class BookingType extends ClientBookingType {
  @Field(() => ID, { nullable: true }) clientID!: string | null;
  @Field(() => [BookingStatusChangeType]) statusChanges!: BookingStatusChangeType[];
  @Field(() => String, { nullable: true }) rrule!: string | null;
  @Field(() => ID, { nullable: true }) recurringID!: string | null;
  @Field() clientInitiated!: boolean;
  @Field(() => Int, { nullable: true }) refundPercent!: number | null;
  @Field(() => String, { nullable: true }) code!: string | null;
  @Field(() => String, { nullable: true }) customPurchaseDescription!: string | null;
  @Field(() => Int) metaDataVersion!: number;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('BlockedTime', { description: 'Time a booking holds on a related resource.' })
export class BlockedTimeType {
  @Field(() => ID) id!: string;
  @Field(() => ID) bookingID!: string;
  @Field(() => ID) resourceID!: string;
  @Field(() => Date, { nullable: true }) startTime!: string | null;
  @Field(() => Date, { nullable: true, description: 'null while a sharable booking runs' }) endTime!: string | null;
  @Field({ description: 'related_resource' }) source!: string;
}

@ObjectType('BookingPage', { description: 'A page of bookings with each record they refer to listed once.' })
export class BookingPageType {
  @Field(() => [BlockedTimeType]) blockedTimes!: BlockedTimeType[];
  @Field(() => [BookingType]) bookings!: BookingType[];
  @Field(() => [ClientType]) clients!: ClientType[];
  @Field(() => [ResourceType]) resources!: ResourceType[];
  @Field(() => [ServiceType]) services!: ServiceType[];
  @Field(() => [SlotType]) slots!: SlotType[];
  @Field(() => [TicketType]) tickets!: TicketType[];
  @Field(() => Int) limit!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int) total!: number;
}

@ObjectType('ClientBookingPage')
export class ClientBookingPageType {
  @Field(() => [ClientBookingType]) bookings!: ClientBookingType[];
  @Field(() => Int) limit!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int) total!: number;
}

@InputType()
export class BookingRepeatInput {
  @Field({ description: 'iCalendar RRULE with COUNT or UNTIL (or send until); at most 366 occurrences' }) rrule!: string;
  @Field({ description: 'IANA zone whose wall clock the series follows' }) timeZone!: string;
  @Field(() => Date, { nullable: true }) until?: Date | null;
}

@InputType()
export class CreateBookingInput {
  @Field(() => ID) serviceID!: string;
  @Field(() => ID) resourceID!: string;
  @Field(() => Date) startTime!: Date;
  @Field(() => ID, { nullable: true }) clientID?: string | null;
  @Field(() => DurationResolver, { nullable: true }) duration?: string | null;
  @Field({ nullable: true, description: 'skip working hours, closings, slot schedules and the horizon (never overlap or capacity)' })
  ignoreSchedule?: boolean;
  @Field(() => GraphQLJSONObject, { nullable: true }) metaData?: MetaData | null;
  @Field(() => BookingRepeatInput, { nullable: true }) repeat?: BookingRepeatInput | null;
  @Field(() => Int, { nullable: true }) spots?: number | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'ticketID -> count' }) tickets?: Record<string, number> | null;
}

@InputType()
export class UpdateBookingInput {
  @Field(() => DurationResolver, { nullable: true }) duration?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: '{expectedVersion, path, value}' }) metaDataUpdate?: Record<
    string,
    unknown
  > | null;
  @Field(() => Int, { nullable: true, description: 'overrides the price' }) price?: number | null;
  @Field(() => Int, { nullable: true, description: '0-100' }) refundPercent?: number | null;
  @Field(() => ID, { nullable: true }) resourceID?: string | null;
  @Field(() => Int, { nullable: true }) spots?: number | null;
  @Field(() => Date, { nullable: true }) startTime?: Date | null;
  @Field(() => String, { nullable: true, description: STATUS_HELP }) status?: string | null;
}

@InputType()
export class MoveBookingInput {
  @Field(() => ID) resourceID!: string;
  @Field(() => Date) startTime!: Date;
  @Field({ nullable: true }) ignoreSchedule?: boolean;
  @Field({ nullable: true, description: 'price the new time (default: keep the price)' }) recalculatePrice?: boolean;
  @Field(() => String, { nullable: true, description: 'single (default) or upcoming' }) recurringUpdateStrategy?: string | null;
}

@InputType()
export class GuestClientInput {
  @Field(() => String, { nullable: true }) platformID?: string | null;
  @Field(() => ID, { nullable: true }) id?: string | null;
  @Field() email!: string;
  @Field(() => String, { nullable: true }) firstName?: string | null;
  @Field(() => String, { nullable: true }) lastName?: string | null;
}

@InputType()
export class RequestBookingInput {
  @Field(() => ID) companyID!: string;
  @Field(() => ID) serviceID!: string;
  @Field(() => ID, { nullable: true, description: 'default: the first available linked resource by name' }) resourceID?: string | null;
  @Field(() => Date) startTime!: Date;
  @Field(() => DurationResolver, { nullable: true }) duration?: string | null;
  @Field(() => Int, { nullable: true, description: 'default 1' }) spots?: number | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) tickets?: Record<string, number> | null;
  @Field(() => GuestClientInput, { nullable: true, description: 'guests (API key with client.create) only' })
  client?: GuestClientInput | null;
  @Field(() => String, { nullable: true }) code?: string | null;
  @Field(() => String, { nullable: true }) customPurchaseDescription?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metaData?: MetaData | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) pluginData?: Record<string, unknown> | null;
}

@InputType()
export class RequestBookingsInput {
  @Field(() => [RequestBookingInput], { description: '1 to 50 booking requests, all for the same company' })
  bookings!: RequestBookingInput[];
  @Field(() => GuestClientInput, { nullable: true, description: 'the paying guest (API key with client.create) for every booking' })
  client?: GuestClientInput | null;
}

@ObjectType('BookingBatch', { description: 'Bookings requested together and paid with one payment.' })
export class BookingBatchType {
  @Field(() => [ClientBookingType], { description: 'in request order' }) bookings!: ClientBookingType[];
  @Field(() => String, { nullable: true }) currency!: string | null;
  @Field(() => String, { nullable: true, description: 'null when no payment is taken' }) paymentURL!: string | null;
  @Field(() => Int, { description: "what the payment takes: the bookings' prices after discounts, less what gift cards pay" })
  totalAmount!: number;
  @Field(() => ID, { nullable: true, description: 'the payment transaction covering every booking' }) transactionID!: string | null;
}

@InputType()
export class CancelClientBookingInput {
  @Field(() => GraphQLJSONObject, { nullable: true, description: "merged into the booking's metaData" }) metaData?: MetaData | null;
}

@InputType()
export class BookingFilter {
  @Field(() => ID, { nullable: true }) clientID?: string | null;
  @Field(() => Date, { nullable: true }) from?: Date | null;
  @Field(() => Date, { nullable: true }) to?: Date | null;
  @Field({ nullable: true, description: 'include rejected and failed bookings' }) includeFailures?: boolean;
  @Field(() => [ID], { nullable: true }) resourceIDs?: string[] | null;
  @Field(() => [ID], { nullable: true }) serviceIDs?: string[] | null;
}
