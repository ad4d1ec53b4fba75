import { AUDIT_BEGIN, auditScopeArg } from '../../kernel/audit';
import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { conflict, invalid, notFound } from '../../shared/errors';
import { isUuid, newId } from '../../shared/ids';
import { parsePage } from '../../shared/pagination';
import { listSpec, type ConnectionArgs, type ConnectionJson, type SortKey } from '../../kernel/connection';
import { connectionFrom, sqlSource } from '../../kernel/keyset';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import { displayName, isAddress } from './address';
import { canonicalLanguage, LANGUAGE_RULE } from '../../shared/language';
import { defaultTemplate } from './defaults';
import { companyNotice, ownTemplates, sampleVars, templateFor } from './message-content';
import { NotificationSettings, NotificationTemplate } from './notification.entity';
import {
  EVENT_VARIABLES,
  isNotificationEvent,
  MESSAGE_STATUSES,
  NOTIFICATION_EVENTS,
  type MessageStatus,
  type NotificationEvent,
} from './notification.events';
import { checkTemplates, renderTemplate, TEMPLATE_PARTS, type TemplateParts } from './templates';

/** Notification settings, templates and the message log of a company (permissions `notifications.read` / `notifications.write`). */

export interface SettingsJson {
  enabled: boolean;
  events: Record<NotificationEvent, boolean>;
  merchantEmail: string | null;
  replyTo: string | null;
  senderName: string;
  reminderHours: number;
  language: string;
}

export interface TemplateJson extends TemplateParts {
  event: NotificationEvent;
  language: string;
  /** false: the built-in template (the company has none of its own) */
  custom: boolean;
  updatedAt: string | null;
}

export interface MessageJson {
  id: string;
  event: string;
  to: string | null;
  subject: string | null;
  language: string | null;
  status: MessageStatus;
  attempts: number;
  lastError: string | null;
  bookingID: string | null;
  createdAt: string;
  sentAt: string | null;
}

const settingsJson = (s: NotificationSettings | null, companyName: string): SettingsJson => ({
  enabled: s?.enabled ?? true,
  events: Object.fromEntries(NOTIFICATION_EVENTS.map((e) => [e, s?.events?.[e] ?? true])) as Record<NotificationEvent, boolean>,
  merchantEmail: s?.merchantEmail ?? null,
  replyTo: s?.replyTo ?? null,
  senderName: s?.senderName ?? companyName,
  reminderHours: s?.reminderHours ?? 24,
  language: s?.language ?? 'en',
});

export async function getNotificationSettings(ctx: Ctx, companyId: string): Promise<SettingsJson> {
  const company = await companyForMerchant(ctx, companyId, 'notifications.read');
  return settingsJson(await ctx.em.findOne(NotificationSettings, { companyId: company.id }), company.name);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function address(c: Check, path: string, v: unknown): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  if (!isAddress(v)) return (c.fail(path, 'must be one e-mail address'), undefined);
  return v;
}

