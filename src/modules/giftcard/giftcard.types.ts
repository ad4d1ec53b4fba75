import { connectionType } from '../../kernel/connection';
import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DurationScalar, JSONObjectScalar } from '../../kernel/graphql-scalars';
import { MetaDataUpdateInput } from '../../kernel/metadata-update.types';
import type { MetaData } from '../../shared/metadata';
import type { ContractStatus, UsageStatus } from './giftcard.status';

/** GraphQL types of gift cards; field names are the REST JSON names and resolvers return the REST objects. */

export const GiftCardContractStatusEnum: Record<ContractStatus, ContractStatus> = {
  pending_payment: 'pending_payment',
  active: 'active',
  redeemed: 'redeemed',
  expired: 'expired',
  cancelled: 'cancelled',
};
registerEnumType(GiftCardContractStatusEnum, {
  name: 'GiftCardContractStatus',
  description: 'Where a sold or issued gift card stands.',
  valuesConfig: {
    pending_payment: { description: 'Bought, waiting for its payment; cannot pay yet.' },
    active: { description: 'Paid or issued, inside its validity, with a balance left.' },
    redeemed: { description: 'The whole balance is spent.' },
    expired: { description: 'Its validity (expiresAt) has passed.' },
    cancelled: { description: 'Its payment failed, was cancelled or expired.' },
  },
});

export const GiftCardUsageStatusEnum: Record<UsageStatus, UsageStatus> = { used: 'used', cancelled: 'cancelled' };
registerEnumType(GiftCardUsageStatusEnum, {
  name: 'GiftCardUsageStatus',
  description: 'Whether an amount paid with a gift card still counts.',
  valuesConfig: {
    used: { description: 'Taken from the balance.' },
    cancelled: { description: 'Given back to the balance (for a booking: it failed, was cancelled or its payment expired).' },
  },
});

@ObjectType('GiftCard', { description: 'A gift card a company sells or issues.' })
export class GiftCardType {
  @Field(() => ID, { description: 'Identifier.' }) id!: string;
  @Field(() => ID, { description: 'The company.' }) companyID!: string;
  @Field({ description: 'Name shown to clients.' }) title!: string;
  @Field(() => Int, { description: 'Value (smallest currency unit).' }) amount!: number;
  @Field({ description: 'ISO 4217 code.' }) currency!: string;
  @Field({ description: 'Offered to clients.' }) active!: boolean;
  @Field({ description: 'Whether amount includes the tax.' }) taxInclusive!: boolean;
  @Field(() => Float, { description: 'Tax rate in percent.' }) taxRate!: number;
  @Field(() => Date, { nullable: true, description: 'On sale from (inclusive).' }) availableFrom!: string | null;
  @Field(() => Date, { nullable: true, description: 'On sale until (exclusive).' }) availableTo!: string | null;
  @Field(() => DurationScalar, { nullable: true, description: 'How long a sold card is valid; null: it never expires.' })
  validityDuration!: string | null;
  @Field(() => JSONObjectScalar, { description: 'Merchant-defined data.' }) metaData!: MetaData;
  @Field(() => Int, { description: 'Version of metaData.' }) metaDataVersion!: number;
  @Field(() => Date, { nullable: true, description: 'When the card was archived (neither sold nor issued).' }) archivedAt!: string | null;
  @Field(() => Date, { description: 'Creation time.' }) createdAt!: string;
  @Field(() => Date, { description: 'Last change.' }) updatedAt!: string;
}

@ObjectType('GiftCardUsage', { description: 'An amount paid with a gift card.' })
export class GiftCardUsageType {
  @Field(() => ID, { description: 'Identifier.' }) id!: string;
  @Field(() => ID, { description: 'The gift card contract.' }) purchaseId!: string;
  @Field(() => ID, { description: 'The gift card.' }) giftCardId!: string;
  @Field(() => ID, { nullable: true, description: 'Who paid.' }) clientId!: string | null;
  @Field(() => ID, { description: 'The company.' }) companyId!: string;
  @Field(() => ID, { nullable: true, description: 'The booking paid, if any.' }) reservationId!: string | null;
  @Field(() => Int, { description: 'Smallest currency unit.' }) amount!: number;
  @Field({ description: "The card's currency." }) currency!: string;
  @Field(() => GiftCardUsageStatusEnum, { description: 'Whether the amount still counts.' }) status!: UsageStatus;
  @Field(() => JSONObjectScalar, { description: 'Merchant-defined data.' }) metaData!: MetaData;
  @Field(() => Int, { description: 'Version of metaData.' }) metaDataVersion!: number;
  @Field(() => Date, { description: 'Creation time.' }) createdAt!: string;
  @Field(() => Date, { description: 'Last change.' }) updatedAt!: string;
}

