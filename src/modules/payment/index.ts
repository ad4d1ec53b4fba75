import type { AppModule } from '../../kernel/module';
import { PaymentProviderSettings, PaymentSettings, PaymentTransaction, Refund } from './payment.entity';
import { PaymentResolver } from './payment.resolver';
import { PaymentTransactionFieldsResolver } from './payment-fields.resolver';
import { paymentRoutes } from './payment.routes';
import { startPaymentSweeper } from './expiry';

export const paymentModule: AppModule = {
  name: 'payment',
  description: 'Payment transactions, refunds, payment providers and their settings, redirect signatures and checkouts.',
  entities: [PaymentSettings, PaymentProviderSettings, PaymentTransaction, Refund],
  resolvers: [PaymentResolver, PaymentTransactionFieldsResolver],
  routes: paymentRoutes,
  start: (deps) => startPaymentSweeper(deps, deps.config.paymentSweepIntervalMs),
};
