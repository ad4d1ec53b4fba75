import { conflict } from '../../shared/errors';

/**
 * The booking state machine (contract section 4). Every status change in the code goes
 * through `transition`, so the allowed moves are decided in exactly one place.
 */

export const BOOKING_STATUSES = ['pending', 'confirmed', 'cancelled', 'rejected', 'failed', 'finished', 'no_show'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

const ALLOWED: Record<BookingStatus, readonly BookingStatus[]> = {
  pending: ['confirmed', 'rejected', 'failed', 'cancelled'],
  confirmed: ['cancelled', 'finished', 'no_show'],
  finished: ['no_show'],
  no_show: ['finished'],
  cancelled: [],
  rejected: [],
  failed: [],
};

export const isBookingStatus = (v: unknown): v is BookingStatus =>
  typeof v === 'string' && (BOOKING_STATUSES as readonly string[]).includes(v);

/** True when a booking in `status` still holds its time and capacity. */
export const holds = (status: BookingStatus): boolean => status === 'pending' || status === 'confirmed';

/** True when `from -> to` is an allowed transition. */
export const canTransition = (from: BookingStatus, to: BookingStatus): boolean => ALLOWED[from].includes(to);

export interface Transition {
  from: BookingStatus;
  to: BookingStatus;
  /** the booking held its time before and does not any more: occupancy and capacity go back */
  releases: boolean;
}

/** The transition `from -> to`, or a 409 `conflict` when the contract does not allow it. */
export function transition(from: BookingStatus, to: BookingStatus): Transition {
  if (!canTransition(from, to)) throw conflict(`a ${from} booking cannot become ${to}`);
  return { from, to, releases: holds(from) && !holds(to) };
}

/** Ends of a booking that did not take place as booked: what its codes took is given back. */
export const UNDONE: readonly BookingStatus[] = ['cancelled', 'rejected', 'failed'];

/** True when a booking in `status` was given up: a payment still pending for it is no longer wanted. */
export const givenUp = (status: BookingStatus): boolean => UNDONE.includes(status);

/**
 * What the codes a booking carries learn from a status change (`from` null: the booking was
 * just written): becoming confirmed turns their reservations into uses; being cancelled,
 * rejected or failing gives back what they took. A finished or no-show booking keeps them.
 */
export function codeEventOf(from: BookingStatus | null, to: BookingStatus): 'confirmed' | 'released' | null {
  if (to === 'confirmed' && from !== 'confirmed') return 'confirmed';
  if (from !== null && holds(from) && UNDONE.includes(to)) return 'released';
  return null;
}
