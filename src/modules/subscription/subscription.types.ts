import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { DurationScalar, JSONObjectScalar, JSONScalar, LocalTimeScalar, CurrencyScalar } from '../../kernel/graphql-scalars';
import { DOC, PART_OF_RECORD, defineEnum } from '../../kernel/graphql-types';
import { connectionType } from '../../kernel/connection';
import { MetaDataUpdateInput } from '../../kernel/metadata-update.types';
import type { MetaData } from '../../shared/metadata';
import type { RecurringInterval, RollOverType, UsageStatus, VisitTransactionType } from './subscription.entity';
import type { ContractStatus } from './subscription.status';

/** GraphQL types of subscriptions; field names are the REST JSON names and resolvers return the REST objects. */

export const SubscriptionContractStatusEnum = defineEnum<ContractStatus>(
  'SubscriptionContractStatus',
  'Where a subscription contract stands.',
  {
    pending_payment: 'Waiting for its payment (a cart item or a merchant-made unpaid contract); holds capacity.',
    active: 'Paid or issued, inside its validity.',
    expired: 'Its validity (expiresAt) has passed, or the merchant ended it.',
    cancelled: 'Its payment failed, was cancelled or lapsed, or the merchant cancelled it.',
  },
);

export const SubscriptionUsageStatusEnum = defineEnum<UsageStatus>(
  'SubscriptionUsageStatus',
  'Whether a booking covered by a contract still counts.',
  {
    reserved: 'Held by a booking that is not confirmed yet.',
    used: 'The booking is confirmed.',
    cancelled: 'The booking was cancelled or failed; its visit was given back.',
  },
);

export const VisitTransactionTypeEnum = defineEnum<VisitTransactionType>('VisitTransactionType', 'Kinds of visit ledger entries.', {
  ALLOCATION: 'Visits granted for a period (positive).',
  USAGE: 'A booking covered by the contract (negative).',
  REVERSAL: 'A usage given back when its booking was cancelled or failed (positive).',
  EXPIRATION: 'Unused visits removed when their period or the contract ended (negative).',
  ROLLOVER: 'Unused visits carried into a new period (positive).',
  ADJUSTMENT: "A merchant's correction (positive or negative).",
});

export const RecurringIntervalEnum = defineEnum<RecurringInterval>('SubscriptionRecurringInterval', 'Unit of a recurring period.', {
  day: 'Days.',
  week: 'Weeks.',
  month: 'Calendar months in the company time zone.',
  year: 'Calendar years in the company time zone.',
});

export const RollOverTypeEnum = defineEnum<RollOverType>('SubscriptionRollOverType', 'What happens to unused visits at a period change.', {
  none: 'They lapse.',
  all: 'They all carry over.',
  capped: 'At most settings.maxVisits carry over.',
});

export const AdminVisitTypeEnum = defineEnum<VisitTransactionType>('AdminVisitTransactionType', 'Ledger entries a merchant may add.', {
  ALLOCATION: 'Visits granted (positive amount).',
  USAGE: 'A visit taken, e.g. a walk-in recorded by hand (negative amount).',
  REVERSAL: 'A visit given back (positive amount).',
  EXPIRATION: 'Visits removed (negative amount).',
  ROLLOVER: 'Visits carried into a period (positive amount).',
  ADJUSTMENT: 'A correction (positive or negative amount).',
});

@ObjectType('SubscriptionTicketLimit', { description: 'At most `count` tickets of one ticket type per booking.' })
export class TicketLimitType {
  @Field(() => ID, { description: 'The ticket.' }) ticketID!: string;
  @Field(() => Int, { description: 'At most this many per booking.' }) count!: number;
}

@ObjectType('SubscriptionTimeWindow', { description: 'Local times of day in the company time zone, [startTime, endTime).' })
export class TimeWindowType {
  @Field(() => LocalTimeScalar, { description: 'Start time of day.' }) startTime!: string;
  @Field(() => LocalTimeScalar, { description: 'End time of day (after startTime; 24:00 allowed).' }) endTime!: string;
}

