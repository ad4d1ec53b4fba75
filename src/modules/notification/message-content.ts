import { DateTime } from 'luxon';
import type { AppDeps, Ctx } from '../../kernel/context';
import type { PrintedDocument } from '../../kernel/documents';
import { renderFeed } from '../../kernel/ics';
import { DomainError } from '../../shared/errors';
import { formatMoney } from '../../shared/money';
import { defaultTemplate } from './defaults';
import { EVENT_VARIABLES, type NotificationEvent } from './notification.events';
import { renderTemplate, type TemplateParts } from './templates';

/**
 * What a message says: the variables of its event read from the database when it is sent
 * (company, client, booking with its service and resource, or the paid record's data kept on
 * the message), formatted in the company's zone and the message's language, rendered with the
 * company's template or the built-in one, with the booking's invitation (`invite.ics`) or
 * cancellation (`cancel.ics`) attached. The calendar event has the UID and SEQUENCE the
 * calendar feeds give the booking. A paid record's message carries its PDF (the receipt, the
 * gift card voucher, the membership card), printed by the document context (`deps.print`) when
 * the message is sent: the outbox keeps no document.
 */

export interface MessageRow {
  id: string;
  company_id: string;
  event: NotificationEvent;
  recipient: 'client' | 'merchant';
  to_address: string | null;
  client_id: string | null;
  booking_id: string | null;
  item_id: string | null;
  data: Record<string, unknown> | null;
}

export interface Attachment {
  filename: string;
  content: string | Buffer;
  contentType: string;
}

export interface MessageContent extends TemplateParts {
  language: string;
  senderName: string;
  replyTo: string | null;
  attachments: Attachment[];
}

export interface CompanyNotice {
  name: string;
  timeZone: string;
  senderName: string;
  replyTo: string | null;
  merchantEmail: string | null;
  language: string;
}

/** The company's name, zone and notification settings (the defaults without a row). */
export async function companyNotice(ctx: Ctx, companyId: string): Promise<CompanyNotice> {
  const [r] = await ctx.em.execute<
    {
      name: string;
      time_zone: string;
      sender_name: string | null;
      reply_to: string | null;
      merchant_email: string | null;
      language: string | null;
    }[]
  >(
    `select c.name, c.time_zone, s.sender_name, s.reply_to, s.merchant_email, s.language
       from company c left join notification_settings s on s.company_id = c.id where c.id = ?`,
    [companyId],
  );
  return {
    name: r.name,
    timeZone: r.time_zone,
    senderName: r.sender_name ?? r.name,
    replyTo: r.reply_to,
    merchantEmail: r.merchant_email,
    language: r.language ?? 'en',
  };
}

/** The company's own templates of `event`, by language. */
export async function ownTemplates(ctx: Ctx, companyId: string, event: string): Promise<Map<string, TemplateParts>> {
  const rows = await ctx.em.execute<(TemplateParts & { language: string })[]>(
    'select language, subject, text, html from notification_template where company_id = ? and event = ?',
    [companyId, event],
  );
  return new Map(rows.map((r) => [r.language, { subject: r.subject, text: r.text, html: r.html }]));
}

const primary = (tag: string | null | undefined): string | null => (tag ? tag.split('-')[0] : null);

/**
 * The language of a message: the client's when a template (the company's or built-in) exists
 * for it (or for its primary language: `lv-LV` -> `lv`), else the company's, else `en`.
 */
export function pickLanguage(event: NotificationEvent, own: ReadonlyMap<string, unknown>, client: string | null, company: string): string {
  for (const tag of [client, primary(client), company, primary(company)]) {
    if (tag && (own.has(tag) || defaultTemplate(event, tag))) return tag;
  }
  return 'en';
}

/** The template of `event` in `language`: the company's own, else the built-in one, else the English built-in. */
export const templateFor = (event: NotificationEvent, language: string, own: ReadonlyMap<string, TemplateParts>): TemplateParts =>
  own.get(language) ?? defaultTemplate(event, language) ?? defaultTemplate(event, 'en')!;

/** An amount in minor units formatted in a language (`25,00 €`, `€25.00`); without a currency, as a plain number. */
export const formatAmountIn = (minor: number, currency: string | null, language: string): string =>
  currency ? formatMoney(minor, currency, language) : (minor / 100).toFixed(2);

const local = (d: Date, zone: string, language: string) => DateTime.fromJSDate(d, { zone }).setLocale(language);

interface BookingRow {
  id: string;
  status: string;
  start_time: Date;
  end_time: Date | null;
  price: number;
  currency: string | null;
  spots: number;
  ical_sequence: number;
  created_at: Date;
  updated_at: Date;
  service_name: string;
  resource_name: string;
}

interface ClientRow {
  first_name: string | null;
  last_name: string | null;
  email: string;
  language: string | null;
}

