import { conflict } from '../../../shared/errors';
import type { PaymentProvider } from './provider';
import { PROVIDER_NAMES, type ProviderName } from './provider-names';
import { stripeProvider } from './stripe-provider';
import { testProvider } from './test-provider';

function notAvailable(name: ProviderName): Error {
  return conflict(`payment provider ${name} is not available on this installation; use stripe or the test provider`, [
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

const BUILT: Partial<Record<ProviderName, PaymentProvider>> = { test: testProvider, stripe: stripeProvider };

const registry = new Map<ProviderName, PaymentProvider>(PROVIDER_NAMES.map((n) => [n, BUILT[n] ?? unavailableProvider(n)]));

/** The provider implementation for a name. */
export function providerFor(name: ProviderName): PaymentProvider {
  return registry.get(name)!;
}

/** 409 unless the provider can take payments here. */
export function requireAvailable(provider: PaymentProvider): void {
  if (!provider.available) throw notAvailable(provider.name);
}
