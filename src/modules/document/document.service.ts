import type { Ctx } from '../../kernel/context';
import { requireClient } from '../../kernel/access';
import { companyForMerchant, findCompany } from '../company/company.access';
import { RECEIPT_STATUSES, receiptFacts, type ReceiptFacts } from '../payment/payment.api';
import { conflict, invalid, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { renderDefaultDocument } from './default-documents';
import { formatValue } from './format';
import { renderReceipt } from './receipt';
import { renderTemplateOffThread } from './pdf-threads';
import { templateFor, templateKey } from './template.service';

export interface PdfAnswer {
  bytes: Uint8Array;
  /** a file name for Content-Disposition */
  filename: string;
}

function uuidParam(v: unknown, path: string): string {
  if (!isUuid(v)) throw invalid(`${path} must be a UUID`, [{ path, message: 'must be a UUID' }]);
  return v.toLowerCase();
}

/**
 * The PDF of one item (a gift card purchase, a membership contract) of an entity (`pdf.read`):
 * the entity's template with the item's values drawn on it, or the default voucher or
 * membership card when the company has no template for the entity. The item is read through
 * the source its module registered for the entity type; no source, no such item, or an item
 * of another entity is 404. A template is drawn on a PDF thread, read within the bounds of an
 * upload; one beyond them (stored before they were checked) is 400.
 */
export async function entityPdf(ctx: Ctx, companyId: string, entityType: unknown, entityId: unknown, itemId: unknown): Promise<PdfAnswer> {
  const company = await companyForMerchant(ctx, companyId, 'pdf.read');
  const key = templateKey(entityType, entityId);
  const id = uuidParam(itemId, 'item_id');
  const source = ctx.deps.documents.get(key.entityType);
  const item = source ? await source(ctx.em, company.id, id) : null;
  if (!item || item.entityID.toLowerCase() !== key.entityId)
    throw notFound(key.entityType === 'gift_card' ? 'gift card purchase' : 'membership');
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(item.values)) values[name] = formatValue(value, company.timeZone);
  const stored = await templateFor(ctx, company.id, key);
  const bytes = stored
    ? await renderTemplateOffThread(ctx.deps, stored.file, stored.template.fields, values)
    : await renderDefaultDocument({ entityType: key.entityType, companyName: company.name, values });
  return { bytes, filename: `${key.entityType}-${id}.pdf` };
}

async function receiptOf(facts: ReceiptFacts | null, company: { name: string; timeZone: string }): Promise<PdfAnswer> {
  if (!facts) throw notFound('payment transaction');
  if (!RECEIPT_STATUSES.includes(facts.status)) throw conflict(`the transaction is ${facts.status}; only a paid transaction has a receipt`);
  const bytes = await renderReceipt({
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

/** The receipt of a paid transaction of the company (`payments.read`); an unpaid one is 409. */
export async function merchantReceipt(ctx: Ctx, companyId: string, transactionId: unknown): Promise<PdfAnswer> {
  const company = await companyForMerchant(ctx, companyId, 'payments.read');
  const id = uuidParam(transactionId, 'transaction_id');
  return receiptOf(await receiptFacts(ctx.em, company.id, id), company);
}

/** The receipt of one of the calling client's own paid transactions; another client's is 404. */
export async function clientReceipt(ctx: Ctx, transactionId: unknown): Promise<PdfAnswer> {
  const actor = requireClient(ctx);
  const id = uuidParam(transactionId, 'transaction_id');
  const company = await findCompany(ctx, actor.companyId);
  return receiptOf(await receiptFacts(ctx.em, company.id, id, actor.clientId), company);
}
