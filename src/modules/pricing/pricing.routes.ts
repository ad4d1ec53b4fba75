import type { FastifyInstance } from 'fastify';
import { defineRoutes, errors, limitationBody, limitationSchema, S } from '../../kernel/rest';
import { resourceSchema, ticketSchema } from '../catalog/catalog.schemas';
import { SERVICE_TYPES } from '../../shared/service-type';
import { createDiscount, DISCOUNT_TYPES, listDiscounts } from './discount.service';
import { createPriceRule, listPriceRules, updatePriceRule } from './price-rule.service';

type P = { cid: string; service_id: string; price_rule_id: string };
type JsonSchema = Record<string, unknown>;

const SVC = '/v1/companies/:cid/services/:service_id';
const nint: JsonSchema = { type: ['integer', 'null'] };

const priceRuleSchema = S.named(
  'PriceRule',
  S.out({
    id: S.uuid,
    serviceID: S.uuid,
    type: S.oneOf(SERVICE_TYPES),
    priority: S.int,
    duration: S.nstr,
    minDuration: S.nstr,
    maxDuration: S.nstr,
    price: S.named('PriceRulePrice', S.out({ price: S.int, comparedPrice: nint })),
    ticketID: { type: ['string', 'null'], format: 'uuid' },
    limitation: limitationSchema,
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

const discountSchema = S.named(
  'Discount',
  S.out({
    id: S.uuid,
    serviceID: S.uuid,
    type: S.oneOf(DISCOUNT_TYPES),
    priority: S.int,
    sumsUp: S.bool,
    rules: S.array(
      S.named(
        'DiscountVolumeRule',
        S.out({ from: S.int, to: S.int, price: S.int, ticketID: { type: ['string', 'null'], format: 'uuid' } }),
      ),
    ),
    limitation: limitationSchema,
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

const priceRuleList = S.out({
  resources: { ...S.array(resourceSchema), description: 'The resources linked to the service.' },
  rules: { ...S.array(priceRuleSchema), description: 'The price rules of the service, in the order they are chosen.' },
  tickets: { ...S.array(ticketSchema), description: 'The tickets the rules name.' },
});
const discountList = S.out({ discounts: { ...S.array(discountSchema), description: 'The discounts of the service.' } });

const priceBody = (name: string, required: string[]) =>
  S.named(
    name,
    S.object(
      {
        type: S.choice(SERVICE_TYPES),
        priority: nint,
        duration: S.nstr,
        minDuration: S.nstr,
        maxDuration: S.nstr,
        ticketID: S.nstr,
        limitation: limitationBody,
        price: S.nullable(
          S.named('PriceRulePriceInput', { type: 'object', properties: { price: S.int, comparedPrice: nint }, additionalProperties: true }),
        ),
      },
      required,
    ),
  );

const discountBody = S.named(
  'CreateDiscountInput',
  S.object(
    {
      type: S.choice(DISCOUNT_TYPES),
      priority: S.int,
      sumsUp: { type: ['boolean', 'null'] },
      limitation: limitationBody,
      rules: {
        type: ['array', 'null'],
        items: S.named('DiscountVolumeRuleInput', {
          type: 'object',
          properties: { from: S.int, to: S.int, price: S.int, ticketID: S.nstr },
        }),
      },
    },
    ['type', 'priority'],
  ),
);

export function pricingRoutes(app: FastifyInstance): void {
  const p = (req: { params: unknown }) => req.params as P;
  const body = (req: { body: unknown }) => (req.body ?? {}) as Record<string, unknown>;
  defineRoutes(app, [
    {
      method: 'GET',
      url: `${SVC}/prices`,
      operationId: 'listPriceRules',
      auth: 'key',
      summary: 'List price rules for a service',
      params: S.params('cid', 'service_id'),
      response: {
        200: priceRuleList,
        ...errors,
      },
      handler: (ctx, req) => listPriceRules(ctx, p(req).cid, p(req).service_id),
    },
    {
      method: 'POST',
      url: `${SVC}/prices`,
      operationId: 'createPriceRule',
      auth: 'key',
      summary: 'Create a price rule',
      status: 201,
      params: S.params('cid', 'service_id'),
      body: priceBody('CreatePriceRuleInput', ['type', 'priority', 'price']),
      response: { 201: priceRuleSchema, ...errors },
      handler: (ctx, req) => createPriceRule(ctx, p(req).cid, p(req).service_id, body(req)),
    },
    {
      method: 'PATCH',
      url: `${SVC}/prices/:price_rule_id`,
      operationId: 'updatePriceRule',
      auth: 'key',
      summary: 'Update price rule',
      params: S.params('cid', 'service_id', 'price_rule_id'),
      body: priceBody('UpdatePriceRuleInput', ['type']),
      response: { 200: priceRuleSchema, ...errors },
      handler: (ctx, req) => updatePriceRule(ctx, p(req).cid, p(req).service_id, p(req).price_rule_id, body(req)),
    },
    {
      method: 'GET',
      url: `${SVC}/discounts`,
      operationId: 'listDiscounts',
      auth: 'key',
      summary: 'List discounts for service',
      params: S.params('cid', 'service_id'),
      querystring: S.object({ type: { ...S.choice(DISCOUNT_TYPES), description: 'Only the discounts of this type.' } }),
      response: { 200: discountList, ...errors },
      handler: (ctx, req) => listDiscounts(ctx, p(req).cid, p(req).service_id, (req.query as { type?: string }).type),
    },
    {
      method: 'POST',
      url: `${SVC}/discounts`,
      operationId: 'createDiscount',
      auth: 'key',
      summary: 'Create a discount',
      status: 201,
      params: S.params('cid', 'service_id'),
      body: discountBody,
      response: { 201: discountSchema, ...errors },
      handler: (ctx, req) => createDiscount(ctx, p(req).cid, p(req).service_id, body(req)),
    },
  ]);
}
