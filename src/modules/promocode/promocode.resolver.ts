import { Arg, Args, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { ConnectionArgs } from '../../kernel/connection';
import type { Ctx } from '../../kernel/context';
import { metaDataUpdateOf } from '../../kernel/metadata-update.types';
import {
  archivePromoCode,
  createPromoCode,
  getPromoCode,
  promoCodesConnection,
  promoUsagesConnection,
  updatePromoCode,
  validatePromoCode,
} from './promocode.service';
import {
  CreatePromoCodeInput,
  PromoCodeConnectionType,
  PromoCodeType,
  PromoCodeValidationType,
  PromoUsageConnectionType,
  UpdatePromoCodeInput,
  ValidatePromoCodeInput,
} from './promocode.types';

@Resolver(() => PromoCodeType)
export class PromoCodeResolver {
  @Query(() => PromoCodeConnectionType, { nullable: true, description: "The company's promo codes, oldest first (promocodes.read)." })
  promoCodes(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return promoCodesConnection(ctx, companyID, page);
  }

  @Query(() => PromoCodeType, { nullable: true, description: 'One promo code (promocodes.read); errors: not_found.' })
  promoCode(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Arg('id', () => ID, { description: 'The promo code.' }) id: string,
  ) {
    return getPromoCode(ctx, companyID, id);
  }

  @Query(() => PromoUsageConnectionType, {
    nullable: true,
    description: 'A page of the usages of one promo code, oldest first (promocodes.read).',
  })
  promoCodeUsages(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Arg('promoCodeID', () => ID, { description: 'The promo code.' }) promoCodeID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return promoUsagesConnection(ctx, companyID, promoCodeID, page);
  }

  @Query(() => PromoCodeValidationType, {
    nullable: true,
    description: 'Whether a code can be used for a booking (promocodes.read); a code that cannot apply answers valid: false.',
  })
  validatePromoCode(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Arg('input', () => ValidatePromoCodeInput, { description: 'The code and the booking.' }) input: ValidatePromoCodeInput,
  ) {
    return validatePromoCode(ctx, companyID, input);
  }

  @Mutation(() => PromoCodeType, {
    description: 'Creates a promo code (promocodes.write); errors: invalid_request, conflict (code taken).',
  })
  createPromoCode(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Arg('input', () => CreatePromoCodeInput, { description: 'The code.' }) input: CreatePromoCodeInput,
  ) {
    return createPromoCode(ctx, companyID, input);
  }

  @Mutation(() => PromoCodeType, {
    description: 'Changes a promo code (promocodes.write); errors: invalid_request, not_found, conflict, version_conflict.',
  })
  updatePromoCode(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Arg('id', () => ID, { description: 'The promo code.' }) id: string,
    @Arg('input', () => UpdatePromoCodeInput, { description: 'The changes.' }) input: UpdatePromoCodeInput,
  ) {
    return updatePromoCode(ctx, companyID, id, { ...input, metaDataUpdate: metaDataUpdateOf(input.metaDataUpdate) });
  }

  @Mutation(() => PromoCodeType, { description: 'Archives or unarchives a promo code (promocodes.write).' })
  archivePromoCode(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Arg('id', () => ID, { description: 'The promo code.' }) id: string,
    @Arg('archived', () => Boolean, { nullable: true, description: 'true (default) archives, false unarchives.' }) archived?: boolean,
  ) {
    return archivePromoCode(ctx, companyID, id, { archived });
  }
}
