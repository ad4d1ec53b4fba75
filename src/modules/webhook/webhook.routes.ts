import type { FastifyInstance } from 'fastify';
import { EVENT_TYPES } from '../../kernel/events';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { DELIVERY_STATUSES } from './webhook.json';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  replayDelivery,
  rotateWebhookSecret,
  updateWebhook,
} from './webhook.service';

const eventType = { type: 'string', enum: [...EVENT_TYPES] };
const endpointFields = {
  id: S.uuid,
  companyID: S.uuid,
  url: S.str,
  eventTypes: S.array(eventType),
  enabled: S.bool,
  description: S.nstr,
  disabledReason: S.nstr,
  createdAt: S.ts,
  updatedAt: S.ts,
};
export const webhookSchema = S.out(endpointFields);
const createdSchema = S.out({ ...endpointFields, secret: S.str });
const attemptSchema = S.out({
  id: S.uuid,
  attempt: S.int,
  succeeded: S.bool,
  responseStatus: S.nint,
  latencyMs: S.int,
  responseExcerpt: S.nstr,
  error: S.nstr,
  createdAt: S.ts,
});
const deliverySchema = S.out({
  id: S.uuid,
  webhookID: S.uuid,
  eventID: S.uuid,
  eventType,
  status: { type: 'string', enum: [...DELIVERY_STATUSES] },
  attemptCount: S.int,
  nextAttemptAt: S.nts,
  lastAttemptAt: S.nts,
  createdAt: S.ts,
  attempts: S.array(attemptSchema),
});
const pageOf = (items: Record<string, unknown>) => S.out({ items: S.array(items), limit: S.int, offset: S.int, total: S.int });
const page = S.object({ limit: S.str, offset: S.str });
const body = {
  url: S.str,
  eventTypes: { type: 'array', items: S.str },
  enabled: S.bool,
  description: S.nstr,
};

type P = { cid: string; webhook_id: string; delivery_id: string };
const BASE = '/v1/companies/:cid/webhooks';
const ONE = `${BASE}/:webhook_id`;
const tags = ['webhooks'];

export function webhookRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: BASE,
      auth: 'key',
      summary: 'List webhook endpoints of company (oldest first; limit 1-100, default 100)',
      tags,
      params: S.params('cid'),
      querystring: page,
      response: { 200: pageOf(webhookSchema), ...errors },
      handler: (ctx, req) => listWebhooks(ctx, (req.params as P).cid, req.query as object),
    },
    {
      method: 'POST',
      url: BASE,
      auth: 'key',
      summary: 'Register a webhook endpoint',
      description:
        'The answer carries the signing secret (`whsec_...`), shown only here and when rotated. URLs must be https to a ' +
        'host that is and resolves to a public address; http to a loopback host (and internal addresses) only when the server ' +
        'runs with WEBHOOK_ALLOW_INSECURE=true.',
      tags,
      params: S.params('cid'),
      status: 201,
      body: S.object(body, ['url', 'eventTypes']),
      response: { 201: createdSchema, ...errors },
      handler: (ctx, req) => createWebhook(ctx, (req.params as P).cid, req.body as object),
    },
    {
      method: 'GET',
      url: ONE,
      auth: 'key',
      summary: 'Get one webhook endpoint',
      tags,
      params: S.params('cid', 'webhook_id'),
      response: { 200: webhookSchema, ...errors },
      handler: (ctx, req) => getWebhook(ctx, (req.params as P).cid, (req.params as P).webhook_id),
    },
    {
      method: 'PATCH',
      url: ONE,
      auth: 'key',
      summary: 'Update webhook endpoint',
      description: 'Only the fields sent change; enabling a disabled endpoint resumes its pending deliveries.',
      tags,
      params: S.params('cid', 'webhook_id'),
      body: S.object({ ...body, url: S.str }),
      response: { 200: webhookSchema, ...errors },
      handler: (ctx, req) => updateWebhook(ctx, (req.params as P).cid, (req.params as P).webhook_id, (req.body ?? {}) as object),
    },
    {
      method: 'DELETE',
      url: ONE,
      auth: 'key',
      summary: 'Delete webhook endpoint',
      tags,
      params: S.params('cid', 'webhook_id'),
      status: 204,
      response: { 204: { type: 'null', description: 'deleted, with its deliveries' }, ...errors },
      handler: (ctx, req) => deleteWebhook(ctx, (req.params as P).cid, (req.params as P).webhook_id),
    },
    {
      method: 'POST',
      url: `${ONE}/rotate-secret`,
      auth: 'key',
      summary: 'Rotate webhook signing secret',
      tags,
      params: S.params('cid', 'webhook_id'),
      response: { 200: S.out({ secret: S.str }), ...errors },
      handler: (ctx, req) => rotateWebhookSecret(ctx, (req.params as P).cid, (req.params as P).webhook_id),
    },
    {
      method: 'GET',
      url: `${ONE}/deliveries`,
      auth: 'key',
      summary: 'List webhook deliveries (newest first, each with its attempts newest first; limit 1-100, default 100)',
      tags,
      params: S.params('cid', 'webhook_id'),
      querystring: page,
      response: { 200: pageOf(deliverySchema), ...errors },
      handler: (ctx, req) => listDeliveries(ctx, (req.params as P).cid, (req.params as P).webhook_id, req.query as object),
    },
    {
      method: 'POST',
      url: `${ONE}/deliveries/:delivery_id/replay`,
      auth: 'key',
      summary: 'Replay webhook delivery',
      description: 'Queues the delivered event to the endpoint again as a new delivery (same webhook-id), due now.',
      tags,
      params: S.params('cid', 'webhook_id', 'delivery_id'),
      status: 202,
      response: { 202: deliverySchema, ...errors },
      handler: (ctx, req) => replayDelivery(ctx, (req.params as P).cid, (req.params as P).webhook_id, (req.params as P).delivery_id),
    },
  ]);
}
