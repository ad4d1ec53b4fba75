import { Arg, Ctx as GqlCtx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { JSONObjectScalar } from '../../kernel/graphql-scalars';
import type { Ctx } from '../../kernel/context';
import {
  CreateRefundInput,
  PaymentFilterInput,
  PaymentProviderSettingsType,
  PaymentSettingsType,
  PaymentTransactionPage,
  PaymentTransactionType,
  RedirectSignatureVerificationType,
  RefundType,
  UpdatePaymentProviderSettingsInput,
  UpdatePaymentSettingsInput,
} from './payment.types';
import { getPaymentSettings, getProviderSettings, updatePaymentSettings, updateProviderSettings } from './settings.service';
import { getClientPayment, listClientPayments, listPayments } from './transaction.service';
import { createRefund, getRefundByItem } from './refund.service';
import { verifyRedirectSignature } from './verify.service';

@Resolver()
export class PaymentResolver {
  @Query(() => PaymentSettingsType, { nullable: true, description: 'Null when the company takes no payments.' })
  paymentSettings(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string) {
    return getPaymentSettings(ctx, companyID);
  }

  @Mutation(() => PaymentSettingsType)
  updatePaymentSettings(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('input', () => UpdatePaymentSettingsInput) input: UpdatePaymentSettingsInput,
  ) {
    return updatePaymentSettings(ctx, companyID, input);
  }

  @Query(() => PaymentProviderSettingsType, { nullable: true })
  paymentProviderSettings(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string, @Arg('provider') provider: string) {
    return getProviderSettings(ctx, companyID, provider);
  }

  @Mutation(() => PaymentProviderSettingsType)
  updatePaymentProviderSettings(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('provider') provider: string,
    @Arg('input', () => UpdatePaymentProviderSettingsInput) input: UpdatePaymentProviderSettingsInput,
  ) {
    return updateProviderSettings(ctx, companyID, provider, input);
  }

  @Query(() => RedirectSignatureVerificationType, {
    nullable: true,
    description: 'Verifies a signed redirect URL from every query parameter received on it.',
  })
  verifyRedirectSignature(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('query', () => JSONObjectScalar) query: Record<string, unknown>,
  ) {
    return verifyRedirectSignature(ctx, companyID, query);
  }

  @Query(() => PaymentTransactionPage, { nullable: true })
  payments(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('filter', () => PaymentFilterInput, { nullable: true }) filter?: PaymentFilterInput,
    @Arg('limit', () => Int, { nullable: true }) limit?: number,
    @Arg('offset', () => Int, { nullable: true }) offset?: number,
  ) {
    return listPayments(ctx, companyID, filter, { limit, offset });
  }

  @Query(() => RefundType, { nullable: true, description: 'The latest refund of an item (e.g. a booking).' })
  refund(@GqlCtx() ctx: Ctx, @Arg('itemID', () => ID) itemID: string) {
    return getRefundByItem(ctx, itemID);
  }

  @Mutation(() => RefundType, { description: 'Refunds an item of a paid transaction; a repeated idempotencyKey returns the first refund.' })
  createRefund(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('transactionID', () => ID) transactionID: string,
    @Arg('input', () => CreateRefundInput) input: CreateRefundInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey?: string,
  ) {
    return createRefund(ctx, companyID, transactionID, input, idempotencyKey ?? null);
  }

  @Query(() => PaymentTransactionPage, { nullable: true })
  clientPayments(
    @GqlCtx() ctx: Ctx,
    @Arg('limit', () => Int, { nullable: true }) limit?: number,
    @Arg('offset', () => Int, { nullable: true }) offset?: number,
  ) {
    return listClientPayments(ctx, { limit, offset });
  }

  @Query(() => PaymentTransactionType, { nullable: true })
  clientPayment(@GqlCtx() ctx: Ctx, @Arg('id', () => ID) id: string) {
    return getClientPayment(ctx, id);
  }
}
