import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { DurationScalar, JSONObjectScalar } from '../../kernel/graphql-scalars';

/**
 * GraphQL types of price rules and discounts. Field names are the REST JSON names and the
 * resolvers return the REST JSON objects unchanged; the services apply every rule.
 */

const LIMITATION_HELP = '{dates: [{start, end}], daysOfWeek, resourceIDs, times: [{start, end}]}';
const SERVICE_TYPES_HELP = 'the service type priced: fixed, flexible, group, ticket, days or sharable';

@ObjectType('PriceRulePrice')
export class PriceRulePriceType {
  @Field(() => Int, { description: 'smallest currency unit' }) price!: number;
  @Field(() => Int, { nullable: true }) comparedPrice!: number | null;
}

@ObjectType('PriceRule', { description: 'A price of a service; the highest priority matching rule applies (ties: newest).' })
export class PriceRuleType {
  @Field(() => ID) id!: string;
  @Field(() => ID) serviceID!: string;
  @Field({ description: SERVICE_TYPES_HELP }) type!: string;
  @Field(() => Int) priority!: number;
  @Field(() => DurationScalar, { nullable: true, description: 'pricing step (flexible, sharable, days)' }) duration!: string | null;
  @Field(() => DurationScalar, { nullable: true }) minDuration!: string | null;
  @Field(() => DurationScalar, { nullable: true }) maxDuration!: string | null;
  @Field(() => PriceRulePriceType) price!: PriceRulePriceType;
  @Field(() => ID, { nullable: true }) ticketID!: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: LIMITATION_HELP }) limitation!: Record<string, unknown> | null;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('DiscountVolumeRule', { description: 'Unit price when the booked count is within [from, to].' })
export class DiscountVolumeRuleType {
  @Field(() => Int) from!: number;
  @Field(() => Int) to!: number;
  @Field(() => Int) price!: number;
  @Field(() => ID, { nullable: true }) ticketID!: string | null;
}

@ObjectType('Discount', { description: 'Volume discount of a service (per ticket or on spots).' })
export class DiscountType {
  @Field(() => ID) id!: string;
  @Field(() => ID) serviceID!: string;
  @Field({ description: 'ticket or spots' }) type!: string;
  @Field(() => Int) priority!: number;
  @Field({ description: 'summed with other discounts' }) sumsUp!: boolean;
  @Field(() => [DiscountVolumeRuleType]) rules!: DiscountVolumeRuleType[];
  @Field(() => JSONObjectScalar, { nullable: true, description: LIMITATION_HELP }) limitation!: Record<string, unknown> | null;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@InputType()
export class PriceRulePriceInput {
  @Field(() => Int) price!: number;
  @Field(() => Int, { nullable: true }) comparedPrice?: number | null;
}

@InputType()
export class CreatePriceRuleInput {
  @Field({ description: SERVICE_TYPES_HELP }) type!: string;
  @Field(() => Int) priority!: number;
  @Field(() => PriceRulePriceInput) price!: PriceRulePriceInput;
  @Field(() => DurationScalar, { nullable: true }) duration?: string | null;
  @Field(() => DurationScalar, { nullable: true }) minDuration?: string | null;
  @Field(() => DurationScalar, { nullable: true }) maxDuration?: string | null;
  @Field(() => ID, { nullable: true }) ticketID?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: LIMITATION_HELP }) limitation?: Record<string, unknown> | null;
}

@InputType({ description: 'Fields to change (type is required); null clears an optional field.' })
export class UpdatePriceRuleInput {
  @Field({ description: SERVICE_TYPES_HELP }) type!: string;
  @Field(() => Int, { nullable: true }) priority?: number | null;
  @Field(() => PriceRulePriceInput, { nullable: true }) price?: PriceRulePriceInput | null;
  @Field(() => DurationScalar, { nullable: true }) duration?: string | null;
  @Field(() => DurationScalar, { nullable: true }) minDuration?: string | null;
  @Field(() => DurationScalar, { nullable: true }) maxDuration?: string | null;
  @Field(() => ID, { nullable: true }) ticketID?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: LIMITATION_HELP }) limitation?: Record<string, unknown> | null;
}

@InputType()
export class DiscountVolumeRuleInput {
  @Field(() => Int) from!: number;
  @Field(() => Int) to!: number;
  @Field(() => Int) price!: number;
  @Field(() => ID, { nullable: true }) ticketID?: string | null;
}

@InputType()
export class CreateDiscountInput {
  @Field({ description: 'ticket or spots' }) type!: string;
  @Field(() => Int) priority!: number;
  @Field(() => Boolean, { nullable: true }) sumsUp?: boolean | null;
  @Field(() => [DiscountVolumeRuleInput], { nullable: true }) rules?: DiscountVolumeRuleInput[] | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: LIMITATION_HELP }) limitation?: Record<string, unknown> | null;
}
