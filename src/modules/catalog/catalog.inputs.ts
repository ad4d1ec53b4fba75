import { Field, Float, ID, InputType, Int } from 'type-graphql';
import { CurrencyResolver, DurationResolver, GraphQLJSONObject, HexColorCodeResolver } from 'graphql-scalars';
import { LocalTimeScalar } from '../../kernel/graphql-scalars';
import type { MetaData } from '../../shared/metadata';
import { SERVICE_TYPE_HELP } from './catalog.types';

/**
 * GraphQL inputs of the catalog. The scalars only check shapes; the services apply every rule,
 * exactly as for the REST bodies. `metaDataUpdate` is a JSON object
 * `{expectedVersion, path, value}` because `value` may be any JSON value.
 */

const META_UPDATE_HELP = '{expectedVersion, path, value}: sets value at the dot-separated path (null removes it; path "" replaces the object)';

@InputType()
export class ServiceTaxInput {
  @Field({ nullable: true }) inclusive?: boolean;
  @Field(() => Float, { nullable: true, description: 'percent, 0..100' }) rate?: number;
}

@InputType({ description: 'Settings to set; a field left out keeps its value, null clears it.' })
export class ServiceSettingsInput {
  @Field(() => DurationResolver, { nullable: true }) availabilityPeriod?: string | null;
  @Field(() => String, { nullable: true, description: 'instant (default) or manual' }) bookingPolicy?: string | null;
  @Field(() => DurationResolver, { nullable: true }) bufferBefore?: string | null;
  @Field(() => DurationResolver, { nullable: true }) bufferAfter?: string | null;
  @Field(() => LocalTimeScalar, { nullable: true }) checkInTime?: string | null;
  @Field(() => LocalTimeScalar, { nullable: true }) checkOutTime?: string | null;
  @Field(() => CurrencyResolver, { nullable: true }) currency?: string | null;
  @Field(() => DurationResolver, { nullable: true, description: 'required (positive) for fixed services; whole days for days services' }) duration?: string | null;
  @Field(() => DurationResolver, { nullable: true }) timeInterval?: string | null;
  @Field(() => ServiceTaxInput, { nullable: true }) tax?: ServiceTaxInput | null;
}

@InputType()
export class CreateServiceInput {
  @Field() name!: string;
  @Field({ description: SERVICE_TYPE_HELP }) type!: string;
  @Field(() => HexColorCodeResolver, { nullable: true }) color?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metaData?: MetaData | null;
  @Field(() => Int, { nullable: true, description: 'list order; after the last service when left out' }) position?: number | null;
  @Field(() => ServiceSettingsInput, { nullable: true }) settings?: ServiceSettingsInput | null;
}

@InputType()
export class UpdateServiceInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => HexColorCodeResolver, { nullable: true }) color?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'false sets disabledAt, true clears it' }) enabled?: boolean | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: META_UPDATE_HELP }) metaDataUpdate?: Record<string, unknown> | null;
  @Field(() => Int, { nullable: true }) position?: number | null;
}

@InputType()
export class CreateResourceInput {
  @Field() name!: string;
  @Field(() => HexColorCodeResolver) color!: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) metaData?: MetaData | null;
  @Field(() => [ID], { nullable: true }) relatedResourceIDs?: string[] | null;
}

@InputType()
export class UpdateResourceInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => HexColorCodeResolver, { nullable: true }) color?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'left out means enabled' }) enabled?: boolean | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: META_UPDATE_HELP }) metaDataUpdate?: Record<string, unknown> | null;
  @Field(() => [ID], { nullable: true, description: 'resources of the same company, not the resource itself' }) relatedResourceIDs?: string[] | null;
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
  @Field(() => GraphQLJSONObject, { nullable: true }) metaData?: MetaData | null;
}

@InputType()
export class UpdateTicketInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => Boolean, { nullable: true }) enabled?: boolean | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: META_UPDATE_HELP }) metaDataUpdate?: Record<string, unknown> | null;
}