@ObjectType('SubscriptionLimitations', { description: 'What a contract allows; a null part does not limit.' })
export class LimitationsType {
  @Field(() => Int, { nullable: true, description: 'Visits per period.' }) bookingsCount?: number | null;
  @Field(() => Int, { nullable: true, description: DOC.daysOfWeek }) daysOfWeek?: number | null;
  @Field(() => DurationScalar, { nullable: true, description: 'Longest booking covered.' }) maxDuration?: string | null;
  @Field(() => Int, { nullable: true, description: 'Most spots per booking.' }) maxSpotsPerBooking?: number | null;
  @Field(() => [TicketLimitType], { nullable: true, complexity: PART_OF_RECORD, description: 'Most tickets per booking, per ticket.' })
  maxTicketsPerBooking?: TicketLimitType[] | null;
  @Field(() => [TimeWindowType], { nullable: true, complexity: PART_OF_RECORD, description: 'Times of day a booking must lie in.' })
  times?: TimeWindowType[] | null;
}

@ObjectType('SubscriptionRollOverValues', { description: 'Parameters of a rollover.' })
export class RollOverValuesType {
  @Field(() => Int, { nullable: true, description: 'Most visits carried over (capped).' }) maxVisits?: number | null;
}

@ObjectType('SubscriptionRollOverSettings', { description: 'What happens to unused visits at a period change.' })
export class RollOverSettingsType {
  @Field(() => RollOverTypeEnum, { description: 'The rule.' }) rollOverType!: RollOverType;
  @Field(() => RollOverValuesType, { description: 'Its parameters.' }) settings!: RollOverValuesType;
}

@ObjectType('Subscription', { description: 'A membership a company sells: its period, limitations, recurrence and what it covers.' })
export class SubscriptionType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field({ description: 'Name shown to clients.' }) title!: string;
  @Field(() => DurationScalar, { nullable: true, description: 'ISO 8601 length of a contract (of one period when recurring).' })
  duration!: string | null;
  @Field(() => Date, { nullable: true, description: 'On sale from (inclusive).' }) availableFrom!: string | null;
  @Field(() => Date, { nullable: true, description: 'On sale until (exclusive).' }) availableTo!: string | null;
  @Field(() => LimitationsType, { description: 'What a contract allows.' }) limitations!: LimitationsType;
  @Field(() => String, { nullable: true, description: 'RFC 5545 recurrence rule (FREQ=MONTHLY;INTERVAL=1).' }) rRule!: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: "The recurring provider's configuration." })
  recurringConfig!: MetaData | null;
  @Field({ description: 'Whether contracts renew at the end of a period.' }) recurringEnabled!: boolean;
  @Field(() => RecurringIntervalEnum, { nullable: true, description: 'Period unit when no rRule is given.' })
  recurringInterval!: RecurringInterval | null;
  @Field(() => Int, { nullable: true, description: 'Period length in recurringInterval units.' }) recurringIntervalCount!: number | null;
  @Field(() => String, { nullable: true, description: 'Who charges renewals.' }) recurringProvider!: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'How long before a period ends it can be renewed.' }) renewPeriod!:
    string | null;
  @Field(() => [ID], { description: 'Services covered; empty: every service.' }) serviceIDs!: string[];
  @Field(() => [ID], { description: 'Resources covered; empty: every resource.' }) resourceIDs!: string[];
  @Field(() => [ID], { description: 'Tickets covered; empty: every ticket.' }) ticketIDs!: string[];
  @Field(() => RollOverSettingsType, { description: 'Unused visits at a period change.' }) rollOverSettings!: RollOverSettingsType;
  @Field(() => JSONObjectScalar, { description: DOC.metaData }) metaData!: MetaData;
  @Field(() => Int, { description: DOC.metaDataVersion }) metaDataVersion!: number;
  @Field(() => Date, { nullable: true, description: 'When it was archived (no longer sold).' }) archivedAt!: string | null;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

