import { listenedTypes, recordEvents, type EventType } from '../../kernel/events';
import { SubscriptionContract } from './subscription.entity';
import { contractJson } from './subscription.json';
import type { Ctx } from '../../kernel/context';

/** The subscription events a contract's changes cause (kernel/events.ts lists every type). */
export type ContractEventType = Extract<EventType, `subscription.${string}`>;

/**
 * Records `type` for the contracts `ids` (each with its contract JSON, usages left out as in
 * booking events), in the caller's transaction; the contracts are read only when an enabled
 * endpoint of the company listens to the type.
 */
export async function recordContractEvents(
  ctx: Ctx,
  companyId: string,
  ids: readonly string[],
  type: ContractEventType,
  now: Date,
): Promise<void> {
  if (!ids.length || !(await listenedTypes(ctx, companyId, [type])).size) return;
  const contracts = await ctx.em.find(SubscriptionContract, { companyId, id: { $in: [...ids] } }, { disableIdentityMap: true });
  await recordEvents(ctx, { companyId, events: contracts.map((c) => ({ type, data: contractJson(c, [], now) })), at: now });
}
