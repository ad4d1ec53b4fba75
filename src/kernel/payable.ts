import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from '../shared/ids';

/**
 * The contract between the payment context and the modules whose items are paid for
 * (bookings today; gift card purchases and subscription checkouts the same way). Payment knows
 * items only by `itemType`: each owning module registers how its items settle, and payment
 * looks the handler up, so payment imports no item owner.
 */

/** How a payment ended, as its items are told. */
export type SettlementOutcome = 'paid' | 'failed' | 'cancelled' | 'expired';

/**
 * A module's settlement of its items. `C` is the context handlers are called with (`Ctx` of
 * kernel/context.ts, whose dependencies hold the handlers: hence a parameter here), in the
 * payment's transaction.
 */
export interface PayableItems<C> {
  /**
   * Applies a payment's outcome to its items, inside the transaction that settled the payment
   * (the transaction row is locked). `paid` confirms; every other outcome (an expiry included)
   * gives back what the items held. Must be idempotent for items already settled.
   */
  settle(ctx: C, companyId: string, itemIds: readonly string[], outcome: SettlementOutcome, now: Date): Promise<void>;

  /**
   * Which of the items were given up (cancelled, rejected, failed) while their payment was
   * pending, read in the caller's transaction after the caller locked the payment. Payment
   * cancels a pending payment once every item is given up, and refunds at once what is paid
   * for given-up items. Unknown ids are not given up.
   */
  abandoned(ctx: C, companyId: string, itemIds: readonly string[]): Promise<string[]>;
}

/**
 * An `abandoned` handler for items that are rows of `table` (with `company_id`, `id` and
 * `status`): the items whose status is one of `statuses`, in one statement.
 */
export function abandonedWhen<C extends { em: EntityManager }>(table: string, statuses: readonly string[]): PayableItems<C>['abandoned'] {
  return async (ctx, companyId, itemIds) => {
    const ids = [...new Set(itemIds.filter(isUuid).map((id) => id.toLowerCase()))];
    if (!ids.length) return [];
    const rows = await ctx.em.execute<{ id: string }[]>(
      `select id from ${table} where company_id = ? and id = any(?::uuid[]) and status = any(?::text[])`,
      [companyId, `{${ids.join(',')}}`, `{${statuses.join(',')}}`],
    );
    return rows.map((r) => r.id);
  };
}

/** itemType -> its handlers, built once by the composition root from every module. */
export type Payables<C> = ReadonlyMap<string, PayableItems<C>>;
