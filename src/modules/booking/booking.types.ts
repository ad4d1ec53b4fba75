import { Field, ID, InputType, Int, InterfaceType, ObjectType } from 'type-graphql';
import { connectionFields, connectionType } from '../../kernel/connection';
import { DurationScalar, JSONObjectScalar } from '../../kernel/graphql-scalars';
import { defineEnum, DOC, MetaDataUpdateInput, PART_OF_RECORD } from '../../kernel/graphql-types';
import type { MetaData } from '../../shared/metadata';
import { BookingPolicyEnum, ResourceType, ServiceType, ServiceTypeEnum, TicketCountInput, TicketType } from '../catalog/catalog.types';
import { ClientType } from '../client/client.types';
import { SlotType, UpdateStrategyEnum } from '../scheduling/scheduling.types';
import type { BookedTicket } from './booking.entity';
import type { BookingStatus } from './booking.status';

/**
 * GraphQL types of bookings; field names are the REST JSON names and resolvers return the REST
 * objects (the ticket map is a list here). Admin (`Booking`) and client (`ClientBooking`) forms
 * share the `BookingBase` interface, so front ends can share fragments between them.
 */

export const BookingStatusEnum = defineEnum<BookingStatus>('BookingStatus', 'Where a booking stands (contract section 4).', {
  pending: 'Awaiting payment or the merchant’s approval; holds its time.',
  confirmed: 'Confirmed; holds its time.',
  cancelled: 'Cancelled by the client or the merchant.',
  rejected: 'Rejected by the merchant.',
  failed: 'The payment failed or expired.',
  finished: 'Took place (sharable bookings: closed and priced).',
  no_show: 'The client did not come.',
});

export const BlockedTimeSourceEnum = defineEnum('BlockedTimeSource', 'Why a booking blocks a resource it is not booked on.', {
  related_resource: 'The resource is a related resource of the booked link.',
});

/** Business outcomes the booking mutations answer with, documented on each mutation. */
export const BOOKING_OUTCOMES =
  'Expected failures carry `extensions.code`: `time_unavailable` (the time is outside the schedule, overlaps another booking or ' +
  'exceeds the capacity; recurring series name the first conflicting occurrence in `extensions.details`), `invalid_request` ' +
  '(a field is wrong, including a flexible duration outside the price rule step and bounds), `not_found` (service, resource, ' +
  'client or ticket not in the company), `forbidden` (missing permission, blocked client), `conflict` (a status change the ' +
  'booking cannot make).';

@ObjectType('BookedTicket', { description: 'Tickets of one kind in a booking and their unit prices.' })
export class BookedTicketType {
  @Field(() => ID, { description: 'The ticket.' }) ticketID!: string;
  @Field(() => Int, { description: 'Spots booked with it.' }) spots!: number;
  @Field(() => Int, { description: 'Unit price paid.' }) price!: number;
  @Field(() => Int, { description: 'Unit price before discounts.' }) comparedPrice!: number;
}

@ObjectType('BookingStatusChange', { description: 'One change of a booking status.' })
export class BookingStatusChangeType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: 'The booking changed.' }) bookingID!: string;
  @Field(() => BookingStatusEnum, { nullable: true, description: 'null for the first change (creation)' }) oldStatus!: string | null;
  @Field(() => BookingStatusEnum, { description: 'The status after the change.' }) newStatus!: string;
  @Field(() => JSONObjectScalar, { description: 'Merchant-defined data of the change.' }) metaData!: MetaData;
  @Field(() => Date, { description: 'When the change happened.' }) createdAt!: string;
}

