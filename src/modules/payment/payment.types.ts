import { connectionType } from '../../kernel/connection';
import { Field, ID, InputType, Int, ObjectType, Float } from 'type-graphql';
import { JSONObjectScalar } from '../../kernel/graphql-scalars';
import { defineEnum, DOC, PART_OF_RECORD } from '../../kernel/graphql-types';
import type { ProviderName } from './providers/provider-names';
import type { PaymentStatus, RefundStatus } from './payment.status';
import type { VerifyFailureReason } from './redirect/verify';

export const PaymentStatusEnum = defineEnum<PaymentStatus>('PaymentStatus', 'Where a payment transaction stands.', {
  pending: 'Waiting for the client to pay; holds its items until it expires.',
  paid: 'Paid in full.',
  failed: 'The payment failed or expired.',
  cancelled: 'The client cancelled the payment.',
  refunded: 'Paid, then refunded in full.',
  partially_refunded: 'Paid, then refunded in part.',
});

export const RefundStatusEnum = defineEnum<RefundStatus>('RefundStatus', 'Where a refund stands.', {
  pending: 'Sent to the provider, not yet settled.',
  succeeded: 'The money was returned.',
  failed: 'The provider refused the refund.',
});

export const PaymentProviderEnum = defineEnum<ProviderName>('PaymentProvider', 'Payment providers (the built-in `test` one included).', {
  stripe: 'Stripe.',
  klix: 'Klix.',
  decta: 'Decta.',
  montonio: 'Montonio.',
  mercadopago: 'Mercado Pago.',
  test: 'The built-in test provider with its hosted checkout page.',
});

export const SignatureFailureReasonEnum = defineEnum<VerifyFailureReason>(
  'SignatureFailureReason',
  'Why a signed redirect URL does not verify (see src/modules/payment/README.md).',
  {
    missing_parameters: 'The ts or sig parameter is missing.',
    invalid_timestamp: 'ts is not an integer.',
    signature_expired: 'The link is older than five minutes.',
    timestamp_in_future: 'ts lies too far in the future.',
    invalid_signature_format: 'sig is not hexadecimal.',
    invalid_signature_length: 'sig has the wrong length.',
    company_settings_not_found: 'The company has no payment settings.',
    provider_settings_not_found: 'The preferred provider has no redirect settings.',
    signing_secret_not_configured: 'No signing secret is set.',
    failed_to_extract_signing_secret: 'The stored signing secret cannot be read.',
    signature_mismatch: 'The signature does not match the parameters.',
    internal_error: 'The settings could not be loaded; retry.',
  },
);

@ObjectType('ItemAmount', { description: 'The amount a transaction charges for one item.' })
export class ItemAmountType {
  @Field(() => ID, { description: 'The item (a booking).' }) itemID!: string;
  @Field(() => Int, { description: 'Amount in the smallest currency unit.' }) amount!: number;
}

@ObjectType('PaymentTransaction', { description: 'A payment of one or more items (bookings) through a provider.' })
export class PaymentTransactionType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field(() => Int, { description: 'smallest currency unit' }) amount!: number;
  @Field({ description: 'ISO 4217 currency code.' }) currency!: string;
  @Field(() => String, { nullable: true, description: 'Email of the payer, when known.' }) email!: string | null;
  @Field(() => ID, { description: 'The first item paid.' }) itemID!: string;
  @Field(() => [ID], { description: 'Every item paid, in order.' }) itemIDs!: string[];
  @Field({ description: 'What the items are (`booking`; plugins add their own types).' }) itemType!: string;
  perItemAmounts!: Record<string, number>;
  @Field(() => [ItemAmountType], { name: 'perItemAmounts', complexity: PART_OF_RECORD, description: 'The amount of each item.' })
  itemAmounts(): ItemAmountType[] {
    return Object.entries(this.perItemAmounts ?? {}).map(([itemID, amount]) => ({ itemID, amount }));
  }
  @Field(() => String, { nullable: true, description: 'The plugin that sold the items; null for bookings.' }) pluginNamespace!:
    string | null;
  @Field(() => PaymentProviderEnum, { description: 'The provider taking the payment.' }) providerType!: string;
  @Field(() => ID, { nullable: true, description: 'The purchase paid, for plugin items.' }) purchaseID!: string | null;
  @Field(() => String, { nullable: true, description: 'Name of the purchase shown to the payer.' }) purchaseName!: string | null;
  @Field(() => String, { nullable: true, description: "The provider's reference of the payment." }) referenceID!: string | null;
  @Field(() => PaymentStatusEnum, { description: 'Where the payment stands.' }) status!: string;
  @Field({ description: 'Whether the amount includes tax.' }) taxInclusive!: boolean;
  @Field(() => Float, { description: 'Tax percent (21 = 21 %).' }) taxRate!: number;
  @Field(() => ID, { nullable: true, description: 'the client who pays' }) userID!: string | null;
  @Field(() => Date, { nullable: true, description: 'When an unpaid transaction fails; null once settled.' }) expiresAt!: string | null;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

export const PaymentTransactionConnectionType = connectionType(
  'PaymentTransaction',
  () => PaymentTransactionType,
  'Payment transactions, newest first (then by id, descending).',
  'transactions',
);

