import { Arg, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { createDiscount, listDiscounts } from './discount.service';
import { createPriceRule, listPriceRules, updatePriceRule } from './price-rule.service';
import { CreateDiscountInput, CreatePriceRuleInput, DiscountType, PriceRuleType, UpdatePriceRuleInput } from './pricing.types';

@Resolver(() => PriceRuleType)
export class PriceRuleResolver {
  @Query(() => [PriceRuleType], { nullable: true, description: 'Price rules of a service, in the order they are chosen.' })
  async priceRules(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string, @Arg('serviceID', () => ID) serviceID: string) {
    return (await listPriceRules(ctx, companyID, serviceID)).rules;
  }

  @Mutation(() => PriceRuleType)
  createPriceRule(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('input', () => CreatePriceRuleInput) input: CreatePriceRuleInput,
  ) {
    return createPriceRule(ctx, companyID, serviceID, input);
  }

  @Mutation(() => PriceRuleType)
  updatePriceRule(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdatePriceRuleInput) input: UpdatePriceRuleInput,
  ) {
    return updatePriceRule(ctx, companyID, serviceID, id, input);
  }
}

@Resolver(() => DiscountType)
export class DiscountResolver {
  @Query(() => [DiscountType], { nullable: true, description: 'Discounts of a service, in the order they are chosen.' })
  async discounts(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('type', () => String, { nullable: true, description: 'ticket or spots' }) type?: string | null,
  ) {
    return (await listDiscounts(ctx, companyID, serviceID, type ?? undefined)).discounts;
  }

  @Mutation(() => DiscountType)
  createDiscount(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('input', () => CreateDiscountInput) input: CreateDiscountInput,
  ) {
    return createDiscount(ctx, companyID, serviceID, input);
  }
}
