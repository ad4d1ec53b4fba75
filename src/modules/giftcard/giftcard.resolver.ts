import { Arg, Ctx as GqlCtx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { metaDataUpdateOf } from '../../kernel/metadata-update.types';
import { createContract, searchContracts } from './contract.service';
import { archiveGiftCard, createGiftCard, listGiftCards, offeredGiftCards, updateGiftCard } from './giftcard.service';
import { clientOrder, clientOrders, purchaseGiftCard } from './order.service';
import { createUsage, listUsages, updateUsage } from './usage.service';
import {
  ClientGiftCardContractPageType,
  ClientGiftCardContractType,
  CreateGiftCardContractInput,
  CreateGiftCardInput,
  CreateGiftCardUsageInput,
  GiftCardContractFilter,
  GiftCardCheckoutResultType,
  GiftCardContractPageType,
  GiftCardContractType,
  GiftCardPageType,
  GiftCardType,
  GiftCardUsagePageType,
  GiftCardUsageType,
  PurchaseGiftCardInput,
  UpdateGiftCardInput,
  UpdateGiftCardUsageInput,
} from './giftcard.types';

const LIMIT = 'Page size, 1-100 (default 100).';
const OFFSET = 'Items to skip (default 0).';
const COMPANY = 'The company.';

@Resolver(() => GiftCardType)
export class GiftCardResolver {
  @Query(() => GiftCardPageType, { nullable: true, description: "A page of the company's gift cards, oldest first (giftcards.read)." })
  giftCards(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('limit', () => Int, { nullable: true, description: LIMIT }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: OFFSET }) offset?: number,
  ) {
    return listGiftCards(ctx, companyID, { limit, offset });
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

  @Query(() => GiftCardContractPageType, {
    nullable: true,
    description: 'Gift card contracts matching a filter, oldest first (giftcards.read).',
  })
  async giftCardContracts(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('filter', () => GiftCardContractFilter, { nullable: true, description: 'What to match.' }) filter?: GiftCardContractFilter,
    @Arg('limit', () => Int, { nullable: true, description: LIMIT }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: OFFSET }) offset?: number,
  ) {
    const page = await searchContracts(ctx, companyID, { ...(filter ?? {}), limit, offset });
    return { total: page.total, giftCardContracts: page.items };
  }

  @Query(() => GiftCardUsagePageType, { nullable: true, description: 'The usages of a gift card contract, oldest first (giftcards.read).' })
  giftCardUsages(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('contractID', () => ID, { description: 'The gift card contract.' }) contractID: string,
    @Arg('limit', () => Int, { nullable: true, description: LIMIT }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: OFFSET }) offset?: number,
  ) {
    return listUsages(ctx, companyID, contractID, { limit, offset });
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
  @Query(() => GiftCardPageType, {
    nullable: true,
    description: 'Client interface: the gift cards on sale now (API key with client.read).',
  })
  clientGiftCards(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('limit', () => Int, { nullable: true, description: LIMIT }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: OFFSET }) offset?: number,
  ) {
    return offeredGiftCards(ctx, companyID, { limit, offset });
  }

  @Query(() => ClientGiftCardContractPageType, {
    nullable: true,
    description: "Client interface: the calling client's gift card purchases.",
  })
  clientGiftCardOrders(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('limit', () => Int, { nullable: true, description: LIMIT }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: OFFSET }) offset?: number,
  ) {
    return clientOrders(ctx, companyID, { limit, offset });
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
