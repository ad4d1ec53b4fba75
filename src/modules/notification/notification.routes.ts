import type { FastifyInstance } from 'fastify';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { MESSAGE_STATUSES, NOTIFICATION_EVENTS } from './notification.events';
import {
  deleteNotificationTemplate,
  getNotificationSettings,
  getNotificationTemplate,
  listNotificationMessages,
  listNotificationTemplates,
  previewNotificationTemplate,
  resendNotificationMessage,
  setNotificationTemplate,
  updateNotificationSettings,
} from './notification.service';

const event = { type: 'string', enum: [...NOTIFICATION_EVENTS] };
const settingsSchema = S.out({
  enabled: S.bool,
  events: { type: 'object', properties: Object.fromEntries(NOTIFICATION_EVENTS.map((e) => [e, S.bool])), additionalProperties: false },
  merchantEmail: S.nstr,
  replyTo: S.nstr,
  senderName: S.str,
  reminderHours: S.int,
  language: S.str,
});
const partsSchema = S.out({ subject: S.str, text: S.str, html: S.str });
const templateSchema = S.out({ event, language: S.str, subject: S.str, text: S.str, html: S.str, custom: S.bool, updatedAt: S.nts });
const messageSchema = S.out({
  id: S.uuid,
  event: S.str,
  to: S.nstr,
  subject: S.nstr,
  language: S.nstr,
  status: { type: 'string', enum: [...MESSAGE_STATUSES] },
  attempts: S.int,
  lastError: S.nstr,
  bookingID: { type: ['string', 'null'], format: 'uuid' },
  createdAt: S.ts,
  sentAt: S.nts,
});

type P = { cid: string; event: string; language: string; message_id: string };
const BASE = '/v1/companies/:cid/notifications';
const ONE = `${BASE}/templates/:event/:language`;
const tags = ['Notifications'];
const templateParams = S.params('cid', 'event', 'language');
const anyBody = { type: 'object', additionalProperties: true };

export function notificationRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: `${BASE}/settings`,
      auth: 'key',
      summary: 'Get notification settings',
      description:
        'The e-mail notification settings of the company (notifications.read); a company that never saved them has the defaults.',
      tags,
      params: S.params('cid'),
      response: { 200: settingsSchema, ...errors },
      handler: (ctx, req) => getNotificationSettings(ctx, (req.params as P).cid),
    },
    {
      method: 'PUT',
      url: `${BASE}/settings`,
      auth: 'key',
      summary: 'Update notification settings',
      description:
        'Changes the fields sent (notifications.write): enabled, events ({event: bool}), merchantEmail, replyTo, senderName, ' +
        'reminderHours (1-168), language (BCP 47). Fields left out keep their values; null clears merchantEmail, replyTo, senderName.',
      tags,
      params: S.params('cid'),
      body: anyBody,
      response: { 200: settingsSchema, ...errors },
      handler: (ctx, req) => updateNotificationSettings(ctx, (req.params as P).cid, req.body),
    },
    {
      method: 'GET',
      url: `${BASE}/templates`,
      auth: 'key',
      summary: 'List notification templates',
      description: "The company's own templates (notifications.read); the built-in ones are read one by one.",
      tags,
      params: S.params('cid'),
      response: { 200: S.array(templateSchema), ...errors },
      handler: (ctx, req) => listNotificationTemplates(ctx, (req.params as P).cid),
    },
    {
      method: 'GET',
      url: ONE,
      auth: 'key',
      summary: 'Get notification template',
      description:
        "The template used for the event and language: the company's own (custom true) or the built-in one; 404 when neither exists.",
      tags,
      params: templateParams,
      response: { 200: templateSchema, ...errors },
      handler: (ctx, req) => getNotificationTemplate(ctx, (req.params as P).cid, (req.params as P).event, (req.params as P).language),
    },
    {
      method: 'PUT',
      url: ONE,
      auth: 'key',
      summary: 'Set notification template',
      description:
        '{subject, text, html}, Handlebars (notifications.write). Only the variables of the event and {{#if}} / {{#unless}} blocks; ' +
        'values are HTML-escaped in html. An unknown variable or a template that does not compile is 400 with its line and column.',
      tags,
      params: templateParams,
      body: anyBody,
      response: { 200: templateSchema, ...errors },
      handler: (ctx, req) => {
        const p = req.params as P;
        return setNotificationTemplate(ctx, p.cid, p.event, p.language, req.body);
      },
    },
    {
      method: 'DELETE',
      url: ONE,
      auth: 'key',
      summary: 'Delete notification template',
      description: "Deletes the company's own template (notifications.write); the built-in one applies again.",
      tags,
      params: templateParams,
      status: 204,
      response: { 204: { type: 'null', description: 'deleted' }, ...errors },
      handler: (ctx, req) => deleteNotificationTemplate(ctx, (req.params as P).cid, (req.params as P).event, (req.params as P).language),
    },
    {
      method: 'POST',
      url: `${ONE}/preview`,
      auth: 'key',
      summary: 'Preview notification template',
      description:
        'Renders {subject?, text?, html?} (parts left out: the template in use) with sample data; nothing is saved or sent (notifications.read).',
      tags,
      params: templateParams,
      body: anyBody,
      response: { 200: partsSchema, ...errors },
      handler: (ctx, req) => {
        const p = req.params as P;
        return previewNotificationTemplate(ctx, p.cid, p.event, p.language, req.body ?? {});
      },
    },
    {
      method: 'GET',
      url: `${BASE}/messages`,
      auth: 'key',
      summary: 'List notification messages',
      description:
        'Messages of the company, newest first (notifications.read); status, event and bookingID filter; limit 1-100 (default 50).',
      tags,
      params: S.params('cid'),
      querystring: S.object({ status: S.str, event: S.str, bookingID: S.str, limit: S.str, offset: S.str }),
      response: { 200: S.out({ items: S.array(messageSchema), limit: S.int, offset: S.int, total: S.int }), ...errors },
      handler: (ctx, req) => listNotificationMessages(ctx, (req.params as P).cid, req.query as object),
    },
    {
      method: 'POST',
      url: `${BASE}/messages/:message_id/resend`,
      auth: 'key',
      summary: 'Resend notification message',
      description: 'Queues a copy of the message to the same address (notifications.write); 409 when it has no valid address.',
      tags,
      params: S.params('cid', 'message_id'),
      status: 202,
      response: { 202: messageSchema, ...errors },
      handler: (ctx, req) => resendNotificationMessage(ctx, (req.params as P).cid, (req.params as P).message_id),
    },
  ]);
}
