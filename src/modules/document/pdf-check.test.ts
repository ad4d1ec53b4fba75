import { DomainError } from '../../shared/errors';
import { checkPdf } from './pdf-check';
import { makeTemplate, PNG_BYTES } from './testkit';

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
