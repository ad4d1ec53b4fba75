import { Field, ID, InputType, Int, ObjectType, Float } from 'type-graphql';
import { JSONObjectScalar } from '../../kernel/graphql-scalars';

@ObjectType('PaymentTransaction', { description: 'A payment of one or more items (bookings) through a provider.' })
export class PaymentTransactionType {
  @Field(() => ID) id!: string;
  @Field(() => ID) companyID!: string;
  @Field(() => Int, { description: 'smallest currency unit' }) amount!: number;
  @Field() currency!: string;
  @Field(() => String, { nullable: true }) email!: string | null;
  @Field(() => ID) itemID!: string;
  @Field(() => [ID]) itemIDs!: string[];
  @Field() itemType!: string;
  @Field(() => JSONObjectScalar, { description: 'item id -> amount' }) perItemAmounts!: Record<string, number>;
  @Field(() => String, { nullable: true }) pluginNamespace!: string | null;
  @Field() providerType!: string;
  @Field(() => ID, { nullable: true }) purchaseID!: string | null;
  @Field(() => String, { nullable: true }) purchaseName!: string | null;
  @Field(() => String, { nullable: true }) referenceID!: string | null;
  @Field({ description: 'pending, paid, failed, cancelled, refunded, partially_refunded' }) status!: string;
  @Field() taxInclusive!: boolean;
  @Field(() => Float) taxRate!: number;
  @Field(() => ID, { nullable: true, description: 'the client who pays' }) userID!: string | null;
  @Field(() => Date, { nullable: true }) expiresAt!: string | null;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('PaymentTransactionPage')
export class PaymentTransactionPage {
  @Field(() => [PaymentTransactionType]) transactions!: PaymentTransactionType[];
  @Field(() => Int) limit!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int) total!: number;
}

@ObjectType('Refund')
export class RefundType {
  @Field(() => ID) ID!: string;
  @Field(() => ID) companyID!: string;
  @Field(() => ID) transactionID!: string;
  @Field(() => ID) itemID!: string;
  @Field(() => Int) amount!: number;
  @Field() currency!: string;
  @Field(() => String, { nullable: true }) idempotencyKey!: string | null;
  @Field(() => JSONObjectScalar) metadata!: Record<string, string>;
  @Field(() => String, { nullable: true }) providerRefundID!: string | null;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field({ description: 'pending, succeeded, failed' }) status!: string;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('PaymentSettings')
export class PaymentSettingsType {
  @Field(() => ID) companyID!: string;
  @Field({ description: 'stripe, klix, decta, montonio, mercadopago or test' }) preferredProvider!: string;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('PaymentProviderSettings', { description: 'Redirect settings of one provider; the signing secret is write-only.' })
export class PaymentProviderSettingsType {
  @Field(() => ID) companyID!: string;
  @Field() provider!: string;
  @Field(() => String, { nullable: true }) success_redirect_url!: string | null;
  @Field(() => String, { nullable: true }) failure_redirect_url!: string | null;
  @Field(() => String, { nullable: true }) cancel_redirect_url!: string | null;
  @Field() enable_url_templating!: boolean;
  @Field() signing_secret_set!: boolean;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('RedirectSignatureVerification')
export class RedirectSignatureVerificationType {
  @Field() valid!: boolean;
  @Field(() => String, { nullable: true, description: 'why the signature is not valid' }) reason?: string;
}

@InputType()
export class UpdatePaymentSettingsInput {
  @Field() preferredProvider!: string;
}

@InputType({ description: 'A full replacement, except signing_secret: omitted keeps the stored secret, null removes it.' })
export class UpdatePaymentProviderSettingsInput {
  @Field(() => String, { nullable: true }) success_redirect_url?: string | null;
  @Field(() => String, { nullable: true }) failure_redirect_url?: string | null;
  @Field(() => String, { nullable: true }) cancel_redirect_url?: string | null;
  @Field(() => Boolean, { nullable: true }) enable_url_templating?: boolean | null;
  @Field(() => String, { nullable: true }) signing_secret?: string | null;
}

@InputType()
export class PaymentFilterInput {
  @Field(() => Date, { nullable: true }) from?: Date;
  @Field(() => Date, { nullable: true }) to?: Date;
  @Field(() => [ID], { nullable: true }) ids?: string[];
  @Field(() => [ID], { nullable: true }) itemIDs?: string[];
  @Field(() => [String], { nullable: true }) pluginNamespaces?: string[];
  @Field(() => [String], { nullable: true }) providerTypes?: string[];
  @Field(() => [String], { nullable: true }) statuses?: string[];
}

@InputType()
export class CreateRefundInput {
  @Field(() => ID) itemID!: string;
  @Field(() => Int, { nullable: true, description: 'percent of the item paid amount, rounded down' }) percent?: number;
  @Field(() => Int, { nullable: true }) amount?: number;
  @Field(() => String, { nullable: true }) reason?: string;
  @Field(() => JSONObjectScalar, { nullable: true }) metadata?: Record<string, string>;
}
