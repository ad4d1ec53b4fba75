import { conflict } from '../../shared/errors';

/**
 * The promo usage state machine (REST contract, "Promo usage status"): a usage is `reserved`
 * while its booking waits for payment or approval, `used` once the booking is confirmed, and
 * `released` when the booking fails, is cancelled or its payment expires, which gives the use
 * back to the code. Every status change goes through these transitions; the SQL that changes
 * usages in bulk takes its `from` states from here.
 */

export const PROMO_USAGE_STATUSES = ['reserved', 'used', 'released'] as const;
export type PromoUsageStatus = (typeof PROMO_USAGE_STATUSES)[number];

const ALLOWED: Record<PromoUsageStatus, readonly PromoUsageStatus[]> = {
  reserved: ['used', 'released'],
  used: ['released'],
  released: [],
};

/** True while the usage counts against the code's limits (`currentUsageCount`). */
export const countsAsUsage = (s: PromoUsageStatus): boolean => s !== 'released';

export const canTransitionUsage = (from: PromoUsageStatus, to: PromoUsageStatus): boolean => ALLOWED[from].includes(to);

/** The statuses a usage may be in to move to `to`. */
export const usageStatusesBefore = (to: PromoUsageStatus): PromoUsageStatus[] =>
  PROMO_USAGE_STATUSES.filter((from) => canTransitionUsage(from, to));

/** `to`, or 409 when the move is not allowed. */
export function transitionUsage(from: PromoUsageStatus, to: PromoUsageStatus): PromoUsageStatus {
  if (!canTransitionUsage(from, to)) throw conflict(`a ${from} promo usage cannot become ${to}`);
  return to;
}
