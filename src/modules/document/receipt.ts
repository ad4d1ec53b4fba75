import { finish, line, newDocument } from './pdfkit-doc';
import { formatDateTime, formatMoney, formatRate } from './format';
import { taxContained } from '../../shared/money';

/**
 * The receipt of a paid payment transaction, drawn with pdfkit (A4). Pure: facts in, PDF out.
 *
 * `amount` is what the customer was charged. The tax lines split it by `taxRate`: with
 * `taxInclusive` the total comes first and the tax it includes after it; without, the net
 * amount, the tax on it and the total, in the order an invoice adds them up. Both add up to the
 * amount charged, so a receipt never shows a total other than the payment's.
 */

export interface ReceiptItem {
  id: string;
  amount: number;
}

export interface ReceiptRefund {
  id: string;
  itemId: string;
  amount: number;
  status: string;
  reason: string | null;
  createdAt: Date;
}

export interface ReceiptInput {
  companyName: string;
  timeZone: string;
  transactionId: string;
  createdAt: Date;
  status: string;
  providerType: string;
  email: string | null;
  itemType: string;
  purchaseName: string | null;
  items: readonly ReceiptItem[];
  amount: number;
  currency: string;
  taxInclusive: boolean;
  taxRate: number;
  refunds: readonly ReceiptRefund[];
}

export interface TaxBreakdown {
  net: number;
  tax: number;
  total: number;
}

/** The tax included in `amount` at `rate` percent (rounded to the smallest unit), and the rest. */
export function taxBreakdown(amount: number, rate: number): TaxBreakdown {
  const tax = taxContained(amount, rate);
  return { net: amount - tax, tax, total: amount };
}

/** What has been given back: refunds that succeeded or are under way (failed ones gave nothing back). */
export function refundedTotal(refunds: readonly ReceiptRefund[]): number {
  return refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + r.amount, 0);
}

const ACCENT = '#1F4E79';
const MUTED = '#6B7280';
const RULE = '#D1D5DB';
const PAGE = { width: 595.28, height: 841.89 };
const LEFT = 56;
const RIGHT = PAGE.width - 56;
const AMOUNT_W = 130;

const STATUS_LABEL: Record<string, string> = {
  paid: 'Paid',
  partially_refunded: 'Paid, partially refunded',
  refunded: 'Paid, refunded',
};

export async function renderReceipt(r: ReceiptInput): Promise<Uint8Array> {
  const doc = newDocument({ size: [PAGE.width, PAGE.height], margin: 0, info: { Title: `Receipt ${r.transactionId}` } });
  const money = (n: number) => formatMoney(n, r.currency);
  const inner = RIGHT - LEFT;
  let y = 56;

  line(doc, r.companyName, LEFT, y, inner - 150, { font: 'bold', size: 20, min: 10 });
  line(doc, 'RECEIPT', RIGHT - 150, y + 4, 150, { font: 'bold', size: 16, color: ACCENT, align: 'right', characterSpacing: 2 });
  y += 46;

  const meta: [string, string][] = [
    ['Transaction', r.transactionId],
    ['Date', formatDateTime(r.createdAt, r.timeZone)],
    ['Status', STATUS_LABEL[r.status] ?? r.status],
    ['Payment', r.providerType],
  ];
  if (r.email) meta.push(['Customer', r.email]);
  for (const [k, v] of meta) {
    line(doc, k, LEFT, y, 90, { size: 9.5, color: MUTED });
    line(doc, v, LEFT + 90, y, inner - 90, { size: 9.5 });
    y += 15;
  }
  y += 14;
  if (r.purchaseName) {
    doc.font('regular').fontSize(10.5).fillColor('#1a1a1a');
    doc.text(r.purchaseName, LEFT, y, { width: inner, height: 60, ellipsis: true });
    y = Math.min(doc.y, y + 60) + 10;
  }

  const rule = (at: number, color = RULE) => {
    doc.moveTo(LEFT, at).lineTo(RIGHT, at).lineWidth(0.75).stroke(color);
  };
  const row = (label: string, amount: string, opts: { bold?: boolean; muted?: boolean; size?: number } = {}) => {
    if (y > PAGE.height - 90) {
      doc.addPage({ size: [PAGE.width, PAGE.height], margin: 0 });
      y = 56;
    }
    const style = { font: opts.bold ? 'bold' : 'regular', size: opts.size ?? 10.5, color: opts.muted ? MUTED : '#1a1a1a' };
    line(doc, label, LEFT, y, inner - AMOUNT_W - 10, style);
    line(doc, amount, RIGHT - AMOUNT_W, y, AMOUNT_W, { ...style, align: 'right' });
    y += (opts.size ?? 10.5) * 1.9;
  };

  line(doc, 'ITEM', LEFT, y, 200, { font: 'bold', size: 8.5, color: MUTED, characterSpacing: 1.2 });
  line(doc, 'AMOUNT', RIGHT - AMOUNT_W, y, AMOUNT_W, { font: 'bold', size: 8.5, color: MUTED, align: 'right', characterSpacing: 1.2 });
  y += 16;
  rule(y);
  y += 9;
  const kind = r.itemType.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
  r.items.forEach((item, i) => {
    const label = r.items.length === 1 ? `${kind} ${item.id}` : `${kind} ${i + 1} of ${r.items.length} · ${item.id}`;
    row(label, money(item.amount));
  });
  rule(y - 3);
  y += 8;

  const t = taxBreakdown(r.amount, r.taxRate);
  if (r.taxRate > 0 && r.taxInclusive) {
    row('Total', money(t.total), { bold: true, size: 12 });
    row(`Includes tax ${formatRate(r.taxRate)}`, money(t.tax), { muted: true });
    row('Net amount', money(t.net), { muted: true });
  } else if (r.taxRate > 0) {
    row('Net amount', money(t.net));
    row(`Tax ${formatRate(r.taxRate)}`, money(t.tax));
    row('Total', money(t.total), { bold: true, size: 12 });
  } else {
    row('Total', money(t.total), { bold: true, size: 12 });
    row('No tax charged', money(0), { muted: true });
  }

  if (r.refunds.length) {
    y += 10;
    line(doc, 'REFUNDS', LEFT, y, 200, { font: 'bold', size: 8.5, color: MUTED, characterSpacing: 1.2 });
    y += 16;
    rule(y);
    y += 9;
    for (const refund of r.refunds) {
      const state = refund.status === 'succeeded' ? '' : ` (${refund.status})`;
      const why = refund.reason ? `: ${refund.reason}` : '';
      row(`${formatDateTime(refund.createdAt, r.timeZone)} · ${kind} ${refund.itemId}${state}${why}`, money(-refund.amount));
    }
    rule(y - 3);
    y += 8;
    const back = refundedTotal(r.refunds);
    row('Refunded', money(-back));
    row('Paid after refunds', money(r.amount - back), { bold: true, size: 12 });
  }

  line(doc, `Amounts in ${r.currency}. This receipt was issued by ${r.companyName}.`, LEFT, PAGE.height - 56, inner, {
    size: 8.5,
    color: MUTED,
  });
  return finish(doc);
}
