import { Ctx as GqlCtx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { documentPdfPath } from '../../kernel/documents';
import { GiftCardContractType } from './giftcard.types';

/** Fields of a gift card contract that are links rather than stored values. */
@Resolver(() => GiftCardContractType)
export class GiftCardContractFieldsResolver {
  @FieldResolver(() => String, {
    description:
      "Download URL of the purchase's voucher PDF (REST, pdf.read): its gift card's PDF template filled in, or the default voucher.",
  })
  pdfUrl(@Root() c: GiftCardContractType, @GqlCtx() ctx: Ctx): string {
    return `${ctx.deps.config.publicUrl}${documentPdfPath(c.companyId, 'gift_card', c.giftCardId, c.id)}`;
  }
}
