import { refundedTotal, renderReceipt, taxBreakdown, type ReceiptInput } from './receipt';
import { pageText, readPdf } from './testkit';

const base: ReceiptInput = {
  companyName: 'Skaistumkopšanas salons Ērglis',
  timeZone: 'Europe/Riga',
  transactionId: '0190f0c4-0000-7000-8000-000000000001',
  createdAt: new Date('2026-12-01T07:30:00Z'),
  status: 'paid',
  providerType: 'test',
  email: 'ilze@example.com',
  itemType: 'booking',
  purchaseName: 'Matu griezums, 2026-12-01T08:00:00Z',
  items: [
    { id: '0190f0c4-0000-7000-8000-0000000000a1', amount: 2500 },
    { id: '0190f0c4-0000-7000-8000-0000000000a2', amount: 1500 },
  ],
  amount: 4000,
  currency: 'EUR',
  taxInclusive: true,
  taxRate: 21,
  refunds: [],
};

describe('receipt', () => {
  it('splits the amount charged into net and tax', () => {
    expect(taxBreakdown(4000, 21)).toEqual({ net: 3306, tax: 694, total: 4000 });
    expect(taxBreakdown(4000, 0)).toEqual({ net: 4000, tax: 0, total: 4000 });
    expect(
      refundedTotal([
        { id: 'a', itemId: 'i', amount: 100, status: 'succeeded', reason: null, createdAt: new Date() },
        { id: 'b', itemId: 'i', amount: 50, status: 'failed', reason: null, createdAt: new Date() },
        { id: 'c', itemId: 'i', amount: 25, status: 'pending', reason: null, createdAt: new Date() },
      ]),
    ).toBe(125);
  });

  it('shows the company, the transaction, the local date, the items, the tax included and the total', async () => {
    const view = await readPdf(await renderReceipt(base));
    expect(view.pages).toHaveLength(1);
    const text = pageText(view.pages[0]);
    expect([view.pages[0].width, view.pages[0].height]).toEqual([595.28, 841.89]);
    for (const s of [
      'Skaistumkopšanas salons Ērglis',
      base.transactionId,
      '2026-12-01 09:30 EET',
      'Booking 1 of 2 · 0190f0c4-0000-7000-8000-0000000000a1',
      '€25.00',
      '€15.00',
      'Total',
      '€40.00',
      'Includes tax 21%',
      '€6.94',
      'Net amount',
      '€33.06',
    ])
      expect(text).toContain(s);
    // Letter-spaced headings come out of the text layer one letter at a time.
    expect(text.replace(/\s+/g, '')).toContain('RECEIPT');
  });

  it('adds tax up to the total when prices are without tax, and lists refunds', async () => {
    const view = await readPdf(
      await renderReceipt({
        ...base,
        status: 'partially_refunded',
        taxInclusive: false,
        taxRate: 9.5,
        currency: 'GBP',
        refunds: [
          {
            id: 'r1',
            itemId: base.items[1].id,
            amount: 1500,
            status: 'succeeded',
            reason: 'Atcelts',
            createdAt: new Date('2026-12-02T10:00:00Z'),
          },
        ],
      }),
    );
    const items = view.pages[0].items;
    const text = pageText(view.pages[0]);
    const rowOf = (label: string) => items.find((i) => i.str === label)!.y;
    const amountAt = (y: number) =>
      items.find((i) => (Math.abs(i.y - y) < 0.5 && i.str.startsWith('£')) || (Math.abs(i.y - y) < 0.5 && i.str.startsWith('-£')))?.str;
    expect(amountAt(rowOf('Net amount'))).toBe('£36.53');
    expect(amountAt(rowOf('Tax 9.5%'))).toBe('£3.47');
    expect(amountAt(rowOf('Total'))).toBe('£40.00');
    expect(rowOf('Net amount')).toBeGreaterThan(rowOf('Total'));
    expect(text).toContain('Paid, partially refunded');
    expect(text).toContain(`2026-12-02 12:00 EET · Booking ${base.items[1].id}: Atcelts`);
    expect(amountAt(rowOf('Refunded'))).toBe('-£15.00');
    expect(amountAt(rowOf('Paid after refunds'))).toBe('£25.00');
  });
});
