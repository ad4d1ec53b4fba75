import type { FastifyInstance } from 'fastify';
import { EVENT_TYPES } from '../../kernel/events';
import { DOC } from '../../kernel/graphql-types';
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

const eventType = S.oneOf(EVENT_TYPES);
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
export const webhookSchema = S.named('WebhookEndpoint', S.out(endpointFields));
const createdSchema = S.named('CreatedWebhookEndpoint', S.out({ ...endpointFields, secret: S.str }));
const attemptSchema = S.named(
  'WebhookAttempt',
  S.out({
    id: S.uuid,
    attempt: S.int,
    succeeded: S.bool,
    responseStatus: S.nint,
    latencyMs: S.int,
    responseExcerpt: S.nstr,
    error: S.nstr,
    createdAt: S.ts,
  }),
);
const deliverySchema = S.named(
  'WebhookDelivery',
  S.out({
    id: S.uuid,
    webhookID: S.uuid,
    eventID: S.uuid,
    eventType,
    status: S.oneOf(DELIVERY_STATUSES),
    attemptCount: S.int,
    nextAttemptAt: S.nts,
    lastAttemptAt: S.nts,
    createdAt: S.ts,
    attempts: S.array(attemptSchema),
  }),
);
const pageOf = (items: Record<string, unknown>, what: string) =>
  S.out({
    items: { ...S.array(items), description: `The ${what} of this page.` },
    limit: { ...S.int, description: DOC.pageLimit },
    offset: { ...S.int, description: DOC.pageOffset },
    total: { ...S.int, description: DOC.total },
  });
const page = S.object({ limit: S.str, offset: S.str });
const body = {
  url: S.str,
  eventTypes: { type: 'array', items: S.choice(EVENT_TYPES) },
  enabled: S.bool,
  description: S.nstr,
};

type P = { cid: string; webhook_id: string; delivery_id: string };
const BASE = '/v1/companies/:cid/webhooks';
const ONE = `${BASE}/:webhook_id`;

export function webhookRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: BASE,
      operationId: 'listWebhookEndpoints',
      auth: 'key',
      summary: 'List webhook endpoints of company (oldest first; limit 1-100, default 100)',
      params: S.params('cid'),
      querystring: page,
      response: { 200: pageOf(webhookSchema, 'webhook endpoints'), ...errors },
      handler: (ctx, req) => listWebhooks(ctx, (req.params as P).cid, req.query as object),
    },
    {
      method: 'POST',
      url: BASE,
      operationId: 'createWebhookEndpoint',
      auth: 'key',
      summary: 'Register a webhook endpoint',
      description:
        'The answer carries the signing secret (`whsec_...`), shown only here and when rotated. URLs must be https to a ' +
        'host that is and resolves to a public address; http to a loopback host (and internal addresses) only when the server ' +
        'runs with WEBHOOK_ALLOW_INSECURE=true.',
      params: S.params('cid'),
      status: 201,
      body: S.named('CreateWebhookEndpointInput', S.object(body, ['url', 'eventTypes'])),
      response: { 201: createdSchema, ...errors },
      handler: (ctx, req) => createWebhook(ctx, (req.params as P).cid, req.body as object),
    },
    {
      method: 'GET',
      url: ONE,
      operationId: 'getWebhookEndpoint',
      auth: 'key',
      summary: 'Get one webhook endpoint',
      params: S.params('cid', 'webhook_id'),
      response: { 200: webhookSchema, ...errors },
      handler: (ctx, req) => getWebhook(ctx, (req.params as P).cid, (req.params as P).webhook_id),
    },
    {
      method: 'PATCH',
      url: ONE,
      operationId: 'updateWebhookEndpoint',
      auth: 'key',
      summary: 'Update webhook endpoint',
      description: 'Only the fields sent change; enabling a disabled endpoint resumes its pending deliveries.',
      params: S.params('cid', 'webhook_id'),
      body: S.named('UpdateWebhookEndpointInput', S.object({ ...body, url: S.str })),
      response: { 200: webhookSchema, ...errors },
      handler: (ctx, req) => updateWebhook(ctx, (req.params as P).cid, (req.params as P).webhook_id, (req.body ?? {}) as object),
    },
    {
      method: 'DELETE',
      url: ONE,
      operationId: 'deleteWebhookEndpoint',
      auth: 'key',
      summary: 'Delete webhook endpoint',
      params: S.params('cid', 'webhook_id'),
      status: 204,
      response: { 204: { type: 'null', description: 'deleted, with its deliveries' }, ...errors },
      handler: (ctx, req) => deleteWebhook(ctx, (req.params as P).cid, (req.params as P).webhook_id),
    },
    {
      method: 'POST',
      url: `${ONE}/rotate-secret`,
      operationId: 'rotateWebhookSecret',
      auth: 'key',
      summary: 'Rotate webhook signing secret',
      params: S.params('cid', 'webhook_id'),
      response: { 200: S.named('WebhookSecret', S.out({ secret: S.str })), ...errors },
      handler: (ctx, req) => rotateWebhookSecret(ctx, (req.params as P).cid, (req.params as P).webhook_id),
    },
    {
      method: 'GET',
      url: `${ONE}/deliveries`,
      operationId: 'listWebhookDeliveries',
      auth: 'key',
      summary: 'List webhook deliveries (newest first, each with its attempts newest first; limit 1-100, default 100)',
      params: S.params('cid', 'webhook_id'),
      querystring: page,
      response: { 200: pageOf(deliverySchema, 'deliveries'), ...errors },
      handler: (ctx, req) => listDeliveries(ctx, (req.params as P).cid, (req.params as P).webhook_id, req.query as object),
    },
    {
      method: 'POST',
      url: `${ONE}/deliveries/:delivery_id/replay`,
      operationId: 'replayWebhookDelivery',
      auth: 'key',
      summary: 'Replay webhook delivery',
      description: 'Queues the delivered event to the endpoint again as a new delivery (same webhook-id), due now.',
      params: S.params('cid', 'webhook_id', 'delivery_id'),
      status: 202,
      response: { 202: deliverySchema, ...errors },
      handler: (ctx, req) => replayDelivery(ctx, (req.params as P).cid, (req.params as P).webhook_id, (req.params as P).delivery_id),
    },
  ]);
}
