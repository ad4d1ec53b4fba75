import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../../kernel/context';
import type { SettlementOutcome } from '../../kernel/payable';
import type { PaymentTransaction } from './payment.entity';

/**
 * Tells the items of a settled transaction their outcome, inside the transaction that settled
 * it (the caller holds the row lock), through the handlers their module registered for the
 * transaction's `itemType`.
 */
export async function settleItems(
  deps: AppDeps,
  em: EntityManager,
  tx: PaymentTransaction,
  outcome: SettlementOutcome,
  now: Date,
): Promise<void> {
  const items = deps.payables.get(tx.itemType);
  // Only a module can start a payment for its item type, so a missing handler is a wiring error.
  if (!items) throw new Error(`no module settles items of type ${tx.itemType}`);
  await items.settle(em, tx.companyId, tx.itemIds, outcome, now, deps);
}
