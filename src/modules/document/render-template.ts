import { PDFDocument, degrees, rgb, type PDFFont } from 'pdf-lib';
import fontkit from '@pdf-lib/fontkit';
import { fontBytes, type FontName } from './fonts';
import type { TemplateField } from './template.checks';
import { fitText, type FontMetrics } from './text-fit';

/**
 * Draws values onto a template: the template's first page, with each field's value at its
 * position (points from the bottom-left), in its font, size, colour, opacity and rotation,
 * shrunk or wrapped so that it stays on the page. Pure: bytes and values in, bytes out.
 *
 * Fonts are embedded whole: pdf-lib's subsetting drops glyphs of Noto Sans (the letters come
 * out blank), and one whole face adds about 300 KB to a document.
 */
export async function renderTemplate(
  template: Uint8Array,
  fields: readonly TemplateField[],
  values: Readonly<Record<string, string>>,
): Promise<Uint8Array> {
  const source = await PDFDocument.load(template, { updateMetadata: false });
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const [page] = await doc.copyPages(source, [0]);
  doc.addPage(page);
  const box = page.getMediaBox();
  const fonts = new Map<FontName, PDFFont>();
  for (const f of fields) {
    const text = values[f.name] ?? '';
    if (!text.trim() || f.opacity === 0) continue;
    let font = fonts.get(f.fontName);
    if (!font) {
      font = await doc.embedFont(fontBytes(f.fontName), { subset: false });
      fonts.set(f.fontName, font);
    }
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