export const SubscriptionConnectionType = connectionType(
  'Subscription',
  () => SubscriptionType,
  'Subscriptions, oldest first.',
  'subscriptions',
);

@ObjectType('OfferedSubscription', { description: 'A subscription on sale now, with its price.' })
export class OfferedSubscriptionType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field({ description: 'Name.' }) title!: string;
  @Field(() => DurationScalar, { nullable: true, description: 'Length of a contract or period.' }) duration!: string | null;
  @Field(() => Date, { nullable: true, description: 'On sale from.' }) availableFrom!: string | null;
  @Field(() => Date, { nullable: true, description: 'On sale until.' }) availableTo!: string | null;
  @Field(() => LimitationsType, { description: 'What a contract allows.' }) limitations!: LimitationsType;
  @Field(() => String, { nullable: true, description: 'Recurrence rule.' }) rRule!: string | null;
  @Field({ description: 'Whether contracts renew.' }) recurringEnabled!: boolean;
  @Field(() => RecurringIntervalEnum, { nullable: true, description: 'Period unit.' }) recurringInterval!: RecurringInterval | null;
  @Field(() => Int, { nullable: true, description: 'Period length in units.' }) recurringIntervalCount!: number | null;
  @Field(() => String, { nullable: true, description: 'Who charges renewals.' }) recurringProvider!: string | null;
  @Field(() => [ID], { description: 'Services covered; empty: every service.' }) serviceIDs!: string[];
  @Field(() => [ID], { description: 'Resources covered; empty: every resource.' }) resourceIDs!: string[];
  @Field(() => RollOverSettingsType, { description: 'Unused visits at a period change.' }) rollOverSettings!: RollOverSettingsType;
  @Field(() => Int, { description: 'Price of the highest-priority price rule applying now (smallest currency unit).' }) price!: number;
  @Field(() => Int, { nullable: true, description: 'The price to compare with (crossed out).' }) comparedPrice!: number | null;
  @Field(() => String, { nullable: true, description: 'Currency of the subscription settings.' }) currency!: string | null;
  @Field(() => JSONObjectScalar, { description: DOC.metaData }) metaData!: MetaData;
}

export const OfferedSubscriptionConnectionType = connectionType(
  'OfferedSubscription',
  () => OfferedSubscriptionType,
  'The subscriptions on sale now, oldest first.',
  'offeredSubscriptions',
);

@ObjectType('SubscriptionSettings', { description: "The company's subscription settings." })
export class SettingsType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field(() => DurationScalar, { description: 'How long a cart item holds its capacity.' }) cartExpiration!: string;
  @Field(() => String, { nullable: true, description: 'ISO 4217 currency of prices.' }) currency!: string | null;
  @Field({ description: 'Whether prices include the tax.' }) taxInclusive!: boolean;
  @Field(() => Float, { description: 'Tax rate in percent.' }) taxRate!: number;
  @Field(() => JSONObjectScalar, { description: DOC.metaData }) metaData!: MetaData;
  @Field(() => Int, { description: DOC.metaDataVersion }) metaDataVersion!: number;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('SubscriptionRuleBase', { description: 'Fields shared by price and capacity rules.' })
abstract class RuleType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field(() => [ID], { description: 'Subscriptions the rule applies to.' }) subscriptionIDs!: string[];
  @Field(() => Int, { description: DOC.priority }) priority!: number;
  @Field(() => Date, { nullable: true, description: 'Applies from (inclusive).' }) startDate!: string | null;
  @Field(() => Date, { nullable: true, description: 'Applies until (exclusive).' }) endDate!: string | null;
  @Field(() => JSONObjectScalar, { description: DOC.metaData }) metaData!: MetaData;
  @Field(() => Int, { description: DOC.metaDataVersion }) metaDataVersion!: number;
  @Field(() => Date, { nullable: true, description: 'When it was archived (no longer applies).' }) archivedAt!: string | null;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('SubscriptionPriceRule', { description: 'The price of subscriptions while the rule applies.' })
