import { Field, Float, ID, Int, ObjectType, InputType } from 'type-graphql';
import { CurrencyScalar, DurationScalar, HexColorCodeScalar, JSONObjectScalar, LocalTimeScalar } from '../../kernel/graphql-scalars';
import { defineEnum, DOC, MetaDataUpdateInput } from '../../kernel/graphql-types';
import { connectionFields, connectionType } from '../../kernel/connection';
import type { MetaData } from '../../shared/metadata';
import type { ServiceType as ServiceKind } from '../../shared/service-type';

/**
 * GraphQL types of the catalog. Field names are the REST JSON names, and resolvers return the
 * REST JSON objects (`catalog.json.ts`); the few fields whose REST form is a map are lists here.
 */

export const ServiceTypeEnum = defineEnum<ServiceKind>('ServiceType', 'How a service is booked (contract section 4).', {
  fixed: 'A fixed duration (settings.duration) at times on the grid of timeInterval.',
  flexible: 'The client chooses the duration, a whole number of the price rule step.',
  group: 'Scheduled slots shared by several clients, each taking spots of the capacity.',
  ticket: 'Scheduled slots booked with tickets of several kinds, each with its own capacity and price.',
  days: 'Stays of whole days from check-in to check-out time.',
  sharable: 'Pay-as-you-go rental: starts now, the price follows the elapsed time when it is finished.',
});

export const BookingPolicyEnum = defineEnum('BookingPolicy', 'Whether a booking needs the merchant to confirm it.', {
  instant: 'Confirmed at once (unless a payment is due).',
  manual: 'Stays pending until the merchant confirms or rejects it.',
});

@ObjectType('ServiceTax', { description: 'Tax of a service price.' })
export class ServiceTaxType {
  @Field({ description: 'Whether prices include the tax.' }) inclusive!: boolean;
  @Field(() => Float, { description: 'percent, 21 = 21 %' }) rate!: number;
}

@ObjectType('ServiceSettings', { description: 'How a service is booked; every key is present, null when unset.' })
export class ServiceSettingsType {
  @Field(() => DurationScalar, { nullable: true, description: 'how far ahead clients can book' }) availabilityPeriod!: string | null;
  @Field(() => BookingPolicyEnum, { description: 'Whether bookings are confirmed at once or by the merchant.' }) bookingPolicy!: string;
  @Field(() => DurationScalar, { nullable: true, description: 'Time kept free before each booking.' }) bufferBefore!: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'Time kept free after each booking.' }) bufferAfter!: string | null;
  @Field(() => LocalTimeScalar, { nullable: true, description: 'Check-in time of day of days services.' }) checkInTime!: string | null;
  @Field(() => LocalTimeScalar, { nullable: true, description: 'Check-out time of day of days services.' }) checkOutTime!: string | null;
  @Field(() => CurrencyScalar, { nullable: true, description: 'Currency of the prices.' }) currency!: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'Length of a booking (fixed services) or of a slot by default.' })
  duration!: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'interval at which the service can be booked' }) timeInterval!: string | null;
  @Field(() => ServiceTaxType, { nullable: true, description: 'Tax of the prices; null when none is set.' }) tax!: ServiceTaxType | null;
}

@ObjectType('Service', { description: 'Something a company provides, booked on linked resources.' })
export class ServiceType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field({ description: 'Display name.' }) name!: string;
  @Field(() => ServiceTypeEnum, { description: 'How the service is booked.' }) type!: string;
  @Field(() => HexColorCodeScalar, { nullable: true, description: 'Display color.' }) color!: string | null;
  @Field(() => JSONObjectScalar, { description: DOC.metaData }) metaData!: MetaData;
  @Field(() => Int, { description: DOC.metaDataVersion }) metaDataVersion!: number;
  @Field(() => Int, { description: 'Place in the list of services (ascending).' }) position!: number;
  @Field(() => ServiceSettingsType, { description: 'How the service is booked.' }) settings!: ServiceSettingsType;
  @Field(() => Date, { nullable: true, description: 'When the service was disabled; null while enabled.' }) disabledAt!: string | null;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('Resource', { description: 'Anything clients can book: a person or a physical asset.' })
