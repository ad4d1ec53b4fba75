import zlib from 'node:zlib';
import { PDFDocument, PDFName, PDFObjectStreamParser, PDFRawStream, PDFRef } from 'pdf-lib';
import { DomainError } from '../../shared/errors';
import { checkPdf } from './pdf-check';
import {
  flateOf,
  makeTemplate,
  MiB,
  objectsIn,
  PNG_BYTES,
  templateWithContent,
  templateWithObjects,
  templateWithObjectStream,
} from './testkit';

async function refusal(bytes: Uint8Array): Promise<string> {
  try {
    await checkPdf(bytes);
  } catch (err) {
    if (err instanceof DomainError) return `${err.status} ${err.message}`;
    throw err;
  }
  throw new Error('the file was accepted');
}

describe('checkPdf', () => {
  it("reads a PDF's page count and first page size", async () => {
    expect(await checkPdf(await makeTemplate(300, 200))).toEqual({ pageCount: 1, pageWidth: 300, pageHeight: 200 });
  });

  it('refuses what is not a PDF with 415, whatever it is called', async () => {
    expect(await refusal(PNG_BYTES)).toBe('415 the file is not a PDF');
    expect(await refusal(Buffer.from('just text, named template.pdf'))).toBe('415 the file is not a PDF');
  });

  it('refuses a truncated or damaged PDF with 400', async () => {
    const good = await makeTemplate();
    expect(await refusal(good.subarray(0, Math.floor(good.length / 2)))).toMatch(/^400 the PDF is truncated/);
    expect(await refusal(Buffer.from('%PDF-1.7\nthis is not a document\n%%EOF\n'))).toMatch(/^400 the PDF (cannot be read|has no page)/);
  });
});

