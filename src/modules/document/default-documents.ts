import type { DocumentEntityType } from '../../kernel/documents';
import { finish, line, newDocument } from './pdfkit-doc';

/**
 * The documents a company gets when it has no template for an entity: a gift voucher for a gift
 * card purchase and a membership card for a membership contract, both A5 landscape, drawn with
 * pdfkit in Noto Sans. Pure: formatted values in, PDF bytes out.
 */

export const DEFAULT_PAGE = { width: 595.28, height: 419.53 };

const ACCENT: Record<DocumentEntityType, string> = { gift_card: '#1F4E79', membership: '#2E6B3F' };
const TINT: Record<DocumentEntityType, string> = { gift_card: '#EEF3F8', membership: '#EEF5F0' };
const MUTED = '#6B7280';
const INK = '#111827';

export interface DefaultDocumentInput {
  entityType: DocumentEntityType;
  companyName: string;
  /** formatted values by field name */
  values: Readonly<Record<string, string>>;
}

export async function renderDefaultDocument(input: DefaultDocumentInput): Promise<Uint8Array> {
  const { entityType, values } = input;
  const doc = newDocument({
    size: [DEFAULT_PAGE.width, DEFAULT_PAGE.height],
    margin: 0,
    info: { Title: `${entityType === 'gift_card' ? 'Gift voucher' : 'Membership card'} ${values.code ?? ''}`.trim() },
  });
  const { width: W, height: H } = DEFAULT_PAGE;
  const accent = ACCENT[entityType];
  const left = 54;
  const inner = W - 2 * left;

  doc.rect(0, 0, W, H).fill(TINT[entityType]);
  doc.roundedRect(24, 24, W - 48, H - 48, 14).fillAndStroke('#FFFFFF', accent);
  doc.rect(24, 24, 10, H - 48).fill(accent);

  line(doc, input.companyName, left, 46, inner * 0.6, { size: 11, color: MUTED });
  const label = entityType === 'gift_card' ? 'GIFT VOUCHER' : 'MEMBERSHIP CARD';
  line(doc, label, left + inner * 0.6, 46, inner * 0.4, { font: 'bold', size: 11, color: accent, align: 'right', characterSpacing: 2 });

  line(doc, values.title || (entityType === 'gift_card' ? 'Gift card' : 'Membership'), left, 82, inner, {
    font: 'bold',
    size: 26,
    min: 9,
    color: INK,
  });

  if (entityType === 'gift_card') {
    line(doc, values.amount ?? '', left, 126, inner, { font: 'bold', size: 44, min: 16, color: accent });
  } else {
    line(doc, values.clientName ?? '', left, 130, inner, { font: 'bold', size: 24, min: 12, color: accent });
    if (values.clientEmail) line(doc, values.clientEmail, left, 164, inner, { size: 11, color: MUTED });
  }

  doc
    .moveTo(left, 212)
    .lineTo(W - left, 212)
    .lineWidth(0.75)
    .stroke('#D1D5DB');

  const half = inner / 2;
  const cell = (title: string, value: string, x: number, y: number, width: number, big = false) => {
    line(doc, title, x, y, width - 12, { font: 'bold', size: 8.5, color: MUTED, characterSpacing: 1.2 });
    line(doc, value || '–', x, y + 14, width - 12, { font: big ? 'bold' : 'regular', size: big ? 18 : 13, min: 7, color: INK });
  };

  if (entityType === 'gift_card') {
    doc.roundedRect(left - 6, 226, half - 6, 48, 6).fill(TINT[entityType]);
    cell('CODE', values.code ?? '', left, 232, half, true);
    cell('VALID UNTIL', values.validUntil ?? '', left + half, 232, half);
    cell('FOR', values.clientName ?? '', left, 292, half);
    cell('EMAIL', values.clientEmail ?? '', left + half, 292, half);
    line(doc, 'Present this code when you pay. The voucher is valid until the date shown.', left, H - 62, inner, {
      size: 8.5,
      color: MUTED,
    });
  } else {
    doc.roundedRect(left - 6, 226, half - 6, 48, 6).fill(TINT[entityType]);
    cell('CODE', values.code ?? '', left, 232, half, true);
    cell('STATUS', (values.status ?? '').replace(/_/g, ' '), left + half, 232, half);
    cell('ACTIVE FROM', values.activeFrom ?? '', left, 292, half);
    cell('EXPIRES', values.expiresAt ?? '', left + half, 292, half);
    line(doc, 'Show this card at the front desk. It is personal and not transferable.', left, H - 62, inner, {
      size: 8.5,
      color: MUTED,
    });
  }
  return finish(doc);
}
