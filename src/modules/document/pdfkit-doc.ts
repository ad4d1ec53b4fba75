import PDFDocument from 'pdfkit';
import { fontPath } from './fonts';

/** A pdfkit document with the Unicode fonts registered as `regular`, `bold` and `italic`. */
export function newDocument(opts: PDFKit.PDFDocumentOptions): PDFKit.PDFDocument {
  // The first font is given up front, so pdfkit never loads its Latin-1 Helvetica.
  const doc = new PDFDocument({ ...opts, font: fontPath('noto_sans'), autoFirstPage: true, compress: true });
  doc.registerFont('regular', fontPath('noto_sans'));
  doc.registerFont('bold', fontPath('noto_sans_bold'));
  doc.registerFont('italic', fontPath('noto_sans_italic'));
  doc.font('regular');
  return doc;
}

/** Ends the document and collects its bytes. */
export function finish(doc: PDFKit.PDFDocument): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    doc.end();
  });
}

/**
 * The largest size from `size` down to `min` at which `text` fits `width` on one line in the
 * current font; the caller cuts with an ellipsis what still does not fit at `min`.
 */
export function fitSize(doc: PDFKit.PDFDocument, text: string, width: number, size: number, min = 7): number {
  for (let s = size; s > min; s -= 0.5) if (doc.fontSize(s).widthOfString(text) <= width) return s;
  return min;
}

/**
 * Writes `text` on one line at (x, y) (top-left origin, pdfkit's) within `width`: shrunk to
 * fit down to `min`, then cut with an ellipsis. Returns the size used.
 */
export function line(
  doc: PDFKit.PDFDocument,
  text: string,
  x: number,
  y: number,
  width: number,
  opts: { font?: string; size: number; min?: number; color?: string; align?: 'left' | 'right' | 'center'; characterSpacing?: number },
): number {
  doc.font(opts.font ?? 'regular');
  const size = fitSize(doc, text, width, opts.size, opts.min);
  doc.fontSize(size).fillColor(opts.color ?? '#1a1a1a');
  doc.text(text, x, y, {
    width,
    height: size * 1.4,
    lineBreak: false,
    ellipsis: true,
    align: opts.align ?? 'left',
    characterSpacing: opts.characterSpacing ?? 0,
  });
  return size;
}
