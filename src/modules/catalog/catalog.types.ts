import { Field, Float, ID, Int, ObjectType, InputType } from 'type-graphql';
import { CurrencyScalar, DurationScalar, HexColorCodeScalar, JSONObjectScalar, LocalTimeScalar } from '../../kernel/graphql-scalars';
import type { MetaData } from '../../shared/metadata';

/**
 * GraphQL object types of the catalog. Field names are the REST JSON names, and resolvers
 * return the REST JSON objects (`catalog.json.ts`) unchanged.
 */

export const SERVICE_TYPE_HELP = 'fixed, flexible, group, ticket, days or sharable';

@ObjectType('ServiceTax')
export class ServiceTaxType {
  @Field() inclusive!: boolean;
  @Field(() => Float, { description: 'percent, 21 = 21 %' }) rate!: number;
}

@ObjectType('ServiceSettings')
export class ServiceSettingsType {
  @Field(() => DurationScalar, { nullable: true, description: 'how far ahead clients can book' }) availabilityPeriod!: string | null;
  @Field({ description: 'instant or manual' }) bookingPolicy!: string;
  @Field(() => DurationScalar, { nullable: true }) bufferBefore!: string | null;
  @Field(() => DurationScalar, { nullable: true }) bufferAfter!: string | null;
  @Field(() => LocalTimeScalar, { nullable: true }) checkInTime!: string | null;
  @Field(() => LocalTimeScalar, { nullable: true }) checkOutTime!: string | null;
  @Field(() => CurrencyScalar, { nullable: true }) currency!: string | null;
  @Field(() => DurationScalar, { nullable: true }) duration!: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'interval at which the service can be booked' }) timeInterval!: string | null;
  @Field(() => ServiceTaxType, { nullable: true }) tax!: ServiceTaxType | null;
}

@ObjectType('Service', { description: 'Something a company provides, booked on linked resources.' })
export class ServiceType {
  @Field(() => ID) id!: string;
  @Field(() => ID) companyID!: string;
  @Field() name!: string;
  @Field({ description: SERVICE_TYPE_HELP }) type!: string;
  @Field(() => HexColorCodeScalar, { nullable: true }) color!: string | null;
  @Field(() => JSONObjectScalar) metaData!: MetaData;
  @Field(() => Int) metaDataVersion!: number;
  @Field(() => Int) position!: number;
  @Field(() => ServiceSettingsType) settings!: ServiceSettingsType;
  @Field(() => Date, { nullable: true }) disabledAt!: string | null;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('Resource', { description: 'Anything clients can book: a person or a physical asset.' })
export class ResourceType {
  @Field(() => ID) id!: string;
  @Field(() => ID) companyID!: string;
  @Field() name!: string;
  @Field(() => HexColorCodeScalar, { nullable: true }) color!: string | null;
  @Field(() => JSONObjectScalar) metaData!: MetaData;
  @Field(() => Int) metaDataVersion!: number;
  @Field(() => [ID]) relatedResourceIDs!: string[];
  @Field(() => Date, { nullable: true }) disabledAt!: string | null;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('Ticket')
export class TicketType {
  @Field(() => ID) id!: string;
  @Field(() => ID) serviceID!: string;
  @Field() name!: string;
  @Field() enabled!: boolean;
  @Field(() => JSONObjectScalar) metaData!: MetaData;
  @Field(() => Int) metaDataVersion!: number;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('RelatedResourceIDs', {
  description: 'Resources booked together with the linked one: every `all` resource and one free `any` resource.',
})
export class RelatedResourceIDsType {
  @Field(() => [ID]) all!: string[];
  @Field(() => [ID]) any!: string[];
}

@ObjectType('ServiceResourceLink')
export class ServiceResourceLinkType {
  @Field(() => ID) id!: string;
  @Field(() => ID) serviceID!: string;
  @Field(() => ID) resourceID!: string;
  @Field(() => RelatedResourceIDsType) relatedResourceIDs!: RelatedResourceIDsType;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('ServiceLinks', { description: 'A service’s resource links and the linked resources.' })
export class ServiceLinksType {
  @Field(() => [ServiceResourceLinkType]) links!: ServiceResourceLinkType[];
  @Field(() => [ResourceType]) resources!: ResourceType[];
}

@ObjectType('ResourceLinks', { description: 'A resource’s service links and the linked services.' })
export class ResourceLinksType {
  @Field(() => [ServiceResourceLinkType]) links!: ServiceResourceLinkType[];
  @Field(() => [ServiceType]) services!: ServiceType[];
}

@ObjectType('ClientServiceResource')
export class ClientServiceResourceType {
  @Field(() => ID) id!: string;
  @Field(() => ID) companyID!: string;
  @Field() name!: string;
  @Field(() => HexColorCodeScalar, { nullable: true }) color!: string | null;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('ClientTicket')
export class ClientTicketType {
  @Field(() => ID) id!: string;
  @Field() name!: string;
}

@ObjectType('ClientService', { description: 'A service as the client interface offers it.' })
export class ClientServiceType {
  @Field(() => ID) id!: string;
  @Field(() => ID) companyID!: string;
  @Field() name!: string;
  @Field({ description: SERVICE_TYPE_HELP }) type!: string;
  @Field(() => HexColorCodeScalar, { nullable: true }) color!: string | null;
  @Field(() => ServiceSettingsType) settings!: ServiceSettingsType;
  @Field({ description: 'the company’s IANA time zone' }) timeZone!: string;
  @Field(() => [ClientServiceResourceType], { description: 'enabled linked resources' }) resources!: ClientServiceResourceType[];
  @Field(() => [ClientTicketType], { description: 'enabled tickets' }) tickets!: ClientTicketType[];
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('ClientResourceService')
export class ClientResourceServiceType {
  @Field(() => ID) id!: string;
  @Field(() => ID) companyID!: string;
  @Field() name!: string;
  @Field(() => HexColorCodeScalar, { nullable: true }) color!: string | null;
  @Field({ description: SERVICE_TYPE_HELP }) type!: string;
  @Field(() => ServiceSettingsType) settings!: ServiceSettingsType;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('ClientResource', { description: 'A resource as the client interface offers it.' })
export class ClientResourceType {
  @Field(() => ID) id!: string;
  @Field(() => ID) companyID!: string;
  @Field() name!: string;
  @Field(() => HexColorCodeScalar, { nullable: true }) color!: string | null;
  @Field(() => [ClientResourceServiceType], { description: 'enabled linked services' }) services!: ClientResourceServiceType[];
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

/**
 * GraphQL inputs of the catalog. The scalars only check shapes; the services apply every rule,
 * exactly as for the REST bodies. `metaDataUpdate` is a JSON object
 * `{expectedVersion, path, value}` because `value` may be any JSON value.
 */

const META_UPDATE_HELP =
  '{expectedVersion, path, value}: sets value at the dot-separated path (null removes it; path "" replaces the object)';

@InputType()
export class ServiceTaxInput {
  @Field({ nullable: true }) inclusive?: boolean;
  @Field(() => Float, { nullable: true, description: 'percent, 0..100' }) rate?: number;
}

@InputType({ description: 'Settings to set; a field left out keeps its value, null clears it.' })
export class ServiceSettingsInput {
  @Field(() => DurationScalar, { nullable: true }) availabilityPeriod?: string | null;
  @Field(() => String, { nullable: true, description: 'instant (default) or manual' }) bookingPolicy?: string | null;
  @Field(() => DurationScalar, { nullable: true }) bufferBefore?: string | null;
  @Field(() => DurationScalar, { nullable: true }) bufferAfter?: string | null;
  @Field(() => LocalTimeScalar, { nullable: true }) checkInTime?: string | null;
  @Field(() => LocalTimeScalar, { nullable: true }) checkOutTime?: string | null;
  @Field(() => CurrencyScalar, { nullable: true }) currency?: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'required (positive) for fixed services; whole days for days services' })
  duration?: string | null;
  @Field(() => DurationScalar, { nullable: true }) timeInterval?: string | null;
  @Field(() => ServiceTaxInput, { nullable: true }) tax?: ServiceTaxInput | null;
}

@InputType()
export class CreateServiceInput {
  @Field() name!: string;
  @Field({ description: SERVICE_TYPE_HELP }) type!: string;
  @Field(() => HexColorCodeScalar, { nullable: true }) color?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true }) metaData?: MetaData | null;
  @Field(() => Int, { nullable: true, description: 'list order; after the last service when left out' }) position?: number | null;
  @Field(() => ServiceSettingsInput, { nullable: true }) settings?: ServiceSettingsInput | null;
}

@InputType()
export class UpdateServiceInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => HexColorCodeScalar, { nullable: true }) color?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'false sets disabledAt, true clears it' }) enabled?: boolean | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: META_UPDATE_HELP }) metaDataUpdate?: Record<string, unknown> | null;
  @Field(() => Int, { nullable: true }) position?: number | null;
}