export class ResourceType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field({ description: 'Display name.' }) name!: string;
  @Field(() => HexColorCodeScalar, { nullable: true, description: 'Display color.' }) color!: string | null;
  @Field(() => JSONObjectScalar, { description: DOC.metaData }) metaData!: MetaData;
  @Field(() => Int, { description: DOC.metaDataVersion }) metaDataVersion!: number;
  @Field(() => [ID], { description: 'Resources of the company always booked together with this one.' }) relatedResourceIDs!: string[];
  @Field(() => Date, { nullable: true, description: 'When the resource was disabled; null while enabled.' }) disabledAt!: string | null;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('Ticket', { description: 'A kind of ticket of a ticket service (adult, child, ...).' })
export class TicketType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: 'The service the ticket belongs to.' }) serviceID!: string;
  @Field({ description: 'Display name.' }) name!: string;
  @Field({ description: 'Whether clients can book the ticket.' }) enabled!: boolean;
  @Field(() => JSONObjectScalar, { description: DOC.metaData }) metaData!: MetaData;
  @Field(() => Int, { description: DOC.metaDataVersion }) metaDataVersion!: number;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('RelatedResourceIDs', {
  description: 'Resources booked together with the linked one: every `all` resource and one free `any` resource.',
})
export class RelatedResourceIDsType {
  @Field(() => [ID], { description: 'Resources every booking also occupies.' }) all!: string[];
  @Field(() => [ID], { description: 'Resources of which a booking also occupies one that is free.' }) any!: string[];
}

@ObjectType('ServiceResourceLink', { description: 'Makes a resource bookable for a service.' })
export class ServiceResourceLinkType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: 'The linked service.' }) serviceID!: string;
  @Field(() => ID, { description: 'The linked resource.' }) resourceID!: string;
  @Field(() => RelatedResourceIDsType, { description: 'Resources booked together with the resource for this service.' })
  relatedResourceIDs!: RelatedResourceIDsType;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('ServiceLinks', {
  description: 'A connection of a service’s resource links (oldest first), with the resources the page’s links link.',
})
export class ServiceLinksType {
  @Field(() => [ResourceType], { description: 'The resources of this page’s links, by name.' }) resources!: ResourceType[];
}
connectionFields(ServiceLinksType, 'ServiceResourceLink', () => ServiceResourceLinkType, 'links');

@ObjectType('ResourceLinks', {
  description: 'A connection of a resource’s service links (oldest first), with the services the page’s links link.',
})
export class ResourceLinksType {
  @Field(() => [ServiceType], { description: 'The services of this page’s links, in list order.' }) services!: ServiceType[];
}
connectionFields(ResourceLinksType, 'ServiceResourceLink', () => ServiceResourceLinkType, 'links');

@ObjectType('ClientServiceResource', { description: 'A resource as the client form of a service lists it.' })
export class ClientServiceResourceType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field({ description: 'Display name.' }) name!: string;
  @Field(() => HexColorCodeScalar, { nullable: true, description: 'Display color.' }) color!: string | null;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('ClientTicket', { description: 'A ticket as the client form of a service lists it.' })
export class ClientTicketType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field({ description: 'Display name.' }) name!: string;
}

@ObjectType('ClientService', { description: 'A service as the client interface offers it.' })
export class ClientServiceType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field({ description: 'Display name.' }) name!: string;
  @Field(() => ServiceTypeEnum, { description: 'How the service is booked.' }) type!: string;
  @Field(() => HexColorCodeScalar, { nullable: true, description: 'Display color.' }) color!: string | null;
  @Field(() => ServiceSettingsType, { description: 'How the service is booked.' }) settings!: ServiceSettingsType;
  @Field({ description: 'the company’s IANA time zone' }) timeZone!: string;
  @Field(() => [ClientServiceResourceType], { description: 'enabled linked resources' }) resources!: ClientServiceResourceType[];
  @Field(() => [ClientTicketType], { description: 'enabled tickets' }) tickets!: ClientTicketType[];
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('ClientResourceService', { description: 'A service as the client form of a resource lists it.' })
export class ClientResourceServiceType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field({ description: 'Display name.' }) name!: string;
  @Field(() => HexColorCodeScalar, { nullable: true, description: 'Display color.' }) color!: string | null;
  @Field(() => ServiceTypeEnum, { description: 'How the service is booked.' }) type!: string;
  @Field(() => ServiceSettingsType, { description: 'How the service is booked.' }) settings!: ServiceSettingsType;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('ClientResource', { description: 'A resource as the client interface offers it.' })
