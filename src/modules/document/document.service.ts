import type { PrintedPdf } from '../../kernel/documents';
import { requireClient } from '../../kernel/access';
import { companyForMerchant, findCompany } from '../company/company.access';
import { RECEIPT_STATUSES, receiptFacts, type ReceiptFacts } from '../payment/payment.api';
import { conflict, invalid, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { printItem, printReceipt, type PrintingCompany } from './print';
import { templateKey } from './template.service';
import type { AppDeps, Ctx } from '../../kernel/context';

function uuidParam(v: unknown, path: string): string {
  if (!isUuid(v)) throw invalid(`${path} must be a UUID`, [{ path, message: 'must be a UUID' }]);
  return v.toLowerCase();
}

/**
 * The PDF of one item (a gift card purchase, a membership contract) of an entity (`pdf.read`):
 * the entity's template with the item's values drawn on it, or the default voucher or
 * membership card when the company has no template for the entity. The item is read through
 * the source its module registered for the entity type; no source, no such item, or an item
 * of another entity is 404. Drawn on a PDF thread; a template read beyond the bounds of an
 * upload (stored before they were checked) is 400.
 */
export async function entityPdf(ctx: Ctx, companyId: string, entityType: unknown, entityId: unknown, itemId: unknown): Promise<PrintedPdf> {
  const company = await companyForMerchant(ctx, companyId, 'pdf.read');
  const key = templateKey(entityType, entityId);
  const id = uuidParam(itemId, 'item_id');
  const pdf = await printItem(ctx, company, key.entityType, id, key.entityId);
  if (!pdf) throw notFound(key.entityType === 'gift_card' ? 'gift card purchase' : 'membership');
  return pdf;
}

async function receiptOf(deps: AppDeps, facts: ReceiptFacts | null, company: PrintingCompany): Promise<PrintedPdf> {
  if (!facts) throw notFound('payment transaction');
  if (!RECEIPT_STATUSES.includes(facts.status)) throw conflict(`the transaction is ${facts.status}; only a paid transaction has a receipt`);
  return printReceipt(deps, facts, company);
}

/** The receipt of a paid transaction of the company (`payments.read`); an unpaid one is 409. */
export async function merchantReceipt(ctx: Ctx, companyId: string, transactionId: unknown): Promise<PrintedPdf> {
  const company = await companyForMerchant(ctx, companyId, 'payments.read');
  const id = uuidParam(transactionId, 'transaction_id');
  return receiptOf(ctx.deps, await receiptFacts(ctx, company.id, id), company);
}

/** The receipt of one of the calling client's own paid transactions; another client's is 404. */
export async function clientReceipt(ctx: Ctx, transactionId: unknown): Promise<PrintedPdf> {
  const actor = requireClient(ctx);
  const id = uuidParam(transactionId, 'transaction_id');
  const company = await findCompany(ctx, actor.companyId);
  return receiptOf(ctx.deps, await receiptFacts(ctx, company.id, id, actor.clientId), company);
}
