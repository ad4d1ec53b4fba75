import { Arg, Args, Ctx as GqlCtx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { documentPdfPath } from '../../kernel/documents';
import { DOC } from '../../kernel/graphql-types';
import { ConnectionArgs, connectionOf, listSpec, ORDERS, type SortKey } from '../../kernel/connection';
import { metaDataUpdateOf } from '../../kernel/metadata-update.types';
import { contractsConnection, createContract, getContract, updateContract } from './contract.service';
import { addVisit, visitsConnection } from './ledger.service';
import { offeredSubscriptionsInOrder } from './offered.service';
import type { OfferedSubscriptionJson } from './subscription.json';
import { capacityAvailability, createRule, listRules, updateRule } from './rules.service';
import {
  createSubscription,
  getSettings,
  getSubscription,
  subscriptionsConnection,
  updateSettings,
  updateSubscription,
} from './subscription.service';
import {
  AddVisitInput,
  CapacityItemType,
  CapacityRuleConnectionType,
  CapacityRuleType,
  ContractFilter,
  ContractConnectionType,
  ContractType,
  CreateCapacityRuleInput,
  CreateContractInput,
  CreatePriceRuleInput,
  CreateSubscriptionInput,
  LimitationsType,
  OfferedSubscriptionConnectionType,
  PriceRuleConnectionType,
  PriceRuleType,
  SettingsInput,
  SettingsType,
  SubscriptionConnectionType,
  SubscriptionType,
  TicketLimitType,
  UpdateCapacityRuleInput,
  UpdateContractInput,
  UpdatePriceRuleInput,
  UpdateSubscriptionInput,
  VisitConnectionType,
  VisitType,
  type LimitationsInput,
} from './subscription.types';

/** The GraphQL twin of subscription.routes.ts: the same service calls, typed inputs turned into the REST shapes. */

/** Typed limitations (ticket limits as a list) in the REST shape (a map by ticket id). */
function limitationsIn(l: LimitationsInput | null | undefined): unknown {
  if (!l) return l;
  const { maxTicketsPerBooking, ...rest } = l;
  if (!maxTicketsPerBooking) return { ...rest, maxTicketsPerBooking };
  return { ...rest, maxTicketsPerBooking: Object.fromEntries(maxTicketsPerBooking.map((t) => [t.ticketID, t.count])) };
}

const subscriptionIn = <T extends { limitations?: LimitationsInput | null; metaDataUpdate?: unknown }>(input: T) => ({
  ...input,
  limitations: limitationsIn(input.limitations),
  metaDataUpdate: metaDataUpdateOf(input.metaDataUpdate as never),
});

const ruleIn = <T extends { metaDataUpdate?: unknown }>(input: T) => ({
  ...input,
  metaDataUpdate: metaDataUpdateOf(input.metaDataUpdate as never),
});

const COMPANY = DOC.companyArg;
const IDS = 'Subscriptions (at least one, at most 100).';

/** The rules of one kind naming any of the subscriptions, oldest first, as a connection. */
async function rulesConnection(ctx: Ctx, kind: 'price' | 'capacity', companyID: string, subscriptionIDs: string[], page: ConnectionArgs) {
  const field = kind === 'price' ? 'subscriptionPriceRules' : 'subscriptionCapacityRules';
  const spec = listSpec(ORDERS.creation, field, companyID, subscriptionIDs);
  return connectionOf(await listRules(ctx, kind, companyID, subscriptionIDs), page, spec, `${kind}Rules`);
}

@Resolver(() => SubscriptionType)
export class SubscriptionResolver {
  @Query(() => SubscriptionConnectionType, {
    nullable: true,
    description: "The company's subscriptions, oldest first (subscriptions.read).",
  })
  subscriptions(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return subscriptionsConnection(ctx, companyID, page);
  }

  @Query(() => SubscriptionType, { nullable: true, description: 'One subscription (subscriptions.read); errors: not_found.' })
  subscription(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
  ) {
    return getSubscription(ctx, companyID, id);
  }

  @Mutation(() => SubscriptionType, { description: 'Creates a subscription (subscriptions.write); errors: invalid_request.' })
  createSubscription(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('input', () => CreateSubscriptionInput, { description: DOC.inputArg }) input: CreateSubscriptionInput,
  ) {
    return createSubscription(ctx, companyID, subscriptionIn(input));
  }

  @Mutation(() => SubscriptionType, {
    description: 'Changes or archives a subscription (subscriptions.write); errors: invalid_request, not_found, version_conflict.',
  })
  updateSubscription(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
    @Arg('input', () => UpdateSubscriptionInput, { description: DOC.inputArg }) input: UpdateSubscriptionInput,
  ) {
    return updateSubscription(ctx, companyID, id, subscriptionIn(input));
  }

  @Query(() => SettingsType, {
    nullable: true,
    description: 'The subscription settings (subscriptions.read); not_found before the first update.',
  })
  subscriptionSettings(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID, { description: COMPANY }) companyID: string) {
    return getSettings(ctx, companyID);
  }

  @Mutation(() => SettingsType, {
    description: 'Changes the subscription settings (subscriptions.write); errors: invalid_request, version_conflict.',
  })
  updateSubscriptionSettings(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('input', () => SettingsInput, { description: DOC.inputArg }) input: SettingsInput,
  ) {
    return updateSettings(ctx, companyID, ruleIn(input));
  }

  @Query(() => PriceRuleConnectionType, {
    nullable: true,
    description: 'Price rules naming any of the subscriptions, oldest first (subscriptions.read).',
  })
  async subscriptionPriceRules(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('subscriptionIDs', () => [ID], { description: IDS }) subscriptionIDs: string[],
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return rulesConnection(ctx, 'price', companyID, subscriptionIDs, page);
  }

  @Mutation(() => PriceRuleType, { description: 'Creates a price rule (subscriptions.write); errors: invalid_request.' })
  createSubscriptionPriceRule(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('input', () => CreatePriceRuleInput, { description: DOC.inputArg }) input: CreatePriceRuleInput,
  ) {
    return createRule(ctx, 'price', companyID, input);
  }

  @Mutation(() => PriceRuleType, {
    description: 'Changes or archives a price rule (subscriptions.write); errors: invalid_request, not_found, version_conflict.',
  })
  updateSubscriptionPriceRule(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
    @Arg('input', () => UpdatePriceRuleInput, { description: DOC.inputArg }) input: UpdatePriceRuleInput,
  ) {
    return updateRule(ctx, 'price', companyID, id, ruleIn(input));
  }

  @Query(() => CapacityRuleConnectionType, {
    nullable: true,
    description: 'Capacity rules naming any of the subscriptions, oldest first (subscriptions.read).',
  })
  async subscriptionCapacityRules(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('subscriptionIDs', () => [ID], { description: IDS }) subscriptionIDs: string[],
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return rulesConnection(ctx, 'capacity', companyID, subscriptionIDs, page);
  }

  @Mutation(() => CapacityRuleType, { description: 'Creates a capacity rule (subscriptions.write); errors: invalid_request.' })
  createSubscriptionCapacityRule(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('input', () => CreateCapacityRuleInput, { description: DOC.inputArg }) input: CreateCapacityRuleInput,
  ) {
    return createRule(ctx, 'capacity', companyID, input);
  }

  @Mutation(() => CapacityRuleType, {
    description: 'Changes or archives a capacity rule (subscriptions.write); errors: invalid_request, not_found, version_conflict.',
  })
  updateSubscriptionCapacityRule(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
    @Arg('input', () => UpdateCapacityRuleInput, { description: DOC.inputArg }) input: UpdateCapacityRuleInput,
  ) {
    return updateRule(ctx, 'capacity', companyID, id, ruleIn(input));
  }

  @Query(() => [CapacityItemType], {
    nullable: true,
    description: 'Contracts holding capacity now and the cap, per subscription (subscriptions.read); errors: not_found.',
  })
  async subscriptionCapacityAvailability(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('subscriptionIDs', () => [ID], { description: IDS }) subscriptionIDs: string[],
  ) {
    return (await capacityAvailability(ctx, companyID, subscriptionIDs)).items;
  }

  @Query(() => OfferedSubscriptionConnectionType, {
    nullable: true,
    description: 'Client interface: the subscriptions on sale now with their prices (API key with client.read, or a client token).',
  })
  async clientSubscriptions(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('ids', () => [ID], { nullable: true, description: 'Only these subscriptions.' }) ids: string[] | undefined,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    const { offered, createdAt } = await offeredSubscriptionsInOrder(ctx, companyID, ids);
    const keys: SortKey<OfferedSubscriptionJson>[] = [
      { column: 'created_at', time: true, of: (o) => createdAt.get(o.id) },
      { column: 'id', of: (o) => o.id },
    ];
    return connectionOf(offered, page, listSpec(keys, 'offeredSubscriptions', companyID, ids), 'offeredSubscriptions');
  }
}

