import { Arg, Args, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { DOC, PageArgs, pageOf } from '../../kernel/graphql-types';
import type { Ctx } from '../../kernel/context';
import { createDiscount, listDiscounts } from './discount.service';
import { createPriceRule, listPriceRules, updatePriceRule } from './price-rule.service';
import {
  CreateDiscountInput,
  CreatePriceRuleInput,
  DiscountPageType,
  DiscountType,
  DiscountTypeEnum,
  PriceRulePageType,
  PriceRuleType,
  UpdatePriceRuleInput,
} from './pricing.types';

@Resolver(() => PriceRuleType)
export class PriceRuleResolver {
  @Query(() => PriceRulePageType, { nullable: true, description: 'Price rules of a service, in the order they are chosen.' })
  async priceRules(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Args(() => PageArgs) page: PageArgs,
  ) {
    return pageOf((await listPriceRules(ctx, companyID, serviceID)).rules, page, 'priceRules');
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
  @Query(() => DiscountPageType, { nullable: true, description: 'Discounts of a service, in the order they are chosen.' })
  async discounts(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Args(() => PageArgs) page: PageArgs,
    @Arg('type', () => DiscountTypeEnum, { nullable: true, description: 'Only discounts of this type.' }) type?: string | null,
  ) {
    return pageOf((await listDiscounts(ctx, companyID, serviceID, type ?? undefined)).discounts, page, 'discounts');
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
