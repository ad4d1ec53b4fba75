import { PDFDocument } from 'pdf-lib';
import { DomainError } from '../../shared/errors';
import { FONT_NAMES, STANDARD_FONT_NAMES } from './fonts';
import { renderTemplate } from './render-template';
import type { TemplateField } from './template.checks';
import { flateOf, makeTemplate, MiB, readPdf, templateWithContent, type PdfTextItem } from './testkit';

const field = (over: Partial<TemplateField> & Pick<TemplateField, 'name' | 'x' | 'y'>): TemplateField => ({
  fontName: 'noto_sans',
  fontSize: 12,
  color: '#000000',
  opacity: 1,
  rotation: 0,
  maxWidth: null,
  ...over,
});

const find = (items: PdfTextItem[], str: string) => {
  const hit = items.find((i) => i.str === str);
  if (!hit) throw new Error(`"${str}" is not on the page: ${JSON.stringify(items.map((i) => i.str))}`);
  return hit;
};

describe('renderTemplate', () => {
  it('draws each value at its position with its font size, rotation, colour and opacity', async () => {
    const template = await makeTemplate(500, 300, 'Designer layout');
    const fields = [
      field({ name: 'code', x: 40, y: 200, fontSize: 20, fontName: 'noto_sans_bold', color: '#CC0000' }),
      field({ name: 'amount', x: 300, y: 60, fontSize: 14, opacity: 0.5, color: '#0044AA' }),
      field({ name: 'title', x: 250, y: 150, rotation: 30, fontSize: 16 }),
    ];
    const pdf = await renderTemplate(template, fields, { code: 'GC-7Q2K', amount: '25.00 EUR', title: 'Spa diena' });
    const [page] = (await readPdf(pdf)).pages;
    expect([page.width, page.height]).toEqual([500, 300]);
    expect(find(page.items, 'Designer layout')).toBeDefined();

    const code = find(page.items, 'GC-7Q2K');
    expect([code.x, code.y, code.fontSize, code.rotation]).toEqual([40, 200, 20, 0]);
    const amount = find(page.items, '25.00 EUR');
    expect([amount.x, amount.y, amount.fontSize]).toEqual([300, 60, 14]);
    const title = find(page.items, 'Spa diena');
    expect([title.x, title.y, Math.round(title.fontSize)]).toEqual([250, 150, 16]);
    expect(title.rotation).toBeCloseTo(30, 3);

    expect(page.runs.find((r) => r.text === 'GC-7Q2K')).toEqual({
      text: 'GC-7Q2K',
      color: '#cc0000',
      opacity: 1,
      font: expect.stringMatching(/^NotoSans-Bold\b/),
    });
    expect(page.runs.find((r) => r.text === '25.00 EUR')).toEqual({
      text: '25.00 EUR',
      color: '#0044aa',
      opacity: 0.5,
      font: expect.stringMatching(/^NotoSans-Regular\b/),
    });
  });

  it('draws Latvian, German and Polish text with an embedded Unicode font', async () => {
    const values = {
      clientName: 'Ģirts Ķēniņš Žūriņa',
      title: 'Dāvanu karte: ā č ē ģ ī ķ ļ ņ š ū ž',
      code: 'Größe Übermaß',
      clientEmail: 'Zażółć gęślą jaźń',
    };
    const fields = [
      field({ name: 'clientName', x: 20, y: 250 }),
      field({ name: 'title', x: 20, y: 220 }),
      field({ name: 'code', x: 20, y: 190 }),
      field({ name: 'clientEmail', x: 20, y: 160 }),
    ];
    const [page] = (await readPdf(await renderTemplate(await makeTemplate(500, 300), fields, values))).pages;
    for (const v of Object.values(values)) expect(page.items.map((i) => i.str)).toContain(v);
  });

  it('shrinks or wraps a value too long for its space so that it stays on the page', async () => {
    const long = 'Ziemassvētku dāvanu karte ģimenes brīvdienām Rīgas jūrmalas viesnīcā ar brokastīm un spa';
    const fields = [
      field({ name: 'title', x: 400, y: 100, fontSize: 18 }),
      field({ name: 'code', x: 20, y: 40, fontSize: 18, maxWidth: 120 }),
    ];
    const [page] = (
      await readPdf(await renderTemplate(await makeTemplate(500, 300), fields, { title: long, code: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' }))
    ).pages;
    const drawn = page.items.filter((i) => i.str !== 'Template');
    const title = drawn.filter((i) => i.x >= 200);
    const code = drawn.filter((i) => i.x < 200);
    expect(title.length).toBeGreaterThan(1);
    expect(title.map((i) => i.str).join(' ')).toBe(long);
    expect(code.map((i) => i.str).join('')).toBe('ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    for (const i of drawn) {
      expect(i.x).toBeGreaterThanOrEqual(0);
      expect(i.x + i.width).toBeLessThanOrEqual(500 + 0.01);
      expect(i.y).toBeGreaterThanOrEqual(0);
      expect(i.y + i.fontSize).toBeLessThanOrEqual(300);
    }
    expect(code.every((i) => i.width <= 120 + 0.01)).toBe(true);
  });

  it('keeps only the first page of a longer template', async () => {
    const doc = await PDFDocument.load(await makeTemplate(400, 250));
    doc.addPage([600, 800]);
    const view = await readPdf(await renderTemplate(await doc.save(), [field({ name: 'code', x: 10, y: 10 })], { code: 'X1' }));
    expect(view.pages.map((p) => [p.width, p.height])).toEqual([[400, 250]]);
  });

  it('draws Latin-1 text in a standard font, and a value it cannot draw in the matching Noto Sans face', async () => {
    const latin1 = 'José Müller-Øberg, 25.00 €';
    const beyond = 'Łukasz Žīgurs Ωμέγα Жанна';
    const fields = [
      field({ name: 'code', x: 20, y: 250, fontName: 'Helvetica-Bold' }),
      field({ name: 'clientName', x: 20, y: 220, fontName: 'Helvetica-Bold' }),
      field({ name: 'title', x: 20, y: 190, fontName: 'Times-Italic' }),
      field({ name: 'clientEmail', x: 20, y: 160, fontName: 'Courier-BoldOblique' }),
      field({ name: 'amount', x: 20, y: 130, fontName: 'Courier' }),
    ];
    const values = { code: latin1, clientName: beyond, title: 'Dāvanu karte', clientEmail: 'jānis@example.lv', amount: 'ASCII-only' };
    const [page] = (await readPdf(await renderTemplate(await makeTemplate(500, 300), fields, values))).pages;
    expect(find(page.items, latin1).font).toBe('Helvetica-Bold');
    expect(find(page.items, beyond).font).toMatch(/^NotoSans-Bold\b/);
    expect(find(page.items, 'Dāvanu karte').font).toMatch(/^NotoSans-Italic\b/);
    expect(find(page.items, 'jānis@example.lv').font).toMatch(/^NotoSans-BoldItalic\b/);
    expect(find(page.items, 'ASCII-only').font).toBe('Courier');
  });

  it('draws with every font a field may name', async () => {
    const fields = FONT_NAMES.map((fontName, i) => field({ name: 'title', x: 10, y: 10 + i * 17, fontName }));
    const pdf = await renderTemplate(await makeTemplate(300, 300), fields, { title: 'Abc' });
    const fonts = (await readPdf(pdf)).pages[0].items.filter((i) => i.str === 'Abc').map((i) => i.font);
    expect(fonts).toHaveLength(FONT_NAMES.length);
    expect(fonts.slice(0, STANDARD_FONT_NAMES.length)).toEqual(STANDARD_FONT_NAMES);
  });

  it('refuses a template beyond the bounds of an upload, saying to upload a new file', async () => {
    const bomb = await templateWithContent(await flateOf(100 * MiB));
    const err = await renderTemplate(bomb, [field({ name: 'code', x: 10, y: 10 })], { code: 'X' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).status).toBe(400);
    expect((err as DomainError).message).toBe(
      'the PDF template has compressed streams that inflate to more than 50 MiB; upload a new template file',
    );
  });
});