@Resolver(() => ContractType)
export class SubscriptionContractResolver {
  @Query(() => ContractType, { nullable: true, description: 'One subscription contract (subscriptions.read); errors: not_found.' })
  subscriptionContract(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
  ) {
    return getContract(ctx, companyID, id);
  }

  @Query(() => ContractConnectionType, {
    nullable: true,
    description: 'Subscription contracts matching a filter, oldest first (subscriptions.read).',
  })
  async subscriptionContracts(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('filter', () => ContractFilter, { nullable: true, description: 'What to match.' }) filter: ContractFilter | undefined,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return contractsConnection(ctx, companyID, filter ?? {}, page);
  }

  @Mutation(() => ContractType, {
    description:
      'Makes a contract of a subscription (subscriptions.write): active with its first allocation, or pending_payment; ' +
      'errors: invalid_request, not_found, conflict (sold out).',
  })
  createSubscriptionContract(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('subscriptionID', () => ID, { description: 'The subscription.' }) subscriptionID: string,
    @Arg('input', () => CreateContractInput, { nullable: true, description: DOC.inputArg }) input: CreateContractInput | undefined,
  ) {
    return createContract(ctx, companyID, subscriptionID, input ?? {});
  }

  @Mutation(() => ContractType, {
    description:
      'Changes a contract (subscriptions.write); errors: invalid_request, not_found, conflict (status transition), version_conflict.',
  })
  updateSubscriptionContract(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
    @Arg('input', () => UpdateContractInput, { description: DOC.inputArg }) input: UpdateContractInput,
  ) {
    return updateContract(ctx, companyID, id, ruleIn(input));
  }

