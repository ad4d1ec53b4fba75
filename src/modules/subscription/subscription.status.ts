import { conflict } from '../../shared/errors';

/**
 * The subscription contract state machine (REST contract section 4: `pending_payment`,
 * `active`, `expired`, `cancelled`). Every status change goes through `transitionContract`;
 * SQL that changes many rows takes its `status in (...)` from `fromStatusesSql` and its new
 * status from `targetSql`, and the status a contract shows before the sweeper writes it
 * (`effectiveStatus`) is the machine's own time-driven events applied, so the moves are
 * decided in this one place.
 */

export const CONTRACT_STATUSES = ['pending_payment', 'active', 'expired', 'cancelled'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];
/** The statuses a merchant may create a contract in. */
export const CREATED_STATUSES = ['active', 'pending_payment'] as const satisfies readonly ContractStatus[];

/**
 * What happens to a contract:
 * - `pay`: its checkout or purchase was paid, or cost nothing;
 * - `activate`: the merchant makes an unpaid contract active;
 * - `fail_payment`: its payment failed, was cancelled or expired;
 * - `lapse`: its payment deadline (`pendingExpiresAt`) passed unpaid;
 * - `remove`: the client took it out of the cart;
 * - `cancel`: the merchant cancels it;
 * - `expire`: its term (`expiresAt`) ended, or the merchant ends it;
 * - `renew`: a renewal was paid and it runs one more duration (one that expired while its
 *   renewal was being paid runs again from then).
 */
export const CONTRACT_EVENTS = ['pay', 'activate', 'fail_payment', 'lapse', 'remove', 'cancel', 'expire', 'renew'] as const;
export type ContractEvent = (typeof CONTRACT_EVENTS)[number];

/**
 * pending_payment -> active (paid, free, or by the merchant) | cancelled (payment failed,
 * deadline passed, removed from the cart, or by the merchant); active -> cancelled (merchant) |
 * expired (term ended, or the merchant) | active (renewed); expired -> active only through a
 * renewal paid after the term ended; cancelled is final.
 */
const TRANSITIONS: Record<ContractStatus, Partial<Record<ContractEvent, ContractStatus>>> = {
  pending_payment: {
    pay: 'active',
    activate: 'active',
    fail_payment: 'cancelled',
    lapse: 'cancelled',
    remove: 'cancelled',
    cancel: 'cancelled',
  },
  active: { cancel: 'cancelled', expire: 'expired', renew: 'active' },
  expired: { renew: 'active' },
  cancelled: {},
};

/** The status after `event`, or null when the event is not allowed in `from`. */
export function nextContractStatus(from: ContractStatus, event: ContractEvent): ContractStatus | null {
  return TRANSITIONS[from]?.[event] ?? null;
}

export const canApply = (from: ContractStatus, event: ContractEvent): boolean => nextContractStatus(from, event) !== null;

const words = (s: string) => s.replace('_', ' ');

const EVENT_WORDS: Record<ContractEvent, string> = {
  pay: 'paid',
  activate: 'activated',
  fail_payment: 'failed',
  lapse: 'lapsed',
  remove: 'removed from a cart',
  cancel: 'cancelled',
  expire: 'expired',
  renew: 'renewed',
};

/** Like nextContractStatus, but a refused transition is a 409 conflict. */
export function transitionContract(from: ContractStatus, event: ContractEvent): ContractStatus {
  const next = nextContractStatus(from, event);
  if (!next) throw conflict(`a ${words(from)} subscription contract cannot be ${EVENT_WORDS[event]}`);
  return next;
}

/** The statuses `event` is allowed from, in `CONTRACT_STATUSES` order. */
export const fromStatuses = (event: ContractEvent): ContractStatus[] => CONTRACT_STATUSES.filter((s) => canApply(s, event));

const literal = (s: ContractStatus) => `'${s}'`;

/** `column in (...)` over `statuses` (constants of this file, so the SQL carries no input). */
export const statusInSql = (statuses: readonly ContractStatus[], column = 'status'): string =>
  `${column} in (${statuses.map(literal).join(', ')})`;

/** `column in (...)` over the statuses `event` is allowed from, for SQL that changes many rows. */
export const fromStatusesSql = (event: ContractEvent, column = 'status'): string => statusInSql(fromStatuses(event), column);

