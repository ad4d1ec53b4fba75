import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { CurrencyResolver, DurationResolver, GraphQLJSONObject, HexColorCodeResolver } from 'graphql-scalars';
import { LocalTimeScalar } from '../../kernel/graphql-scalars';
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
  @Field(() => DurationResolver, { nullable: true, description: 'how far ahead clients can book' }) availabilityPeriod!: string | null;
  @Field({ description: 'instant or manual' }) bookingPolicy!: string;
  @Field(() => DurationResolver, { nullable: true }) bufferBefore!: string | null;
  @Field(() => DurationResolver, { nullable: true }) bufferAfter!: string | null;
  @Field(() => LocalTimeScalar, { nullable: true }) checkInTime!: string | null;
  @Field(() => LocalTimeScalar, { nullable: true }) checkOutTime!: string | null;
  @Field(() => CurrencyResolver, { nullable: true }) currency!: string | null;
  @Field(() => DurationResolver, { nullable: true }) duration!: string | null;
  @Field(() => DurationResolver, { nullable: true, description: 'interval at which the service can be booked' }) timeInterval!: string | null;
  @Field(() => ServiceTaxType, { nullable: true }) tax!: ServiceTaxType | null;
}

@ObjectType('Service', { description: 'Something a company provides, booked on linked resources.' })
export class ServiceType {
  @Field(() => ID) id!: string;
  @Field(() => ID) companyID!: string;
  @Field() name!: string;
  @Field({ description: SERVICE_TYPE_HELP }) type!: string;
  @Field(() => HexColorCodeResolver, { nullable: true }) color!: string | null;
  @Field(() => GraphQLJSONObject) metaData!: MetaData;
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
  @Field(() => HexColorCodeResolver, { nullable: true }) color!: string | null;
  @Field(() => GraphQLJSONObject) metaData!: MetaData;
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
  @Field(() => GraphQLJSONObject) metaData!: MetaData;
  @Field(() => Int) metaDataVersion!: number;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('RelatedResourceIDs', { description: 'Resources booked together with the linked one: every `all` resource and one free `any` resource.' })
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
  @Field(() => HexColorCodeResolver, { nullable: true }) color!: string | null;
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
  @Field(() => HexColorCodeResolver, { nullable: true }) color!: string | null;
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
  @Field(() => HexColorCodeResolver, { nullable: true }) color!: string | null;
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
  @Field(() => HexColorCodeResolver, { nullable: true }) color!: string | null;
  @Field(() => [ClientResourceServiceType], { description: 'enabled linked services' }) services!: ClientResourceServiceType[];
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}
