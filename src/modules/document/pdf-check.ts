import { PDFDocument } from 'pdf-lib';
import { DomainError } from '../../shared/errors';
import { PdfRefusal, loadBoundedPdf } from './pdf-bounds';

export interface PdfFacts {
  pageCount: number;
  /** the first page's size in points */
  pageWidth: number;
  pageHeight: number;
}

const HEADER = Buffer.from('%PDF-');
const TRAILER = Buffer.from('%%EOF');

/**
 * Checks that an upload really is a PDF and reads its first page's size. Not a PDF at all (no
 * `%PDF-` header: an image, a text file, whatever its name or content type) is 415; a PDF that
 * is cut short (no `%%EOF` near its end), encrypted, that the parser cannot read or finds no
 * page in, or that goes beyond the bounds of `loadBoundedPdf` (objects, inflated streams) is 400.
 * Runs on a PDF worker thread (pdf-threads.ts).
 */
export async function checkPdf(bytes: Uint8Array): Promise<PdfFacts> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The header may follow a little junk (PDF readers look in the first KiB).
  if (buf.subarray(0, 1024).indexOf(HEADER) < 0)
    throw new DomainError('unsupported_media_type', 'the file is not a PDF', [{ path: 'file', message: 'is not a PDF' }]);
  if (buf.subarray(Math.max(0, buf.length - 1024)).indexOf(TRAILER) < 0) throw new PdfRefusal('is truncated (no %%EOF marker at its end)');
  const doc = await loadBoundedPdf(bytes);
  let facts: PdfFacts;
  try {
    const pageCount = doc.getPageCount();
    if (pageCount < 1) throw new PdfRefusal('has no page');
    const { width, height } = doc.getPage(0).getMediaBox();
    facts = { pageCount, pageWidth: Math.abs(width), pageHeight: Math.abs(height) };
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw new PdfRefusal('cannot be read as a PDF');
  }
  if (!(facts.pageWidth >= 1 && facts.pageHeight >= 1 && facts.pageWidth <= 14_400 && facts.pageHeight <= 14_400))
    throw new PdfRefusal('has a first page whose size is not between 1 and 14400 points');
  // Copying the first page is what every drawing does; a page that cannot be copied is refused now.
  try {
    const probe = await PDFDocument.create();
    await probe.copyPages(doc, [0]);
  } catch {
    throw new PdfRefusal('has a first page that cannot be read');
  }
  return facts;
}
