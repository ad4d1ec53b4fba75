import type { EntityManager } from '@mikro-orm/postgresql';
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
}

/** itemType -> its handlers, built once by the composition root from every module. */
export type Payables = ReadonlyMap<string, PayableItems>;