/** Changes the settings sent (a field left out keeps its value; `null` clears the nullable ones). */
export async function updateNotificationSettings(ctx: Ctx, companyId: string, input: unknown): Promise<SettingsJson> {
  const company = await companyForMerchant(ctx, companyId, 'notifications.write');
  const c = new Check();
  if (!isObject(input)) throw invalid('invalid notification settings', [{ path: 'body', message: 'must be an object' }]);
  const known = ['enabled', 'events', 'merchantEmail', 'replyTo', 'senderName', 'reminderHours', 'language'];
  for (const k of Object.keys(input)) if (!known.includes(k)) c.fail(k, 'is not a settings field');
  if (input.enabled !== undefined && typeof input.enabled !== 'boolean') c.fail('enabled', 'must be a boolean');
  let events: Record<string, boolean> | undefined;
  if (input.events !== undefined) {
    if (!isObject(input.events)) c.fail('events', 'must be an object of {event: boolean}');
    else {
      events = {};
      for (const [e, on] of Object.entries(input.events)) {
        if (!isNotificationEvent(e)) c.fail(`events.${e}`, `is not an event; one of ${NOTIFICATION_EVENTS.join(', ')}`);
        else if (typeof on !== 'boolean') c.fail(`events.${e}`, 'must be a boolean');
        else events[e] = on;
      }
    }
  }
  const merchantEmail = address(c, 'merchantEmail', input.merchantEmail);
  const replyTo = address(c, 'replyTo', input.replyTo);
  let senderName: string | null | undefined;
  if (input.senderName === null) senderName = null;
  else if (input.senderName !== undefined) {
    if (typeof input.senderName !== 'string') c.fail('senderName', 'must be a string');
    else if (/[\r\n]/.test(input.senderName)) c.fail('senderName', 'must be one line');
    else {
      senderName = displayName(input.senderName);
      if (!senderName) c.fail('senderName', 'must not be empty');
    }
  }
  const reminderHours = c.int('reminderHours', input.reminderHours, { min: 1, max: 168 });
  let language: string | undefined;
  if (input.language !== undefined) {
    language = canonicalLanguage(input.language) ?? undefined;
    if (!language) c.fail('language', LANGUAGE_RULE);
  }
  c.done('invalid notification settings');
  let s = await ctx.em.findOne(NotificationSettings, { companyId: company.id });
  if (!s) {
    s = new NotificationSettings();
    Object.assign(s, { id: newId(), companyId: company.id, createdAt: ctx.now, updatedAt: ctx.now });
    ctx.em.persist(s);
  }
  if (typeof input.enabled === 'boolean') s.enabled = input.enabled;
  if (events) s.events = { ...s.events, ...events };
  if (merchantEmail !== undefined) s.merchantEmail = merchantEmail;
  if (replyTo !== undefined) s.replyTo = replyTo;
  if (senderName !== undefined) s.senderName = senderName;
  if (reminderHours !== undefined) s.reminderHours = reminderHours;
  if (language !== undefined) s.language = language;
  s.updatedAt = ctx.now;
  await ctx.em.flush();
  return settingsJson(s, company.name);
}

function eventAndLanguage(event: unknown, language: unknown): { event: NotificationEvent; language: string } {
  const c = new Check();
  if (!isNotificationEvent(event)) c.fail('event', `must be one of ${NOTIFICATION_EVENTS.join(', ')}`);
  const lang = canonicalLanguage(language);
  if (!lang) c.fail('language', LANGUAGE_RULE);
  c.done('invalid template address');
  return { event: event as NotificationEvent, language: lang! };
}

const templateJson = (t: NotificationTemplate): TemplateJson => ({
  event: t.event as NotificationEvent,
  language: t.language,
  subject: t.subject,
  text: t.text,
  html: t.html,
  custom: true,
  updatedAt: formatTimestamp(t.updatedAt),
});

/** The company's own templates (the built-in ones are not listed). */
export async function listNotificationTemplates(ctx: Ctx, companyId: string): Promise<TemplateJson[]> {
  const company = await companyForMerchant(ctx, companyId, 'notifications.read');
  const rows = await ctx.em.find(NotificationTemplate, { companyId: company.id }, { orderBy: { event: 'asc', language: 'asc' } });
  return rows.map(templateJson);
}

/** The template used for an event and language: the company's own, else the built-in one (404 when neither exists). */
export async function getNotificationTemplate(ctx: Ctx, companyId: string, event: unknown, language: unknown): Promise<TemplateJson> {
  const company = await companyForMerchant(ctx, companyId, 'notifications.read');
  const k = eventAndLanguage(event, language);
  const own = await ctx.em.findOne(NotificationTemplate, { companyId: company.id, event: k.event, language: k.language });
  if (own) return templateJson(own);
  const d = defaultTemplate(k.event, k.language);
  if (!d) throw notFound('template');
  return { ...k, ...d, custom: false, updatedAt: null };
}

function readParts(input: unknown, required: boolean): Partial<TemplateParts> {
  const c = new Check();
  if (!isObject(input)) throw invalid('invalid template', [{ path: 'body', message: 'must be an object' }]);
  for (const k of Object.keys(input))
    if (!(TEMPLATE_PARTS as readonly string[]).includes(k)) c.fail(k, 'is not a template part (subject, text, html)');
  const out: Partial<TemplateParts> = {};
  for (const p of TEMPLATE_PARTS) {
    const v = input[p];
    if (v === undefined || v === null) {
      if (required) c.fail(p, 'is required');
    } else if (typeof v !== 'string') c.fail(p, 'must be a string');
    else if (v.includes('\u0000')) c.fail(p, 'must not contain NUL');
    else if (required && p === 'subject' && !v.trim()) c.fail(p, 'must not be empty');
    else out[p] = v;
  }
  c.done('invalid template');
  return out;
}