export class PriceRuleType extends RuleType {
  @Field(() => Int, { description: 'Price (smallest currency unit).' }) price!: number;
  @Field(() => Int, { nullable: true, description: 'The price to compare with.' }) comparedPrice!: number | null;
}

@ObjectType('SubscriptionCapacityRule', { description: 'How many contracts of each named subscription may be active or pending at once.' })
export class CapacityRuleType extends RuleType {
  @Field(() => Int, { description: 'At most this many active or pending contracts per subscription.' }) maxCount!: number;
}

export const PriceRuleConnectionType = connectionType(
  'SubscriptionPriceRule',
  () => PriceRuleType,
  'Price rules, oldest first.',
  'priceRules',
);
export const CapacityRuleConnectionType = connectionType(
  'SubscriptionCapacityRule',
  () => CapacityRuleType,
  'Capacity rules, oldest first.',
  'capacityRules',
);

@ObjectType('SubscriptionCapacityAvailability', { description: 'Contracts of a subscription holding capacity now, and its cap.' })
export class CapacityItemType {
  @Field(() => ID, { description: 'The subscription.' }) subscriptionID!: string;
  @Field(() => Int, { description: 'Active contracts.' }) active!: number;
  @Field(() => Int, { description: 'Contracts pending payment.' }) pending!: number;
  @Field(() => Int, { nullable: true, description: 'maxCount of the capacity rule applying now; null: no cap.' }) max!: number | null;
}

@ObjectType('SubscriptionUsage', { description: 'A booking covered by a contract.' })
export class UsageType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: 'The contract.' }) contractID!: string;
  @Field(() => ID, { description: 'The subscription.' }) subscriptionID!: string;
  @Field(() => ID, { nullable: true, description: 'The client.' }) clientID!: string | null;
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field(() => ID, { nullable: true, description: 'The booking.' }) bookingID!: string | null;
  @Field({ description: 'Where the usage came from (booking).' }) source!: string;
  @Field(() => SubscriptionUsageStatusEnum, { description: 'Whether it still counts.' }) status!: UsageStatus;
  @Field(() => JSONObjectScalar, { description: DOC.metaData }) metaData!: MetaData;
  @Field(() => Int, { description: DOC.metaDataVersion }) metaDataVersion!: number;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('SubscriptionContract', { description: 'One membership of one client: code, status, validity, current period.' })
export class ContractType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field(() => ID, { description: 'The subscription.' }) subscriptionID!: string;
  @Field(() => ID, { nullable: true, description: 'The client.' }) clientID!: string | null;
  @Field({ description: 'XXXX-XXXX-XXXX, used on bookings.' }) code!: string;
  @Field(() => SubscriptionContractStatusEnum, { description: 'Where the contract stands now.' }) status!: ContractStatus;
  @Field(() => Date, { nullable: true, description: 'Start of validity.' }) activeFrom!: string | null;
  @Field(() => Date, {
    nullable: true,
    description: 'End of validity (exclusive); of a pending_payment contract made by the merchant, its payment deadline.',
  })
  expiresAt!: string | null;
  @Field(() => Date, { nullable: true, description: 'When an unpaid contract lapses.' }) pendingExpiresAt!: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'ISO 8601 length.' }) duration!: string | null;
  @Field(() => LimitationsType, { description: 'What it allows (copied from the subscription).' }) limitations!: LimitationsType;
  @Field(() => [ID], { description: 'Services covered; empty: every service.' }) serviceIDs!: string[];
  @Field(() => [ID], { description: 'Resources covered; empty: every resource.' }) resourceIDs!: string[];
  @Field(() => Int, { description: 'Price paid (smallest currency unit).' }) price!: number;
  @Field(() => String, { nullable: true, description: 'Currency of the price.' }) currency!: string | null;
  @Field(() => Date, { nullable: true, description: 'Start of the current period.' }) periodStart!: string | null;
  @Field(() => Date, { nullable: true, description: 'End of the current period.' }) periodEnd!: string | null;
  @Field(() => String, { nullable: true, description: 'Where to pay, while pending payment.' }) paymentURL!: string | null;
  @Field(() => [UsageType], { complexity: PART_OF_RECORD, description: 'Bookings covered.' }) usages!: UsageType[];
  @Field(() => JSONObjectScalar, { description: DOC.metaData }) metaData!: MetaData;
  @Field(() => Int, { description: DOC.metaDataVersion }) metaDataVersion!: number;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