export class ClientResourceType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field({ description: 'Display name.' }) name!: string;
  @Field(() => HexColorCodeScalar, { nullable: true, description: 'Display color.' }) color!: string | null;
  @Field(() => [ClientResourceServiceType], { description: 'enabled linked services' }) services!: ClientResourceServiceType[];
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

export const ServiceConnectionType = connectionType(
  'Service',
  () => ServiceType,
  'Services, by position, then creation, then id.',
  'services',
);
export const ResourceConnectionType = connectionType('Resource', () => ResourceType, 'Resources, by name, then id.', 'resources');
export const TicketConnectionType = connectionType('Ticket', () => TicketType, 'Tickets, oldest first (then by id).', 'tickets');
export const ServiceResourceLinkConnectionType = connectionType(
  'ServiceResourceLink',
  () => ServiceResourceLinkType,
  'Service-resource links, oldest first (then by id).',
  'links',
);
export const ClientServiceConnectionType = connectionType(
  'ClientService',
  () => ClientServiceType,
  'Services in the client form, by position, then creation, then id.',
  'services',
);
export const ClientResourceConnectionType = connectionType(
  'ClientResource',
  () => ClientResourceType,
  'Resources in the client form, by name, then id.',
  'resources',
);

/** Tickets of a request, `{ticketID: count}` in REST. */
@InputType('TicketCountInput', { description: 'A number of tickets of one kind.' })
export class TicketCountInput {
  @Field(() => ID, { description: 'The ticket (of the service booked).' }) ticketID!: string;
  @Field(() => Int, { description: 'How many of that ticket.' }) count!: number;
}

@ObjectType('TicketCount', { description: 'A number of spots of one ticket.' })
export class TicketCountType {
  @Field(() => ID, { description: 'The ticket.' }) ticketID!: string;
  @Field(() => Int, { description: 'How many spots of that ticket.' }) count!: number;
}

/** A list of ticket counts as the REST map the services read; counts of a ticket named twice add up. */
export function ticketMap(list: TicketCountInput[] | null | undefined): Record<string, number> | null | undefined {
  if (!list) return list as null | undefined;
  const out: Record<string, number> = {};
  for (const t of list) out[t.ticketID] = (out[t.ticketID] ?? 0) + t.count;
  return out;
}

/** A REST map `{ticketID: count}` as a list. */
export const ticketCounts = (map: Record<string, number> | null | undefined): TicketCountType[] =>
  Object.entries(map ?? {}).map(([ticketID, count]) => ({ ticketID, count }));

/**
 * GraphQL inputs of the catalog. The scalars only check shapes; the services apply every rule,
 * exactly as for the REST bodies.
 */

@InputType({ description: 'Tax of a service price.' })
export class ServiceTaxInput {
  @Field({ nullable: true, description: 'Whether prices include the tax.' }) inclusive?: boolean;
  @Field(() => Float, { nullable: true, description: 'percent, 0..100' }) rate?: number;
}

@InputType({ description: 'Settings to set; a field left out keeps its value, null clears it.' })
export class ServiceSettingsInput {
  @Field(() => DurationScalar, { nullable: true, description: 'How far ahead clients can book.' }) availabilityPeriod?: string | null;
  @Field(() => BookingPolicyEnum, { nullable: true, description: 'instant (default) or manual' }) bookingPolicy?: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'Time kept free before each booking.' }) bufferBefore?: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'Time kept free after each booking.' }) bufferAfter?: string | null;
  @Field(() => LocalTimeScalar, { nullable: true, description: 'Check-in time of day (days services).' }) checkInTime?: string | null;
  @Field(() => LocalTimeScalar, { nullable: true, description: 'Check-out time of day (days services).' }) checkOutTime?: string | null;
  @Field(() => CurrencyScalar, { nullable: true, description: 'Currency of the prices.' }) currency?: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'required (positive) for fixed services; whole days for days services' })
  duration?: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'Interval at which the service can be booked.' }) timeInterval?:
    string | null;
  @Field(() => ServiceTaxInput, { nullable: true, description: 'Tax of the prices; null removes it.' }) tax?: ServiceTaxInput | null;
}

