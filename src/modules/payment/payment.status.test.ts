import { DomainError } from '../../shared/errors';
import {
  nextPaymentStatus,
  PAYMENT_STATUSES,
  refundEvent,
  transitionPayment,
  type PaymentEvent,
  type PaymentStatus,
} from './payment.status';

const EVENTS: PaymentEvent[] = ['pay', 'fail', 'cancel', 'expire', 'refund_partial', 'refund_full', 'refund_late'];

describe('payment status transitions', () => {
  it.each<[PaymentStatus, PaymentEvent, PaymentStatus]>([
    ['pending', 'pay', 'paid'],
    ['pending', 'fail', 'failed'],
    ['pending', 'expire', 'failed'],
    ['pending', 'cancel', 'cancelled'],
    ['paid', 'refund_partial', 'partially_refunded'],
    ['paid', 'refund_full', 'refunded'],
    ['partially_refunded', 'refund_partial', 'partially_refunded'],
    ['partially_refunded', 'refund_full', 'refunded'],
    ['failed', 'refund_late', 'refunded'],
    ['cancelled', 'refund_late', 'refunded'],
  ])('%s --%s--> %s', (from, event, to) => {
    expect(nextPaymentStatus(from, event)).toBe(to);
    expect(transitionPayment(from, event)).toBe(to);
  });

  const allowed = new Set([
    'pending:pay',
    'pending:fail',
    'pending:expire',
    'pending:cancel',
    'paid:refund_partial',
    'paid:refund_full',
    'partially_refunded:refund_partial',
    'partially_refunded:refund_full',
    'failed:refund_late',
    'cancelled:refund_late',
  ]);
  const refused = PAYMENT_STATUSES.flatMap((s) => EVENTS.map((e) => [s, e] as const)).filter(([s, e]) => !allowed.has(`${s}:${e}`));

  it.each(refused)('refuses %s --%s--> with a 409 conflict', (from, event) => {
    expect(nextPaymentStatus(from, event)).toBeNull();
    expect(() => transitionPayment(from, event)).toThrow(DomainError);
    try {
      transitionPayment(from, event);
    } catch (e) {
      expect((e as DomainError).code).toBe('conflict');
      expect((e as DomainError).status).toBe(409);
    }
  });

  it('has a final state with no way out', () => {
    expect(EVENTS.map((e) => nextPaymentStatus('refunded', e)).every((n) => n === null)).toBe(true);
  });

  it('lets a failed or cancelled payment only be refunded in full, never paid', () => {
    for (const s of ['failed', 'cancelled'] as const) {
      expect(EVENTS.filter((e) => nextPaymentStatus(s, e) !== null)).toEqual(['refund_late']);
      expect(nextPaymentStatus(s, 'pay')).toBeNull();
    }
  });

  it('picks a full refund only when everything was refunded', () => {
    expect(refundEvent(999, 1000)).toBe('refund_partial');
    expect(refundEvent(1000, 1000)).toBe('refund_full');
  });
});