@ObjectType('GiftCardContract', { description: 'One gift card sold or issued, with its code and balance.' })
export class GiftCardContractType {
  @Field(() => ID, { description: 'Identifier.' }) id!: string;
  @Field(() => ID, { description: 'The gift card.' }) giftCardId!: string;
  @Field(() => ID, { nullable: true, description: 'The owner.' }) clientId!: string | null;
  @Field(() => ID, { description: 'The company.' }) companyId!: string;
  @Field(() => String, { nullable: true, description: 'XXXX-XXXX-XXXX; for clients null until paid.' }) code!: string | null;
  @Field(() => Int, { description: 'Value when sold (smallest currency unit).' }) amount!: number;
  @Field({ description: 'ISO 4217 code.' }) currency!: string;
  @Field(() => Int, { description: 'amount minus the used usages.' }) balance!: number;
  @Field(() => GiftCardContractStatusEnum, { description: 'Where the card stands now.' }) status!: ContractStatus;
  @Field(() => Date, { nullable: true, description: 'End of validity (exclusive); null: never.' }) expiresAt!: string | null;
  @Field(() => Date, { nullable: true, description: 'The same instant as expiresAt.' }) validUntil!: string | null;
  @Field(() => JSONObjectScalar, { description: 'Merchant-defined data.' }) metaData!: MetaData;
  @Field(() => Int, { description: 'Version of metaData.' }) metaDataVersion!: number;
  @Field(() => Date, { description: 'Creation time.' }) createdAt!: string;
  @Field(() => Date, { description: 'Last change.' }) updatedAt!: string;
}

@ObjectType('ClientGiftCardContract', { description: 'A gift card purchase as its client sees it.' })
export class ClientGiftCardContractType extends GiftCardContractType {
  @Field({ description: "The card's title." }) giftCardName!: string;
  @Field(() => [GiftCardUsageType], { description: 'What was paid with the card.' }) usages!: GiftCardUsageType[];
  @Field(() => String, { nullable: true, description: 'Where to pay, while the purchase waits for payment.' }) paymentURL!: string | null;
}

@ObjectType('GiftCardCheckoutResult', {
  description: 'What a gift card purchase started (the checkout result): the contract and its payment.',
})
export class GiftCardCheckoutResultType {
  @Field(() => ClientGiftCardContractType, { description: 'The purchased contract (pending_payment until paid).' })
  item!: ClientGiftCardContractType;
  @Field(() => Int, { description: "What is paid: the card's amount (smallest currency unit)." }) price!: number;
  @Field(() => Int, { description: 'The tax included in the price at the card rate (smallest currency unit).' }) tax!: number;
  @Field(() => Float, { description: "The card's tax rate, in percent." }) taxRate!: number;
  @Field(() => Boolean, { description: "The card's taxInclusive setting." }) taxInclusive!: boolean;
  @Field({ description: 'Currency of the payment.' }) currency!: string;
  @Field(() => Date, { nullable: true, description: 'When the unpaid purchase lapses.' }) expiresAt!: string | null;
  @Field(() => String, { nullable: true, description: 'Where to pay.' }) paymentURL!: string | null;
  @Field(() => ID, { nullable: true, description: 'The payment transaction.' }) transactionID!: string | null;
}

export const GiftCardConnectionType = connectionType('GiftCard', () => GiftCardType, 'Gift cards, oldest first (then by id).', 'giftCards');
export const GiftCardContractConnectionType = connectionType(
  'GiftCardContract',
  () => GiftCardContractType,
  'Gift card contracts, oldest first (then by id).',
  'giftCardContracts',
);
export const ClientGiftCardContractConnectionType = connectionType(
  'ClientGiftCardContract',
  () => ClientGiftCardContractType,
  "The calling client's gift card purchases, newest first.",
  'giftCardContracts',
);
export const GiftCardUsageConnectionType = connectionType(
  'GiftCardUsage',
  () => GiftCardUsageType,
  'Usages of a gift card contract, oldest first (then by id).',
  'giftCardUsages',
);

@InputType('CreateGiftCardInput', { description: 'A new gift card.' })
export class CreateGiftCardInput {
  @Field({ description: 'Name shown to clients.' }) title!: string;
  @Field(() => Int, { description: 'Value, at least 1 (smallest currency unit).' }) amount!: number;
  @Field({ description: 'ISO 4217 code.' }) currency!: string;
  @Field(() => Boolean, { nullable: true, description: 'Offered to clients (default true).' }) active?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Whether amount includes the tax (default false).' }) taxInclusive?: boolean | null;
  @Field(() => Float, { nullable: true, description: 'Tax rate in percent, 0-100 (default 0).' }) taxRate?: number | null;
  @Field(() => Date, { nullable: true, description: 'On sale from (inclusive).' }) availableFrom?: Date | null;
  @Field(() => Date, { nullable: true, description: 'On sale until (exclusive).' }) availableTo?: Date | null;
  @Field(() => DurationScalar, { nullable: true, description: 'How long a sold card is valid (default: forever).' })
  validityDuration?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'Merchant-defined data.' }) metaData?: MetaData | null;
}