/** The status `event` leads to, in SQL over `column` (the old status): a literal when every allowed move ends in one status. */
export function targetSql(event: ContractEvent, column = 'status'): string {
  const moves = fromStatuses(event).map((from) => [from, nextContractStatus(from, event)!] as const);
  const targets = new Set(moves.map(([, to]) => to));
  if (targets.size === 1) return literal(moves[0][1]);
  return `(case ${column} ${moves.map(([from, to]) => `when ${literal(from)} then ${literal(to)}`).join(' ')} end)`;
}

/**
 * The event a merchant's change to `to` causes (`PATCH {status}`): nothing leads back to
 * `pending_payment`, and a merchant cannot renew an expired contract.
 */
const MERCHANT_EVENTS: Record<ContractStatus, ContractEvent | null> = {
  pending_payment: null,
  active: 'activate',
  expired: 'expire',
  cancelled: 'cancel',
};

/**
 * The event a merchant's change of a contract standing in `from` to `to` applies: null when
 * `to` is where it already stands (nothing changes), else a 409 conflict when the machine does
 * not allow it.
 */
export function merchantEvent(from: ContractStatus, to: ContractStatus): ContractEvent | null {
  if (from === to) return null;
  const event = MERCHANT_EVENTS[to];
  if (event === null || !canApply(from, event))
    throw conflict(`a ${words(from)} contract cannot become ${words(to)}`, [
      { path: 'status', message: `cannot go from ${from} to ${to}` },
    ]);
  return event;
}

/** Statuses in which a contract runs: its periods advance and bookings take its visits. */
export const RUNNING: readonly ContractStatus[] = ['active'];

/** Statuses of a contract that ended: it takes no new terms and no ledger entries, only metadata. */
export const ENDED: readonly ContractStatus[] = ['expired', 'cancelled'];
export const ended = (status: ContractStatus): boolean => ENDED.includes(status);

/** Statuses of a contract given up: a payment still pending for it (purchase or renewal) is no longer wanted. */
export const GIVEN_UP: readonly ContractStatus[] = ['cancelled'];

/**
 * The events time causes, each with the deadline it waits for (the instant is the first one
 * at which the event is due): `lapse` at `pendingExpiresAt`, `expire` at `expiresAt`.
 */
export const TIMED_EVENTS = [
  { event: 'lapse', field: 'pendingExpiresAt', column: 'pending_expires_at' },
  { event: 'expire', field: 'expiresAt', column: 'expires_at' },
] as const;
export type TimedEvent = (typeof TIMED_EVENTS)[number]['event'];

export interface Deadlines {
  status: ContractStatus;
  expiresAt: Date | null;
  pendingExpiresAt: Date | null;
}

/** The time-driven event due for a contract at `now` (its deadline reached, allowed from its stored status), or null. */
export function dueEvent(c: Deadlines, now: Date): TimedEvent | null {
  for (const { event, field } of TIMED_EVENTS) {
    const at = c[field];
    if (at && at.getTime() <= now.getTime() && canApply(c.status, event)) return event;
  }
  return null;
}

/**
 * Where a contract stands at `now`: its stored status with the due time-driven event applied
 * (an active contract past `expiresAt` is `expired`, an unpaid one past `pendingExpiresAt` is
 * `cancelled`) before the sweeper writes it. Reads, searches, renewals, the ledger and the
 * merchant's changes judge a contract by it.
 */
export function effectiveStatus(c: Deadlines, now: Date): ContractStatus {
  const event = dueEvent(c, now);
  return event ? transitionContract(c.status, event) : c.status;
}

/** The `where` of the contracts whose `event` is due: allowed from their status and its deadline reached (`?` is now). */
export function dueSql(event: TimedEvent): string {
  const { column } = TIMED_EVENTS.find((t) => t.event === event)!;
  return `${fromStatusesSql(event)} and ${column} is not null and ${column} <= ?::timestamptz`;
}

/** `effectiveStatus` in SQL over `subscription_contract` columns; its parameters are `effectiveStatusParams(now)`. */
export const EFFECTIVE_STATUS_SQL = `(case ${TIMED_EVENTS.map(({ event }) => `when ${dueSql(event)} then ${targetSql(event)}`).join(' ')} else status end)`;

/** The parameters of `EFFECTIVE_STATUS_SQL`: `now` once per time-driven event. */
export const effectiveStatusParams = (now: string): string[] => TIMED_EVENTS.map(() => now);