  @Query(() => VisitConnectionType, { nullable: true, description: 'The visit ledger of a contract, oldest first (subscriptions.read).' })
  subscriptionVisitTransactions(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('contractID', () => ID, { description: 'The contract.' }) contractID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return visitsConnection(ctx, companyID, contractID, page);
  }

  @Mutation(() => VisitType, {
    description:
      'Adds an entry of any transaction type to a contract ledger (subscriptions.write); errors: invalid_request, not_found, conflict, insufficient_balance.',
  })
  addSubscriptionVisitTransaction(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('contractID', () => ID, { description: 'The contract.' }) contractID: string,
    @Arg('input', () => AddVisitInput, { description: DOC.inputArg }) input: AddVisitInput,
  ) {
    return addVisit(ctx, companyID, contractID, input);
  }

  @FieldResolver(() => String, {
    description:
      "Download URL of the contract's membership card PDF (REST, pdf.read): its subscription's PDF template filled in, or the default card.",
  })
  pdfUrl(@Root() c: ContractType, @GqlCtx() ctx: Ctx): string {
    return `${ctx.deps.config.publicUrl}${documentPdfPath(c.companyID, 'membership', c.subscriptionID, c.id)}`;
  }
}

/** Ticket limits are a map in REST and a typed list in GraphQL. */
@Resolver(() => LimitationsType)
export class SubscriptionLimitationsResolver {
  @FieldResolver(() => [TicketLimitType], { nullable: true, complexity: 1, description: 'Most tickets per booking, per ticket.' })
  maxTicketsPerBooking(@Root() l: { maxTicketsPerBooking?: Record<string, number> | null }): TicketLimitType[] | null {
    const map = l.maxTicketsPerBooking;
    return map ? Object.entries(map).map(([ticketID, count]) => ({ ticketID, count })) : null;
  }
}

export const subscriptionResolvers = [SubscriptionResolver, SubscriptionContractResolver, SubscriptionLimitationsResolver];
