import { Arg, Ctx as GqlCtx, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { validateClientCode } from './code-validation.service';
import { CodeValidationType, ValidateCodeInput } from './booking-codes.types';

@Resolver(() => CodeValidationType)
export class CodeValidationResolver {
  @Query(() => CodeValidationType, {
    nullable: true,
    description:
      'Client interface: what a code (promo code, gift card) would do to a booking (client token, or an API key with client.read). ' +
      'A code that cannot apply answers canApply: false; errors: time_unavailable when the time cannot be booked.',
  })
  clientValidateCode(
    @GqlCtx() ctx: Ctx,
    @Arg('code', { description: 'The code (any case).' }) code: string,
    @Arg('input', () => ValidateCodeInput, { description: 'The booking.' }) input: ValidateCodeInput,
  ) {
    const tickets = input.tickets ? Object.fromEntries(input.tickets.map((t) => [t.ticketID, t.count])) : undefined;
    return validateClientCode(ctx, code, { ...input, tickets });
  }
}
