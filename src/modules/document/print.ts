import type { DocumentEntityType, DocumentPrinter, PrintedPdf } from '../../kernel/documents';
import { Company } from '../company/company.entity';
import { RECEIPT_STATUSES, receiptFacts, type ReceiptFacts } from '../payment/payment.api';
import { formatValue } from './format';
import { renderDefaultOffThread, renderReceiptOffThread, renderTemplateOffThread } from './pdf-threads';
import { templateFor } from './template.service';
import type { AppDeps, Ctx } from '../../kernel/context';

/**
 * Printing, one way for the downloads and for e-mail attachments: a receipt of a paid
 * transaction, and an item of an entity (the entity's template drawn with the item's values,
 * or the default voucher or membership card). No access checks: the caller has made them.
 * Every document is drawn on a PDF thread, never on the event loop.
 */

/** What a printed document says of its company. */
export interface PrintingCompany {
  id: string;
  name: string;
  timeZone: string;
}

/** The PDF of one item of `entityType`, or null when the company has no such item (or, with `entityId`, none of that entity). */
export async function printItem(
  ctx: Ctx,
  company: PrintingCompany,
  entityType: DocumentEntityType,
  itemId: string,
  entityId?: string,
): Promise<PrintedPdf | null> {
  const source = ctx.deps.documents.get(entityType);
  const item = source ? await source(ctx, company.id, itemId) : null;
  const owner = item?.entityID.toLowerCase();
  if (!item || !owner || (entityId !== undefined && owner !== entityId)) return null;
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(item.values)) values[name] = formatValue(value, company.timeZone);
  const stored = await templateFor(ctx, company.id, { entityType, entityId: owner });
  const bytes = stored
    ? await renderTemplateOffThread(ctx.deps, stored.file, stored.template.fields, values)
    : await renderDefaultOffThread(ctx.deps, { entityType, companyName: company.name, values });
  return { bytes, filename: `${entityType}-${itemId}.pdf` };
}

/** The receipt of a transaction (the caller has checked that it is paid). */
export async function printReceipt(deps: AppDeps, facts: ReceiptFacts, company: PrintingCompany): Promise<PrintedPdf> {
  const bytes = await renderReceiptOffThread(deps, {
    companyName: company.name,
    timeZone: company.timeZone,
    transactionId: facts.id,
    createdAt: facts.createdAt,
    status: facts.status,
    providerType: facts.providerType,
    email: facts.email,
    itemType: facts.itemType,
    purchaseName: facts.purchaseName,
    items: facts.items,
    amount: facts.amount,
    currency: facts.currency,
    taxInclusive: facts.taxInclusive,
    taxRate: facts.taxRate,
    refunds: facts.refunds,
  });
  return { bytes, filename: `receipt-${facts.id}.pdf` };
}

/** The server's printer (`deps.print`): what the e-mail notifications attach. */
export function documentPrinter(deps: AppDeps): DocumentPrinter<Ctx> {
  return async (ctx, companyId, document, itemId) => {
    const company = await ctx.em.findOne(Company, { id: companyId }, { fields: ['id', 'name', 'timeZone'], disableIdentityMap: true });
    if (!company) return null;
    if (document !== 'receipt') return printItem(ctx, company, document, itemId);
    const facts = await receiptFacts(ctx, company.id, itemId);
    return facts && RECEIPT_STATUSES.includes(facts.status) ? printReceipt(deps, facts, company) : null;
  };
}