export const ContractConnectionType = connectionType(
  'SubscriptionContract',
  () => ContractType,
  'Subscription contracts, oldest first.',
  'subscriptionContracts',
);

@ObjectType('VisitTransaction', { description: 'One entry of a contract visit ledger (append-only).' })
export class VisitType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field(() => ID, { description: 'The subscription.' }) subscriptionID!: string;
  @Field(() => ID, { description: 'The contract.' }) subscriptionItemID!: string;
  @Field(() => ID, { nullable: true, description: 'The client.' }) clientID!: string | null;
  @Field(() => Int, { description: 'Visits granted (positive) or taken (negative).' }) amount!: number;
  @Field(() => VisitTransactionTypeEnum, { description: 'Kind of entry.' }) transactionType!: VisitTransactionType;
  @Field(() => Date, { nullable: true, description: 'When granted visits lapse.' }) expiresAt!: string | null;
  @Field(() => String, { nullable: true, description: 'Why.' }) reason!: string | null;
  @Field(() => ID, { nullable: true, description: 'The allocation this entry relates to.' }) sourceAllocationID!: string | null;
  @Field(() => ID, { nullable: true, description: 'The usage (booking) this entry relates to.' }) usageID!: string | null;
  @Field(() => Date, { nullable: true, description: 'Start of the period the entry belongs to.' }) periodStart!: string | null;
  @Field(() => JSONObjectScalar, { description: DOC.metaData }) metaData!: MetaData;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

export const VisitConnectionType = connectionType(
  'VisitTransaction',
  () => VisitType,
  'Ledger entries, oldest first.',
  'visitTransactions',
);

@InputType('SubscriptionTicketLimitInput', { description: 'At most `count` tickets of one ticket type per booking.' })
export class TicketLimitInput {
  @Field(() => ID, { description: 'A ticket of the company.' }) ticketID!: string;
  @Field(() => Int, { description: 'At least 1.' }) count!: number;
}

@InputType('SubscriptionTimeWindowInput', { description: 'Local times of day in the company time zone, [startTime, endTime).' })
export class TimeWindowInput {
  @Field(() => LocalTimeScalar, { description: 'Start time of day.' }) startTime!: string;
  @Field(() => LocalTimeScalar, { description: 'End time of day, after startTime (24:00 allowed).' }) endTime!: string;
}

@InputType('SubscriptionLimitationsInput', { description: 'What a contract allows; leave a part out for no limit.' })
export class LimitationsInput {
  @Field(() => Int, { nullable: true, description: 'Visits per period, at least 1.' }) bookingsCount?: number | null;
  @Field(() => Int, { nullable: true, description: DOC.daysOfWeek }) daysOfWeek?: number | null;
  @Field(() => DurationScalar, { nullable: true, description: 'Longest booking covered.' }) maxDuration?: string | null;
  @Field(() => Int, { nullable: true, description: 'Most spots per booking, at least 1.' }) maxSpotsPerBooking?: number | null;
  @Field(() => [TicketLimitInput], { nullable: true, description: 'Most tickets per booking, per ticket of the company.' })
  maxTicketsPerBooking?: TicketLimitInput[] | null;
  @Field(() => [TimeWindowInput], { nullable: true, description: 'Times of day a booking must lie in.' }) times?: TimeWindowInput[] | null;
}

