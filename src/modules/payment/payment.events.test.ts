import { paymentEventType } from './payment.events';
import { PAYMENT_STATUSES } from './payment.status';

describe('payment events', () => {
  it('names the event of every status a transaction can reach', () => {
    expect(Object.fromEntries(PAYMENT_STATUSES.map((s) => [s, paymentEventType(s)]))).toEqual({
      pending: null,
      paid: 'payment.paid',
      failed: 'payment.failed',
      cancelled: 'payment.failed',
      refunded: 'payment.refunded',
      partially_refunded: 'payment.refunded',
    });
  });
});
