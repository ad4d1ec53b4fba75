import type * as DefaultDocuments from './default-documents';
import type { DefaultDocumentInput } from './default-documents';
import { checkPdf, type PdfFacts } from './pdf-check';
import type * as Receipts from './receipt';
import type { ReceiptInput } from './receipt';
import { renderTemplate } from './render-template';
import type { TemplateField } from './template.checks';

/**
 * Work done on a PDF worker thread (pdf-threads.ts): reading an untrusted PDF, drawing on a
 * stored template, and drawing the documents made from scratch (a receipt, a default voucher or
 * membership card), so that no PDF is ever parsed or drawn on the event loop. pdfkit and its
 * fonts are loaded by a thread's first document drawn from scratch, not when it starts: a
 * thread that only reads uploads never loads them. (A thread's own start is not counted in a
 * task's time-out: kernel/thread-pool.ts.)
 */
export type PdfTask =
  | { kind: 'check'; file: Uint8Array }
  | { kind: 'render'; template: Uint8Array; fields: TemplateField[]; values: Record<string, string> }
  | { kind: 'receipt'; input: ReceiptInput }
  | { kind: 'default'; input: DefaultDocumentInput };

/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, see above */
const receipts = () => require('./receipt') as typeof Receipts;
const defaultDocuments = () => require('./default-documents') as typeof DefaultDocuments;
/* eslint-enable @typescript-eslint/no-require-imports */

export function handlePdfTask(task: PdfTask): Promise<PdfFacts | Uint8Array> {
  switch (task.kind) {
    case 'check':
      return checkPdf(task.file);
    case 'render':
      return renderTemplate(task.template, task.fields, task.values);
    case 'receipt':
      return receipts().renderReceipt(task.input);
    case 'default':
      return defaultDocuments().renderDefaultDocument(task.input);
  }
}
