import type { FastifyInstance } from 'fastify';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { USAGE_STATUSES } from './subscription.entity';
import { CONTRACT_STATUSES } from './subscription.status';
import { addToCart, getCart, removeFromCart } from './cart.service';
import { checkoutCart, getPurchase, listPurchases, purchaseSubscriptions, renewSubscriptions } from './checkout.service';

/** The client interface of subscriptions: the cart, its checkout, purchases and renewals. */

const clientUsageSchema = S.out({
  id: S.uuid,
  contractID: S.uuid,
  subscriptionID: S.uuid,
  clientID: { type: ['string', 'null'], format: 'uuid' },
  companyID: S.uuid,
  bookingID: { type: ['string', 'null'], format: 'uuid' },
  source: S.str,
  status: { type: 'string', enum: [...USAGE_STATUSES] },
  metaData: S.obj,
  metaDataVersion: S.int,
  createdAt: S.ts,
  updatedAt: S.ts,
});

export const clientContractSchema = S.out({
  id: S.uuid,
  companyID: S.uuid,
  subscriptionID: S.uuid,
  clientID: { type: ['string', 'null'], format: 'uuid' },
  code: S.str,
  status: { type: 'string', enum: [...CONTRACT_STATUSES] },
  activeFrom: S.nts,
  expiresAt: S.nts,
  pendingExpiresAt: S.nts,
  duration: S.nstr,
  limitations: S.obj,
  serviceIDs: S.uuids,
  resourceIDs: S.uuids,
  price: S.int,
  currency: S.nstr,
  periodStart: S.nts,
  periodEnd: S.nts,
  paymentURL: S.nstr,
  usages: S.array(clientUsageSchema),
  metaData: S.obj,
  metaDataVersion: S.int,
  createdAt: S.ts,
  updatedAt: S.ts,
});

const cartSchema = S.out({ expiresAt: S.nts, items: S.array(clientContractSchema) });
const checkoutSchema = S.out({
  items: S.array(clientContractSchema),
  item: clientContractSchema,
  price: S.int,
  tax: S.int,
  taxRate: S.num,
  taxInclusive: S.bool,
  currency: S.nstr,
  expiresAt: S.nts,
  paymentURL: S.nstr,
  transactionID: { type: ['string', 'null'], format: 'uuid' },
  total: { ...S.int, deprecated: true, description: 'The former name of price.' },
});
const items = { type: 'array', items: S.object({ subscriptionID: S.str, metaData: S.nobj }) };
const guest = S.object({ platformID: S.str, id: S.str, email: S.str, firstName: S.nstr, lastName: S.nstr });
const page = S.object({ limit: S.str, offset: S.str });

type P = { cid: string; item_id: string };
const BASE = '/v1/companies/:cid/plugins/subscription/client';
const tags = ['client interface'];

export function subscriptionClientRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: `${BASE}/cart`,
      auth: 'bearer',
      summary: "The calling client's subscriptions cart (items hold capacity until expiresAt)",
      tags,
      params: S.params('cid'),
      response: { 200: cartSchema, ...errors },
      handler: (ctx, req) => getCart(ctx, (req.params as P).cid),
    },
    {
      method: 'POST',
      url: `${BASE}/cart`,
      auth: 'bearer',
      summary: 'Add subscriptions to the cart (pending_payment contracts; sold out: 409)',
      tags,
      params: S.params('cid'),
      body: S.object({ items }, ['items']),
      response: { 200: cartSchema, 409: S.error, ...errors },
      handler: (ctx, req) => addToCart(ctx, (req.params as P).cid, req.body as object),
    },
    {
      method: 'DELETE',
      url: `${BASE}/cart/:item_id`,
      auth: 'bearer',
      summary: 'Remove an item from the subscriptions cart (its capacity comes back)',
      tags,
      params: S.params('cid', 'item_id'),
      response: { 200: cartSchema, ...errors },
      handler: (ctx, req) => removeFromCart(ctx, (req.params as P).cid, (req.params as P).item_id),
    },
    {
      method: 'POST',
      url: `${BASE}/cart/checkout`,
      auth: 'bearer',
      summary: 'Check out the subscriptions cart: one payment for every item (empty cart: 409)',
      tags,
      params: S.params('cid'),
      response: { 200: checkoutSchema, 409: S.error, ...errors },
      handler: (ctx, req) => checkoutCart(ctx, (req.params as P).cid),
    },
    {
      method: 'GET',
      url: `${BASE}/purchases`,
      auth: 'bearer',
      summary: "The calling client's purchased subscriptions (newest first; limit 1-100, default 100)",
      tags,
      params: S.params('cid'),
      querystring: page,
      response: { 200: S.array(clientContractSchema), ...errors },
      handler: async (ctx, req) => (await listPurchases(ctx, (req.params as P).cid, req.query as object)).items,
    },
    {
      method: 'POST',
      url: `${BASE}/purchases`,
      auth: 'key|bearer',
      summary: 'Purchase subscriptions in one step (a guest client object with an API key)',
      tags,
      params: S.params('cid'),
      body: S.object({ client: guest, items }, ['items']),
      response: { 200: checkoutSchema, 409: S.error, ...errors },
      handler: (ctx, req) => purchaseSubscriptions(ctx, (req.params as P).cid, req.body as object),
    },
    {
      method: 'POST',
      url: `${BASE}/purchases/renew`,
      auth: 'bearer',
      summary: 'Renew purchased subscriptions for one more duration (one payment)',
      tags,
      params: S.params('cid'),
      body: S.object({ ids: S.strs, allowPartialRenewal: S.bool }, ['ids']),
      response: { 200: checkoutSchema, 409: S.error, ...errors },
      handler: (ctx, req) => renewSubscriptions(ctx, (req.params as P).cid, req.body as object),
    },
    {
      method: 'GET',
      url: `${BASE}/purchases/:item_id`,
      auth: 'bearer',
      summary: 'One purchased subscription of the calling client',
      tags,
      params: S.params('cid', 'item_id'),
      response: { 200: clientContractSchema, ...errors },
      handler: (ctx, req) => getPurchase(ctx, (req.params as P).cid, (req.params as P).item_id),
    },
  ]);
}
