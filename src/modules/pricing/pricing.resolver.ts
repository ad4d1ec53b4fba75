import { Arg, Args, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { DOC } from '../../kernel/graphql-types';
import { ConnectionArgs, connectionOf, listSpec, ORDERS } from '../../kernel/connection';
import type { Ctx } from '../../kernel/context';
import { createDiscount, listDiscounts } from './discount.service';
import { createPriceRule, listPriceRules, updatePriceRule } from './price-rule.service';
import {
  CreateDiscountInput,
  CreatePriceRuleInput,
  DiscountConnectionType,
  DiscountType,
  DiscountTypeEnum,
  PriceRuleConnectionType,
  PriceRuleType,
  UpdatePriceRuleInput,
} from './pricing.types';

@Resolver(() => PriceRuleType)
export class PriceRuleResolver {
  @Query(() => PriceRuleConnectionType, { nullable: true, description: 'Price rules of a service, in the order they are chosen.' })
  async priceRules(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return connectionOf(
      (await listPriceRules(ctx, companyID, serviceID)).rules,
      page,
      listSpec(ORDERS.rules, 'priceRules', serviceID),
      'priceRules',
    );
  }

  @Mutation(() => PriceRuleType, { description: 'Adds a price rule to a service (`rules.write`).' })
  createPriceRule(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Arg('input', () => CreatePriceRuleInput, { description: DOC.inputArg }) input: CreatePriceRuleInput,
  ) {
    return createPriceRule(ctx, companyID, serviceID, input);
  }

  @Mutation(() => PriceRuleType, { description: 'Changes a price rule; fields left out keep their values.' })
  updatePriceRule(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
    @Arg('input', () => UpdatePriceRuleInput, { description: DOC.inputArg }) input: UpdatePriceRuleInput,
  ) {
    return updatePriceRule(ctx, companyID, serviceID, id, input);
  }
}

@Resolver(() => DiscountType)
export class DiscountResolver {
  @Query(() => DiscountConnectionType, { nullable: true, description: 'Discounts of a service, in the order they are chosen.' })
  async discounts(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
    @Arg('type', () => DiscountTypeEnum, { nullable: true, description: 'Only discounts of this type.' }) type?: string | null,
  ) {
    const { discounts } = await listDiscounts(ctx, companyID, serviceID, type ?? undefined);
    return connectionOf(discounts, page, listSpec(ORDERS.rules, 'discounts', serviceID, { type }), 'discounts');
  }

  @Mutation(() => DiscountType, { description: 'Adds a volume discount to a service (`rules.write`).' })
  createDiscount(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Arg('input', () => CreateDiscountInput, { description: DOC.inputArg }) input: CreateDiscountInput,
  ) {
    return createDiscount(ctx, companyID, serviceID, input);
  }
}
