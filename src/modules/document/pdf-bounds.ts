import { constants, inflateRawSync } from 'node:zlib';
import {
  EncryptedPDFError,
  PDFArray,
  PDFContext,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFParser,
  PDFRawStream,
  decodePDFRawStream,
  type PDFObject,
} from 'pdf-lib';
import { DomainError } from '../../shared/errors';
import { MAX_INFLATED_BYTES, MAX_PDF_BYTES, MAX_PDF_OBJECTS } from './pdf-limits';

/** A PDF refused by `loadBoundedPdf`: 400, with `why` to say so in the caller's words. */
export class PdfRefusal extends DomainError {
  constructor(readonly why: string) {
    super('invalid_request', `the PDF ${why}`, [{ path: 'file', message: why }]);
  }
}

const TOO_MANY_OBJECTS = `has more than ${MAX_PDF_OBJECTS} objects`;
const TOO_MUCH_INFLATED = `has compressed streams that inflate to more than ${MAX_INFLATED_BYTES / 1024 / 1024} MiB`;

/**
 * Reads a PDF with pdf-lib, with bounded work: at most MAX_PDF_OBJECTS objects and
 * MAX_INFLATED_BYTES of inflated streams, else a PdfRefusal, as soon as a bound is passed.
 *
 * pdf-lib inflates object streams and cross-reference streams while it parses, with no limit:
 * a 400 KB upload could make it inflate 400 MiB. So the parser is pdf-lib's own
 * (`PDFDocument.load` does the same as below), watched at two points of one instance: every
 * stream it parses is measured before pdf-lib can decode it (those it decodes during the parse
 * at once, the others once the parse is done, when references they hold can be followed), and
 * every object it counts moves the object count. Measuring inflates in zlib with a ceiling of
 * what the budget has left: it stops at the first byte beyond (`maxOutputLength`), never
 * inflating a stream whole first. Images are not counted: nothing here decodes them, and a
 * template's page copies them as they are.
 *
 * The work is still a parse of up to 10 MiB by pdf-lib, some of whose paths are slow on
 * crafted input, so callers run this on a worker thread with a deadline (pdf-threads.ts).
 */
export async function loadBoundedPdf(bytes: Uint8Array): Promise<PDFDocument> {
  if (bytes.byteLength > MAX_PDF_BYTES) throw new PdfRefusal(`is larger than ${MAX_PDF_BYTES / 1024 / 1024} MiB`);
  const budget = new Budget();
  const parser = PDFParser.forBytesWithOptions(bytes, Infinity, false, false);
  const watched = parser as unknown as { parseObject: () => PDFObject; shouldWaitForTick: () => boolean };
  const parseObject = parser.parseObject.bind(parser);
  let refusal: PdfRefusal | null = null;
  watched.parseObject = () => {
    const object = parseObject();
    // pdf-lib decides which streams it decodes by the same test, right after this returns.
    if (refusal || !(object instanceof PDFRawStream) || !decodedWhileParsing(object)) return object;
    try {
      budget.expect(object);
      budget.measure(object);
      return object;
    } catch (err) {
      if (!(err instanceof PdfRefusal)) throw err;
      // Nothing is decoded then: the count below stops the parse right after this object.
      refusal = err;
      return PDFNull;
    }
  };
  // Called once for every object parsed, at the top level and inside object streams.
  watched.shouldWaitForTick = () => {
    if (!refusal && ++budget.objects > MAX_PDF_OBJECTS) refusal = new PdfRefusal(TOO_MANY_OBJECTS);
    if (refusal) throw refusal;
    return false;
  };
  let context: PDFContext;
  try {
    context = await parser.parseDocument();
  } catch {
    throw refusal ?? new PdfRefusal('cannot be read as a PDF');
  }
  if (refusal) throw refusal;
  let doc: PDFDocument;
  try {
    // What PDFDocument.load does with the context its parser made (the constructor is not public).
    doc = Reflect.construct(PDFDocument, [context, false, false]) as PDFDocument;
  } catch (err) {
    if (err instanceof EncryptedPDFError) throw new PdfRefusal('is encrypted; upload a PDF without a password');
    throw new PdfRefusal('cannot be read as a PDF');
  }
  try {
    budget.measureAll(context);
  } catch (err) {
    throw err instanceof PdfRefusal ? err : new PdfRefusal('cannot be read as a PDF');
  }
  return doc;
}

/** Streams pdf-lib inflates while it parses (PDFParser.parseIndirectObject). */
function decodedWhileParsing(stream: PDFRawStream): boolean {
  const type = stream.dict.lookup(PDFName.of('Type'));
  return type === PDFName.of('ObjStm') || type === PDFName.of('XRef');
}

/** Stream filters by name (and abbreviation): Flate is inflated by zlib, the others by pdf-lib's decoders, which work in small blocks. */
const FILTERS = new Map<PDFName, string>(
  Object.entries({
    FlateDecode: 'FlateDecode',
    Fl: 'FlateDecode',
    LZWDecode: 'LZWDecode',
    LZW: 'LZWDecode',
    ASCII85Decode: 'ASCII85Decode',
    A85: 'ASCII85Decode',
    ASCIIHexDecode: 'ASCIIHexDecode',
    AHx: 'ASCIIHexDecode',
    RunLengthDecode: 'RunLengthDecode',
    RL: 'RunLengthDecode',
  }).map(([name, filter]) => [PDFName.of(name), filter]),
);
const CHUNK = 256 * 1024;

