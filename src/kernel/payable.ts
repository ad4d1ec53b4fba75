import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from '../shared/ids';
import type { CodeHandlers } from './codes';

/**
 * The contract between the payment context and the modules whose items are paid for
 * (bookings today; gift card purchases and subscription checkouts the same way). Payment knows
 * items only by `itemType`: each owning module registers how its items settle, and payment
 * looks the handler up, so payment imports no item owner.
 */

/** How a payment ended, as its items are told. */
export type SettlementOutcome = 'paid' | 'failed' | 'cancelled' | 'expired';

/** The process dependencies a settlement may need (the code handlers, for bookings that carry codes; the token key). */
export interface SettlementDeps {
  codes: CodeHandlers;
  /** the token key, for the access tokens in the events of settled bookings */
  jwtKey: Uint8Array;
}

export interface PayableItems {
  /**
   * Applies a payment's outcome to its items, inside the transaction that settled the payment
   * (the transaction row is locked). `paid` confirms; every other outcome (an expiry included)
   * gives back what the items held. Must be idempotent for items already settled.
   */
  settle(
    em: EntityManager,
    companyId: string,
    itemIds: readonly string[],
    outcome: SettlementOutcome,
    now: Date,
    deps: SettlementDeps,
  ): Promise<void>;

  /**
   * Which of the items were given up (cancelled, rejected, failed) while their payment was
   * pending, read in the caller's transaction after the caller locked the payment. Payment
   * cancels a pending payment once every item is given up, and refunds at once what is paid
   * for given-up items. Unknown ids are not given up.
   */
  abandoned(em: EntityManager, companyId: string, itemIds: readonly string[]): Promise<string[]>;
}

/**
 * An `abandoned` handler for items that are rows of `table` (with `company_id`, `id` and
 * `status`): the items whose status is one of `statuses`, in one statement.
 */
export function abandonedWhen(table: string, statuses: readonly string[]): PayableItems['abandoned'] {
  return async (em, companyId, itemIds) => {
    const ids = [...new Set(itemIds.filter(isUuid).map((id) => id.toLowerCase()))];
    if (!ids.length) return [];
    const rows = await em.execute<{ id: string }[]>(
      `select id from ${table} where company_id = ? and id = any(?::uuid[]) and status = any(?::text[])`,
      [companyId, `{${ids.join(',')}}`, `{${statuses.join(',')}}`],
    );
    return rows.map((r) => r.id);
  };
}

/** itemType -> its handlers, built once by the composition root from every module. */
export type Payables = ReadonlyMap<string, PayableItems>;