describe('checkPdf bounds the work a PDF makes', () => {
  let bomb: Buffer;
  beforeAll(async () => {
    // 400 MiB of blanks, about 400 KB compressed
    bomb = await flateOf(400 * MiB);
    // the first check of a process loads and compiles the PDF code: not what the bound is about
    await refusal(await templateWithContent(await flateOf(51 * MiB)));
  });

  /**
   * What checking `bytes` inflates, counted where it happens rather than timed: the bytes zlib
   * gives back (a call stopped by its `maxOutputLength` counts that ceiling), and the object
   * streams pdf-lib opens (it inflates each whole, with no limit).
   */
  const work = async (bytes: Uint8Array): Promise<{ answer: string; zlibBytes: number; objectStreamsOpened: number }> => {
    const inflateRawSync = zlib.inflateRawSync;
    let zlibBytes = 0;
    const inflate = jest.spyOn(zlib, 'inflateRawSync').mockImplementation((data, options) => {
      try {
        const out = inflateRawSync(data, options ?? {});
        zlibBytes += out.length;
        return out;
      } catch (err) {
        zlibBytes += options?.maxOutputLength ?? 0;
        throw err;
      }
    });
    const opened = jest.spyOn(PDFObjectStreamParser, 'forStream');
    try {
      const answer = await refusal(bytes).catch((err: Error) => `accepted? ${err.message}`);
      return { answer, zlibBytes, objectStreamsOpened: opened.mock.calls.length };
    } finally {
      inflate.mockRestore();
      opened.mockRestore();
    }
  };

  it('refuses a content stream that inflates beyond 50 MiB, stopping at the bound', async () => {
    const pdf = await templateWithContent(bomb);
    expect(pdf.length).toBeLessThan(500_000);
    const { answer, zlibBytes } = await work(pdf);
    expect(answer).toBe('400 the PDF has compressed streams that inflate to more than 50 MiB');
    // the 400 MiB the stream holds are never inflated: zlib stops one byte beyond the bound
    expect(zlibBytes).toBeGreaterThan(50 * MiB);
    expect(zlibBytes).toBeLessThanOrEqual(50 * MiB + 1);
  });

  it('refuses an object stream that inflates beyond 50 MiB before pdf-lib inflates it', async () => {
    const { answer, zlibBytes, objectStreamsOpened } = await work(await templateWithObjectStream(bomb));
    expect(answer).toBe('400 the PDF has compressed streams that inflate to more than 50 MiB');
    expect(zlibBytes).toBeLessThanOrEqual(50 * MiB + 1);
    expect(objectStreamsOpened).toBe(0);
  });

  it('lets pdf-lib open an object stream within the bound (what the count above would see)', async () => {
    const { answer, objectStreamsOpened } = await work(await templateWithObjectStream(await flateOf(1024)));
    expect(answer).not.toMatch(/inflate to more than/);
    expect(objectStreamsOpened).toBe(1);
  });

  it('counts what every stream inflates to, together', async () => {
    const half = await flateOf(26 * MiB);
    const doc = await PDFDocument.load(await templateWithContent(half));
    const page = doc.getPage(0);
    page.node.addContentStream(doc.context.register(PDFRawStream.of(doc.context.obj({ Filter: 'FlateDecode' }), half)));
    expect(await refusal(await doc.save({ useObjectStreams: false }))).toBe(
      '400 the PDF has compressed streams that inflate to more than 50 MiB',
    );
  });

  it('follows chains of filters (hex text of Flate data)', async () => {
    const hex = Buffer.from(bomb.toString('hex') + '>');
    const doc = await PDFDocument.load(await makeTemplate(300, 200));
    const filter = doc.context.obj(['ASCIIHexDecode', 'FlateDecode']);
    doc.getPage(0).node.addContentStream(doc.context.register(PDFRawStream.of(doc.context.obj({ Filter: filter }), hex)));
    expect(await refusal(await doc.save({ useObjectStreams: false }))).toBe(
      '400 the PDF has compressed streams that inflate to more than 50 MiB',
    );
  });

  it('finds a stream hidden inside an object stream', async () => {
    const head = Buffer.from(`<< /Filter /FlateDecode /Length ${bomb.length} >>\nstream\n`);
    const body = Buffer.concat([head, bomb, Buffer.from('\nendstream')]);
    const prefix = Buffer.from('90 0 ');
    const doc = await PDFDocument.load(await makeTemplate(300, 200));
    const objStm = PDFRawStream.of(doc.context.obj({ Type: 'ObjStm', N: 1, First: prefix.length }), Buffer.concat([prefix, body]));
    doc.context.register(objStm);
    doc.getPage(0).node.addContentStream(PDFRef.of(90));
    expect(await refusal(await doc.save({ useObjectStreams: false }))).toBe(
      '400 the PDF has compressed streams that inflate to more than 50 MiB',
    );
  });

  it('does not inflate images (nothing here decodes them)', async () => {
    const doc = await PDFDocument.load(await makeTemplate(300, 200));
    const image = doc.context.obj({
      Type: 'XObject',
      Subtype: 'Image',
      Width: 1,
      Height: 1,
      BitsPerComponent: 8,
      ColorSpace: 'DeviceGray',
    });
    image.set(PDFName.of('Filter'), PDFName.of('FlateDecode'));
    doc.context.register(PDFRawStream.of(image, bomb));
    expect(await checkPdf(await doc.save({ useObjectStreams: false }))).toMatchObject({ pageCount: 1 });
  });

  it('accepts a PDF whose streams inflate to just under 50 MiB', async () => {
    const pdf = await templateWithContent(await flateOf(49 * MiB));
    expect(await checkPdf(pdf)).toEqual({ pageCount: 1, pageWidth: 500, pageHeight: 300 });
  });

  it('refuses more than 1,000 objects, in object streams or not; accepts 1,000', async () => {
    for (const objectStreams of [false, true]) {
      const over = await templateWithObjects(1000, objectStreams);
      expect(await refusal(over)).toBe('400 the PDF has more than 1000 objects');
    }
    const classic = await templateWithObjects(1000 - objectsIn(await templateWithObjects(0, false)), false);
    expect(objectsIn(classic)).toBe(1000);
    expect(await checkPdf(classic)).toMatchObject({ pageCount: 1 });
  });

  it('refuses a stored file larger than 10 MiB', async () => {
    const template = Buffer.from(await makeTemplate(300, 200));
    const huge = Buffer.concat([template, Buffer.from('\n%'), Buffer.alloc(10 * MiB, 'x'), Buffer.from('\n%%EOF\n')]);
    expect(await refusal(huge)).toBe('400 the PDF is larger than 10 MiB');
  });
});