@InterfaceType('BookingBase', {
  description: 'The fields every form of a booking has (`Booking` for merchants, `ClientBooking` for the client interface).',
  resolveType: (v: object) => ('clientInitiated' in v ? 'Booking' : 'ClientBooking'),
})
export abstract class BookingBaseType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field(() => ID, { description: 'The service booked.' }) serviceID!: string;
  @Field(() => ID, { description: 'The resource booked.' }) resourceID!: string;
  @Field(() => [ID], { description: 'Related resources the booking also occupies.' }) relatedResourceIDs!: string[];
  @Field(() => Date, { description: 'Start of the booking.' }) startTime!: string;
  @Field(() => Date, { nullable: true, description: 'null while a sharable booking runs' }) endTime!: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'Length of the booking; null while a sharable booking runs.' })
  duration!: string | null;
  @Field(() => Int, { description: 'Spots taken (the sum of the tickets for ticket services).' }) spots!: number;
  tickets!: Record<string, BookedTicket>;
  @Field(() => [BookedTicketType], {
    name: 'tickets',
    complexity: PART_OF_RECORD,
    description: 'Tickets booked (ticket services), with their unit prices.',
  })
  bookedTickets(): BookedTicketType[] {
    return Object.entries(this.tickets ?? {}).map(([ticketID, t]) => ({ ticketID, ...t }));
  }
  @Field(() => Int, { description: 'Price in the smallest currency unit.' }) price!: number;
  @Field(() => String, { nullable: true, description: 'ISO 4217 currency of the price; null when the service has none.' })
  currency!: string | null;
  @Field(() => BookingStatusEnum, { description: 'Where the booking stands.' }) status!: string;
  @Field(() => BookingPolicyEnum, { description: 'The booking policy of the service when booked.' }) bookingPolicy!: string;
  @Field(() => ServiceTypeEnum, { description: 'the service type' }) type!: string;
  @Field({ description: 'Lets its holder read and cancel this booking through the client interface.' }) accessToken!: string;
  @Field(() => String, { nullable: true, description: 'Where the client pays; null when no payment is due.' }) paymentURL!: string | null;
  @Field(() => JSONObjectScalar, { description: 'Data attached by the client for plugins (same rules as metaData).' })
  pluginData!: Record<string, unknown>;
  @Field(() => JSONObjectScalar, { description: DOC.metaData }) metaData!: MetaData;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
}

@ObjectType('ClientBooking', { implements: BookingBaseType, description: 'A booking as the client interface shows it.' })
export class ClientBookingType extends BookingBaseType {}

@ObjectType('Booking', { implements: BookingBaseType, description: 'A booking as merchants see it.' })
export class BookingType extends BookingBaseType {
  @Field(() => ID, { nullable: true, description: 'The client; null for a booking without one.' }) clientID!: string | null;
  @Field(() => [BookingStatusChangeType], { description: 'Every status change, oldest first.' }) statusChanges!: BookingStatusChangeType[];
  @Field(() => String, { nullable: true, description: 'The RRULE of a recurring series; null for a single booking.' }) rrule!:
    string | null;
  @Field(() => ID, { nullable: true, description: 'Shared by every booking of a recurring series.' }) recurringID!: string | null;
  @Field({ description: 'true for client-interface requests, false for merchant-created bookings.' }) clientInitiated!: boolean;
  @Field(() => Int, { nullable: true, description: 'Percent refunded when cancelled (0-100); null: the default.' })
  refundPercent!: number | null;
  @Field(() => String, { nullable: true, description: 'The promo, gift card or subscription code used.' }) code!: string | null;
  @Field(() => String, { nullable: true, description: 'Description of the purchase shown to the payer.' })
  customPurchaseDescription!: string | null;
  @Field(() => Int, { description: DOC.metaDataVersion }) metaDataVersion!: number;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('BlockedTime', { description: 'Time a booking holds on a related resource.' })
export class BlockedTimeType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: 'The booking holding the time.' }) bookingID!: string;
  @Field(() => ID, { description: 'The resource blocked.' }) resourceID!: string;
  @Field(() => Date, { nullable: true, description: 'Start of the blocked time (buffers included).' }) startTime!: string | null;
  @Field(() => Date, { nullable: true, description: 'null while a sharable booking runs' }) endTime!: string | null;
  @Field(() => BlockedTimeSourceEnum, { description: 'Why the resource is blocked.' }) source!: string;
}