@InputType({ description: 'A new service.' })
export class CreateServiceInput {
  @Field({ description: 'Display name.' }) name!: string;
  @Field(() => ServiceTypeEnum, { description: 'How the service is booked.' }) type!: string;
  @Field(() => HexColorCodeScalar, { nullable: true, description: 'Display color.' }) color?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: DOC.metaDataInput }) metaData?: MetaData | null;
  @Field(() => Int, { nullable: true, description: 'list order; after the last service when left out' }) position?: number | null;
  @Field(() => ServiceSettingsInput, { nullable: true, description: 'How the service is booked.' }) settings?: ServiceSettingsInput | null;
}

@InputType({ description: 'Fields of a service to change; a field left out keeps its value.' })
export class UpdateServiceInput {
  @Field(() => String, { nullable: true, description: 'Display name.' }) name?: string | null;
  @Field(() => HexColorCodeScalar, { nullable: true, description: 'Display color.' }) color?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'false sets disabledAt, true clears it' }) enabled?: boolean | null;
  @Field(() => MetaDataUpdateInput, { nullable: true, description: DOC.metaDataUpdate }) metaDataUpdate?: MetaDataUpdateInput | null;
  @Field(() => Int, { nullable: true, description: 'Place in the list of services.' }) position?: number | null;
}

@InputType({ description: 'A new resource.' })
export class CreateResourceInput {
  @Field({ description: 'Display name.' }) name!: string;
  @Field(() => HexColorCodeScalar, { description: 'Display color.' }) color!: string;
  @Field(() => JSONObjectScalar, { nullable: true, description: DOC.metaDataInput }) metaData?: MetaData | null;
  @Field(() => [ID], { nullable: true, description: 'Resources of the same company always booked together with this one.' })
  relatedResourceIDs?: string[] | null;
}

@InputType({ description: 'Fields of a resource to change; a field left out keeps its value (except enabled).' })
export class UpdateResourceInput {
  @Field(() => String, { nullable: true, description: 'Display name.' }) name?: string | null;
  @Field(() => HexColorCodeScalar, { nullable: true, description: 'Display color.' }) color?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'left out means enabled' }) enabled?: boolean | null;
  @Field(() => MetaDataUpdateInput, { nullable: true, description: DOC.metaDataUpdate }) metaDataUpdate?: MetaDataUpdateInput | null;
  @Field(() => [ID], { nullable: true, description: 'resources of the same company, not the resource itself' }) relatedResourceIDs?:
    string[] | null;
}

@InputType({ description: 'Resources booked together with the linked one.' })
export class RelatedResourceIDsInput {
  @Field(() => [ID], { nullable: true, description: 'Resources every booking also occupies.' }) all?: string[] | null;
  @Field(() => [ID], { nullable: true, description: 'Resources of which a booking also occupies one that is free.' }) any?: string[] | null;
}

@InputType({ description: 'A new link of a resource to a service.' })
export class CreateServiceResourceLinkInput {
  @Field(() => ID, { description: 'The resource to link.' }) resourceID!: string;
  @Field(() => RelatedResourceIDsInput, { nullable: true, description: 'Resources booked together with it for this service.' })
  relatedResourceIDs?: RelatedResourceIDsInput | null;
}

@InputType({ description: 'Fields of a link to change.' })
export class UpdateServiceResourceLinkInput {
  @Field(() => RelatedResourceIDsInput, { nullable: true, description: 'Resources booked together with the resource for this service.' })
  relatedResourceIDs?: RelatedResourceIDsInput | null;
}

@InputType({ description: 'A new ticket of a ticket service.' })
export class CreateTicketInput {
  @Field({ description: 'Display name.' }) name!: string;
  @Field(() => Boolean, { nullable: true, description: 'Whether clients can book it (default true).' }) enabled?: boolean | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: DOC.metaDataInput }) metaData?: MetaData | null;
}

@InputType({ description: 'Fields of a ticket to change; a field left out keeps its value.' })
export class UpdateTicketInput {
  @Field(() => String, { nullable: true, description: 'Display name.' }) name?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Whether clients can book it.' }) enabled?: boolean | null;
  @Field(() => MetaDataUpdateInput, { nullable: true, description: DOC.metaDataUpdate }) metaDataUpdate?: MetaDataUpdateInput | null;
}
