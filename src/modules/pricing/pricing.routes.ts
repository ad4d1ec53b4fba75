import type { FastifyInstance } from 'fastify';
import { defineRoutes, errors, limitationBody, limitationSchema, S } from '../../kernel/rest';
import { resourceSchema, ticketSchema } from '../catalog/catalog.schemas';
import { createDiscount, listDiscounts } from './discount.service';
import { createPriceRule, listPriceRules, updatePriceRule } from './price-rule.service';

type P = { cid: string; service_id: string; price_rule_id: string };
type JsonSchema = Record<string, unknown>;

const SVC = '/v1/companies/:cid/services/:service_id';
const nint: JsonSchema = { type: ['integer', 'null'] };

const priceRuleSchema = S.out({
  id: S.uuid,
  serviceID: S.uuid,
  type: { type: 'string', enum: ['fixed', 'flexible', 'group', 'ticket', 'days', 'sharable'] },
  priority: S.int,
  duration: S.nstr,
  minDuration: S.nstr,
  maxDuration: S.nstr,
  price: S.out({ price: S.int, comparedPrice: nint }),
  ticketID: { type: ['string', 'null'], format: 'uuid' },
  limitation: limitationSchema,
  createdAt: S.ts,
  updatedAt: S.ts,
});

const discountSchema = S.out({
  id: S.uuid,
  serviceID: S.uuid,
  type: { type: 'string', enum: ['ticket', 'spots'] },
  priority: S.int,
  sumsUp: S.bool,
  rules: S.array(S.out({ from: S.int, to: S.int, price: S.int, ticketID: { type: ['string', 'null'], format: 'uuid' } })),
  limitation: limitationSchema,
  createdAt: S.ts,
  updatedAt: S.ts,
});

const priceBody = (required: string[]) =>
  S.object(
    {
      type: S.str,
      priority: nint,
      duration: S.nstr,
      minDuration: S.nstr,
      maxDuration: S.nstr,
      ticketID: S.nstr,
      limitation: limitationBody,
      price: { type: ['object', 'null'], properties: { price: S.int, comparedPrice: nint }, additionalProperties: true },
    },
    required,
  );

const discountBody = S.object(
  {
    type: S.str,
    priority: S.int,
    sumsUp: { type: ['boolean', 'null'] },
    limitation: limitationBody,
    rules: { type: ['array', 'null'], items: { type: 'object', properties: { from: S.int, to: S.int, price: S.int, ticketID: S.nstr } } },
  },
  ['type', 'priority'],
);

export function pricingRoutes(app: FastifyInstance): void {
  const p = (req: { params: unknown }) => req.params as P;
  const body = (req: { body: unknown }) => (req.body ?? {}) as Record<string, unknown>;
  defineRoutes(app, [
    {
      method: 'GET',
      url: `${SVC}/prices`,
      auth: 'key',
      summary: 'List price rules for a service',
      tags: ['rules'],
      params: S.params('cid', 'service_id'),
      response: {
        200: S.out({ resources: S.array(resourceSchema), rules: S.array(priceRuleSchema), tickets: S.array(ticketSchema) }),
        ...errors,
      },
      handler: (ctx, req) => listPriceRules(ctx, p(req).cid, p(req).service_id),
    },
    {
      method: 'POST',
      url: `${SVC}/prices`,
      auth: 'key',
      summary: 'Create a price rule',
      tags: ['rules'],
      status: 201,
      params: S.params('cid', 'service_id'),
      body: priceBody(['type', 'priority', 'price']),
      response: { 201: priceRuleSchema, ...errors },
      handler: (ctx, req) => createPriceRule(ctx, p(req).cid, p(req).service_id, body(req)),
    },
    {
      method: 'PATCH',
      url: `${SVC}/prices/:price_rule_id`,
      auth: 'key',
      summary: 'Update price rule',
      tags: ['rules'],
      params: S.params('cid', 'service_id', 'price_rule_id'),
      body: priceBody(['type']),
      response: { 200: priceRuleSchema, ...errors },
      handler: (ctx, req) => updatePriceRule(ctx, p(req).cid, p(req).service_id, p(req).price_rule_id, body(req)),
    },
    {
      method: 'GET',
      url: `${SVC}/discounts`,
      auth: 'key',
      summary: 'List discounts for service',
      tags: ['rules'],
      params: S.params('cid', 'service_id'),
      querystring: S.object({ type: S.str }),
      response: { 200: S.out({ discounts: S.array(discountSchema) }), ...errors },
      handler: (ctx, req) => listDiscounts(ctx, p(req).cid, p(req).service_id, (req.query as { type?: string }).type),
    },
    {
      method: 'POST',
      url: `${SVC}/discounts`,
      auth: 'key',
      summary: 'Create a discount',
      tags: ['rules'],
      status: 201,
      params: S.params('cid', 'service_id'),
      body: discountBody,
      response: { 201: discountSchema, ...errors },
      handler: (ctx, req) => createDiscount(ctx, p(req).cid, p(req).service_id, body(req)),
    },
  ]);
}