@ObjectType('BookingConnection', {
  description:
    'Bookings by startTime then id; each side list holds the records the page refers to, once, and is loaded only when asked for.',
})
export class BookingConnectionType {
  @Field(() => [BlockedTimeType], { description: 'Times the bookings of the page block on related resources.' })
  blockedTimes!: BlockedTimeType[];
  @Field(() => [ClientType], { description: 'The clients of the bookings, by email.' }) clients!: ClientType[];
  @Field(() => [ResourceType], { description: 'The resources (and related resources) of the bookings, by name.' })
  resources!: ResourceType[];
  @Field(() => [ServiceType], { description: 'The services of the bookings, by name.' }) services!: ServiceType[];
  @Field(() => [SlotType], { description: 'The slots the group and ticket bookings sit in, by start.' }) slots!: SlotType[];
  @Field(() => [TicketType], { description: 'The tickets booked, by name.' }) tickets!: TicketType[];
}
connectionFields(BookingConnectionType, 'Booking', () => BookingType, 'bookings');

export const ClientBookingConnectionType = connectionType(
  'ClientBooking',
  () => ClientBookingType,
  "The calling client's bookings, by startTime then id.",
  'bookings',
);

@InputType({ description: 'How a booking repeats (a recurring series, all or nothing).' })
export class BookingRepeatInput {
  @Field({ description: 'iCalendar RRULE with COUNT or UNTIL (or send until); at most 366 occurrences' }) rrule!: string;
  @Field({ description: 'IANA zone whose wall clock the series follows' }) timeZone!: string;
  @Field(() => Date, { nullable: true, description: 'Last instant of the series.' }) until?: Date | null;
}

@InputType({ description: 'A new booking made by the merchant.' })
export class CreateBookingInput {
  @Field(() => ID, { description: 'The service to book.' }) serviceID!: string;
  @Field(() => ID, { description: 'The resource to book.' }) resourceID!: string;
  @Field(() => Date, { description: 'Start of the booking.' }) startTime!: Date;
  @Field(() => ID, { nullable: true, description: 'The client of the company booking.' }) clientID?: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'Length (flexible, days, sharable services).' }) duration?: string | null;
  @Field({ nullable: true, description: 'skip working hours, closings, slot schedules and the horizon (never overlap or capacity)' })
  ignoreSchedule?: boolean;
  @Field(() => JSONObjectScalar, { nullable: true, description: DOC.metaDataInput }) metaData?: MetaData | null;
  @Field(() => Boolean, {
    nullable: true,
    description:
      "false: the booking's client gets no e-mail about it, neither now nor about its later changes or a reminder " +
      "(the merchant's messages and webhooks are unaffected); default true.",
  })
  notify?: boolean | null;
  @Field(() => BookingRepeatInput, { nullable: true, description: 'Makes a recurring series.' }) repeat?: BookingRepeatInput | null;
  @Field(() => Int, { nullable: true, description: 'Spots to take (group services; default 1).' }) spots?: number | null;
  @Field(() => [TicketCountInput], { nullable: true, description: 'Tickets to book (ticket services).' }) tickets?:
    TicketCountInput[] | null;
}

@InputType({ description: 'Fields of a booking to change; a field left out keeps its value.' })
export class UpdateBookingInput {
  @Field(() => DurationScalar, { nullable: true, description: 'New length (finishes a sharable booking).' }) duration?: string | null;
  @Field(() => MetaDataUpdateInput, { nullable: true, description: DOC.metaDataUpdate }) metaDataUpdate?: MetaDataUpdateInput | null;
  @Field(() => Int, { nullable: true, description: 'overrides the price' }) price?: number | null;
  @Field(() => Int, { nullable: true, description: '0-100' }) refundPercent?: number | null;
  @Field(() => ID, { nullable: true, description: 'New resource.' }) resourceID?: string | null;
  @Field(() => Int, { nullable: true, description: 'New number of spots.' }) spots?: number | null;
  @Field(() => Date, { nullable: true, description: 'New start.' }) startTime?: Date | null;
  @Field(() => BookingStatusEnum, { nullable: true, description: 'New status (allowed transitions only, else `conflict`).' })
  status?: string | null;
}

@InputType({ description: 'Where to move a booking.' })
export class MoveBookingInput {
  @Field(() => ID, { description: 'The resource to move it to.' }) resourceID!: string;
  @Field(() => Date, { description: 'The new start.' }) startTime!: Date;
  @Field({ nullable: true, description: 'Skip working hours, closings, slot schedules and the horizon.' }) ignoreSchedule?: boolean;
  @Field({ nullable: true, description: 'price the new time (default: keep the price)' }) recalculatePrice?: boolean;
  @Field(() => UpdateStrategyEnum, { nullable: true, description: 'single (default) or upcoming' }) recurringUpdateStrategy?: string | null;
}

