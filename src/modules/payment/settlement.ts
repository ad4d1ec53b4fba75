import type { EntityManager } from '@mikro-orm/postgresql';
import { settleBookings } from '../booking/booking.payable';
import type { PaymentTransaction } from './payment.entity';
import type { SettlementOutcome } from './payment.status';

/**
 * Tells the items of a settled transaction their outcome, inside the transaction that settled
 * it (the caller holds the row lock). Only bookings are paid through transactions so far.
 */
export async function settleItems(em: EntityManager, tx: PaymentTransaction, outcome: SettlementOutcome, now: Date): Promise<void> {
  if (tx.itemType === 'booking') await settleBookings(em, tx.companyId, tx.itemIds, outcome, now);
}
