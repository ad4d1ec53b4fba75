import { join } from 'node:path';
import type { AppDeps } from '../../kernel/context';
import { TaskTimeout, ThreadPool } from '../../kernel/thread-pool';
import { invalid, unavailable } from '../../shared/errors';
import type { DefaultDocumentInput } from './default-documents';
import type { PdfFacts } from './pdf-check';
import type { PdfTask } from './pdf-task';
import type { ReceiptInput } from './receipt';
import type { TemplateField } from './template.checks';

const pools = new WeakMap<AppDeps, ThreadPool<PdfTask, PdfFacts | Uint8Array>>();

/**
 * The worker threads (PDF_THREADS, at least one) that read uploaded templates and draw PDFs
 * from stored ones. An uploaded PDF is hostile until read: pdf-bounds.ts bounds what it may
 * make pdf-lib inflate and count, but pdf-lib's parser has slow paths of its own (a run of
 * digits where an object should be costs time in the square of its length), so the event loop
 * never parses one, and a PDF still being read after PDF_TIMEOUT_MS is refused and its thread
 * ended.
 */
function pdfThreads(deps: AppDeps): ThreadPool<PdfTask, PdfFacts | Uint8Array> {
  let pool = pools.get(deps);
  if (!pool) {
    // The worker module sits next to this one: .js when built, .ts when run from the sources.
    const file = join(__dirname, `pdf.worker${__filename.slice(__filename.lastIndexOf('.'))}`);
    pool = new ThreadPool<PdfTask, PdfFacts | Uint8Array>(file, deps.config.pdfThreads, {
      onError: (err) => deps.log.error({ err }, 'PDF thread failed'),
      taskTimeoutMs: deps.config.pdfTimeoutMs,
      preload: deps.config.threadPreload,
    });
    pools.set(deps, pool);
  }
  return pool;
}

async function run<T>(deps: AppDeps, task: PdfTask, tooLong: (why: string) => Error): Promise<T> {
  try {
    return (await pdfThreads(deps).run(task)) as T;
  } catch (err) {
    if (!(err instanceof TaskTimeout)) throw err;
    deps.log.warn({ ms: err.ms, task: task.kind }, 'a PDF took too long: refused, and its thread ended');
    throw tooLong(`takes more than ${err.ms / 1000} s to read`);
  }
}

/** Checks an uploaded PDF (pdf-check.ts) on a PDF thread. */
export function checkPdfOffThread(deps: AppDeps, file: Uint8Array): Promise<PdfFacts> {
  return run(deps, { kind: 'check', file }, (why) => invalid(`the PDF ${why}`, [{ path: 'file', message: why }]));
}

/** Draws values on a stored template (render-template.ts) on a PDF thread. */
export function renderTemplateOffThread(
  deps: AppDeps,
  template: Uint8Array,
  fields: readonly TemplateField[],
  values: Readonly<Record<string, string>>,
): Promise<Uint8Array> {
  return run(deps, { kind: 'render', template, fields: [...fields], values: { ...values } }, (why) =>
    invalid(`the PDF template ${why}; upload a new template file`, [{ path: 'template', message: why }]),
  );
}

// A document drawn from scratch is bounded work; one past the time-out means the threads are overloaded.
const busy = (why: string) => unavailable(`the document ${why}; try again`);

/** Draws a receipt (receipt.ts) on a PDF thread. */
export function renderReceiptOffThread(deps: AppDeps, input: ReceiptInput): Promise<Uint8Array> {
  return run(deps, { kind: 'receipt', input }, busy);
}

/** Draws a default voucher or membership card (default-documents.ts) on a PDF thread. */
export function renderDefaultOffThread(deps: AppDeps, input: DefaultDocumentInput): Promise<Uint8Array> {
  return run(deps, { kind: 'default', input }, busy);
}

/** Ends the PDF threads of a server that closes. */
export async function closePdfThreads(deps: AppDeps): Promise<void> {
  const pool = pools.get(deps);
  pools.delete(deps);
  await pool?.close();
}
