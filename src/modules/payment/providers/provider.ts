import type { PaymentTransaction, Refund } from '../payment.entity';
import type { RefundStatus } from '../payment.status';
import type { ProviderName } from './provider-names';
import type { Ctx } from '../../../kernel/context';

export interface ProviderEnv {
  /** PUBLIC_URL without a trailing slash */
  publicUrl: string;
  /** the caller's context, in its database transaction (a provider reads its settings with it) */
  ctx: Ctx;
}

export interface ProviderRefundResult {
  status: RefundStatus;
  providerRefundId: string | null;
}

/** Where the customer pays, and what the provider decided about the transaction. */
export interface Checkout {
  url: string;
  /** the provider's reference of the payment (Stripe: the Checkout Session id) */
  referenceId?: string | null;
  /** a later expiry the provider imposes (Stripe: sessions last at least 30 minutes) */
  expiresAt?: Date;
}

/**
 * A payment provider as the payment context sees it. The redirect URLs are rendered by the
 * caller, so a provider never sees the signing secret.
 */
export interface PaymentProvider {
  readonly name: ProviderName;
  /** Whether this installation can take payments through the provider. */
  readonly available: boolean;
  /**
   * Opens the checkout of `tx` (not yet stored; its id, amount and expiry are final) and
   * answers where the client pays. `itemNames`: what each item is, for the provider's page.
   */
  createCheckout(tx: PaymentTransaction, env: ProviderEnv, itemNames: Record<string, string>): Promise<Checkout>;
  /** Returns the refund's outcome; a provider that settles asynchronously answers `pending`. */
  refund(tx: PaymentTransaction, refund: Refund, env: ProviderEnv): Promise<ProviderRefundResult>;
  /**
   * Whether the provider's checkout outlives a transaction that ended on this side (cancelled
   * here): the sweeper then closes it (`checkoutCloseAt`), so that it can no longer be paid.
   */
  readonly closesCheckout?: boolean;
}
