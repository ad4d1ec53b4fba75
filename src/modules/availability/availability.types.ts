import { Field, ID, InputType, Int, InterfaceType, ObjectType } from 'type-graphql';
import { DurationScalar } from '../../kernel/graphql-scalars';
import { PART_OF_RECORD } from '../../kernel/graphql-types';
import type { Money } from '../../shared/money';
import { TicketCountInput, TicketCountType, ticketCounts, ticketMap } from '../catalog/catalog.types';

/**
 * Available times and dates. REST answers maps keyed by resource id; GraphQL lists the resources
 * (`resources[].times`). The spot counts REST sends for group and ticket services only are fields
 * of `SlotAvailableTime` only, so a query selecting them (`... on SlotAvailableTime`) gets them
 * exactly where REST has them, and no key where REST has none.
 */

@ObjectType('Price', { description: 'A price in the smallest currency unit.' })
export class PriceType {
  @Field(() => Int, { description: 'What the client pays.' }) amount!: number;
  @Field(() => Int, { description: 'The price before discounts (equal to amount without one).' }) comparedAmount!: number;
  @Field({ description: 'ISO 4217 currency code.' }) currency!: string;
}

@ObjectType('TicketPrice', { description: 'The unit price of one ticket.' })
export class TicketPriceType extends PriceType {
  @Field(() => ID, { description: 'The ticket.' }) ticketID!: string;
}

@InterfaceType('AvailableTime', {
  description: 'A time a service can be booked at; `SlotAvailableTime` (group and ticket services) adds the spot counts.',
  resolveType: (v: object) => ('spotsAvailable' in v ? 'SlotAvailableTime' : 'OpenAvailableTime'),
})
export abstract class AvailableTimeType {
  @Field(() => Date, { description: 'When the booking would start.' }) startTime!: string;
  @Field(() => DurationScalar, { description: 'How long the booking would last.' }) duration!: string;
  @Field(() => PriceType, { description: 'The price of a booking at this time (for the spots and tickets asked).' }) price!: PriceType;
}

@ObjectType('OpenAvailableTime', {
  implements: AvailableTimeType,
  description: 'An available time of a fixed, flexible, days or sharable service.',
})
export class OpenAvailableTimeType extends AvailableTimeType {}

@ObjectType('SlotAvailableTime', { implements: AvailableTimeType, description: 'An available slot of a group or ticket service.' })
export class SlotAvailableTimeType extends AvailableTimeType {
  @Field(() => Int, { description: 'Spots still free.' }) spotsAvailable!: number;
  @Field(() => Int, { description: 'Capacity of the slot.' }) totalSpots!: number;
  @Field(() => Int, { description: 'Spots booked.' }) bookedSpots!: number;
  bookedSpotsPerTicket!: Record<string, number>;
  totalSpotsPerTicket!: Record<string, number>;
  ticketPrices!: Record<string, Money>;
  @Field(() => [TicketCountType], { name: 'bookedSpotsPerTicket', complexity: PART_OF_RECORD, description: 'Spots booked per ticket.' })
  bookedPerTicket(): TicketCountType[] {
    return ticketCounts(this.bookedSpotsPerTicket);
  }
  @Field(() => [TicketCountType], { name: 'totalSpotsPerTicket', complexity: PART_OF_RECORD, description: 'Capacity per ticket.' })
  totalPerTicket(): TicketCountType[] {
    return ticketCounts(this.totalSpotsPerTicket);
  }
  @Field(() => [TicketPriceType], { name: 'ticketPrices', complexity: PART_OF_RECORD, description: 'Unit price of each ticket.' })
  pricesPerTicket(): TicketPriceType[] {
    return Object.entries(this.ticketPrices ?? {}).map(([ticketID, p]) => ({ ticketID, ...p }));
  }
}

@ObjectType('ResourceAvailableTimes', { description: 'The available times of one resource.' })
export class ResourceTimesType {
  @Field(() => ID, { description: 'The resource.' }) resourceID!: string;
  @Field(() => [AvailableTimeType], { description: 'Its available times, by start.' }) times!: AvailableTimeType[];
}

@ObjectType('AvailableTimes', { description: 'Available times per resource (REST: the map `times`, resource id -> entries).' })
export class AvailableTimesType {
  @Field({ description: "The company's IANA time zone." }) timeZone!: string;
  @Field(() => [ResourceTimesType], { description: 'Each resource asked (or linked), in the order of the REST map.' })
  resources!: ResourceTimesType[];
}

@ObjectType('ResourceAvailableDates', { description: 'The available dates of one resource.' })
export class ResourceDatesType {
  @Field(() => ID, { description: 'The resource.' }) resourceID!: string;
  @Field(() => [String], { description: 'Dates (YYYY-MM-DD, company time zone) with at least one available time.' }) dates!: string[];
}

@ObjectType('AvailableDates', { description: 'Available dates per resource (REST: the map `dates`, resource id -> dates).' })
export class AvailableDatesType {
  @Field({ description: "The company's IANA time zone." }) timeZone!: string;
  @Field(() => [ResourceDatesType], { description: 'Each resource asked (or linked), in the order of the REST map.' })
  resources!: ResourceDatesType[];
}

@InputType('AvailableTimesInput', { description: 'Which times to compute.' })
export class AvailableTimesInput {
  @Field(() => Date, { description: 'Start of the window.' }) from!: Date;
  @Field(() => Date, { description: 'End of the window (at most 93 days after from).' }) to!: Date;
  @Field(() => [ID], { nullable: true, description: 'Only these linked resources; left out: every linked resource.' })
  resourceIDs?: string[];
  @Field(() => DurationScalar, { nullable: true, description: 'ISO 8601 duration (flexible, days, sharable)' }) duration?: string;
  @Field(() => Int, { nullable: true, description: 'Spots wanted (group services).' }) spots?: number;
  @Field(() => [TicketCountInput], { nullable: true, description: 'Tickets wanted (ticket services).' }) tickets?: TicketCountInput[];
  @Field({ nullable: true, description: 'admin only' }) includePastTimes?: boolean;
}

/**
 * The input as the service reads it (the REST body's shape): the DateTime scalar hands over Date
 * objects (the service accepts both forms); tickets are a list here.
 */
export const timesInputOf = (i: AvailableTimesInput) => ({ ...i, tickets: ticketMap(i.tickets) });