@ObjectType('Refund', { description: 'Money returned for an item of a paid transaction.' })
export class RefundType {
  @Field(() => ID, { description: DOC.id }) ID!: string;
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field(() => ID, { description: 'The transaction refunded.' }) transactionID!: string;
  @Field(() => ID, { description: 'The item refunded.' }) itemID!: string;
  @Field(() => Int, { description: 'Amount in the smallest currency unit.' }) amount!: number;
  @Field({ description: 'ISO 4217 currency code.' }) currency!: string;
  @Field(() => String, { nullable: true, description: 'The idempotency key it was created with.' }) idempotencyKey!: string | null;
  @Field(() => JSONObjectScalar, { description: 'Merchant-defined string values stored with the refund.' }) metadata!: Record<
    string,
    string
  >;
  @Field(() => String, { nullable: true, description: "The provider's id of the refund." }) providerRefundID!: string | null;
  @Field(() => String, { nullable: true, description: 'Why the money was returned.' }) reason!: string | null;
  @Field(() => RefundStatusEnum, { description: 'Where the refund stands.' }) status!: string;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('PaymentSettings', { description: 'How a company takes payments.' })
export class PaymentSettingsType {
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field(() => PaymentProviderEnum, { description: 'The provider new payments go to.' }) preferredProvider!: string;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('PaymentProviderSettings', { description: 'Redirect settings of one provider; the signing secret is write-only.' })
export class PaymentProviderSettingsType {
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field(() => PaymentProviderEnum, { description: 'The provider.' }) provider!: string;
  @Field(() => String, { nullable: true, description: 'Where the client goes after paying (templated when enabled).' })
  success_redirect_url!: string | null;
  @Field(() => String, { nullable: true, description: 'Where the client goes after a failed payment.' }) failure_redirect_url!:
    string | null;
  @Field(() => String, { nullable: true, description: 'Where the client goes after cancelling.' }) cancel_redirect_url!: string | null;
  @Field({ description: 'Whether the redirect URLs are templates filled in and signed.' }) enable_url_templating!: boolean;
  @Field({ description: 'Whether a signing secret is stored.' }) signing_secret_set!: boolean;
  @Field({ description: 'stripe: whether a secret API key is stored.' }) secret_key_set!: boolean;
  @Field({ description: 'stripe: whether a webhook signing secret is stored.' }) webhook_secret_set!: boolean;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('RedirectSignatureVerification', { description: 'The result of verifying a signed redirect URL.' })
export class RedirectSignatureVerificationType {
  @Field({ description: 'Whether the signature is valid.' }) valid!: boolean;
  @Field(() => SignatureFailureReasonEnum, { nullable: true, description: 'why the signature is not valid' }) reason?: string;
}

@InputType({ description: 'The provider new payments go to.' })
export class UpdatePaymentSettingsInput {
  @Field(() => PaymentProviderEnum, { description: 'The provider.' }) preferredProvider!: string;
}

@InputType({ description: 'A full replacement, except signing_secret: omitted keeps the stored secret, null removes it.' })
export class UpdatePaymentProviderSettingsInput {
  @Field(() => String, { nullable: true, description: 'Where the client goes after paying.' }) success_redirect_url?: string | null;
  @Field(() => String, { nullable: true, description: 'Where the client goes after a failed payment.' }) failure_redirect_url?:
    string | null;
  @Field(() => String, { nullable: true, description: 'Where the client goes after cancelling.' }) cancel_redirect_url?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Whether the URLs are templates filled in and signed.' }) enable_url_templating?:
    boolean | null;
  @Field(() => String, { nullable: true, description: 'The signing secret (32 characters or more); write-only.' }) signing_secret?:
    string | null;
  @Field(() => String, {
    nullable: true,
    description: 'stripe: the secret API key (sk_test_... or sk_live_...); write-only: omitted keeps it, null removes it.',
  })
  secret_key?: string | null;
  @Field(() => String, {
    nullable: true,
    description: "stripe: the webhook endpoint's signing secret (whsec_...); write-only: omitted keeps it, null removes it.",
  })
  webhook_secret?: string | null;
}

@InputType({ description: 'Which transactions to list; every filter given must match.' })
export class PaymentFilterInput {
  @Field(() => Date, { nullable: true, description: 'Created at or after.' }) from?: Date;
  @Field(() => Date, { nullable: true, description: 'Created before.' }) to?: Date;
  @Field(() => [ID], { nullable: true, description: 'These transactions.' }) ids?: string[];
  @Field(() => [ID], { nullable: true, description: 'Transactions paying these items.' }) itemIDs?: string[];
  @Field(() => [String], { nullable: true, description: 'Transactions of these plugins.' }) pluginNamespaces?: string[];
  @Field(() => [PaymentProviderEnum], { nullable: true, description: 'Transactions through these providers.' }) providerTypes?: string[];
  @Field(() => [PaymentStatusEnum], { nullable: true, description: 'Transactions in these states.' }) statuses?: string[];
}

@InputType({ description: 'A refund of an item.' })
export class CreateRefundInput {
  @Field(() => ID, { description: 'The item to refund.' }) itemID!: string;
  @Field(() => Int, { nullable: true, description: 'percent of the item paid amount, rounded down' }) percent?: number;
  @Field(() => Int, { nullable: true, description: 'Amount in the smallest currency unit (instead of percent).' }) amount?: number;
  @Field(() => String, { nullable: true, description: 'Why the money is returned.' }) reason?: string;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'Merchant-defined string values to store with the refund.' })
  metadata?: Record<string, string>;
}

@InputType('QueryParameterInput', { description: 'One query parameter of a URL, decoded.' })
export class QueryParameterInput {
  @Field({ description: 'Parameter name.' }) name!: string;
  @Field({ description: 'Parameter value.' }) value!: string;
}

/** Query parameters as a query-string parser yields them: a repeated name becomes a list. */
export function queryOf(params: QueryParameterInput[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const { name, value } of params) {
    const seen = out[name];
    out[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}