/** Every variable of the event, with `sample` values where the record is absent (a preview). */
export function bookingVars(b: BookingRow, zone: string, language: string) {
  const start = local(b.start_time, zone, language);
  const end = b.end_time ? local(b.end_time, zone, language) : null;
  return {
    booking: {
      id: b.id,
      date: start.toLocaleString(DateTime.DATE_HUGE),
      time: start.toLocaleString(DateTime.TIME_SIMPLE),
      start: start.toLocaleString(DateTime.DATETIME_FULL),
      end: end ? end.toLocaleString(DateTime.DATETIME_FULL) : '',
      endTime: end ? end.toLocaleString(DateTime.TIME_SIMPLE) : '',
      status: b.status,
      price: formatAmountIn(b.price, b.currency, language),
      spots: String(b.spots),
    },
    service: { name: b.service_name },
    resource: { name: b.resource_name },
  };
}

const clientVars = (c: ClientRow | null) => ({
  firstName: c?.first_name ?? '',
  lastName: c?.last_name ?? '',
  name: [c?.first_name, c?.last_name].filter(Boolean).join(' '),
  email: c?.email ?? '',
});

function recordVars(event: NotificationEvent, data: Record<string, unknown> | null, zone: string, language: string) {
  const d = data ?? {};
  const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  const money = (amount: unknown, currency: unknown) =>
    typeof amount === 'number' ? formatAmountIn(amount, typeof currency === 'string' ? currency : null, language) : '';
  const date = (v: unknown) =>
    typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? local(new Date(v), zone, language).toLocaleString(DateTime.DATE_FULL) : '';
  switch (event) {
    case 'payment.receipt':
      return {
        payment: {
          id: str(d.id),
          amount: money(d.amount, d.currency),
          date: date(d.updatedAt ?? d.createdAt),
          description: str(d.description),
        },
      };
    case 'giftcard.purchased':
      return { giftcard: { id: str(d.id), amount: money(d.amount ?? d.initialBalance, d.currency), code: str(d.code) } };
    case 'subscription.activated':
      return { subscription: { id: str(d.id), name: str(d.title ?? d.name), validUntil: date(d.expiresAt ?? d.validUntil) } };
    default:
      return {};
  }
}

/** The variables a preview renders with: made-up values of the right shape. */
export function sampleVars(event: NotificationEvent, zone: string, language: string, companyName: string): object {
  const start = DateTime.now().setZone(zone).plus({ days: 7 }).set({ hour: 10, minute: 0, second: 0, millisecond: 0 });
  const booking: BookingRow = {
    id: '00000000-0000-4000-8000-000000000000',
    status: 'confirmed',
    start_time: start.toJSDate(),
    end_time: start.plus({ hours: 1 }).toJSDate(),
    price: 2500,
    currency: 'EUR',
    spots: 1,
    ical_sequence: 0,
    created_at: new Date(),
    updated_at: new Date(),
    service_name: 'Haircut',
    resource_name: 'Anna',
  };
  const data = {
    id: booking.id,
    amount: 2500,
    currency: 'EUR',
    createdAt: new Date().toISOString(),
    description: 'Haircut',
    code: 'GIFT-1234',
    title: 'Monthly pass',
    expiresAt: start.plus({ months: 1 }).toISO(),
  };
  const vars = {
    company: { name: companyName, email: 'info@example.com' },
    client: clientVars({ first_name: 'Jane', last_name: 'Doe', email: 'jane@example.com', language }),
    ...(EVENT_VARIABLES[event].includes('booking.id') ? bookingVars(booking, zone, language) : recordVars(event, data, zone, language)),
  };
  return vars;
}

const ICS_METHOD: Partial<Record<NotificationEvent, 'REQUEST' | 'CANCEL'>> = {
  'booking.confirmed': 'REQUEST',
  'booking.moved': 'REQUEST',
  'booking.cancelled': 'CANCEL',
};

/** The From address of every message: SMTP_FROM's address, else `bookings@<PUBLIC_URL host>`. */
export function fromAddress(deps: AppDeps): string {
  const from = deps.config.smtpFrom;
  const inAngles = from ? /<([^<>]+)>\s*$/.exec(from)?.[1] : null;
  return (inAngles ?? from ?? `bookings@${new URL(deps.config.publicUrl).hostname}`).trim();
}

/** A message that cannot be rendered for a reason its log may show (its message is recorded as `lastError`). */
export class UnrenderableMessage extends Error {}

/** The PDF a paid record's message carries: what is printed, the attachment's name, and what the log calls it. */
const PRINTED: Partial<Record<NotificationEvent, { document: PrintedDocument; filename: string; what: string }>> = {
  'payment.receipt': { document: 'receipt', filename: 'receipt.pdf', what: 'receipt' },
  'giftcard.purchased': { document: 'gift_card', filename: 'gift-card.pdf', what: 'gift card voucher' },
  'subscription.activated': { document: 'membership', filename: 'membership.pdf', what: 'membership card' },
};

