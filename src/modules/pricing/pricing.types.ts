import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { DurationScalar } from '../../kernel/graphql-scalars';
import { defineEnum, DOC, LimitationInput, LimitationType, limitationOut } from '../../kernel/graphql-types';
import { connectionType } from '../../kernel/connection';
import { ServiceTypeEnum } from '../catalog/catalog.types';

/**
 * GraphQL types of price rules and discounts. Field names are the REST JSON names and the
 * resolvers return the REST JSON objects; the services apply every rule.
 */

const PRICED_TYPE_HELP = 'The service type priced (the type of the service).';

export const DiscountTypeEnum = defineEnum('DiscountType', 'What a volume discount counts.', {
  ticket: 'Volume rules per ticket.',
  spots: 'Volume rules on the spots booked.',
});

@ObjectType('PriceRulePrice', { description: 'A price in the smallest currency unit.' })
export class PriceRulePriceType {
  @Field(() => Int, { description: 'smallest currency unit' }) price!: number;
  @Field(() => Int, { nullable: true, description: 'A higher price shown crossed out next to it; null: none.' })
  comparedPrice!: number | null;
}

@ObjectType('PriceRule', { description: 'A price of a service; the highest priority matching rule applies (ties: newest).' })
export class PriceRuleType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: 'The service priced.' }) serviceID!: string;
  @Field(() => ServiceTypeEnum, { description: PRICED_TYPE_HELP }) type!: string;
  @Field(() => Int, { description: DOC.priority }) priority!: number;
  @Field(() => DurationScalar, { nullable: true, description: 'pricing step (flexible, sharable, days)' }) duration!: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'Shortest bookable duration (flexible).' }) minDuration!: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'Longest bookable duration (flexible).' }) maxDuration!: string | null;
  @Field(() => PriceRulePriceType, { description: 'The price (per step, spot or ticket).' }) price!: PriceRulePriceType;
  @Field(() => ID, { nullable: true, description: 'The ticket priced (ticket services); null: any.' }) ticketID!: string | null;
  limitation!: Record<string, unknown> | null;
  @Field(() => LimitationType, { name: 'limitation', nullable: true, description: 'When the rule applies; null: always.' })
  limitationOut(): LimitationType | null {
    return limitationOut(this.limitation);
  }
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('DiscountVolumeRule', { description: 'Unit price when the booked count is within [from, to].' })
export class DiscountVolumeRuleType {
  @Field(() => Int, { description: 'Smallest count the price applies to.' }) from!: number;
  @Field(() => Int, { description: 'Largest count the price applies to.' }) to!: number;
  @Field(() => Int, { description: 'Unit price in the smallest currency unit.' }) price!: number;
  @Field(() => ID, { nullable: true, description: 'The ticket counted (ticket discounts).' }) ticketID!: string | null;
}

@ObjectType('Discount', { description: 'Volume discount of a service (per ticket or on spots).' })
export class DiscountType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: 'The service discounted.' }) serviceID!: string;
  @Field(() => DiscountTypeEnum, { description: 'What the discount counts.' }) type!: string;
  @Field(() => Int, { description: DOC.priority }) priority!: number;
  @Field({ description: 'summed with other discounts' }) sumsUp!: boolean;
  @Field(() => [DiscountVolumeRuleType], { description: 'The volume rules.' }) rules!: DiscountVolumeRuleType[];
  limitation!: Record<string, unknown> | null;
  @Field(() => LimitationType, { name: 'limitation', nullable: true, description: 'When the discount applies; null: always.' })
  limitationOut(): LimitationType | null {
    return limitationOut(this.limitation);
  }
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

export const PriceRuleConnectionType = connectionType(
  'PriceRule',
  () => PriceRuleType,
  'Price rules, in the order they are chosen.',
  'priceRules',
);
export const DiscountConnectionType = connectionType(
  'Discount',
  () => DiscountType,
  'Discounts, in the order they are chosen.',
  'discounts',
);

@InputType({ description: 'A price in the smallest currency unit.' })
export class PriceRulePriceInput {
  @Field(() => Int, { description: 'The price.' }) price!: number;
  @Field(() => Int, { nullable: true, description: 'A higher price shown crossed out next to it.' }) comparedPrice?: number | null;
}

@InputType({ description: 'A new price rule.' })
export class CreatePriceRuleInput {
  @Field(() => ServiceTypeEnum, { description: PRICED_TYPE_HELP }) type!: string;
  @Field(() => Int, { description: DOC.priority }) priority!: number;
  @Field(() => PriceRulePriceInput, { description: 'The price (per step, spot or ticket).' }) price!: PriceRulePriceInput;
  @Field(() => DurationScalar, { nullable: true, description: 'Pricing step (flexible, sharable, days).' }) duration?: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'Shortest bookable duration (flexible).' }) minDuration?: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'Longest bookable duration (flexible).' }) maxDuration?: string | null;
  @Field(() => ID, { nullable: true, description: 'The ticket priced (ticket services).' }) ticketID?: string | null;
  @Field(() => LimitationInput, { nullable: true, description: 'When the rule applies; left out: always.' })
  limitation?: LimitationInput | null;
}

@InputType({ description: 'Fields to change (type is required); null clears an optional field.' })
export class UpdatePriceRuleInput {
  @Field(() => ServiceTypeEnum, { description: PRICED_TYPE_HELP }) type!: string;
  @Field(() => Int, { nullable: true, description: DOC.priority }) priority?: number | null;
  @Field(() => PriceRulePriceInput, { nullable: true, description: 'The price.' }) price?: PriceRulePriceInput | null;
  @Field(() => DurationScalar, { nullable: true, description: 'Pricing step.' }) duration?: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'Shortest bookable duration.' }) minDuration?: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'Longest bookable duration.' }) maxDuration?: string | null;
  @Field(() => ID, { nullable: true, description: 'The ticket priced.' }) ticketID?: string | null;
  @Field(() => LimitationInput, { nullable: true, description: 'When the rule applies; null: always.' })
  limitation?: LimitationInput | null;
}

@InputType({ description: 'A volume rule: the unit price for counts within [from, to].' })
export class DiscountVolumeRuleInput {
  @Field(() => Int, { description: 'Smallest count.' }) from!: number;
  @Field(() => Int, { description: 'Largest count.' }) to!: number;
  @Field(() => Int, { description: 'Unit price in the smallest currency unit.' }) price!: number;
  @Field(() => ID, { nullable: true, description: 'The ticket counted (ticket discounts).' }) ticketID?: string | null;
}

@InputType({ description: 'A new discount.' })
export class CreateDiscountInput {
  @Field(() => DiscountTypeEnum, { description: 'What the discount counts.' }) type!: string;
  @Field(() => Int, { description: DOC.priority }) priority!: number;
  @Field(() => Boolean, { nullable: true, description: 'Whether it adds up with other discounts.' }) sumsUp?: boolean | null;
  @Field(() => [DiscountVolumeRuleInput], { nullable: true, description: 'The volume rules.' }) rules?: DiscountVolumeRuleInput[] | null;
  @Field(() => LimitationInput, { nullable: true, description: 'When the discount applies; left out: always.' })
  limitation?: LimitationInput | null;
}
