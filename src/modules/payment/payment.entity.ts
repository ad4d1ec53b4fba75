import { Entity, Property } from '@mikro-orm/core';
import { TenantEntity } from '../../shared/base.entity';
import type { PaymentStatus, RefundStatus } from './payment.status';
import type { ProviderName } from './providers/provider-names';

/** A company's payment settings; without this record the company takes no payments. */
@Entity({ tableName: 'payment_settings' })
export class PaymentSettings extends TenantEntity {
  @Property({ type: 'text', fieldName: 'preferred_provider' })
  preferredProvider!: ProviderName;
}

/** One provider's redirect settings for a company. The signing secret is stored encrypted only. */
@Entity({ tableName: 'payment_provider_settings' })
export class PaymentProviderSettings extends TenantEntity {
  @Property({ type: 'text' })
  provider!: ProviderName;

  @Property({ type: 'text', fieldName: 'success_redirect_url', nullable: true })
  successRedirectUrl: string | null = null;

  @Property({ type: 'text', fieldName: 'failure_redirect_url', nullable: true })
  failureRedirectUrl: string | null = null;

  @Property({ type: 'text', fieldName: 'cancel_redirect_url', nullable: true })
  cancelRedirectUrl: string | null = null;

  @Property({ type: 'boolean', fieldName: 'enable_url_templating' })
  enableUrlTemplating: boolean = false;

  /** `v1:<iv>:<tag>:<ciphertext>` from secret-box; never serialised. */
  @Property({ type: 'text', fieldName: 'signing_secret_enc', nullable: true, hidden: true, lazy: false })
  signingSecretEnc: string | null = null;

  /** Stripe: the secret API key (`sk_test_`/`sk_live_`), encrypted like the signing secret; never serialised. */
  @Property({ type: 'text', fieldName: 'secret_key_enc', nullable: true, hidden: true, lazy: false })
  secretKeyEnc: string | null = null;

  /** Stripe: the webhook endpoint's signing secret (`whsec_`), encrypted; never serialised. */
  @Property({ type: 'text', fieldName: 'webhook_secret_enc', nullable: true, hidden: true, lazy: false })
  webhookSecretEnc: string | null = null;
}

@Entity({ tableName: 'payment_transaction' })
export class PaymentTransaction extends TenantEntity {
  @Property({ type: 'uuid', fieldName: 'client_id', nullable: true })
  clientId: string | null = null;

  @Property({ type: 'text', nullable: true })
  email: string | null = null;

  /** smallest currency unit */
  @Property({ type: 'integer' })
  amount!: number;

  @Property({ type: 'text' })
  currency!: string;

  @Property({ type: 'uuid', fieldName: 'item_id' })
  itemId!: string;

  @Property({ type: 'json', fieldName: 'item_ids' })
  itemIds: string[] = [];

  @Property({ type: 'text', fieldName: 'item_type' })
  itemType!: string;

  @Property({ type: 'json', fieldName: 'per_item_amounts' })
  perItemAmounts: Record<string, number> = {};

  @Property({ type: 'text', fieldName: 'plugin_namespace', nullable: true })
  pluginNamespace: string | null = null;

  @Property({ type: 'text', fieldName: 'provider_type' })
  providerType!: ProviderName;

  @Property({ type: 'uuid', fieldName: 'purchase_id', nullable: true })
  purchaseId: string | null = null;

  /** The purchase description handed to the provider (the booking's customPurchaseDescription or a generated one). */
  @Property({ type: 'text', fieldName: 'purchase_name', nullable: true })
  purchaseName: string | null = null;

  @Property({ type: 'text', fieldName: 'reference_id', nullable: true })
  referenceId: string | null = null;

  @Property({ type: 'text' })
  status: PaymentStatus = 'pending';

  @Property({ type: 'boolean', fieldName: 'tax_inclusive' })
  taxInclusive: boolean = false;

  @Property({ type: 'double', fieldName: 'tax_rate' })
  taxRate: number = 0;

  /** Sum of refunds that are pending or succeeded; never above `amount`. */
  @Property({ type: 'integer', fieldName: 'refunded_amount' })
  refundedAmount: number = 0;

  @Property({ type: 'timestamptz', fieldName: 'expires_at', nullable: true })
  expiresAt: Date | null = null;

  /** The provider's id of the money taken (Stripe: the Checkout Session's payment intent); refunds go to it. */
  @Property({ type: 'text', fieldName: 'provider_payment_id', nullable: true })
  providerPaymentId: string | null = null;

  /** A pending transaction whose provider checkout the sweeper could not settle yet: not read again before this. */
  @Property({ type: 'timestamptz', fieldName: 'provider_check_at', nullable: true })
  providerCheckAt: Date | null = null;

  /** An ended transaction whose provider checkout is still open: the sweeper closes it from this time on. */
  @Property({ type: 'timestamptz', fieldName: 'checkout_close_at', nullable: true })
  checkoutCloseAt: Date | null = null;
}

@Entity({ tableName: 'refund' })
export class Refund extends TenantEntity {
  @Property({ type: 'uuid', fieldName: 'transaction_id' })
  transactionId!: string;

  @Property({ type: 'uuid', fieldName: 'item_id' })
  itemId!: string;

  @Property({ type: 'integer' })
  amount!: number;

  @Property({ type: 'text' })
  currency!: string;

  @Property({ type: 'text', fieldName: 'idempotency_key', nullable: true })
  idempotencyKey: string | null = null;

  @Property({ type: 'json' })
  metadata: Record<string, string> = {};

  @Property({ type: 'text', fieldName: 'provider_refund_id', nullable: true })
  providerRefundId: string | null = null;

  @Property({ type: 'text', nullable: true })
  reason: string | null = null;

  @Property({ type: 'text' })
  status: RefundStatus = 'pending';
}
