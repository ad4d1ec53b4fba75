import { connectionType } from '../../kernel/connection';
import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { JSONObjectScalar } from '../../kernel/graphql-scalars';
import { MetaDataUpdateInput } from '../../kernel/metadata-update.types';
import type { MetaData } from '../../shared/metadata';
import type { DiscountType, UsageType } from './discount';
import type { PromoUsageStatus } from './promo-usage.status';

/** GraphQL types of promo codes; field names are the REST JSON names and resolvers return the REST objects. */

export const PromoDiscountTypeEnum: Record<DiscountType, DiscountType> = { amount: 'amount', percent: 'percent' };
registerEnumType(PromoDiscountTypeEnum, {
  name: 'PromoDiscountType',
  description: 'How a promo code lowers a price.',
  valuesConfig: {
    amount: { description: 'A fixed amount (discountAmount, smallest currency unit).' },
    percent: { description: 'A share of the price (discountPercent, 0-100), rounded to the smallest unit half up.' },
  },
});

export const PromoUsageTypeEnum: Record<UsageType, UsageType> = {
  single_use: 'single_use',
  one_per_customer: 'one_per_customer',
  limited_count: 'limited_count',
  unlimited: 'unlimited',
};
registerEnumType(PromoUsageTypeEnum, {
  name: 'PromoUsageType',
  description: 'How often a promo code may be used.',
  valuesConfig: {
    single_use: { description: 'Once in total.' },
    one_per_customer: { description: 'Once per client.' },
    limited_count: { description: 'usageLimit times in total.' },
    unlimited: { description: 'Without a limit.' },
  },
});

export const PromoUsageStatusEnum: Record<PromoUsageStatus, PromoUsageStatus> = {
  reserved: 'reserved',
  used: 'used',
  released: 'released',
};
registerEnumType(PromoUsageStatusEnum, {
  name: 'PromoUsageStatus',
  description: 'Where a use of a promo code stands.',
  valuesConfig: {
    reserved: { description: 'Held by a booking that waits for payment or approval; counts against the limits.' },
    used: { description: 'The booking is confirmed; counts against the limits.' },
    released: { description: 'The booking failed, was cancelled or its payment expired; the use went back to the code.' },
  },
});

@ObjectType('PromoCode', { description: 'A code that lowers the price of bookings.' })
export class PromoCodeType {
  @Field(() => ID, { description: 'Identifier.' }) id!: string;
  @Field(() => ID, { description: 'The company.' }) companyID!: string;
  @Field({ description: 'Name shown to the merchant (the code when not given).' }) title!: string;
  @Field({ description: 'The code as written by the merchant; matched case-insensitively.' }) code!: string;
  @Field(() => String, { nullable: true, description: 'Free text.' }) description!: string | null;
  @Field({ description: 'An inactive code cannot be used.' }) active!: boolean;
  @Field(() => Date, { nullable: true, description: 'The code can be entered from this instant (inclusive).' }) activeFrom!: string | null;
  @Field(() => Date, { nullable: true, description: 'The code can be entered until this instant (exclusive).' }) activeTo!: string | null;
  @Field(() => Date, { nullable: true, description: 'Bookings starting from this instant (inclusive) qualify.' })
  reservationAllowanceFrom!: string | null;
  @Field(() => Date, { nullable: true, description: 'Bookings starting before this instant qualify.' })
  reservationAllowanceTo!: string | null;
  @Field(() => PromoDiscountTypeEnum, { description: 'How the discount is computed.' }) discountType!: DiscountType;
  @Field(() => Int, { nullable: true, description: 'Discount of an amount code (smallest currency unit).' }) discountAmount!: number | null;
  @Field(() => Float, { nullable: true, description: 'Discount of a percent code, 0-100.' }) discountPercent!: number | null;
  @Field(() => Int, { nullable: true, description: 'Cap of the discount (smallest currency unit).' }) maxDiscountAmount!: number | null;
  @Field(() => [ID], { description: 'The services the code is limited to; empty: every service.' }) serviceIds!: string[];
  @Field(() => PromoUsageTypeEnum, { description: 'How often the code may be used.' }) usageType!: UsageType;
  @Field(() => Int, { nullable: true, description: 'Usages allowed in total (limited_count codes).' }) usageLimit!: number | null;
  @Field(() => Int, { description: 'Usages that are reserved or used.' }) currentUsageCount!: number;
  @Field(() => JSONObjectScalar, { description: 'Merchant-defined data.' }) metaData!: MetaData;
  @Field(() => Int, { description: 'Version of metaData; +1 on every change.' }) metaDataVersion!: number;
  @Field(() => Date, { nullable: true, description: 'When the code was archived; an archived code cannot be used.' })
  archivedAt!: string | null;
  @Field(() => Date, { description: 'Creation time.' }) createdAt!: string;
  @Field(() => Date, { description: 'Last change.' }) updatedAt!: string;
}

