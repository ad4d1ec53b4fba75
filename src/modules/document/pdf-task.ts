import { checkPdf, type PdfFacts } from './pdf-check';
import { renderTemplate } from './render-template';
import type { TemplateField } from './template.checks';

/** Work on an untrusted PDF, done on a PDF worker thread (pdf-threads.ts). */
export type PdfTask =
  { kind: 'check'; file: Uint8Array } | { kind: 'render'; template: Uint8Array; fields: TemplateField[]; values: Record<string, string> };

export function handlePdfTask(task: PdfTask): Promise<PdfFacts | Uint8Array> {
  return task.kind === 'check' ? checkPdf(task.file) : renderTemplate(task.template, task.fields, task.values);
}
