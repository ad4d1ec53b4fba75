import { invalid } from '../../../shared/errors';
import type { PaymentProvider } from './provider';
import { PROVIDER_NAMES, type ProviderName } from './provider-names';
import { testProvider } from './test-provider';

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

const registry = new Map<ProviderName, PaymentProvider>(
  PROVIDER_NAMES.map((n) => [n, n === 'test' ? testProvider : unavailableProvider(n)]),
);

/** The provider implementation for a name. */
export function providerFor(name: ProviderName): PaymentProvider {
  return registry.get(name)!;
}

/** 400 unless the provider can take payments here. */
export function requireAvailable(provider: PaymentProvider): void {
  if (!provider.available) throw notAvailable(provider.name);
}
