import type { DocumentItem, DocumentSource } from '../../kernel/documents';
import { isUuid } from '../../shared/ids';
import type { Ctx } from '../../kernel/context';

interface Row {
  gift_card_id: string;
  code: string;
  title: string;
  amount: number;
  currency: string;
  status: string;
  expires_at: Date | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
}

/**
 * A gift card purchase (contract) as its voucher prints it (kernel/documents.ts). The code is
 * left out while the purchase waits for its payment, as the client's own view leaves it out.
 */
export const giftCardVoucher: DocumentSource<Ctx> = async (ctx, companyId, itemId): Promise<DocumentItem | null> => {
  if (!isUuid(itemId)) return null;
  const [row] = await ctx.em.execute<Row[]>(
    `select c.gift_card_id, c.code, g.title, c.amount, c.currency, c.status, c.expires_at, cl.first_name, cl.last_name, cl.email
       from gift_card_contract c
       join gift_card g on g.company_id = c.company_id and g.id = c.gift_card_id
       left join client cl on cl.company_id = c.company_id and cl.id = c.client_id
      where c.company_id = ? and c.id = ?`,
    [companyId, itemId.toLowerCase()],
  );
  if (!row) return null;
  const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
  const text = (s: string | null) => (s ? { kind: 'text' as const, text: s } : null);
  return {
    entityID: row.gift_card_id,
    values: {
      code: row.status === 'pending_payment' ? null : text(row.code),
      title: text(row.title),
      amount: { kind: 'money', amount: Number(row.amount), currency: row.currency },
      currency: text(row.currency),
      validUntil: row.expires_at ? { kind: 'date', at: new Date(row.expires_at) } : null,
      clientName: text(name || null),
      clientEmail: text(row.email),
    },
  };
};
