import { invalid } from '../../../shared/errors';
import type { PaymentTransaction, Refund } from '../payment.entity';
import type { RefundStatus } from '../payment.status';
import { testProvider } from './test-provider';

/** The five providers that support redirect templating, and the built-in `test` provider. */
export const PROVIDER_NAMES = ['stripe', 'klix', 'decta', 'montonio', 'mercadopago', 'test'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export const isProviderName = (v: unknown): v is ProviderName => typeof v === 'string' && (PROVIDER_NAMES as readonly string[]).includes(v);

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

function notAvailable(name: ProviderName): Error {
  return invalid(`payment provider ${name} is not available on this installation; use the test provider or another configured one`, [
    { path: 'preferredProvider', message: `${name} is not available on this installation` },
  ]);
}

/** Settings of these providers can be stored and verified, but no payment can be started with them. */
function unavailableProvider(name: ProviderName): PaymentProvider {
  return {
    name,
    available: false,
    createCheckout: async () => {
      throw notAvailable(name);
    },
    refund: async () => {
      throw notAvailable(name);
    },
  };
}

const registry = new Map<ProviderName, PaymentProvider>(PROVIDER_NAMES.map((n) => [n, n === 'test' ? testProvider : unavailableProvider(n)]));

/** The provider implementation for a name. */
export function providerFor(name: ProviderName): PaymentProvider {
  return registry.get(name)!;
}

/** 400 unless the provider can take payments here. */
export function requireAvailable(provider: PaymentProvider): void {
  if (!provider.available) throw notAvailable(provider.name);
}