@InputType('SubscriptionRollOverValuesInput', { description: 'Parameters of a rollover.' })
export class RollOverValuesInput {
  @Field(() => Int, { nullable: true, description: 'Most visits carried over (required for capped).' }) maxVisits?: number | null;
}

@InputType('SubscriptionRollOverSettingsInput', { description: 'What happens to unused visits at a period change.' })
export class RollOverSettingsInput {
  @Field(() => RollOverTypeEnum, { description: 'The rule.' }) rollOverType!: RollOverType;
  @Field(() => RollOverValuesInput, { nullable: true, description: 'Its parameters.' }) settings?: RollOverValuesInput | null;
}

@InputType('SubscriptionFieldsInputBase', { description: 'Fields of a subscription.' })
abstract class SubscriptionFieldsInput {
  @Field(() => Date, { nullable: true, description: 'On sale from (inclusive).' }) availableFrom?: Date | null;
  @Field(() => Date, { nullable: true, description: 'On sale until (exclusive).' }) availableTo?: Date | null;
  @Field(() => LimitationsInput, { nullable: true, description: 'What a contract allows.' }) limitations?: LimitationsInput | null;
  @Field(() => String, { nullable: true, description: 'RFC 5545 recurrence rule (parsed; refused when invalid).' }) rRule?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: "The recurring provider's configuration." })
  recurringConfig?: MetaData | null;
  @Field(() => Boolean, { nullable: true, description: 'Whether contracts renew (needs rRule or recurringInterval).' })
  recurringEnabled?: boolean | null;
  @Field(() => RecurringIntervalEnum, { nullable: true, description: 'Period unit (not with rRule).' })
  recurringInterval?: RecurringInterval | null;
  @Field(() => Int, { nullable: true, description: 'Period length in units, 1-1000 (default 1).' }) recurringIntervalCount?: number | null;
  @Field(() => String, { nullable: true, description: 'Who charges renewals.' }) recurringProvider?: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'How long before a period ends it can be renewed.' }) renewPeriod?:
    string | null;
  @Field(() => [ID], { nullable: true, description: 'Services of the company covered; empty: every service.' }) serviceIDs?:
    string[] | null;
  @Field(() => [ID], { nullable: true, description: 'Resources of the company covered; empty: every resource.' })
  resourceIDs?: string[] | null;
  @Field(() => [ID], { nullable: true, description: 'Tickets of the company covered; empty: every ticket.' }) ticketIDs?: string[] | null;
  @Field(() => RollOverSettingsInput, { nullable: true, description: 'Unused visits at a period change (default none).' })
  rollOverSettings?: RollOverSettingsInput | null;
}

@InputType('CreateSubscriptionInput', { description: 'A new subscription.' })
export class CreateSubscriptionInput extends SubscriptionFieldsInput {
  @Field({ description: 'Name shown to clients.' }) title!: string;
  @Field(() => DurationScalar, { description: 'ISO 8601 length of a contract (of one period when recurring).' }) duration!: string;
  @Field(() => JSONObjectScalar, { nullable: true, description: DOC.metaDataInput }) metaData?: MetaData | null;
}

@InputType('UpdateSubscriptionInput', { description: 'Changes to a subscription; only the fields sent change.' })
export class UpdateSubscriptionInput extends SubscriptionFieldsInput {
  @Field(() => String, { nullable: true, description: 'Name shown to clients.' }) title?: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'ISO 8601 length for contracts made from now on.' }) duration?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'true archives, false unarchives.' }) archive?: boolean | null;
  @Field(() => MetaDataUpdateInput, { nullable: true, description: DOC.metaDataUpdate }) metaDataUpdate?: MetaDataUpdateInput | null;
}

