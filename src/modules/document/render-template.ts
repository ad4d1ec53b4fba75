import { PDFDocument, type StandardFonts, degrees, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import fontkit from '@pdf-lib/fontkit';
import { invalid } from '../../shared/errors';
import { fontBytes, isStandardFont, notoFaceOf, type FontName } from './fonts';
import { PdfRefusal, loadBoundedPdf } from './pdf-bounds';
import type { TemplateField } from './template.checks';
import { fitText, type FontMetrics } from './text-fit';

/**
 * Draws values onto a template: the template's first page, with each field's value at its
 * position (points from the bottom-left), in its font, size, colour, opacity and rotation,
 * shrunk or wrapped so that it stays on the page. Pure: bytes and values in, bytes out.
 *
 * The template is read within the bounds of an upload (pdf-bounds.ts): a stored template beyond
 * them (stored before they were checked) is refused with 400, saying to upload a new file.
 *
 * A standard font draws a value made of WinAnsi characters only (Latin-1 and a few more); a
 * value with any other character is drawn whole in the matching Noto Sans face, so no letter
 * is lost. Noto Sans is embedded whole: pdf-lib's subsetting drops its glyphs (the letters come
 * out blank), and one whole face adds about 300 KB to a document.
 */
export async function renderTemplate(
  template: Uint8Array,
  fields: readonly TemplateField[],
  values: Readonly<Record<string, string>>,
): Promise<Uint8Array> {
  let source: PDFDocument;
  try {
    source = await loadBoundedPdf(template);
  } catch (err) {
    if (!(err instanceof PdfRefusal)) throw err;
    throw invalid(`the PDF template ${err.why}; upload a new template file`, [{ path: 'template', message: err.why }]);
  }
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  let page: PDFPage;
  try {
    [page] = await doc.copyPages(source, [0]);
  } catch {
    throw invalid('the PDF template has a first page that cannot be read; upload a new template file', [
      { path: 'template', message: 'has a first page that cannot be read' },
    ]);
  }
  doc.addPage(page);
  const box = page.getMediaBox();
  const fonts = new Fonts(doc);
  for (const f of fields) {
    const text = values[f.name] ?? '';
    if (!text.trim() || f.opacity === 0) continue;
    const font = await fonts.for(f.fontName, text);
    const fitted = fitText(
      {
        text,
        x: f.x,
        y: f.y,
        size: f.fontSize,
        rotation: f.rotation,
        maxWidth: f.maxWidth,
        page: { width: box.width, height: box.height },
      },
      metricsOf(font),
    );
    const color = hexToRgb(f.color);
    for (const line of fitted.lines) {
      page.drawText(line.text, {
        x: box.x + line.x,
        y: box.y + line.y,
        size: fitted.size,
        font,
        color: rgb(color[0], color[1], color[2]),
        opacity: f.opacity,
        rotate: degrees(f.rotation),
      });
    }
  }
  return doc.save();
}

/** The fonts of one document, each embedded once, with the characters each standard font draws. */
class Fonts {
  private readonly embedded = new Map<FontName, { font: PDFFont; draws: Set<number> | null }>();

  constructor(private readonly doc: PDFDocument) {}

  /** The font that draws `text` for a field set in `name`: the standard font when it can draw every character, else Noto Sans. */
  async for(name: FontName, text: string): Promise<PDFFont> {
    if (isStandardFont(name)) {
      const standard = await this.get(name);
      // Drawing collapses whitespace (text-fit.ts); the ellipsis a cut adds is a WinAnsi character.
      if (Array.from(text.replace(/\s+/g, ' '), (ch) => ch.codePointAt(0)!).every((cp) => standard.draws!.has(cp))) return standard.font;
    }
    return (await this.get(notoFaceOf(name))).font;
  }

  private async get(name: FontName): Promise<{ font: PDFFont; draws: Set<number> | null }> {
    let entry = this.embedded.get(name);
    if (!entry) {
      if (isStandardFont(name)) {
        // A standard font's PostScript name is pdf-lib's StandardFonts value.
        const font = await this.doc.embedFont(name satisfies `${StandardFonts}`);
        entry = { font, draws: new Set(font.getCharacterSet()) };
      } else {
        entry = { font: await this.doc.embedFont(fontBytes(name), { subset: false }), draws: null };
      }
      this.embedded.set(name, entry);
    }
    return entry;
  }
}

/** Font metrics for fitting; widths are laid out once per text (at size 1) and scaled, as fitting asks for the same texts at many sizes. */
export function metricsOf(font: PDFFont): FontMetrics {
  const unit = new Map<string, number>();
  return {
    width: (text, size) => {
      let w = unit.get(text);
      if (w === undefined) {
        w = font.widthOfTextAtSize(text, 1);
        unit.set(text, w);
      }
      return w * size;
    },
    ascent: (size) => font.heightAtSize(size, { descender: false }),
    descent: (size) => font.heightAtSize(size, { descender: true }) - font.heightAtSize(size, { descender: false }),
  };
}

/** `#RRGGBB` as three channels from 0 to 1. */
export function hexToRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}
