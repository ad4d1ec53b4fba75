import { newId } from '../../../shared/ids';
import type { PaymentProvider } from './provider';

/**
 * The built-in provider for development and tests: the server hosts the checkout page itself
 * (`/v1/payments/test-checkout/{id}`), the transaction id being the only capability, and
 * refunds succeed at once.
 */
export const testProvider: PaymentProvider = {
  name: 'test',
  available: true,
  createCheckout: async (tx, env) => ({ url: `${env.publicUrl}/v1/payments/test-checkout/${tx.id}` }),
  refund: async () => ({ status: 'succeeded', providerRefundId: `test_re_${newId()}` }),
};
