import type { FastifyInstance } from 'fastify';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { notFound } from '../../shared/errors';
import { PROVIDER_NAMES } from './providers/provider-names';
import { PAYMENT_STATUSES, REFUND_STATUSES } from './payment.status';
import { getPaymentSettings, getProviderSettings, updatePaymentSettings, updateProviderSettings } from './settings.service';
import { getClientPayment, listClientPayments, listPayments } from './transaction.service';
import { createRefund, getRefundByItem } from './refund.service';
import { verifyRedirectSignature } from './verify.service';
import { VERIFY_FAILURE_REASONS } from './redirect/verify';
import { checkoutRoutes } from './checkout.routes';
import { stripeRoutes } from './stripe.routes';

export const paymentSchema = S.named(
  'PaymentTransaction',
  S.out({
    id: S.uuid,
    companyID: S.uuid,
    amount: S.int,
    currency: S.str,
    email: S.nstr,
    itemID: S.uuid,
    itemIDs: S.uuids,
    itemType: S.str,
    perItemAmounts: { type: 'object', description: 'What the payment takes for each item, by item id.', additionalProperties: S.int },
    pluginNamespace: S.nstr,
    providerType: S.oneOf(PROVIDER_NAMES),
    purchaseID: S.nstr,
    purchaseName: S.nstr,
    referenceID: S.nstr,
    status: S.oneOf(PAYMENT_STATUSES),
    taxInclusive: S.bool,
    taxRate: S.num,
    userID: S.nstr,
    expiresAt: S.nts,
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

const pageSchema = S.named(
  'PaymentTransactionPage',
  S.out({ transactions: S.array(paymentSchema), limit: S.int, offset: S.int, total: S.int }),
);

const refundSchema = S.named(
  'Refund',
  S.out({
    ID: S.uuid,
    companyID: S.uuid,
    transactionID: S.uuid,
    itemID: S.uuid,
    amount: S.int,
    currency: S.str,
    idempotencyKey: S.nstr,
    metadata: { type: 'object', description: 'Merchant-defined string values given with the refund.', additionalProperties: S.str },
    providerRefundID: S.nstr,
    reason: S.nstr,
    status: S.oneOf(REFUND_STATUSES),
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

const settingsSchema = S.named(
  'PaymentSettings',
  S.out({
    companyID: S.uuid,
    preferredProvider: S.oneOf(PROVIDER_NAMES),
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

const providerSettingsSchema = S.named(
  'PaymentProviderSettings',
  S.out({
    companyID: S.uuid,
    provider: S.oneOf(PROVIDER_NAMES),
    success_redirect_url: S.nstr,
    failure_redirect_url: S.nstr,
    cancel_redirect_url: S.nstr,
    enable_url_templating: S.bool,
    signing_secret_set: S.bool,
    secret_key_set: S.bool,
    webhook_secret_set: S.bool,
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

const verifySchema = S.named(
  'RedirectSignatureVerification',
  S.out({ valid: S.bool, reason: S.oneOf(VERIFY_FAILURE_REASONS) }, ['reason']),
);
const provider = S.params('cid', ['provider', S.choice(PROVIDER_NAMES)]);

type P = { cid: string; provider: string; transaction_id: string; item_id: string };

function found<T>(v: T | null, what: string): T {
  if (v === null) throw notFound(what);
  return v;
}

export function paymentRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: '/v1/companies/:cid/payments',
      operationId: 'listPayments',
      auth: 'key',
      summary: 'Get company payments list',
      params: S.params('cid'),
      querystring: S.named(
        'PaymentFilterInput',
        S.object({
          from: S.str,
          to: S.str,
          ids: S.str,
          itemIDs: S.str,
          pluginNamespaces: S.str,
          providerTypes: S.str,
          statuses: S.str,
          limit: S.str,
          offset: S.str,
        }),
      ),
      response: { 200: pageSchema, ...errors },
      heavy: { lane: 'lists' },
      handler: (ctx, req) => listPayments(ctx, (req.params as P).cid, req.query as object, req.query as object),
    },
    {
      method: 'GET',
      url: '/v1/companies/:cid/payments/verify-signature',
      operationId: 'verifyRedirectSignature',
      auth: 'key',
      summary: 'Verify redirect signature',
      params: S.params('cid'),
      description:
        "Send every query parameter received on the redirect URL as is (repeated ones included); none is declared because they are the templates' own.",
      response: { 200: verifySchema, ...errors },
      handler: (ctx, req) => verifyRedirectSignature(ctx, (req.params as P).cid, req.query),
    },
    {
      method: 'GET',
      url: '/v1/companies/:cid/payments/settings',
      operationId: 'getPaymentSettings',
      auth: 'key',
      summary: 'Get payment settings',
      params: S.params('cid'),
      response: { 200: settingsSchema, ...errors },
      handler: async (ctx, req) => found(await getPaymentSettings(ctx, (req.params as P).cid), 'payment settings'),
    },
    {
      method: 'PUT',
      url: '/v1/companies/:cid/payments/settings',
      operationId: 'updatePaymentSettings',
      auth: 'key',
      summary: 'Update payment settings',
      params: S.params('cid'),
      body: S.named('UpdatePaymentSettingsInput', S.object({ preferredProvider: S.choice(PROVIDER_NAMES) }, ['preferredProvider'])),
      response: { 200: settingsSchema, 409: S.error, ...errors },
      handler: (ctx, req) => updatePaymentSettings(ctx, (req.params as P).cid, req.body as object),
    },
    {
      method: 'GET',
      url: '/v1/companies/:cid/payments/providers/:provider',
      operationId: 'getProviderSettings',
      auth: 'key',
      summary: 'Get provider settings',
      params: provider,
      response: { 200: providerSettingsSchema, ...errors },
      handler: async (ctx, req) =>
        found(await getProviderSettings(ctx, (req.params as P).cid, (req.params as P).provider), 'provider settings'),
    },
    {
      method: 'PUT',
      url: '/v1/companies/:cid/payments/providers/:provider',
      operationId: 'updateProviderSettings',
      auth: 'key',
      summary:
        'Update provider settings (signing_secret, and for stripe secret_key and webhook_secret, are write-only; omitted, the stored one is kept)',
      params: provider,
      body: S.named(
        'UpdatePaymentProviderSettingsInput',
        S.object({
          success_redirect_url: S.nstr,
          failure_redirect_url: S.nstr,
          cancel_redirect_url: S.nstr,
          enable_url_templating: S.bool,
          signing_secret: S.nstr,
          secret_key: S.nstr,
          webhook_secret: S.nstr,
        }),
      ),
      response: { 200: providerSettingsSchema, ...errors },
      handler: (ctx, req) => updateProviderSettings(ctx, (req.params as P).cid, (req.params as P).provider, req.body as object),
    },
    {
      method: 'POST',
      url: '/v1/companies/:cid/payments/:transaction_id/refunds',
      operationId: 'createRefund',
      auth: 'key',
      status: 201,
      summary: 'Refund an item of a paid transaction (percent or amount; optional Idempotency-Key header)',
      params: S.params('cid', 'transaction_id'),
      body: S.named(
        'CreateRefundInput',
        S.object({ itemID: S.str, percent: S.int, amount: S.int, reason: S.nstr, metadata: S.nobj }, ['itemID']),
      ),
      response: { 201: refundSchema, 409: S.error, ...errors },
      handler: (ctx, req) => {
        const key = req.headers['idempotency-key'];
        return createRefund(
          ctx,
          (req.params as P).cid,
          (req.params as P).transaction_id,
          req.body as object,
          typeof key === 'string' ? key : null,
        );
      },
    },
    {
      method: 'GET',
      url: '/v1/refunds/:item_id',
      operationId: 'getRefund',
      auth: 'key',
      summary: 'Get refund by item ID',
      params: S.params(['item_id', 'The item refunded (a booking, a gift card order or a subscription purchase).']),
      response: { 200: refundSchema, ...errors },
      handler: (ctx, req) => getRefundByItem(ctx, (req.params as P).item_id),
    },
    {
      method: 'GET',
      url: '/v1/client/payments',
      operationId: 'listClientPayments',
      auth: 'bearer',
      summary: 'Client payments list',
      querystring: S.object({ limit: S.str, offset: S.str }),
      response: { 200: pageSchema, ...errors },
      handler: (ctx, req) => listClientPayments(ctx, req.query as object),
    },
    {
      method: 'GET',
      url: '/v1/client/payments/:transaction_id',
      operationId: 'getClientPayment',
      auth: 'bearer',
      summary: 'Get client payment',
      params: S.params('transaction_id'),
      response: { 200: paymentSchema, ...errors },
      handler: (ctx, req) => getClientPayment(ctx, (req.params as P).transaction_id),
    },
  ]);
  checkoutRoutes(app);
  stripeRoutes(app);
}