function checkParts(event: NotificationEvent, parts: Partial<TemplateParts>): void {
  const problems = checkTemplates(parts, EVENT_VARIABLES[event]);
  if (problems.length) throw invalid('the template has errors', problems);
}

/** Saves the company's own template of an event and language (checked: known variables only, and it compiles). */
export async function setNotificationTemplate(
  ctx: Ctx,
  companyId: string,
  event: unknown,
  language: unknown,
  input: unknown,
): Promise<TemplateJson> {
  const company = await companyForMerchant(ctx, companyId, 'notifications.write');
  const k = eventAndLanguage(event, language);
  const parts = readParts(input, true) as TemplateParts;
  checkParts(k.event, parts);
  let t = await ctx.em.findOne(NotificationTemplate, { companyId: company.id, event: k.event, language: k.language });
  if (!t) {
    t = new NotificationTemplate();
    Object.assign(t, { id: newId(), companyId: company.id, event: k.event, language: k.language, createdAt: ctx.now });
    ctx.em.persist(t);
  }
  Object.assign(t, parts, { updatedAt: ctx.now });
  await ctx.em.flush();
  return templateJson(t);
}

/** Deletes the company's own template; the built-in one applies again. */
export async function deleteNotificationTemplate(ctx: Ctx, companyId: string, event: unknown, language: unknown): Promise<void> {
  const company = await companyForMerchant(ctx, companyId, 'notifications.write');
  const k = eventAndLanguage(event, language);
  const t = await ctx.em.findOne(NotificationTemplate, { companyId: company.id, event: k.event, language: k.language });
  if (!t) throw notFound('template');
  ctx.em.remove(t);
  await ctx.em.flush();
}

/** Renders a template with sample data, without saving or sending; parts left out are the template in use. */
export async function previewNotificationTemplate(
  ctx: Ctx,
  companyId: string,
  event: unknown,
  language: unknown,
  input: unknown,
): Promise<TemplateParts> {
  const company = await companyForMerchant(ctx, companyId, 'notifications.read');
  const k = eventAndLanguage(event, language);
  const parts = readParts(input ?? {}, false);
  checkParts(k.event, parts);
  const base = templateFor(k.event, k.language, await ownTemplates(ctx, company.id, k.event));
  const notice = await companyNotice(ctx, company.id);
  return renderTemplate({ ...base, ...parts }, sampleVars(k.event, notice.timeZone, k.language, notice.name));
}

interface MessageRow {
  id: string;
  event: string;
  to_address: string | null;
  subject: string | null;
  language: string | null;
  status: MessageStatus;
  attempts: number;
  last_error: string | null;
  booking_id: string | null;
  created_at: Date;
  sent_at: Date | null;
}

const messageJson = (r: MessageRow): MessageJson => ({
  id: r.id,
  event: r.event,
  to: r.to_address,
  subject: r.subject,
  language: r.language,
  status: r.status,
  attempts: r.attempts,
  lastError: r.last_error,
  bookingID: r.booking_id,
  createdAt: formatTimestamp(new Date(r.created_at))!,
  sentAt: formatTimestamp(r.sent_at === null ? null : new Date(r.sent_at)),
});

const MESSAGE_COLUMNS = 'id, event, to_address, subject, language, status, attempts, last_error, booking_id, created_at, sent_at';

type MessageFilter = { status?: unknown; event?: unknown; bookingID?: unknown };