@InputType('UpdateGiftCardInput', {
  description: 'Changes to a gift card; only the fields sent change. Cards already sold keep their terms.',
})
export class UpdateGiftCardInput {
  @Field(() => String, { nullable: true, description: 'Name shown to clients.' }) title?: string | null;
  @Field(() => Int, { nullable: true, description: 'Value (smallest currency unit).' }) amount?: number | null;
  @Field(() => String, { nullable: true, description: 'ISO 4217 code.' }) currency?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Offered to clients.' }) active?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Whether amount includes the tax.' }) taxInclusive?: boolean | null;
  @Field(() => Float, { nullable: true, description: 'Tax rate in percent.' }) taxRate?: number | null;
  @Field(() => Date, { nullable: true, description: 'On sale from.' }) availableFrom?: Date | null;
  @Field(() => Date, { nullable: true, description: 'On sale until.' }) availableTo?: Date | null;
  @Field(() => DurationScalar, { nullable: true, description: 'How long a card sold from now on is valid.' })
  validityDuration?: string | null;
  @Field(() => MetaDataUpdateInput, { nullable: true, description: 'A versioned metaData change.' })
  metaDataUpdate?: MetaDataUpdateInput | null;
}

@InputType('CreateGiftCardContractInput', { description: 'A gift card issued by the merchant (active at once).' })
export class CreateGiftCardContractInput {
  @Field(() => ID, { description: 'The gift card.' }) giftCardID!: string;
  @Field(() => ID, { nullable: true, description: 'The owner.' }) clientId?: string | null;
  @Field(() => GiftCardContractStatusEnum, { nullable: true, description: 'Only active (the default).' }) status?: ContractStatus | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'Merchant-defined data.' }) metaData?: MetaData | null;
}

@InputType('GiftCardContractFilter', { description: 'Contracts matching every given filter; each list matches any of its values.' })
export class GiftCardContractFilter {
  @Field(() => [ID], { nullable: true, description: 'Contract ids.' }) ids?: string[] | null;
  @Field(() => [ID], { nullable: true, description: 'Owners.' }) clientIds?: string[] | null;
  @Field(() => [ID], { nullable: true, description: 'Gift cards.' }) giftCardIds?: string[] | null;
  @Field(() => String, { nullable: true, description: 'A code, in any case, with or without hyphens.' }) code?: string | null;
  @Field(() => [GiftCardContractStatusEnum], { nullable: true, description: 'Statuses as the contracts stand now.' })
  status?: ContractStatus[] | null;
  @Field(() => Date, { nullable: true, description: 'Created at or after.' }) fromDate?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Created before.' }) toDate?: Date | null;
}

@InputType('CreateGiftCardUsageInput', { description: 'An amount to pay with a gift card.' })
export class CreateGiftCardUsageInput {
  @Field(() => Int, { description: 'At most the balance (else insufficient_balance).' }) amount!: number;
  @Field(() => ID, { nullable: true, description: 'The booking paid, if any.' }) reservationId?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'Merchant-defined data.' }) metaData?: MetaData | null;
}

@InputType('UpdateGiftCardUsageInput', { description: 'Changes to a gift card usage; only the fields sent change.' })
export class UpdateGiftCardUsageInput {
  @Field(() => Int, { nullable: true, description: 'A new amount; the difference is taken from or given back to the balance.' })
  amount?: number | null;
  @Field(() => ID, { nullable: true, description: 'The booking paid.' }) reservationID?: string | null;
  @Field(() => GiftCardUsageStatusEnum, { nullable: true, description: 'cancelled gives the amount back; used takes it again.' })
  status?: UsageStatus | null;
  @Field(() => MetaDataUpdateInput, { nullable: true, description: 'A versioned metaData change.' })
  metaDataUpdate?: MetaDataUpdateInput | null;
}

@InputType('GiftCardGuestInput', { description: 'The buyer, for purchases with an API key (client.create) instead of a client token.' })
export class GiftCardGuestInput {
  @Field({ description: 'E-mail; the client with this e-mail, or a new one.' }) email!: string;
  @Field(() => String, { nullable: true, description: 'First name (for a new client).' }) firstName?: string | null;
  @Field(() => String, { nullable: true, description: 'Last name (for a new client).' }) lastName?: string | null;
  @Field(() => ID, { nullable: true, description: 'A client of the company with the same e-mail.' }) id?: string | null;
  @Field(() => String, { nullable: true, description: "The integrator's platform id (not used for identity)." }) platformID?: string | null;
}

@InputType('PurchaseGiftCardInput', { description: 'A gift card to buy.' })
export class PurchaseGiftCardInput {
  @Field(() => ID, { description: 'The gift card (must be on sale).' }) giftCardID!: string;
  @Field(() => GiftCardGuestInput, { nullable: true, description: 'The buyer, with an API key.' }) client?: GiftCardGuestInput | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'Merchant-defined data of the purchase.' }) metaData?: MetaData | null;
}