/**
 * The PDF of the message's record, printed now on the document context's PDF threads; none for
 * other events or a server without a printer. A record that no longer exists, or a document that
 * cannot be drawn (a template beyond the bounds of an upload, threads too busy), fails the
 * attempt with the reason: it is tried again like a send that failed.
 */
async function printedAttachment(ctx: Ctx, m: MessageRow): Promise<Attachment | null> {
  const printed = PRINTED[m.event];
  if (!printed || !m.item_id || !ctx.deps.print) return null;
  let pdf;
  try {
    pdf = await ctx.deps.print(ctx, m.company_id, printed.document, m.item_id);
  } catch (err) {
    ctx.deps.log.warn({ err, messageId: m.id }, `the ${printed.what} of a message could not be printed`);
    const why = err instanceof DomainError ? err.message : 'the server log has the details';
    throw new UnrenderableMessage(`the ${printed.what} PDF could not be made: ${why}`);
  }
  if (!pdf) throw new UnrenderableMessage(`the ${printed.what} of the message no longer exists`);
  return { filename: printed.filename, content: Buffer.from(pdf.bytes), contentType: 'application/pdf' };
}

/**
 * The record's data as its message reads it. A subscription contract's event data names no
 * subscription: its title is read through the membership card's document source.
 */
async function recordData(ctx: Ctx, m: MessageRow): Promise<Record<string, unknown> | null> {
  if (m.event !== 'subscription.activated' || !m.item_id) return m.data;
  const item = await ctx.deps.documents.get('membership')?.(ctx, m.company_id, m.item_id);
  const title = item?.values.title;
  return title?.kind === 'text' ? { ...m.data, title: title.text } : m.data;
}

/** Reads what a message needs and renders it. */
export async function renderMessage(ctx: Ctx, m: MessageRow): Promise<MessageContent> {
  const company = await companyNotice(ctx, m.company_id);
  const own = await ownTemplates(ctx, m.company_id, m.event);
  const client = m.client_id
    ? ((
        await ctx.em.execute<ClientRow[]>('select first_name, last_name, email, language from client where company_id = ? and id = ?', [
          m.company_id,
          m.client_id,
        ])
      )[0] ?? null)
    : null;
  const language = pickLanguage(m.event, own, m.recipient === 'client' ? (client?.language ?? null) : null, company.language);
  const vars: Record<string, unknown> = {
    company: { name: company.name, email: company.replyTo ?? company.merchantEmail ?? '' },
    client: clientVars(client),
  };
  const attachments: Attachment[] = [];
  if (m.booking_id) {
    const [b] = await ctx.em.execute<BookingRow[]>(
      `select b.id, b.status, b.start_time, b.end_time, b.price, b.currency, b.spots, b.ical_sequence, b.created_at, b.updated_at,
              s.name as service_name, r.name as resource_name
         from booking b
         join service s on s.company_id = b.company_id and s.id = b.service_id
         join resource r on r.company_id = b.company_id and r.id = b.resource_id
        where b.company_id = ? and b.id = ?`,
      [m.company_id, m.booking_id],
    );
    if (!b) throw new UnrenderableMessage('the booking of the message no longer exists');
    // the driver answers timestamps as text
    for (const k of ['start_time', 'end_time', 'created_at', 'updated_at'] as const) if (b[k] !== null) b[k] = new Date(b[k]!);
    Object.assign(vars, bookingVars(b, company.timeZone, language));
    const method = ICS_METHOD[m.event];
    if (method) {
      const ics = renderFeed({
        name: company.name,
        timeZone: company.timeZone,
        host: new URL(ctx.deps.config.publicUrl).hostname,
        events: [
          {
            bookingId: b.id,
            status: method === 'CANCEL' ? 'cancelled' : b.status === 'pending' ? 'pending' : 'confirmed',
            startMs: b.start_time.getTime(),
            endMs: b.end_time ? b.end_time.getTime() : null,
            sequence: b.ical_sequence,
            createdMs: b.created_at.getTime(),
            updatedMs: b.updated_at.getTime(),
            serviceName: b.service_name,
            resourceName: b.resource_name,
            spots: b.spots,
          },
        ],
        itip: {
          method,
          organizer: { name: company.senderName, email: fromAddress(ctx.deps) },
          attendee: m.to_address ? { name: clientVars(client).name || m.to_address, email: m.to_address } : null,
        },
      });
      attachments.push({
        filename: method === 'CANCEL' ? 'cancel.ics' : 'invite.ics',
        content: ics,
        contentType: `text/calendar; charset=utf-8; method=${method}`,
      });
    }
  } else {
    Object.assign(vars, recordVars(m.event, await recordData(ctx, m), company.timeZone, language));
    const pdf = await printedAttachment(ctx, m);
    if (pdf) attachments.push(pdf);
  }
  const parts = renderTemplate(templateFor(m.event, language, own), vars);
  return { ...parts, language, senderName: company.senderName, replyTo: company.replyTo, attachments };
}
