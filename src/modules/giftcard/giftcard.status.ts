import { conflict } from '../../shared/errors';

/**
 * The gift card state machines (REST contract: contract status `pending_payment`, `active`,
 * `redeemed`, `expired`, `cancelled`; usage status `used`, `cancelled`). Every status change
 * goes through these functions, and the SQL that moves balances takes its CASE from
 * `BALANCE_STATUS_SQL`, which states `statusAfterBalance` for the database.
 */

export const CONTRACT_STATUSES = ['pending_payment', 'active', 'redeemed', 'expired', 'cancelled'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];
/** The statuses a merchant may issue a contract in. */
export const ISSUED_STATUSES = ['active'] as const satisfies readonly ContractStatus[];

export const USAGE_STATUSES = ['used', 'cancelled'] as const;
export type UsageStatus = (typeof USAGE_STATUSES)[number];

const CONTRACT_MOVES: Record<ContractStatus, readonly ContractStatus[]> = {
  // paid, or the payment failed, was cancelled or expired
  pending_payment: ['active', 'cancelled'],
  // the balance reached zero, the validity ended, or the merchant cancelled it
  active: ['redeemed', 'expired', 'cancelled'],
  // a usage was cancelled and the balance came back
  redeemed: ['active', 'expired'],
  expired: [],
  cancelled: [],
};

const USAGE_MOVES: Record<UsageStatus, readonly UsageStatus[]> = { used: ['cancelled'], cancelled: ['used'] };

export const canMoveContract = (from: ContractStatus, to: ContractStatus): boolean => CONTRACT_MOVES[from].includes(to);
export const canMoveUsage = (from: UsageStatus, to: UsageStatus): boolean => USAGE_MOVES[from].includes(to);

/** `to`, or 409 when a contract in `from` cannot become `to`. */
export function transitionContract(from: ContractStatus, to: ContractStatus): ContractStatus {
  if (from !== to && !canMoveContract(from, to))
    throw conflict(`a ${from.replace('_', ' ')} gift card cannot become ${to.replace('_', ' ')}`);
  return to;
}

/** `to`, or 409 when a usage in `from` cannot become `to`. */
export function transitionUsage(from: UsageStatus, to: UsageStatus): UsageStatus {
  if (from !== to && !canMoveUsage(from, to)) throw conflict(`a ${from} gift card usage cannot become ${to}`);
  return to;
}

/** The stored status once the balance is `balance`: an active card at zero is redeemed, a redeemed one with money again is active. */
export function statusAfterBalance(status: ContractStatus, balance: number): ContractStatus {
  if (status === 'active' && balance === 0) return 'redeemed';
  if (status === 'redeemed' && balance > 0) return 'active';
  return status;
}

/** `statusAfterBalance` in SQL, for the new balance expression `balance`. */
export const BALANCE_STATUS_SQL = (balance: string): string =>
  `case when status = 'active' and ${balance} = 0 then 'redeemed' when status = 'redeemed' and ${balance} > 0 then 'active' else status end`;

/**
 * The status a contract shows at `now`: an active card whose validity ended is `expired`
 * (validity ends at `expiresAt`, exclusive). Stored statuses are not rewritten when time
 * passes; every read and every balance change applies this rule.
 */
export function effectiveStatus(status: ContractStatus, expiresAt: Date | null, now: Date): ContractStatus {
  return status === 'active' && expiresAt !== null && expiresAt.getTime() <= now.getTime() ? 'expired' : status;
}

/** `effectiveStatus` in SQL, with the instant parameter in the caller's parameters. */
export const EFFECTIVE_STATUS_SQL = `(case when status = 'active' and expires_at is not null and expires_at <= ?::timestamptz then 'expired' else status end)`;

/** Whether a card in `status` can pay (a positive balance is checked separately). */
export const canPay = (status: ContractStatus): boolean => status === 'active';
