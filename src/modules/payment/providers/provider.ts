import type { PaymentTransaction, Refund } from '../payment.entity';
import type { RefundStatus } from '../payment.status';
import type { ProviderName } from './provider-names';

export interface ProviderEnv {
  /** PUBLIC_URL without a trailing slash */
  publicUrl: string;
}

export interface ProviderRefundResult {
  status: RefundStatus;
  providerRefundId: string | null;
}

/**
 * A payment provider as the payment context sees it. Real providers would call their API
 * here; the redirect URLs are rendered by the caller, so a provider never sees the secret.
 */
export interface PaymentProvider {
  readonly name: ProviderName;
  /** Whether this installation can take payments through the provider. */
  readonly available: boolean;
  /** The URL the client is sent to for paying `tx`. */
  createCheckout(tx: PaymentTransaction, env: ProviderEnv): Promise<string>;
  /** Returns the refund's outcome; a provider that settles asynchronously answers `pending`. */
  refund(tx: PaymentTransaction, refund: Refund): Promise<ProviderRefundResult>;
}
