import type { FastifyInstance } from 'fastify';
import { DOC } from '../../kernel/graphql-types';
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

const event = S.oneOf(NOTIFICATION_EVENTS);
const settingsSchema = S.named(
  'NotificationSettings',
  S.out({
    enabled: S.bool,
    events: {
      type: 'object',
      description: 'Whether each event sends its e-mails, by event.',
      properties: Object.fromEntries(NOTIFICATION_EVENTS.map((e) => [e, { ...S.bool, description: `Whether ${e} e-mails are sent.` }])),
      additionalProperties: false,
    },
    merchantEmail: S.nstr,
    replyTo: S.nstr,
    senderName: S.str,
    reminderHours: S.int,
    language: S.str,
  }),
);
const partsSchema = S.named('RenderedNotification', S.out({ subject: S.str, text: S.str, html: S.str }));
const templateSchema = S.named(
  'NotificationTemplate',
  S.out({ event, language: S.str, subject: S.str, text: S.str, html: S.str, custom: S.bool, updatedAt: S.nts }),
);
const messageSchema = S.named(
  'NotificationMessage',
  S.out({
    id: S.uuid,
    event,
    to: S.nstr,
    subject: S.nstr,
    language: S.nstr,
    status: S.oneOf(MESSAGE_STATUSES),
    attempts: S.int,
    lastError: S.nstr,
    bookingID: { type: ['string', 'null'], format: 'uuid' },
    createdAt: S.ts,
    sentAt: S.nts,
  }),
);
const messagePage = S.out({
  items: { ...S.array(messageSchema), description: 'The messages of this page, newest first.' },
  limit: { ...S.int, description: DOC.pageLimit },
  offset: { ...S.int, description: DOC.pageOffset },
  total: { ...S.int, description: DOC.total },
});

type P = { cid: string; event: string; language: string; message_id: string };
const BASE = '/v1/companies/:cid/notifications';
const ONE = `${BASE}/templates/:event/:language`;
const templateParams = S.params('cid', ['event', S.choice(NOTIFICATION_EVENTS)], 'language');
// The services check these bodies field by field (and name the field at fault).
const settingsBody = S.named('NotificationSettingsInput', {
  type: 'object',
  description: '{enabled, events: {event: boolean}, merchantEmail, replyTo, senderName, reminderHours, language}',
  additionalProperties: true,
});
const templateBody = S.named('NotificationTemplateInput', {
  type: 'object',
  description: '{subject, text, html}',
  additionalProperties: true,
});

export function notificationRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: `${BASE}/settings`,
      operationId: 'getNotificationSettings',
      auth: 'key',
      summary: 'Get notification settings',
      description:
        'The e-mail notification settings of the company (notifications.read); a company that never saved them has the defaults.',
      params: S.params('cid'),
      response: { 200: settingsSchema, ...errors },
      handler: (ctx, req) => getNotificationSettings(ctx, (req.params as P).cid),
    },
    {
      method: 'PUT',
      url: `${BASE}/settings`,
      operationId: 'updateNotificationSettings',
      auth: 'key',
      summary: 'Update notification settings',
      description:
        'Changes the fields sent (notifications.write): enabled, events ({event: bool}), merchantEmail, replyTo, senderName, ' +
        'reminderHours (1-168), language (BCP 47). Fields left out keep their values; null clears merchantEmail, replyTo, senderName.',
      params: S.params('cid'),
      body: settingsBody,
      response: { 200: settingsSchema, ...errors },
      handler: (ctx, req) => updateNotificationSettings(ctx, (req.params as P).cid, req.body),
    },
    {
      method: 'GET',
      url: `${BASE}/templates`,
      operationId: 'listNotificationTemplates',
      auth: 'key',
      summary: 'List notification templates',
      description: "The company's own templates (notifications.read); the built-in ones are read one by one.",
      params: S.params('cid'),
      response: { 200: S.array(templateSchema), ...errors },
      handler: (ctx, req) => listNotificationTemplates(ctx, (req.params as P).cid),
    },
    {
      method: 'GET',
      url: ONE,
      operationId: 'getNotificationTemplate',
      auth: 'key',
      summary: 'Get notification template',
      description:
        "The template used for the event and language: the company's own (custom true) or the built-in one; 404 when neither exists.",
      params: templateParams,
      response: { 200: templateSchema, ...errors },
      handler: (ctx, req) => getNotificationTemplate(ctx, (req.params as P).cid, (req.params as P).event, (req.params as P).language),
    },
    {
      method: 'PUT',
      url: ONE,
      operationId: 'setNotificationTemplate',
      auth: 'key',
      summary: 'Set notification template',
      description:
        '{subject, text, html}, Handlebars (notifications.write). Only the variables of the event and {{#if}} / {{#unless}} blocks; ' +
        'values are HTML-escaped in html. An unknown variable or a template that does not compile is 400 with its line and column.',
      params: templateParams,
      body: templateBody,
      response: { 200: templateSchema, ...errors },
      handler: (ctx, req) => {
        const p = req.params as P;
        return setNotificationTemplate(ctx, p.cid, p.event, p.language, req.body);
      },
    },
    {
      method: 'DELETE',
      url: ONE,
      operationId: 'deleteNotificationTemplate',
      auth: 'key',
      summary: 'Delete notification template',
      description: "Deletes the company's own template (notifications.write); the built-in one applies again.",
      params: templateParams,
      status: 204,
      response: { 204: { type: 'null', description: 'deleted' }, ...errors },
      handler: (ctx, req) => deleteNotificationTemplate(ctx, (req.params as P).cid, (req.params as P).event, (req.params as P).language),
    },
    {
      method: 'POST',
      url: `${ONE}/preview`,
      operationId: 'previewNotificationTemplate',
      auth: 'key',
      summary: 'Preview notification template',
      description:
        'Renders {subject?, text?, html?} (parts left out: the template in use) with sample data; nothing is saved or sent (notifications.read).',
      params: templateParams,
      body: templateBody,
      response: { 200: partsSchema, ...errors },
      handler: (ctx, req) => {
        const p = req.params as P;
        return previewNotificationTemplate(ctx, p.cid, p.event, p.language, req.body ?? {});
      },
    },
    {
      method: 'GET',
      url: `${BASE}/messages`,
      operationId: 'listNotificationMessages',
      auth: 'key',
      summary: 'List notification messages',
      description:
        'Messages of the company, newest first (notifications.read); status, event and bookingID filter; limit 1-100 (default 50).',
      params: S.params('cid'),
      querystring: S.object({
        status: { ...S.choice(MESSAGE_STATUSES), description: 'Only the messages in this status.' },
        event: { ...S.choice(NOTIFICATION_EVENTS), description: 'Only the messages of this event.' },
        bookingID: { ...S.str, description: 'Only the messages about this booking.' },
        limit: S.str,
        offset: S.str,
      }),
      response: { 200: messagePage, ...errors },
      handler: (ctx, req) => listNotificationMessages(ctx, (req.params as P).cid, req.query as object),
    },
    {
      method: 'POST',
      url: `${BASE}/messages/:message_id/resend`,
      operationId: 'resendNotificationMessage',
      auth: 'key',
      summary: 'Resend notification message',
      description: 'Queues a copy of the message to the same address (notifications.write); 409 when it has no valid address.',
      params: S.params('cid', 'message_id'),
      status: 202,
      response: { 202: messageSchema, ...errors },
      handler: (ctx, req) => resendNotificationMessage(ctx, (req.params as P).cid, (req.params as P).message_id),
    },
  ]);
}