@ObjectType('PromoUsage', { description: 'One use of a promo code by a booking.' })
export class PromoUsageType {
  @Field(() => ID, { description: 'Identifier.' }) id!: string;
  @Field(() => ID, { description: 'The promo code.' }) promoCodeID!: string;
  @Field(() => ID, { description: 'The company.' }) companyID!: string;
  @Field(() => ID, { nullable: true, description: 'The booking client.' }) clientID!: string | null;
  @Field(() => ID, { nullable: true, description: 'The booking.' }) reservationID!: string | null;
  @Field(() => Int, { description: 'The discount given (smallest currency unit).' }) discountAmount!: number;
  @Field(() => String, { nullable: true, description: "The booking's currency." }) currency!: string | null;
  @Field(() => PromoUsageStatusEnum, { description: 'Where the use stands.' }) status!: PromoUsageStatus;
  @Field(() => JSONObjectScalar, { description: 'Merchant-defined data.' }) metaData!: MetaData;
  @Field(() => Int, { description: 'Version of metaData.' }) metaDataVersion!: number;
  @Field(() => Date, { description: 'Creation time.' }) createdAt!: string;
  @Field(() => Date, { description: 'Last change.' }) updatedAt!: string;
}

export const PromoCodeConnectionType = connectionType(
  'PromoCode',
  () => PromoCodeType,
  'Promo codes, oldest first (then by id).',
  'promoCodes',
);
export const PromoUsageConnectionType = connectionType(
  'PromoUsage',
  () => PromoUsageType,
  'Usages of a promo code, oldest first (then by id).',
  'promoUsages',
);

@ObjectType('PromoCodeValidation', { description: 'Whether a code can be used for a booking, as the merchant asked.' })
export class PromoCodeValidationType {
  @Field({ description: 'True when the code applies.' }) valid!: boolean;
  @Field(() => Int, { nullable: true, description: 'The discount on bookingAmount (smallest currency unit).' })
  discountAmount!: number | null;
  @Field(() => String, { nullable: true, description: 'Why the code cannot apply.' }) errorMessage!: string | null;
  @Field(() => PromoCodeType, { nullable: true, description: 'The code, when it exists in the company.' })
  promoCode!: PromoCodeType | null;
}

