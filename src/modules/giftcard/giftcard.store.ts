import { newId } from '../../shared/ids';
import { GiftCardContract, GiftCardUsage } from './giftcard.entity';
import { BALANCE_STATUS_SQL } from './giftcard.status';
import type { Ctx } from '../../kernel/context';

/**
 * The SQL that moves balances. A balance only changes together with a usage, in one
 * transaction, by an UPDATE whose condition is the rule itself (the card can pay and holds
 * enough), so no read-then-write in JavaScript can let two usages spend the same money; the
 * table's CHECK constraint refuses a negative balance as the last line.
 */

const iso = (d: Date) => d.toISOString();

/** The contract's row locked until the transaction ends; null when it is not in the company. */
export async function lockContract(ctx: Ctx, companyId: string, id: string): Promise<GiftCardContract | null> {
  const rows = await ctx.em.execute<Record<string, unknown>[]>(
    'select * from gift_card_contract where company_id = ? and id = ? for update',
    [companyId, id],
  );
  return rows.length ? ctx.em.map(GiftCardContract, rows[0]) : null;
}

/** The company's contract with this (normalised) code, or null. */
export async function contractByCode(ctx: Ctx, companyId: string, code: string): Promise<GiftCardContract | null> {
  const rows = await ctx.em.execute<Record<string, unknown>[]>('select * from gift_card_contract where company_id = ? and code = ?', [
    companyId,
    code,
  ]);
  return rows.length ? ctx.em.map(GiftCardContract, rows[0]) : null;
}

/**
 * Takes `amount` from an active, unexpired card holding at least that much; an active card
 * reaching zero becomes redeemed in the same statement. Returns the new balance, or null when
 * the card cannot pay that amount (nothing changed).
 */
export async function takeBalance(ctx: Ctx, companyId: string, id: string, amount: number, now: Date): Promise<number | null> {
  const rows = await ctx.em.execute<{ balance: number }[]>(
    `update gift_card_contract
        set balance = balance - x.amount, status = ${BALANCE_STATUS_SQL('(balance - x.amount)')}, updated_at = ?::timestamptz
       from (select ?::integer as amount) x
      where company_id = ? and id = ? and status = 'active' and (expires_at is null or expires_at > ?::timestamptz) and balance >= x.amount
      returning balance`,
    [iso(now), amount, companyId, id, iso(now)],
  );
  return rows.length ? rows[0].balance : null;
}

/** Gives `amount` back to a card (a redeemed card with money again is active; other statuses stay). */
export async function giveBalance(ctx: Ctx, companyId: string, id: string, amount: number, now: Date): Promise<void> {
  await ctx.em.execute(
    `update gift_card_contract
        set balance = balance + x.amount, status = ${BALANCE_STATUS_SQL('(balance + x.amount)')}, updated_at = ?::timestamptz
       from (select ?::integer as amount) x
      where company_id = ? and id = ?`,
    [iso(now), amount, companyId, id],
    'run',
  );
}

export interface NewUsage {
  companyId: string;
  contract: GiftCardContract;
  clientId: string | null;
  reservationId: string | null;
  amount: number;
  metaData?: Record<string, unknown>;
  now: Date;
}

/** Records a `used` usage (after its amount was taken from the balance). */
export async function insertUsage(ctx: Ctx, u: NewUsage): Promise<GiftCardUsage> {
  const usage = new GiftCardUsage();
  Object.assign(usage, {
    id: newId(),
    companyId: u.companyId,
    contractId: u.contract.id,
    giftCardId: u.contract.giftCardId,
    clientId: u.clientId,
    reservationId: u.reservationId,
    amount: u.amount,
    currency: u.contract.currency,
    status: 'used',
    metaData: u.metaData ?? {},
    metaDataVersion: 1,
    createdAt: u.now,
    updatedAt: u.now,
  });
  await ctx.em.execute(
    `insert into gift_card_usage (id, company_id, contract_id, gift_card_id, client_id, reservation_id, amount, currency, status, meta_data, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, 'used', ?::jsonb, ?::timestamptz, ?::timestamptz)`,
    [
      usage.id,
      usage.companyId,
      usage.contractId,
      usage.giftCardId,
      usage.clientId,
      usage.reservationId,
      usage.amount,
      usage.currency,
      JSON.stringify(usage.metaData),
      iso(u.now),
      iso(u.now),
    ],
    'run',
  );
  return usage;
}

/**
 * Cancels the used usages of `bookingIds` and gives their amounts back to their cards, in one
 * statement. Cards are locked in id order, so two releases touching the same cards cannot
 * deadlock.
 */
export async function cancelBookingUsages(ctx: Ctx, companyId: string, bookingIds: readonly string[], now: Date): Promise<void> {
  if (!bookingIds.length) return;
  await ctx.em.execute(
    `with moved as (
       update gift_card_usage set status = 'cancelled', updated_at = ?::timestamptz
        where company_id = ? and reservation_id = any(?::uuid[]) and status = 'used'
        returning id, contract_id, amount
     ), per_card as (
       select contract_id, sum(amount)::integer as total from moved group by contract_id
     ), locked as (
       select c.id, per_card.total from gift_card_contract c join per_card on per_card.contract_id = c.id
        where c.company_id = ? order by c.id for update of c
     ), given as (
       update gift_card_contract c
          set balance = c.balance + locked.total, status = ${BALANCE_STATUS_SQL('(c.balance + locked.total)')},
              updated_at = ?::timestamptz
         from locked where c.id = locked.id
       returning c.id
     )
     select count(*) from given`,
    [iso(now), companyId, `{${bookingIds.join(',')}}`, companyId, iso(now)],
    'run',
  );
}
