import { renderDefaultDocument, type DefaultDocumentInput } from './default-documents';
import { checkPdf, type PdfFacts } from './pdf-check';
import { renderReceipt, type ReceiptInput } from './receipt';
import { renderTemplate } from './render-template';
import type { TemplateField } from './template.checks';

/**
 * Work done on a PDF worker thread (pdf-threads.ts): reading an untrusted PDF, drawing on a
 * stored template, and drawing the documents made from scratch (a receipt, a default voucher or
 * membership card), so that no PDF is ever parsed or drawn on the event loop.
 */
export type PdfTask =
  | { kind: 'check'; file: Uint8Array }
  | { kind: 'render'; template: Uint8Array; fields: TemplateField[]; values: Record<string, string> }
  | { kind: 'receipt'; input: ReceiptInput }
  | { kind: 'default'; input: DefaultDocumentInput };

export function handlePdfTask(task: PdfTask): Promise<PdfFacts | Uint8Array> {
  switch (task.kind) {
    case 'check':
      return checkPdf(task.file);
    case 'render':
      return renderTemplate(task.template, task.fields, task.values);
    case 'receipt':
      return renderReceipt(task.input);
    case 'default':
      return renderDefaultDocument(task.input);
  }
}