/** What a PDF's streams have inflated to so far, and its objects. */
class Budget {
  objects = 0;
  private inflated = 0;
  private readonly measured = new WeakSet<PDFRawStream>();

  private get left(): number {
    return MAX_INFLATED_BYTES - this.inflated;
  }

  /** An object stream holds `N` objects, which pdf-lib parses one by one: refused at once when they are too many. */
  expect(stream: PDFRawStream): void {
    const n = stream.dict.lookup(PDFName.of('N'));
    if (n instanceof PDFNumber && this.objects + n.asNumber() > MAX_PDF_OBJECTS) throw new PdfRefusal(TOO_MANY_OBJECTS);
  }

  /** Counts what one stream inflates to (its filters in order); an image counts nothing. */
  measure(stream: PDFRawStream): void {
    if (this.measured.has(stream)) return;
    this.measured.add(stream);
    if (!decodedWhileParsing(stream) && stream.dict.lookup(PDFName.of('Subtype')) === PDFName.of('Image')) return;
    const filters = filtersOf(stream.dict);
    if (!filters.length) return;
    let data: Uint8Array = stream.contents;
    for (const { name, parms } of filters) {
      const filter = FILTERS.get(name);
      // An image codec (DCT, JPX, JBIG2, CCITT) or a name nothing decodes: the data stays as it is.
      if (!filter) break;
      data = filter === 'FlateDecode' ? inflate(data, this.left) : decodeWithPdfLib(data, filter, parms, this.left);
      if (data.length > this.left) throw new PdfRefusal(TOO_MUCH_INFLATED);
    }
    this.inflated += data.length;
  }

  /** Measures every stream of a parsed document not measured yet: direct ones and those inside object streams too. */
  measureAll(context: PDFContext): void {
    const stack: PDFObject[] = context.enumerateIndirectObjects().map(([, object]) => object);
    const seen = new Set<PDFObject>();
    while (stack.length) {
      const object = stack.pop()!;
      if (seen.has(object)) continue;
      seen.add(object);
      if (object instanceof PDFRawStream) {
        this.measure(object);
        stack.push(object.dict);
      } else if (object instanceof PDFDict) {
        for (const [, value] of object.entries()) stack.push(value);
      } else if (object instanceof PDFArray) {
        for (const value of object.asArray()) stack.push(value);
      }
    }
  }
}

/** A stream's filters with their parameters, as pdf-lib reads them (decodePDFRawStream). */
function filtersOf(dict: PDFDict): { name: PDFName; parms: PDFDict | undefined }[] {
  const filter = dict.lookup(PDFName.of('Filter'));
  const parms = dict.lookup(PDFName.of('DecodeParms'));
  if (filter instanceof PDFName) return [{ name: filter, parms: parms instanceof PDFDict ? parms : undefined }];
  if (!(filter instanceof PDFArray)) return [];
  const out: { name: PDFName; parms: PDFDict | undefined }[] = [];
  for (let i = 0; i < filter.size(); i++) {
    const name = filter.lookup(i);
    if (!(name instanceof PDFName)) break;
    const p = parms instanceof PDFArray ? parms.lookup(i) : undefined;
    out.push({ name, parms: p instanceof PDFDict ? p : undefined });
  }
  return out;
}

/**
 * Inflates zlib data as pdf-lib would (its header checked as pdf-lib checks it; the checksum
 * at the end, which pdf-lib ignores, ignored; a stream cut short gives what precedes the cut),
 * stopping at `limit + 1` bytes: beyond the limit is a refusal. A header pdf-lib refuses
 * inflates to nothing (pdf-lib, like a PDF reader, gets no content from it); data zlib cannot
 * inflate is a damaged PDF.
 */
function inflate(data: Uint8Array, limit: number): Uint8Array {
  if (data.length < 2) return new Uint8Array(0);
  const [cmf, flg] = [data[0], data[1]];
  if ((cmf & 0x0f) !== 8 || ((cmf << 8) + flg) % 31 !== 0 || flg & 0x20) return new Uint8Array(0);
  try {
    return inflateRawSync(data.subarray(2), { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: limit + 1 });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new PdfRefusal(TOO_MUCH_INFLATED);
    throw new PdfRefusal('has a damaged compressed stream');
  }
}

/** Decodes with pdf-lib's decoder of one filter, a chunk at a time, stopping once beyond `limit`. */
function decodeWithPdfLib(data: Uint8Array, filter: string, parms: PDFDict | undefined, limit: number): Uint8Array {
  const context = PDFContext.create();
  const dict = context.obj({ Filter: filter });
  if (parms) dict.set(PDFName.of('DecodeParms'), parms);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    const stream = decodePDFRawStream(PDFRawStream.of(dict, data));
    for (;;) {
      const chunk = stream.getBytes(CHUNK);
      if (!chunk.length) break;
      size += chunk.length;
      if (size > limit) throw new PdfRefusal(TOO_MUCH_INFLATED);
      chunks.push(Uint8Array.from(chunk));
      if (chunk.length < CHUNK) break;
    }
  } catch (err) {
    if (err instanceof PdfRefusal) throw err;
    // a damaged stream: what was decoded before the damage is what a reader gets
  }
  return Buffer.concat(chunks);
}
