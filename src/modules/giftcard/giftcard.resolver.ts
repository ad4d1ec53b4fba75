import { Arg, Args, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { ConnectionArgs } from '../../kernel/connection';
import type { Ctx } from '../../kernel/context';
import { metaDataUpdateOf } from '../../kernel/metadata-update.types';
import { contractsConnection, createContract } from './contract.service';
import { archiveGiftCard, createGiftCard, giftCardsConnection, offeredGiftCardsConnection, updateGiftCard } from './giftcard.service';
import { clientOrder, clientOrdersConnection, purchaseGiftCard } from './order.service';
import { createUsage, updateUsage, usagesConnection } from './usage.service';
import {
  ClientGiftCardContractConnectionType,
  ClientGiftCardContractType,
  CreateGiftCardContractInput,
  CreateGiftCardInput,
  CreateGiftCardUsageInput,
  GiftCardContractFilter,
  GiftCardCheckoutResultType,
  GiftCardContractConnectionType,
  GiftCardContractType,
  GiftCardConnectionType,
  GiftCardType,
  GiftCardUsageConnectionType,
  GiftCardUsageType,
  PurchaseGiftCardInput,
  UpdateGiftCardInput,
  UpdateGiftCardUsageInput,
} from './giftcard.types';

const COMPANY = 'The company.';

@Resolver(() => GiftCardType)
export class GiftCardResolver {
  @Query(() => GiftCardConnectionType, { nullable: true, description: "The company's gift cards, oldest first (giftcards.read)." })
  giftCards(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return giftCardsConnection(ctx, companyID, page);
  }

  @Mutation(() => GiftCardType, { description: 'Creates a gift card (giftcards.write); errors: invalid_request.' })
  createGiftCard(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('input', () => CreateGiftCardInput, { description: 'The card.' }) input: CreateGiftCardInput,
  ) {
    return createGiftCard(ctx, companyID, input);
  }

  @Mutation(() => GiftCardType, {
    description: 'Changes a gift card (giftcards.write); errors: invalid_request, not_found, version_conflict.',
  })
  updateGiftCard(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('id', () => ID, { description: 'The gift card.' }) id: string,
    @Arg('input', () => UpdateGiftCardInput, { description: 'The changes.' }) input: UpdateGiftCardInput,
  ) {
    return updateGiftCard(ctx, companyID, id, { ...input, metaDataUpdate: metaDataUpdateOf(input.metaDataUpdate) });
  }

  @Mutation(() => GiftCardType, { description: 'Archives or unarchives a gift card (giftcards.write).' })
  archiveGiftCard(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('id', () => ID, { description: 'The gift card.' }) id: string,
    @Arg('archived', () => Boolean, { nullable: true, description: 'true (default) archives, false unarchives.' }) archived?: boolean,
  ) {
    return archiveGiftCard(ctx, companyID, id, { archived });
  }

  @Mutation(() => GiftCardContractType, {
    description: 'Issues a gift card, active at once with a new code (giftcards.write); errors: invalid_request, not_found.',
  })
  createGiftCardContract(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('input', () => CreateGiftCardContractInput, { description: 'The card and its owner.' }) input: CreateGiftCardContractInput,
  ) {
    return createContract(ctx, companyID, input);
  }

  @Query(() => GiftCardContractConnectionType, {
    nullable: true,
    description: 'Gift card contracts matching a filter, oldest first (giftcards.read).',
  })
  async giftCardContracts(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('filter', () => GiftCardContractFilter, { nullable: true, description: 'What to match.' })
    filter: GiftCardContractFilter | undefined,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return contractsConnection(ctx, companyID, filter ?? {}, page);
  }

  @Query(() => GiftCardUsageConnectionType, {
    nullable: true,
    description: 'The usages of a gift card contract, oldest first (giftcards.read).',
  })
  giftCardUsages(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('contractID', () => ID, { description: 'The gift card contract.' }) contractID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return usagesConnection(ctx, companyID, contractID, page);
  }

  @Mutation(() => GiftCardUsageType, {
    description: 'Pays an amount with a gift card (giftcards.write); errors: insufficient_balance, conflict (card cannot pay), not_found.',
  })
  createGiftCardUsage(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('contractID', () => ID, { description: 'The gift card contract.' }) contractID: string,
    @Arg('input', () => CreateGiftCardUsageInput, { description: 'The amount.' }) input: CreateGiftCardUsageInput,
  ) {
    return createUsage(ctx, companyID, contractID, input);
  }

  @Mutation(() => GiftCardUsageType, {
    description: 'Changes a gift card usage (giftcards.write); errors: insufficient_balance, conflict, not_found, version_conflict.',
  })
  updateGiftCardUsage(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('contractID', () => ID, { description: 'The gift card contract.' }) contractID: string,
    @Arg('id', () => ID, { description: 'The usage.' }) id: string,
    @Arg('input', () => UpdateGiftCardUsageInput, { description: 'The changes.' }) input: UpdateGiftCardUsageInput,
  ) {
    return updateUsage(ctx, companyID, contractID, id, { ...input, metaDataUpdate: metaDataUpdateOf(input.metaDataUpdate) });
  }
}

@Resolver(() => ClientGiftCardContractType)
export class ClientGiftCardResolver {
  @Query(() => GiftCardConnectionType, {
    nullable: true,
    description: 'Client interface: the gift cards on sale now (API key with client.read).',
  })
  clientGiftCards(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return offeredGiftCardsConnection(ctx, companyID, page);
  }

  @Query(() => ClientGiftCardContractConnectionType, {
    nullable: true,
    description: "Client interface: the calling client's gift card purchases.",
  })
  clientGiftCardOrders(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return clientOrdersConnection(ctx, companyID, page);
  }

  @Query(() => ClientGiftCardContractType, { nullable: true, description: 'Client interface: one purchase of the calling client.' })
  clientGiftCardOrder(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('id', () => ID, { description: 'The purchase (gift card contract).' }) id: string,
  ) {
    return clientOrder(ctx, companyID, id);
  }

  @Mutation(() => GiftCardCheckoutResultType, {
    description:
      'Client interface: buys a gift card (client token, or an API key with client.create and a guest client); the answer is the checkout result with the contract in item and the paymentURL. ' +
      'Errors: invalid_request (not on sale), conflict (the company takes no payments).',
  })
  purchaseGiftCard(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('input', () => PurchaseGiftCardInput, { description: 'The card and the buyer.' }) input: PurchaseGiftCardInput,
  ) {
    return purchaseGiftCard(ctx, companyID, input);
  }
}
