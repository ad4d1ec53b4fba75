import { conflict } from '../../shared/errors';

export const PAYMENT_STATUSES = ['pending', 'paid', 'failed', 'cancelled', 'refunded', 'partially_refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Statuses of a transaction that was paid (a refund keeps it paid): those have a receipt. */
export const RECEIPT_STATUSES: readonly PaymentStatus[] = ['paid', 'partially_refunded', 'refunded'];

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * What a checkout, an expiry or a refund does to a transaction. `refund_late`: a provider
 * reported a payment for a transaction that had already failed or been cancelled, and the
 * money went straight back.
 */
export type PaymentEvent = 'pay' | 'fail' | 'cancel' | 'expire' | 'refund_partial' | 'refund_full' | 'refund_late';

/**
 * The payment state machine, the one place a transaction's status changes.
 * pending -> paid | failed (failure or expiry) | cancelled; paid and partially_refunded ->
 * partially_refunded | refunded; failed and cancelled -> refunded only when a payment arrives
 * after all and is refunded in full at once. refunded is final.
 */
const TRANSITIONS: Record<PaymentStatus, Partial<Record<PaymentEvent, PaymentStatus>>> = {
  pending: { pay: 'paid', fail: 'failed', expire: 'failed', cancel: 'cancelled' },
  paid: { refund_partial: 'partially_refunded', refund_full: 'refunded' },
  partially_refunded: { refund_partial: 'partially_refunded', refund_full: 'refunded' },
  failed: { refund_late: 'refunded' },
  cancelled: { refund_late: 'refunded' },
  refunded: {},
};

/** The status after `event`, or null when the event is not allowed in `from`. */
export function nextPaymentStatus(from: PaymentStatus, event: PaymentEvent): PaymentStatus | null {
  return TRANSITIONS[from]?.[event] ?? null;
}

/** Like nextPaymentStatus, but a refused transition is a 409 conflict. */
export function transitionPayment(from: PaymentStatus, event: PaymentEvent): PaymentStatus {
  const next = nextPaymentStatus(from, event);
  if (!next) throw conflict(`a ${from.replace('_', ' ')} payment cannot be ${EVENT_WORDS[event]}`);
  return next;
}

const EVENT_WORDS: Record<PaymentEvent, string> = {
  pay: 'paid',
  fail: 'failed',
  cancel: 'cancelled',
  expire: 'expired',
  refund_partial: 'refunded',
  refund_full: 'refunded',
  refund_late: 'refunded',
};

/** Checkout outcomes as posted by the hosted page, with the event each one causes. */
export const CHECKOUT_OUTCOMES = ['success', 'failure', 'cancel'] as const;
export type CheckoutOutcome = (typeof CHECKOUT_OUTCOMES)[number];

export const OUTCOME_EVENT = { success: 'pay', failure: 'fail', cancel: 'cancel' } as const satisfies Record<CheckoutOutcome, PaymentEvent>;

/** Refund event for a transaction once `refundedAmount` of `amount` has been refunded. */
export function refundEvent(refundedAmount: number, amount: number): PaymentEvent {
  return refundedAmount >= amount ? 'refund_full' : 'refund_partial';
}
