import { DEFAULT_PAGE, renderDefaultDocument } from './default-documents';
import { pageText, readPdf } from './testkit';

describe('default documents', () => {
  it('prints a gift voucher with every gift card value, in Unicode', async () => {
    const values = {
      code: 'GC-ŽŪ42',
      title: 'Dāvanu karte — Größe Übermaß',
      amount: '25.00 EUR',
      currency: 'EUR',
      validUntil: '2027-12-31',
      clientName: 'Zażółć Gęślą',
      clientEmail: 'ilze@example.com',
    };
    const view = await readPdf(await renderDefaultDocument({ entityType: 'gift_card', companyName: 'Salons Ķēniņš', values }));
    expect(view.pages).toHaveLength(1);
    const [page] = view.pages;
    expect([page.width, page.height]).toEqual([DEFAULT_PAGE.width, DEFAULT_PAGE.height]);
    const strs = page.items.map((i) => i.str);
    // Letter-spaced headings come out of the text layer one letter at a time.
    expect(pageText(page).replace(/\s+/g, '')).toContain('GIFTVOUCHER');
    for (const v of ['Salons Ķēniņš', values.title, values.amount, values.code, values.validUntil, values.clientName, values.clientEmail])
      expect(strs).toContain(v);
    for (const i of page.items) expect(i.x + i.width).toBeLessThanOrEqual(page.width);
  });

  it('prints a membership card with every membership value', async () => {
    const values = {
      code: 'M-1001',
      title: 'Gada abonements',
      activeFrom: '2026-01-01',
      expiresAt: '2026-12-31',
      status: 'active',
      clientName: 'Jānis Bērziņš',
      clientEmail: 'janis@example.com',
    };
    const [page] = (await readPdf(await renderDefaultDocument({ entityType: 'membership', companyName: 'Sporta klubs', values }))).pages;
    const text = pageText(page);
    for (const v of Object.values(values)) expect(text).toContain(v);
    expect(text.replace(/\s+/g, '')).toContain('MEMBERSHIPCARD');
  });

  it('shrinks a long title to its line instead of running off the card', async () => {
    const title = 'Ļoti gara dāvanu kartes nosaukuma rinda, kas nekādi neietilptu vienā rindā lielajā burtu izmērā';
    const [page] = (await readPdf(await renderDefaultDocument({ entityType: 'gift_card', companyName: 'X', values: { title } }))).pages;
    const hit = page.items.find((i) => i.str === title);
    expect(hit).toBeDefined();
    expect(hit!.fontSize).toBeLessThan(26);
    expect(hit!.x + hit!.width).toBeLessThanOrEqual(page.width - 54 + 0.5);
  });
});
