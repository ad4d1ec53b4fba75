import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { JSONObjectScalar } from '../../kernel/graphql-scalars';
import { PART_OF_RECORD } from '../../kernel/graphql-types';
import { connectionType } from '../../kernel/connection';
import type { MetaData } from '../../shared/metadata';
import { ContractType } from './subscription.types';

/** GraphQL types of the client interface of subscriptions: the cart, checkout results, purchases and renewals. */

@ObjectType('SubscriptionCart', { description: "The calling client's subscriptions cart." })
export class SubscriptionCartType {
  @Field(() => Date, { nullable: true, description: 'When the earliest item lapses (null when the cart is empty).' }) expiresAt!:
    string | null;
  @Field(() => [ContractType], { complexity: PART_OF_RECORD, description: 'The pending_payment contracts in the cart, oldest first.' })
  items!: ContractType[];
}

@ObjectType('SubscriptionCheckoutResult', {
  description: 'What a checkout, purchase or renewal started (the checkout result): one payment for every contract.',
})
export class SubscriptionCheckoutResultType {
  @Field(() => [ContractType], { complexity: PART_OF_RECORD, description: 'The contracts, as they stand after the call.' })
  items!: ContractType[];
  @Field(() => ContractType, { complexity: PART_OF_RECORD, description: 'The first of items (the only one of a one-item purchase).' })
  item!: ContractType;
  @Field(() => Int, { description: 'What is paid in total, tax included (smallest currency unit).' }) price!: number;
  @Field(() => Int, { description: 'The tax in the price (smallest currency unit).' }) tax!: number;
  @Field(() => Float, { description: 'Tax rate of the payment, in percent.' }) taxRate!: number;
  @Field(() => Boolean, { description: 'Whether the contracts were priced with the tax included.' }) taxInclusive!: boolean;
  @Field(() => String, { nullable: true, description: 'Currency of the payment.' }) currency!: string | null;
  @Field(() => Date, { nullable: true, description: 'When the unpaid checkout lapses; null when nothing is to be paid.' }) expiresAt!:
    string | null;
  @Field(() => String, { nullable: true, description: 'Where to pay; null when nothing is to be paid.' }) paymentURL!: string | null;
  @Field(() => ID, { nullable: true, description: 'The payment transaction; null when nothing is to be paid.' }) transactionID!:
    string | null;
  @Field(() => Int, { description: 'The price (its former name).', deprecationReason: 'Use price.' }) total!: number;
}

export const SubscriptionPurchaseConnectionType = connectionType(
  'SubscriptionPurchase',
  () => ContractType,
  "The calling client's purchased subscriptions, newest first.",
  'subscriptionContracts',
);

@InputType('SubscriptionCartItemInput', { description: 'A subscription to buy.' })
export class SubscriptionCartItemInput {
  @Field(() => ID, { description: 'The subscription (on sale, with a price now).' }) subscriptionID!: string;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'Merchant-defined data of the contract.' }) metaData?: MetaData | null;
}

@InputType('SubscriptionBuyerInput', { description: 'The buyer, for purchases with an API key (client.create) instead of a client token.' })
export class SubscriptionBuyerInput {
  @Field({ description: 'E-mail; the client with this e-mail, or a new one.' }) email!: string;
  @Field(() => String, { nullable: true, description: 'First name (for a new client).' }) firstName?: string | null;
  @Field(() => String, { nullable: true, description: 'Last name (for a new client).' }) lastName?: string | null;
}

@InputType('PurchaseSubscriptionsInput', { description: 'Subscriptions bought in one step, without the cart.' })
export class PurchaseSubscriptionsInput {
  @Field(() => [SubscriptionCartItemInput], { description: 'What to buy (1-20 items).' }) items!: SubscriptionCartItemInput[];
  @Field(() => SubscriptionBuyerInput, { nullable: true, description: 'The buyer, with an API key.' })
  client?: SubscriptionBuyerInput | null;
}

@InputType('RenewSubscriptionsInput', { description: 'Contracts to renew for one more duration.' })
export class RenewSubscriptionsInput {
  @Field(() => [ID], { description: "The calling client's contracts (1-20)." }) ids!: string[];
  @Field(() => Boolean, { nullable: true, description: 'Renew those that can be when some cannot (default false: 409).' })
  allowPartialRenewal?: boolean | null;
}
