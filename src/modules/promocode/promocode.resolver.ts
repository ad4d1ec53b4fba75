import { Arg, Ctx as GqlCtx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { metaDataUpdateOf } from '../../kernel/metadata-update.types';
import {
  archivePromoCode,
  createPromoCode,
  getPromoCode,
  listPromoCodes,
  listPromoUsages,
  updatePromoCode,
  validatePromoCode,
} from './promocode.service';
import {
  CreatePromoCodeInput,
  PromoCodePageType,
  PromoCodeType,
  PromoCodeValidationType,
  PromoUsagePageType,
  UpdatePromoCodeInput,
  ValidatePromoCodeInput,
} from './promocode.types';

const LIMIT = 'Page size, 1-100 (default 100).';
const OFFSET = 'Items to skip (default 0).';

@Resolver(() => PromoCodeType)
export class PromoCodeResolver {
  @Query(() => PromoCodePageType, { nullable: true, description: "A page of the company's promo codes, oldest first (promocodes.read)." })
  promoCodes(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Arg('limit', () => Int, { nullable: true, description: LIMIT }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: OFFSET }) offset?: number,
  ) {
    return listPromoCodes(ctx, companyID, { limit, offset });
  }

  @Query(() => PromoCodeType, { nullable: true, description: 'One promo code (promocodes.read); errors: not_found.' })
  promoCode(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Arg('id', () => ID, { description: 'The promo code.' }) id: string,
  ) {
    return getPromoCode(ctx, companyID, id);
  }

  @Query(() => PromoUsagePageType, {
    nullable: true,
    description: 'A page of the usages of one promo code, oldest first (promocodes.read).',
  })
  promoCodeUsages(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Arg('promoCodeID', () => ID, { description: 'The promo code.' }) promoCodeID: string,
    @Arg('limit', () => Int, { nullable: true, description: LIMIT }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: OFFSET }) offset?: number,
  ) {
    return listPromoUsages(ctx, companyID, promoCodeID, { limit, offset });
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