/** The company checked and the filter of its messages as SQL (status, event and booking). */
async function messageFilter(
  ctx: Ctx,
  companyId: string,
  raw: MessageFilter,
): Promise<{ companyId: string; where: string; params: unknown[] }> {
  const company = await companyForMerchant(ctx, companyId, 'notifications.read');
  const c = new Check();
  const where = ['company_id = ?'];
  const params: unknown[] = [company.id];
  if (raw.status !== undefined && raw.status !== null && raw.status !== '') {
    if (!(MESSAGE_STATUSES as readonly unknown[]).includes(raw.status)) c.fail('status', `must be one of ${MESSAGE_STATUSES.join(', ')}`);
    where.push('status = ?');
    params.push(raw.status);
  }
  if (raw.event !== undefined && raw.event !== null && raw.event !== '') {
    if (!isNotificationEvent(raw.event)) c.fail('event', `must be one of ${NOTIFICATION_EVENTS.join(', ')}`);
    where.push('event = ?');
    params.push(raw.event);
  }
  if (raw.bookingID !== undefined && raw.bookingID !== null && raw.bookingID !== '') {
    const id = c.uuid('bookingID', raw.bookingID);
    where.push('booking_id = ?');
    params.push(id);
  }
  c.done('invalid message filter');
  return { companyId: company.id, where: where.join(' and '), params };
}

/** The company's messages, newest first, filtered by status, event and booking. */
export async function listNotificationMessages(
  ctx: Ctx,
  companyId: string,
  raw: MessageFilter & { limit?: unknown; offset?: unknown },
): Promise<{ items: MessageJson[]; limit: number; offset: number; total: number }> {
  const { limit, offset } = parsePage(raw, 100, 50);
  const { where, params } = await messageFilter(ctx, companyId, raw);
  const rows = await ctx.em.execute<(MessageRow & { total: string })[]>(
    `select ${MESSAGE_COLUMNS}, count(*) over () as total from notification_message where ${where}
      order by created_at desc, id desc limit ? offset ?`,
    [...params, limit, offset],
  );
  const total = rows.length
    ? Number(rows[0].total)
    : Number((await ctx.em.execute<{ n: string }[]>(`select count(*) as n from notification_message where ${where}`, params))[0].n);
  return { items: rows.map(messageJson), limit, offset, total };
}

/** GraphQL: the same list as a connection (kernel/connection.ts), newest first (then by id, descending); default first 50. */
export async function notificationMessagesConnection(
  ctx: Ctx,
  companyId: string,
  filter: MessageFilter,
  args: ConnectionArgs,
): Promise<ConnectionJson<MessageJson>> {
  const f = await messageFilter(ctx, companyId, filter);
  const keys: SortKey<MessageJson>[] = [
    { column: 'created_at', time: true, desc: true, of: (m) => m.createdAt },
    { column: 'id', desc: true, of: (m) => m.id },
  ];
  const source = sqlSource(ctx.em.getConnection(), {
    select: MESSAGE_COLUMNS,
    from: 'notification_message',
    where: f.where,
    params: f.params,
    keys,
    map: (rows) => (rows as unknown as MessageRow[]).map(messageJson),
  });
  const spec = { ...listSpec(keys, 'notificationMessages', f.companyId, filter), fallback: 50 };
  return connectionFrom(source, args, spec, 'messages');
}

/** Queues a copy of a message (a new message, sent again from its template and the record as they are now). */
export async function resendNotificationMessage(ctx: Ctx, companyId: string, id: unknown): Promise<MessageJson> {
  const company = await companyForMerchant(ctx, companyId, 'notifications.write');
  if (!isUuid(id)) throw invalid('message id must be a UUID', [{ path: 'messageID', message: 'must be a UUID' }]);
  const [m] = await ctx.em.execute<{ to_address: string | null }[]>(
    'select to_address from notification_message where company_id = ? and id = ?',
    [company.id, id.toLowerCase()],
  );
  if (!m) throw notFound('message');
  if (!isAddress(m.to_address)) throw conflict('the message has no valid recipient address to send to');
  const at = ctx.now.toISOString();
  // the audit scope the copy is recorded under is opened in the same statement (kernel/audit.ts)
  const [row] = await ctx.em.execute<MessageRow[]>(
    `insert into notification_message (id, company_id, event, recipient, to_address, client_id, booking_id, item_id, data, status,
        next_attempt_at, resent_from, created_at, updated_at)
     select ?, company_id, event, recipient, to_address, client_id, booking_id, item_id, data, 'queued', ?::timestamptz, id, ?::timestamptz, ?::timestamptz
       from notification_message, ${AUDIT_BEGIN} where company_id = ? and id = ?
     returning ${MESSAGE_COLUMNS}`,
    [newId(), at, at, at, auditScopeArg(), company.id, id.toLowerCase()],
  );
  return messageJson(row);
}