@InputType()
export class CreateResourceInput {
  @Field() name!: string;
  @Field(() => HexColorCodeScalar) color!: string;
  @Field(() => JSONObjectScalar, { nullable: true }) metaData?: MetaData | null;
  @Field(() => [ID], { nullable: true }) relatedResourceIDs?: string[] | null;
}

@InputType()
export class UpdateResourceInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => HexColorCodeScalar, { nullable: true }) color?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'left out means enabled' }) enabled?: boolean | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: META_UPDATE_HELP }) metaDataUpdate?: Record<string, unknown> | null;
  @Field(() => [ID], { nullable: true, description: 'resources of the same company, not the resource itself' }) relatedResourceIDs?:
    string[] | null;
}

@InputType()
export class RelatedResourceIDsInput {
  @Field(() => [ID], { nullable: true }) all?: string[] | null;
  @Field(() => [ID], { nullable: true }) any?: string[] | null;
}

@InputType()
export class CreateServiceResourceLinkInput {
  @Field(() => ID) resourceID!: string;
  @Field(() => RelatedResourceIDsInput, { nullable: true }) relatedResourceIDs?: RelatedResourceIDsInput | null;
}

@InputType()
export class UpdateServiceResourceLinkInput {
  @Field(() => RelatedResourceIDsInput, { nullable: true }) relatedResourceIDs?: RelatedResourceIDsInput | null;
}

@InputType()
export class CreateTicketInput {
  @Field() name!: string;
  @Field(() => Boolean, { nullable: true }) enabled?: boolean | null;
  @Field(() => JSONObjectScalar, { nullable: true }) metaData?: MetaData | null;
}

@InputType()
export class UpdateTicketInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => Boolean, { nullable: true }) enabled?: boolean | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: META_UPDATE_HELP }) metaDataUpdate?: Record<string, unknown> | null;
}
