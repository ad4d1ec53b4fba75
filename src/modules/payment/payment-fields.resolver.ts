import { Ctx as GqlCtx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { RECEIPT_STATUSES, type PaymentStatus } from './payment.status';
import { PaymentTransactionType } from './payment.types';

/** Fields of a transaction that are links rather than stored values. */
@Resolver(() => PaymentTransactionType)
export class PaymentTransactionFieldsResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description:
      'Download URL of the receipt PDF (REST): the client route for a client token, else the merchant route ' +
      '(payments.read); null until the transaction is paid.',
  })
  receiptUrl(@Root() t: PaymentTransactionType, @GqlCtx() ctx: Ctx): string | null {
    if (!RECEIPT_STATUSES.includes(t.status as PaymentStatus)) return null;
    const path =
      ctx.actor?.kind === 'client' ? `/v1/client/payments/${t.id}/receipt` : `/v1/companies/${t.companyID}/payments/${t.id}/receipt`;
    return `${ctx.deps.config.publicUrl}${path}`;
  }
}