@InputType({ description: 'The guest a booking is made for (an API key with client.create, no client token).' })
export class GuestClientInput {
  @Field(() => String, {
    nullable: true,
    description: 'An identifier of the guest on the integrator’s platform; accepted, not used for identity.',
  })
  platformID?: string | null;
  @Field(() => ID, { nullable: true, description: 'A known client of the company.' }) id?: string | null;
  @Field({ description: 'Email address.' }) email!: string;
  @Field(() => String, { nullable: true, description: 'First name.' }) firstName?: string | null;
  @Field(() => String, { nullable: true, description: 'Last name.' }) lastName?: string | null;
}

@InputType({ description: 'A booking requested through the client interface.' })
export class RequestBookingInput {
  @Field(() => ID, { description: 'The company.' }) companyID!: string;
  @Field(() => ID, { description: 'The service to book.' }) serviceID!: string;
  @Field(() => ID, { nullable: true, description: 'default: the first available linked resource by name' }) resourceID?: string | null;
  @Field(() => Date, { description: 'Start of the booking (a time the availability queries offer).' }) startTime!: Date;
  @Field(() => DurationScalar, { nullable: true, description: 'Length (flexible, days, sharable services).' }) duration?: string | null;
  @Field(() => Int, { nullable: true, description: 'default 1' }) spots?: number | null;
  @Field(() => [TicketCountInput], { nullable: true, description: 'Tickets to book (ticket services).' }) tickets?:
    TicketCountInput[] | null;
  @Field(() => GuestClientInput, { nullable: true, description: 'guests (API key with client.create) only' })
  client?: GuestClientInput | null;
  @Field(() => String, { nullable: true, description: 'A promo, gift card or subscription code.' }) code?: string | null;
  @Field(() => String, { nullable: true, description: 'Description of the purchase shown to the payer.' }) customPurchaseDescription?:
    string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: DOC.metaDataInput }) metaData?: MetaData | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'Data for plugins (same rules as metaData).' }) pluginData?: Record<
    string,
    unknown
  > | null;
}

@InputType({ description: 'Several bookings of one company, paid with one payment.' })
export class RequestBookingsInput {
  @Field(() => [RequestBookingInput], { description: '1 to 50 booking requests, all for the same company' })
  bookings!: RequestBookingInput[];
  @Field(() => GuestClientInput, { nullable: true, description: 'the paying guest (API key with client.create) for every booking' })
  client?: GuestClientInput | null;
}

@ObjectType('BookingBatch', { description: 'Bookings requested together and paid with one payment.' })
export class BookingBatchType {
  @Field(() => [ClientBookingType], { description: 'in request order' }) bookings!: ClientBookingType[];
  @Field(() => String, { nullable: true, description: 'Currency of the total; null when no price applies.' }) currency!: string | null;
  @Field(() => String, { nullable: true, description: 'null when no payment is taken' }) paymentURL!: string | null;
  @Field(() => Int, { description: "what the payment takes: the bookings' prices after discounts, less what gift cards pay" })
  totalAmount!: number;
  @Field(() => ID, { nullable: true, description: 'the payment transaction covering every booking' }) transactionID!: string | null;
}

@InputType({ description: 'A cancellation by the client.' })
export class CancelClientBookingInput {
  @Field(() => JSONObjectScalar, { nullable: true, description: "merged into the booking's metaData" }) metaData?: MetaData | null;
}

@InputType({ description: 'Which bookings to list; every filter given must match.' })
export class BookingFilter {
  @Field(() => ID, { nullable: true, description: 'Bookings of this client.' }) clientID?: string | null;
  @Field(() => Date, { nullable: true, description: 'Bookings ending after this instant.' }) from?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Bookings starting before this instant.' }) to?: Date | null;
  @Field({ nullable: true, description: 'include rejected and failed bookings' }) includeFailures?: boolean;
  @Field(() => [ID], { nullable: true, description: 'Bookings on (or blocking) these resources.' }) resourceIDs?: string[] | null;
  @Field(() => [ID], { nullable: true, description: 'Bookings of these services.' }) serviceIDs?: string[] | null;
}