@InputType('CreatePromoCodeInput', { description: 'A new promo code.' })
export class CreatePromoCodeInput {
  @Field({ description: 'Letters A-Z, digits, "-", "_" and "."; unique in the company whatever its case.' }) code!: string;
  @Field(() => String, { nullable: true, description: 'Name shown to the merchant (default: the code).' }) title?: string | null;
  @Field(() => String, { nullable: true, description: 'Free text.' }) description?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Default true.' }) active?: boolean | null;
  @Field(() => Date, { nullable: true, description: 'Usable from (inclusive).' }) activeFrom?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Usable until (exclusive).' }) activeTo?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Bookings starting from (inclusive).' }) reservationAllowanceFrom?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Bookings starting before (exclusive).' }) reservationAllowanceTo?: Date | null;
  @Field(() => PromoDiscountTypeEnum, { description: 'amount needs discountAmount, percent needs discountPercent.' })
  discountType!: DiscountType;
  @Field(() => Int, { nullable: true, description: 'For amount codes (smallest currency unit).' }) discountAmount?: number | null;
  @Field(() => Float, { nullable: true, description: 'For percent codes, 0-100, at most 4 decimals.' }) discountPercent?: number | null;
  @Field(() => Int, { nullable: true, description: 'Cap of the discount.' }) maxDiscountAmount?: number | null;
  @Field(() => [ID], { nullable: true, description: 'Services of the company the code is limited to.' }) serviceIds?: string[] | null;
  @Field(() => PromoUsageTypeEnum, { nullable: true, description: 'Default unlimited; limited_count needs usageLimit.' })
  usageType?: UsageType | null;
  @Field(() => Int, { nullable: true, description: 'For limited_count codes, at least 1.' }) usageLimit?: number | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'Merchant-defined data.' }) metaData?: MetaData | null;
}

@InputType('UpdatePromoCodeInput', { description: 'Changes to a promo code; only the fields sent change (null clears an optional one).' })
export class UpdatePromoCodeInput {
  @Field(() => String, { nullable: true, description: 'A new code (unique in the company).' }) code?: string | null;
  @Field(() => String, { nullable: true, description: 'Name shown to the merchant.' }) title?: string | null;
  @Field(() => String, { nullable: true, description: 'Free text.' }) description?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Whether the code can be used.' }) active?: boolean | null;
  @Field(() => Date, { nullable: true, description: 'Usable from (inclusive).' }) activeFrom?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Usable until (exclusive).' }) activeTo?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Bookings starting from (inclusive).' }) reservationAllowanceFrom?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Bookings starting before (exclusive).' }) reservationAllowanceTo?: Date | null;
  @Field(() => PromoDiscountTypeEnum, { nullable: true, description: 'How the discount is computed.' }) discountType?: DiscountType | null;
  @Field(() => Int, { nullable: true, description: 'For amount codes.' }) discountAmount?: number | null;
  @Field(() => Float, { nullable: true, description: 'For percent codes, 0-100.' }) discountPercent?: number | null;
  @Field(() => Int, { nullable: true, description: 'Cap of the discount.' }) maxDiscountAmount?: number | null;
  @Field(() => [ID], { nullable: true, description: 'Services the code is limited to (null or empty: every service).' })
  serviceIds?: string[] | null;
  @Field(() => PromoUsageTypeEnum, { nullable: true, description: 'How often the code may be used.' }) usageType?: UsageType | null;
  @Field(() => Int, { nullable: true, description: 'For limited_count codes; not below currentUsageCount.' }) usageLimit?: number | null;
  @Field(() => MetaDataUpdateInput, { nullable: true, description: 'A versioned metaData change.' })
  metaDataUpdate?: MetaDataUpdateInput | null;
}

@InputType('ValidatePromoCodeInput', { description: 'The booking a merchant asks a code about.' })
export class ValidatePromoCodeInput {
  @Field({ description: 'The code (any case).' }) code!: string;
  @Field(() => Int, { nullable: true, description: 'The price the discount is taken from.' }) bookingAmount?: number | null;
  @Field(() => Date, { nullable: true, description: "The booking's start (checked against the reservation allowance)." })
  bookingDate?: Date | null;
  @Field(() => ID, { nullable: true, description: 'The client (checked for one use per customer).' }) clientID?: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 4217 code of the booking.' }) currency?: string | null;
  @Field(() => [ID], { nullable: true, description: 'The booked services; every one must be allowed by the code.' })
  serviceIDs?: string[] | null;
}
