import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createDeflate } from 'node:zlib';
import { PDFDocument, PDFRawStream, StandardFonts, rgb } from 'pdf-lib';

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
  /** the font's name as the PDF gives it (`Helvetica-Bold`; an embedded one with a suffix: `NotoSans-Bold-…`) */
  font: string | null;
}

export interface PdfTextRun {
  text: string;
  color: string;
  opacity: number;
  font: string | null;
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

interface Asked {
  pdf: string;
  resolve(view: PdfView): void;
  reject(err: Error): void;
}

/** The PDF.js reader of this test file: one child process, kept while PDFs keep coming (it ends when idle). */
let reader: { child: ChildProcess; asked: Asked[] } | null = null;

function ask(a: Asked): void {
  if (!reader) {
    const child = spawn(process.execPath, [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
    const me = { child, asked: [] as Asked[] };
    let out = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
        const answer = JSON.parse(out.slice(0, nl)) as { view?: PdfView; error?: string };
        out = out.slice(nl + 1);
        const next = me.asked.shift()!;
        if (answer.view) next.resolve(answer.view);
        else next.reject(new Error(`PDF.js could not read the PDF: ${answer.error}`));
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('exit', (code) => {
      if (reader === me) reader = null;
      const left = me.asked.splice(0);
      // Ended idle just as a PDF was sent: ask a new reader.
      if (code === 0) left.forEach(ask);
      else for (const l of left) l.reject(new Error(`the PDF.js reader ended with ${code}: ${stderr}`));
    });
    // The reader never keeps a test process alive.
    child.unref();
    for (const s of [child.stdin, child.stdout, child.stderr] as unknown as { unref?(): void }[]) s.unref?.();
    reader = me;
  }
  reader.asked.push(a);
  reader.child.stdin!.write(`${a.pdf}\n`);
}

/** Reads a PDF as PDF.js does: pages, text with positions, and the colour and opacity of each text run. */
export function readPdf(bytes: Uint8Array | Buffer): Promise<PdfView> {
  return new Promise((resolve, reject) => ask({ pdf: Buffer.from(bytes).toString('base64'), resolve, reject }));
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

export const MiB = 1024 * 1024;

/**
 * zlib (Flate) data of `size` bytes of `fill`, compressed as it is made, 4 MiB at a time, so
 * that a bomb of hundreds of MiB never exists uncompressed (400 MiB of one byte: about 400 KB).
 */
export async function flateOf(size: number, fill = 0x20): Promise<Buffer> {
  const parts: Buffer[] = [];
  const deflate = createDeflate({ level: 9 });
  deflate.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise<void>((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const slice = Buffer.alloc(4 * MiB, fill);
  for (let at = 0; at < size; at += slice.length) {
    if (!deflate.write(slice.subarray(0, Math.min(slice.length, size - at))))
      await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(parts);
}

/** A valid one-page template (a caption and a frame, as makeTemplate) whose page also draws `flate`, a Flate content stream. */
export async function templateWithContent(flate: Uint8Array, width = 500, height = 300): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await makeTemplate(width, height, 'Template with a big stream'));
  const stream = doc.context.register(PDFRawStream.of(doc.context.obj({ Filter: 'FlateDecode', Length: flate.length }), flate));
  doc.getPage(0).node.addContentStream(stream);
  return doc.save({ useObjectStreams: false });
}

/** A valid one-page template with an object stream whose Flate data inflates to `flate`'s size (one object, then blanks). */
export async function templateWithObjectStream(flate: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await makeTemplate(500, 300, 'Template with an object stream'));
  const dict = doc.context.obj({ Type: 'ObjStm', N: 1, First: 5, Filter: 'FlateDecode', Length: flate.length });
  doc.context.register(PDFRawStream.of(dict, flate));
  return doc.save({ useObjectStreams: false });
}

/** A valid one-page template holding `extra` more objects (small arrays), in object streams or not. */
export async function templateWithObjects(extra: number, objectStreams: boolean): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await makeTemplate(500, 300, `Template with ${extra} more objects`));
  for (let i = 0; i < extra; i++) doc.context.register(doc.context.obj([i]));
  return doc.save({ useObjectStreams: objectStreams });
}

/** How many objects pdf-lib reads in a PDF: its indirect objects, object streams and cross-reference streams included. */
export function objectsIn(bytes: Uint8Array): number {
  return (
    Buffer.from(bytes)
      .toString('latin1')
      .match(/\d+ \d+ obj\b/g) ?? []
  ).length;
}

/**
 * A small valid template where pdf-lib's parser spends time in the square of its size: a run of
 * digits after the last object, where another could start (each position is tried as the start
 * of an object number). 8,000 digits take it about a second, 100,000 minutes.
 */
export async function slowToParse(digits = 100_000): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await makeTemplate(500, 300, 'Slow to parse'));
  const valid = Buffer.from(await doc.save({ useObjectStreams: false }));
  const at = valid.lastIndexOf('endobj') + 'endobj'.length;
  return Buffer.concat([valid.subarray(0, at), Buffer.from('\n'), Buffer.alloc(digits, '1'), valid.subarray(at)]);
}
