import type { FastifyInstance } from 'fastify';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { guestClientSchema } from '../client/client.routes';
import { contractSchema } from './subscription.routes';
import { addToCart, getCart, removeFromCart } from './cart.service';
import { checkoutCart, getPurchase, listPurchases, purchaseSubscriptions, renewSubscriptions } from './checkout.service';

/** The client interface of subscriptions: the cart, its checkout, purchases and renewals. */

const cartSchema = S.named('SubscriptionCart', S.out({ expiresAt: S.nts, items: S.array(contractSchema) }));
const checkoutSchema = S.named(
  'SubscriptionCheckoutResult',
  S.out({
    items: S.array(contractSchema),
    item: contractSchema,
    price: S.int,
    tax: S.int,
    taxRate: S.num,
    taxInclusive: S.bool,
    currency: S.nstr,
    expiresAt: S.nts,
    paymentURL: S.nstr,
    transactionID: { type: ['string', 'null'], format: 'uuid' },
    total: { ...S.int, deprecated: true, description: 'The former name of price.' },
  }),
);
const items = { type: 'array', items: S.named('SubscriptionCartItemInput', S.object({ subscriptionID: S.str, metaData: S.nobj })) };
const guest = guestClientSchema;
const page = S.object({ limit: S.str, offset: S.str });

type P = { cid: string; item_id: string };
const BASE = '/v1/companies/:cid/plugins/subscription/client';

export function subscriptionClientRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: `${BASE}/cart`,
      operationId: 'getSubscriptionCart',
      auth: 'bearer',
      summary: "The calling client's subscriptions cart (items hold capacity until expiresAt)",
      params: S.params('cid'),
      response: { 200: cartSchema, ...errors },
      handler: (ctx, req) => getCart(ctx, (req.params as P).cid),
    },
    {
      method: 'POST',
      url: `${BASE}/cart`,
      operationId: 'addToSubscriptionCart',
      auth: 'bearer',
      summary: 'Add subscriptions to the cart (pending_payment contracts; sold out: 409)',
      params: S.params('cid'),
      body: S.object({ items: { ...items, description: 'The subscriptions to add.' } }, ['items']),
      response: { 200: cartSchema, 409: S.error, ...errors },
      handler: (ctx, req) => addToCart(ctx, (req.params as P).cid, req.body as object),
    },
    {
      method: 'DELETE',
      url: `${BASE}/cart/:item_id`,
      operationId: 'removeFromSubscriptionCart',
      auth: 'bearer',
      summary: 'Remove an item from the subscriptions cart (its capacity comes back)',
      params: S.params('cid', ['item_id', 'The cart item (a pending_payment contract).']),
      response: { 200: cartSchema, ...errors },
      handler: (ctx, req) => removeFromCart(ctx, (req.params as P).cid, (req.params as P).item_id),
    },
    {
      method: 'POST',
      url: `${BASE}/cart/checkout`,
      operationId: 'checkoutSubscriptionCart',
      auth: 'bearer',
      summary: 'Check out the subscriptions cart: one payment for every item (empty cart: 409)',
      params: S.params('cid'),
      response: { 200: checkoutSchema, 409: S.error, ...errors },
      handler: (ctx, req) => checkoutCart(ctx, (req.params as P).cid),
    },
    {
      method: 'GET',
      url: `${BASE}/purchases`,
      operationId: 'listSubscriptionPurchases',
      auth: 'bearer',
      summary: "The calling client's purchased subscriptions (newest first; limit 1-100, default 100)",
      params: S.params('cid'),
      querystring: page,
      response: { 200: S.array(contractSchema), ...errors },
      handler: async (ctx, req) => (await listPurchases(ctx, (req.params as P).cid, req.query as object)).items,
    },
    {
      method: 'POST',
      url: `${BASE}/purchases`,
      operationId: 'purchaseSubscriptions',
      auth: 'key|bearer',
      summary: 'Purchase subscriptions in one step (a guest client object with an API key)',
      params: S.params('cid'),
      body: S.named('PurchaseSubscriptionsInput', S.object({ client: guest, items }, ['items'])),
      response: { 200: checkoutSchema, 409: S.error, ...errors },
      handler: (ctx, req) => purchaseSubscriptions(ctx, (req.params as P).cid, req.body as object),
    },
    {
      method: 'POST',
      url: `${BASE}/purchases/renew`,
      operationId: 'renewSubscriptions',
      auth: 'bearer',
      summary: 'Renew purchased subscriptions for one more duration (one payment)',
      params: S.params('cid'),
      body: S.named('RenewSubscriptionsInput', S.object({ ids: S.strs, allowPartialRenewal: S.bool }, ['ids'])),
      response: { 200: checkoutSchema, 409: S.error, ...errors },
      handler: (ctx, req) => renewSubscriptions(ctx, (req.params as P).cid, req.body as object),
    },
    {
      method: 'GET',
      url: `${BASE}/purchases/:item_id`,
      operationId: 'getSubscriptionPurchase',
      auth: 'bearer',
      summary: 'One purchased subscription of the calling client',
      params: S.params('cid', ['item_id', 'The purchased subscription (its contract).']),
      response: { 200: contractSchema, ...errors },
      handler: (ctx, req) => getPurchase(ctx, (req.params as P).cid, (req.params as P).item_id),
    },
  ]);
}
