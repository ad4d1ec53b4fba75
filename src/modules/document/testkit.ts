import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';

/** Test support for PDFs: what a reader sees in one (PDF.js, in a child process), and templates to upload. */

export interface PdfTextItem {
  str: string;
  /** baseline origin, points from the bottom-left */
  x: number;
  y: number;
  width: number;
  fontSize: number;
  /** degrees, counter-clockwise */
  rotation: number;
}

export interface PdfTextRun {
  text: string;
  color: string;
  opacity: number;
}

export interface PdfPageView {
  width: number;
  height: number;
  items: PdfTextItem[];
  runs: PdfTextRun[];
}

export interface PdfView {
  pages: PdfPageView[];
}

const SCRIPT = join(__dirname, 'pdf-inspect.testkit.mjs');

/** Reads a PDF as PDF.js does: pages, text with positions, and the colour and opacity of each text run. */
export function readPdf(bytes: Uint8Array | Buffer): Promise<PdfView> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [SCRIPT], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`PDF.js could not read the PDF: ${stderr || err.message}`));
      resolve(JSON.parse(stdout) as PdfView);
    });
    child.stdin!.end(Buffer.from(bytes));
  });
}

/** The text of one page, its items joined in drawing order. */
export const pageText = (page: PdfPageView): string => page.items.map((i) => i.str).join(' ');

/** A one-page template of the given size with a caption, as a designer's file would be. */
export async function makeTemplate(width = 595.28, height = 419.53, caption = 'Template'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([width, height]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText(caption, { x: 20, y: height - 30, size: 10, font });
  page.drawRectangle({ x: 10, y: 10, width: width - 20, height: height - 20, borderWidth: 1, borderColor: rgb(0.6, 0.6, 0.6) });
  return doc.save();
}

/** The first bytes of a PNG image: not a PDF, whatever it is called. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
