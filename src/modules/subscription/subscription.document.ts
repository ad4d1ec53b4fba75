import type { DocumentItem, DocumentSource } from '../../kernel/documents';
import { isUuid } from '../../shared/ids';
import type { Ctx } from '../../kernel/context';

interface Row {
  subscription_id: string;
  code: string;
  title: string;
  status: 'pending_payment' | 'active' | 'expired' | 'cancelled';
  active_from: Date | null;
  expires_at: Date | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
}

/**
 * A membership contract as its membership card prints it (kernel/documents.ts): code, the
 * subscription's title, activeFrom, expiresAt, the stored status (the sweepers keep it current), the client's
 * name and e-mail. The code is left out while the contract waits for its payment or was
 * cancelled: it is only worth something once paid.
 */
export const membershipCard: DocumentSource<Ctx> = async (ctx, companyId, itemId): Promise<DocumentItem | null> => {
  if (!isUuid(itemId)) return null;
  const [row] = await ctx.em.execute<Row[]>(
    `select c.subscription_id, c.code, s.title, c.status, c.active_from, c.expires_at, cl.first_name, cl.last_name, cl.email
       from subscription_contract c
       join subscription s on s.company_id = c.company_id and s.id = c.subscription_id
       left join client cl on cl.company_id = c.company_id and cl.id = c.client_id
      where c.company_id = ? and c.id = ?`,
    [companyId, itemId.toLowerCase()],
  );
  if (!row) return null;
  const status = row.status;
  const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
  const text = (s: string | null) => (s ? { kind: 'text' as const, text: s } : null);
  const when = (d: Date | null) => (d ? { kind: 'date' as const, at: new Date(d) } : null);
  return {
    entityID: row.subscription_id,
    values: {
      code: status === 'pending_payment' || status === 'cancelled' ? null : text(row.code),
      title: text(row.title),
      activeFrom: when(row.active_from),
      expiresAt: when(row.expires_at),
      status: text(status),
      clientName: text(name || null),
      clientEmail: text(row.email),
    },
  };
};
