import { Arg, Args, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { addToCart, getCart, removeFromCart } from './cart.service';
import { checkoutCart, getPurchase, purchasesConnection, purchaseSubscriptions, renewSubscriptions } from './checkout.service';
import { ConnectionArgs } from '../../kernel/connection';
import {
  PurchaseSubscriptionsInput,
  RenewSubscriptionsInput,
  SubscriptionCartItemInput,
  SubscriptionCartType,
  SubscriptionCheckoutResultType,
  SubscriptionPurchaseConnectionType,
} from './client.types';
import { ContractType } from './subscription.types';

const COMPANY = 'The company.';
const CHECKOUT_ERRORS = 'Errors: invalid_request, not_found, conflict (sold out, empty cart, no payments or no currency).';

/** The client interface of subscriptions over GraphQL: the same services as client.routes.ts. */
@Resolver(() => SubscriptionCartType)
export class SubscriptionClientResolver {
  @Query(() => SubscriptionCartType, {
    nullable: true,
    description: "Client interface: the calling client's subscriptions cart (client token).",
  })
  subscriptionCart(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID, { description: COMPANY }) companyID: string) {
    return getCart(ctx, companyID);
  }

  @Mutation(() => SubscriptionCartType, {
    description: `Client interface: adds subscriptions to the cart as pending_payment contracts holding capacity until cartExpiration. ${CHECKOUT_ERRORS}`,
  })
  addToSubscriptionCart(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('items', () => [SubscriptionCartItemInput], { description: 'What to add (1-20 items, all or none).' })
    items: SubscriptionCartItemInput[],
  ) {
    return addToCart(ctx, companyID, { items });
  }

  @Mutation(() => SubscriptionCartType, {
    description: 'Client interface: removes an item from the cart (cancelled; its capacity comes back).',
  })
  removeFromSubscriptionCart(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('itemID', () => ID, { description: 'The cart item (contract).' }) itemID: string,
  ) {
    return removeFromCart(ctx, companyID, itemID);
  }

  @Mutation(() => SubscriptionCheckoutResultType, {
    description: `Client interface: checks out the whole cart with one payment. ${CHECKOUT_ERRORS}`,
  })
  checkoutSubscriptionCart(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID, { description: COMPANY }) companyID: string) {
    return checkoutCart(ctx, companyID);
  }

  @Mutation(() => SubscriptionCheckoutResultType, {
    description: `Client interface: buys subscriptions in one step (client token, or an API key with client.create and a guest client). ${CHECKOUT_ERRORS}`,
  })
  purchaseSubscriptions(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('input', () => PurchaseSubscriptionsInput, { description: 'What to buy and, with an API key, the buyer.' })
    input: PurchaseSubscriptionsInput,
  ) {
    return purchaseSubscriptions(ctx, companyID, input);
  }

  @Mutation(() => SubscriptionCheckoutResultType, {
    description: `Client interface: renews contracts for one more duration with one payment. ${CHECKOUT_ERRORS}`,
  })
  renewSubscriptions(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('input', () => RenewSubscriptionsInput, { description: 'The contracts.' }) input: RenewSubscriptionsInput,
  ) {
    return renewSubscriptions(ctx, companyID, input);
  }

  @Query(() => SubscriptionPurchaseConnectionType, {
    nullable: true,
    description: "Client interface: the calling client's purchased subscriptions, newest first.",
  })
  subscriptionPurchases(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return purchasesConnection(ctx, companyID, page);
  }

  @Query(() => ContractType, { nullable: true, description: 'Client interface: one purchased subscription of the calling client.' })
  subscriptionPurchase(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: COMPANY }) companyID: string,
    @Arg('id', () => ID, { description: 'The purchased contract.' }) id: string,
  ) {
    return getPurchase(ctx, companyID, id);
  }
}
