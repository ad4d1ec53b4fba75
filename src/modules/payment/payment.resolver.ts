import { Arg, Args, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { DOC } from '../../kernel/graphql-types';
import { ConnectionArgs } from '../../kernel/connection';
import { runHeavy } from '../../kernel/bulkhead';
import type { Ctx } from '../../kernel/context';
import {
  CreateRefundInput,
  PaymentFilterInput,
  PaymentProviderEnum,
  PaymentProviderSettingsType,
  PaymentSettingsType,
  PaymentTransactionConnectionType,
  PaymentTransactionType,
  QueryParameterInput,
  queryOf,
  RedirectSignatureVerificationType,
  RefundType,
  UpdatePaymentProviderSettingsInput,
  UpdatePaymentSettingsInput,
} from './payment.types';
import { getPaymentSettings, getProviderSettings, updatePaymentSettings, updateProviderSettings } from './settings.service';
import { clientPaymentsConnection, getClientPayment, paymentsConnection } from './transaction.service';
import { createRefund, getRefundByItem } from './refund.service';
import { verifyRedirectSignature } from './verify.service';

@Resolver()
export class PaymentResolver {
  @Query(() => PaymentSettingsType, { nullable: true, description: 'How the company takes payments; null when it takes none.' })
  paymentSettings(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string) {
    return getPaymentSettings(ctx, companyID);
  }

  @Mutation(() => PaymentSettingsType, { description: 'Chooses the provider new payments go to (`payments.write`).' })
  updatePaymentSettings(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('input', () => UpdatePaymentSettingsInput, { description: DOC.inputArg }) input: UpdatePaymentSettingsInput,
  ) {
    return updatePaymentSettings(ctx, companyID, input);
  }

  @Query(() => PaymentProviderSettingsType, {
    nullable: true,
    description: 'Redirect settings of one provider; null when none are stored.',
  })
  paymentProviderSettings(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('provider', () => PaymentProviderEnum, { description: 'The provider.' }) provider: string,
  ) {
    return getProviderSettings(ctx, companyID, provider);
  }

  @Mutation(() => PaymentProviderSettingsType, { description: 'Replaces the redirect settings of one provider (`payments.write`).' })
  updatePaymentProviderSettings(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('provider', () => PaymentProviderEnum, { description: 'The provider.' }) provider: string,
    @Arg('input', () => UpdatePaymentProviderSettingsInput, { description: DOC.inputArg }) input: UpdatePaymentProviderSettingsInput,
  ) {
    return updateProviderSettings(ctx, companyID, provider, input);
  }

  @Query(() => RedirectSignatureVerificationType, {
    nullable: true,
    description: 'Verifies a signed redirect URL from every query parameter received on it.',
  })
  verifyRedirectSignature(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('query', () => [QueryParameterInput], { description: 'Every query parameter the redirect URL arrived with, in order.' })
    query: QueryParameterInput[],
  ) {
    return verifyRedirectSignature(ctx, companyID, queryOf(query));
  }

  @Query(() => PaymentTransactionConnectionType, { nullable: true, description: "The company's payment transactions, newest first." })
  payments(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
    @Arg('filter', () => PaymentFilterInput, { nullable: true, description: 'The filters; left out: every transaction.' })
    filter?: PaymentFilterInput,
  ) {
    return runHeavy(ctx, 'lists', () => paymentsConnection(ctx, companyID, filter, page));
  }

  @Query(() => RefundType, { nullable: true, description: 'The latest refund of an item (e.g. a booking).' })
  refund(@GqlCtx() ctx: Ctx, @Arg('itemID', () => ID, { description: 'The item (a booking).' }) itemID: string) {
    return getRefundByItem(ctx, itemID);
  }

  @Mutation(() => RefundType, { description: 'Refunds an item of a paid transaction; a repeated idempotencyKey returns the first refund.' })
  createRefund(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('transactionID', () => ID, { description: 'The paid transaction.' }) transactionID: string,
    @Arg('input', () => CreateRefundInput, { description: DOC.inputArg }) input: CreateRefundInput,
    @Arg('idempotencyKey', () => String, { nullable: true, description: 'A repeated key returns the first refund.' })
    idempotencyKey?: string,
  ) {
    return createRefund(ctx, companyID, transactionID, input, idempotencyKey ?? null);
  }

  @Query(() => PaymentTransactionConnectionType, { nullable: true, description: "The calling client's payments, newest first." })
  clientPayments(@GqlCtx() ctx: Ctx, @Args(() => ConnectionArgs) page: ConnectionArgs) {
    return clientPaymentsConnection(ctx, page);
  }

  @Query(() => PaymentTransactionType, { nullable: true, description: 'One payment of the calling client.' })
  clientPayment(@GqlCtx() ctx: Ctx, @Arg('id', () => ID, { description: DOC.idArg }) id: string) {
    return getClientPayment(ctx, id);
  }
}