@InputType('UpdateSubscriptionSettingsInput', { description: 'Changes to the subscription settings; created on the first update.' })
export class SettingsInput {
  @Field(() => DurationScalar, { nullable: true, description: 'How long a cart item holds capacity (PT1M to P7D, default PT15M).' })
  cartExpiration?: string | null;
  @Field(() => CurrencyScalar, { nullable: true, description: 'ISO 4217 currency of prices.' }) currency?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Whether prices include the tax.' }) taxInclusive?: boolean | null;
  @Field(() => Float, { nullable: true, description: 'Tax rate in percent, 0-100.' }) taxRate?: number | null;
  @Field(() => MetaDataUpdateInput, { nullable: true, description: DOC.metaDataUpdate }) metaDataUpdate?: MetaDataUpdateInput | null;
}

@InputType('SubscriptionRuleFieldsInputBase', { description: 'Fields of a rule.' })
abstract class RuleFieldsInput {
  @Field(() => Int, { nullable: true, description: DOC.priority }) priority?: number | null;
  @Field(() => Date, { nullable: true, description: 'Applies from (inclusive).' }) startDate?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Applies until (exclusive).' }) endDate?: Date | null;
}

@InputType('CreateSubscriptionPriceRuleInput', { description: 'A new price rule.' })
export class CreatePriceRuleInput extends RuleFieldsInput {
  @Field(() => [ID], { description: 'Subscriptions of the company.' }) subscriptionIDs!: string[];
  @Field(() => Int, { description: 'Price (smallest currency unit).' }) price!: number;
  @Field(() => Int, { nullable: true, description: 'The price to compare with.' }) comparedPrice?: number | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: DOC.metaDataInput }) metaData?: MetaData | null;
}

@InputType('UpdateSubscriptionPriceRuleInput', { description: 'Changes to a price rule; only the fields sent change.' })
export class UpdatePriceRuleInput extends RuleFieldsInput {
  @Field(() => [ID], { nullable: true, description: 'Subscriptions of the company.' }) subscriptionIDs?: string[] | null;
  @Field(() => Int, { nullable: true, description: 'Price.' }) price?: number | null;
  @Field(() => Int, { nullable: true, description: 'The price to compare with.' }) comparedPrice?: number | null;
  @Field(() => Boolean, { nullable: true, description: 'true archives, false unarchives.' }) archive?: boolean | null;
  @Field(() => MetaDataUpdateInput, { nullable: true, description: DOC.metaDataUpdate }) metaDataUpdate?: MetaDataUpdateInput | null;
}

@InputType('CreateSubscriptionCapacityRuleInput', { description: 'A new capacity rule.' })
export class CreateCapacityRuleInput extends RuleFieldsInput {
  @Field(() => [ID], { description: 'Subscriptions of the company.' }) subscriptionIDs!: string[];
  @Field(() => Int, { description: 'At most this many active or pending contracts per subscription.' }) maxCount!: number;
  @Field(() => JSONObjectScalar, { nullable: true, description: DOC.metaDataInput }) metaData?: MetaData | null;
}

@InputType('UpdateSubscriptionCapacityRuleInput', { description: 'Changes to a capacity rule; only the fields sent change.' })
export class UpdateCapacityRuleInput extends RuleFieldsInput {
  @Field(() => [ID], { nullable: true, description: 'Subscriptions of the company.' }) subscriptionIDs?: string[] | null;
  @Field(() => Int, { nullable: true, description: 'The cap.' }) maxCount?: number | null;
  @Field(() => Boolean, { nullable: true, description: 'true archives, false unarchives.' }) archive?: boolean | null;
  @Field(() => MetaDataUpdateInput, { nullable: true, description: DOC.metaDataUpdate }) metaDataUpdate?: MetaDataUpdateInput | null;
}

