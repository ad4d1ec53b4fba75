import type { SettlementOutcome } from '../../kernel/payable';
import { isUuid } from '../../shared/ids';
import { listenedTypes, recordEvents } from '../../kernel/events';
import { GiftCardContract } from './giftcard.entity';
import { contractJson } from './giftcard.json';
import { transitionContract, type ContractStatus } from './giftcard.status';
import type { Ctx } from '../../kernel/context';

/** The `itemType` of gift card purchases in payment transactions (their `pluginNamespace` is `giftcards`). */
export const GIFT_CARD_ITEM = 'gift_card';
export const GIFT_CARD_NAMESPACE = 'giftcards';

/**
 * Applies a payment's outcome to purchased cards, in the transaction that settled it: `paid`
 * activates a card (valid for its validityDuration from now), any other outcome (an expiry
 * included) cancels it. Only cards still waiting for payment change; the rows are locked first.
 */
export async function settleGiftCards(
  ctx: Ctx,
  companyId: string,
  itemIds: readonly string[],
  outcome: SettlementOutcome,
  now: Date,
): Promise<void> {
  const ids = [...new Set(itemIds.filter(isUuid).map((id) => id.toLowerCase()))];
  if (!ids.length) return;
  const rows = await ctx.em.execute<{ id: string; status: ContractStatus; validity_sec: number | null }[]>(
    `select c.id, c.status, g.validity_sec from gift_card_contract c join gift_card g on g.company_id = c.company_id and g.id = c.gift_card_id
      where c.company_id = ? and c.id = any(?::uuid[]) order by c.id for update of c`,
    [companyId, `{${ids.join(',')}}`],
  );
  const paid: string[] = [];
  for (const row of rows) {
    if (row.status !== 'pending_payment') continue;
    const to = transitionContract(row.status, outcome === 'paid' ? 'active' : 'cancelled');
    const expiresAt = to === 'active' && row.validity_sec !== null ? new Date(now.getTime() + row.validity_sec * 1000).toISOString() : null;
    await ctx.em.execute(
      'update gift_card_contract set status = ?, expires_at = ?::timestamptz, updated_at = ?::timestamptz where company_id = ? and id = ?',
      [to, expiresAt, now.toISOString(), companyId, row.id],
      'run',
    );
    if (to === 'active') paid.push(row.id);
  }
  await recordPaidEvents(ctx, companyId, paid, now);
}

/** `giftcard.paid` with each activated contract's JSON, read only when an endpoint listens. */
async function recordPaidEvents(ctx: Ctx, companyId: string, ids: string[], now: Date): Promise<void> {
  if (!ids.length || !(await listenedTypes(ctx, companyId, ['giftcard.paid'])).size) return;
  const contracts = await ctx.em.find(GiftCardContract, { companyId, id: { $in: ids } }, { disableIdentityMap: true });
  await recordEvents(ctx, {
    companyId,
    events: contracts.map((c) => ({ type: 'giftcard.paid' as const, data: contractJson(c, now) })),
    at: now,
  });
}