@InputType('CreateSubscriptionContractInput', { description: 'A contract made by the merchant.' })
export class CreateContractInput {
  @Field(() => ID, { nullable: true, description: 'The client.' }) clientID?: string | null;
  @Field(() => SubscriptionContractStatusEnum, {
    nullable: true,
    description: 'active (default, with its first allocation) or pending_payment.',
  })
  status?: ContractStatus | null;
  @Field(() => Date, { nullable: true, description: 'Start of validity (default now).' }) activeFrom?: Date | null;
  @Field(() => DurationScalar, { nullable: true, description: "Length (default the subscription's)." }) duration?: string | null;
  @Field(() => Date, {
    nullable: true,
    description: 'When a pending_payment contract is cancelled unless paid (in the future; default now + the payment timeout).',
  })
  expiresAt?: Date | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: DOC.metaDataInput }) metaData?: MetaData | null;
}

@InputType('UpdateSubscriptionContractInput', { description: 'Changes to a contract; status transitions are checked.' })
export class UpdateContractInput {
  @Field(() => ID, { nullable: true, description: 'The client.' }) clientID?: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'A new length (expiresAt follows).' }) duration?: string | null;
  @Field(() => SubscriptionContractStatusEnum, { nullable: true, description: 'A new status.' }) status?: ContractStatus | null;
  @Field(() => ID, { nullable: true, description: 'Another subscription of the company (its limitations are copied).' })
  subscriptionID?: string | null;
  @Field(() => MetaDataUpdateInput, { nullable: true, description: DOC.metaDataUpdate }) metaDataUpdate?: MetaDataUpdateInput | null;
}

@InputType('MetaDataQueryInput', { description: 'Matches records whose metadata at path equals value.' })
export class MetaDataQueryInput {
  @Field(() => String, { nullable: true, description: 'Only eq.' }) op?: string | null;
  @Field({ description: 'Dot-separated key path.' }) path!: string;
  @Field(() => JSONScalar, { nullable: true, description: 'The value to match.' }) value?: unknown;
}

@InputType('SubscriptionContractFilter', { description: 'Contracts matching every given filter; each list matches any of its values.' })
export class ContractFilter {
  @Field(() => [ID], { nullable: true, description: 'Contract ids.' }) ids?: string[] | null;
  @Field(() => [ID], { nullable: true, description: 'Clients.' }) clientIDs?: string[] | null;
  @Field(() => [ID], { nullable: true, description: 'Subscriptions.' }) subscriptionIDs?: string[] | null;
  @Field(() => [ID], { nullable: true, description: 'Contracts allowing any of these services.' }) serviceIDs?: string[] | null;
  @Field(() => [ID], { nullable: true, description: 'Contracts allowing any of these resources.' }) resourceIDs?: string[] | null;
  @Field(() => String, { nullable: true, description: 'A code, in any case, with or without hyphens.' }) code?: string | null;
  @Field(() => [SubscriptionContractStatusEnum], { nullable: true, description: 'Statuses as the contracts stand now.' })
  status?: ContractStatus[] | null;
  @Field(() => Date, { nullable: true, description: 'Valid at some time at or after.' }) fromDate?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Valid at some time before.' }) toDate?: Date | null;
  @Field(() => MetaDataQueryInput, { nullable: true, description: 'A metadata match.' }) metaDataQuery?: MetaDataQueryInput | null;
}

@InputType('AddVisitTransactionInput', { description: 'A ledger entry added by the merchant.' })
export class AddVisitInput {
  @Field(() => Int, {
    description:
      'Non-zero, stored as sent: positive for ALLOCATION, REVERSAL and ROLLOVER, negative for USAGE and EXPIRATION, either for ADJUSTMENT; the balance must stay >= 0.',
  })
  amount!: number;
  @Field(() => AdminVisitTypeEnum, { description: 'Any transaction type.' }) transactionType!: VisitTransactionType;
  @Field(() => Date, { nullable: true, description: 'When the granted visits lapse.' }) expiresAt?: Date | null;
  @Field(() => String, { nullable: true, description: 'Why.' }) reason?: string | null;
  @Field(() => ID, { nullable: true, description: 'An allocation of the same contract.' }) sourceAllocationID?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: DOC.metaDataInput }) metaData?: MetaData | null;
}
