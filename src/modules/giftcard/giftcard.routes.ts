import type { FastifyInstance } from 'fastify';
import { DOC } from '../../kernel/graphql-types';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { guestClientSchema } from '../client/client.routes';
import { createContract, searchContracts } from './contract.service';
import { archiveGiftCard, createGiftCard, listGiftCards, offeredGiftCards, updateGiftCard } from './giftcard.service';
import { CONTRACT_STATUSES, ISSUED_STATUSES, USAGE_STATUSES } from './giftcard.status';
import { clientOrder, clientOrders, purchaseGiftCard } from './order.service';
import { createUsage, listUsages, updateUsage } from './usage.service';

export const giftCardSchema = S.named(
  'GiftCard',
  S.out({
    id: S.uuid,
    companyID: S.uuid,
    title: S.str,
    amount: S.int,
    currency: S.str,
    active: S.bool,
    taxInclusive: S.bool,
    taxRate: S.num,
    availableFrom: S.nts,
    availableTo: S.nts,
    validityDuration: S.nstr,
    metaData: S.obj,
    metaDataVersion: S.int,
    archivedAt: S.nts,
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

const usageSchema = S.named(
  'GiftCardUsage',
  S.out({
    id: S.uuid,
    purchaseId: S.uuid,
    giftCardId: S.uuid,
    clientId: { type: ['string', 'null'], format: 'uuid' },
    companyId: S.uuid,
    reservationId: { type: ['string', 'null'], format: 'uuid' },
    amount: S.int,
    currency: S.str,
    status: S.oneOf(USAGE_STATUSES),
    metaData: S.obj,
    metaDataVersion: S.int,
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

const contractProps = {
  id: S.uuid,
  giftCardId: S.uuid,
  clientId: { type: ['string', 'null'], format: 'uuid' },
  companyId: S.uuid,
  code: S.nstr,
  amount: S.int,
  currency: S.str,
  balance: S.int,
  status: S.oneOf(CONTRACT_STATUSES),
  expiresAt: S.nts,
  validUntil: S.nts,
  metaData: S.obj,
  metaDataVersion: S.int,
  createdAt: S.ts,
  updatedAt: S.ts,
};
const contractSchema = S.named('GiftCardContract', S.out(contractProps));
const clientContractSchema = S.named(
  'ClientGiftCardContract',
  S.out({ ...contractProps, giftCardName: S.str, usages: S.array(usageSchema), paymentURL: S.nstr }),
);
const contractPageSchema = S.out({
  items: { ...S.array(contractSchema), description: 'The contracts of this page.' },
  limit: { ...S.int, description: DOC.pageLimit },
  offset: { ...S.int, description: DOC.pageOffset },
  total: { ...S.int, description: DOC.total },
});
const checkoutSchema = S.named(
  'GiftCardCheckoutResult',
  S.out({
    item: clientContractSchema,
    price: S.int,
    tax: S.int,
    taxRate: S.num,
    taxInclusive: S.bool,
    currency: S.str,
    expiresAt: S.nts,
    paymentURL: S.nstr,
    transactionID: { type: ['string', 'null'], format: 'uuid' },
  }),
);

const cardFields = {
  active: S.bool,
  amount: S.int,
  availableFrom: S.nstr,
  availableTo: S.nstr,
  currency: S.str,
  taxInclusive: S.bool,
  taxRate: S.num,
  title: S.str,
  validityDuration: S.nstr,
};
const uuidList = { type: ['array', 'null'], items: S.str };
const guest = guestClientSchema;
const archiveBody = S.object({ archived: { ...S.bool, description: 'true (default) archives, false unarchives.' } });

type P = { cid: string; gift_card_id: string; contract_id: string; item_id: string; usage_id: string };
const BASE = '/v1/companies/:cid/plugins/giftcards';

export function giftCardRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: `${BASE}/giftcards`,
      operationId: 'listGiftCards',
      auth: 'key',
      summary: 'List gift cards in company (oldest first; limit 1-100, default 100)',
      params: S.params('cid'),
      querystring: S.pageQuery,
      response: { 200: S.array(giftCardSchema), ...errors },
      handler: async (ctx, req) => (await listGiftCards(ctx, (req.params as P).cid, req.query as object)).giftCards,
    },
    {
      method: 'POST',
      url: `${BASE}/giftcards`,
      operationId: 'createGiftCard',
      auth: 'key',
      summary: 'Create a new gift card',
      params: S.params('cid'),
      status: 201,
      body: S.named('CreateGiftCardInput', S.object({ ...cardFields, metaData: S.nobj }, ['title', 'amount', 'currency'])),
      response: { 201: giftCardSchema, ...errors },
      handler: (ctx, req) => createGiftCard(ctx, (req.params as P).cid, req.body as object),
    },
    {
      method: 'PATCH',
      url: `${BASE}/giftcards/:gift_card_id`,
      operationId: 'updateGiftCard',
      auth: 'key',
      summary: 'Update a gift card',
      params: S.params('cid', 'gift_card_id'),
      body: S.named('UpdateGiftCardInput', S.object({ ...cardFields, metaDataUpdate: S.metaDataUpdate })),
      response: { 200: giftCardSchema, 409: S.error, ...errors },
      handler: (ctx, req) => updateGiftCard(ctx, (req.params as P).cid, (req.params as P).gift_card_id, (req.body ?? {}) as object),
    },
    {
      method: 'POST',
      url: `${BASE}/giftcards/:gift_card_id/archive`,
      operationId: 'archiveGiftCard',
      auth: 'key',
      summary: 'Archive a gift card (archived defaults to true; false unarchives)',
      params: S.params('cid', 'gift_card_id'),
      body: archiveBody,
      response: { 200: giftCardSchema, ...errors },
      handler: (ctx, req) => archiveGiftCard(ctx, (req.params as P).cid, (req.params as P).gift_card_id, req.body as object),
    },
    {
      method: 'POST',
      url: `${BASE}/contracts`,
      operationId: 'createGiftCardContract',
      auth: 'key',
      summary: 'Create a new gift card contract (issued active, with a new code)',
      params: S.params('cid'),
      status: 201,
      body: S.named(
        'CreateGiftCardContractInput',
        S.object({ clientId: S.nstr, giftCardID: S.str, metaData: S.nobj, status: S.choice(ISSUED_STATUSES) }),
      ),
      response: { 201: contractSchema, ...errors },
      handler: (ctx, req) => createContract(ctx, (req.params as P).cid, (req.body ?? {}) as object),
    },
    {
      method: 'POST',
      url: `${BASE}/contracts/search`,
      operationId: 'searchGiftCardContracts',
      auth: 'key',
      summary: 'Search gift card contracts (oldest first; limit 1-100, default 100)',
      params: S.params('cid'),
      body: S.named(
        'GiftCardContractFilter',
        S.object({
          clientIds: uuidList,
          code: S.nstr,
          fromDate: S.nstr,
          giftCardIds: uuidList,
          ids: uuidList,
          limit: { ...S.int, description: DOC.limit },
          offset: { ...S.int, description: DOC.offset },
          status: { type: ['string', 'array', 'null'], items: S.choice(CONTRACT_STATUSES) },
          toDate: S.nstr,
        }),
      ),
      response: { 200: contractPageSchema, ...errors },
      handler: (ctx, req) => searchContracts(ctx, (req.params as P).cid, (req.body ?? {}) as object),
    },
    {
      method: 'GET',
      url: `${BASE}/contracts/:contract_id/usages`,
      operationId: 'listGiftCardUsages',
      auth: 'key',
      summary: 'List usages of a gift card (oldest first; limit 1-100, default 100)',
      params: S.params('cid', 'contract_id'),
      querystring: S.pageQuery,
      response: { 200: S.array(usageSchema), ...errors },
      handler: async (ctx, req) =>
        (await listUsages(ctx, (req.params as P).cid, (req.params as P).contract_id, req.query as object)).giftCardUsages,
    },
    {
      method: 'POST',
      url: `${BASE}/contracts/:contract_id/usages`,
      operationId: 'createGiftCardUsage',
      auth: 'key',
      summary: 'Create a new gift card usage (above the balance: 409 insufficient_balance)',
      params: S.params('cid', 'contract_id'),
      status: 201,
      body: S.named('CreateGiftCardUsageInput', S.object({ amount: S.int, metaData: S.nobj, reservationId: S.nstr }, ['amount'])),
      response: { 201: usageSchema, 409: S.error, ...errors },
      handler: (ctx, req) => createUsage(ctx, (req.params as P).cid, (req.params as P).contract_id, req.body as object),
    },
    {
      method: 'PATCH',
      url: `${BASE}/contracts/:contract_id/usages/:usage_id`,
      operationId: 'updateGiftCardUsage',
      auth: 'key',
      summary: 'Update a gift card usage (amount, status, reservationID, metaDataUpdate)',
      params: S.params('cid', 'contract_id', 'usage_id'),
      body: S.named(
        'UpdateGiftCardUsageInput',
        S.object({ amount: S.int, metaDataUpdate: S.metaDataUpdate, reservationID: S.nstr, status: S.choice(USAGE_STATUSES) }),
      ),
      response: { 200: usageSchema, 409: S.error, ...errors },
      handler: (ctx, req) =>
        updateUsage(ctx, (req.params as P).cid, (req.params as P).contract_id, (req.params as P).usage_id, (req.body ?? {}) as object),
    },
    {
      method: 'GET',
      url: `${BASE}/client/giftcards`,
      operationId: 'listClientGiftCards',
      auth: 'key',
      summary: 'Gift cards offered to clients (on sale now)',
      params: S.params('cid'),
      querystring: S.pageQuery,
      response: { 200: S.array(giftCardSchema), ...errors },
      handler: async (ctx, req) => (await offeredGiftCards(ctx, (req.params as P).cid, req.query as object)).giftCards,
    },
    {
      method: 'GET',
      url: `${BASE}/client/orders`,
      operationId: 'listClientGiftCardOrders',
      auth: 'bearer',
      summary: "The calling client's gift card purchases (newest first)",
      params: S.params('cid'),
      querystring: S.pageQuery,
      response: { 200: S.array(clientContractSchema), ...errors },
      handler: async (ctx, req) => (await clientOrders(ctx, (req.params as P).cid, req.query as object)).giftCardContracts,
    },
    {
      method: 'POST',
      url: `${BASE}/client/orders`,
      operationId: 'purchaseGiftCard',
      auth: 'key|bearer',
      summary: 'Make a gift card purchase: the checkout result, its item pending_payment until paid (no payment settings: 409)',
      params: S.params('cid'),
      body: S.named('PurchaseGiftCardInput', S.object({ client: guest, giftCardID: S.str, metaData: S.nobj })),
      response: { 200: checkoutSchema, 409: S.error, ...errors },
      handler: (ctx, req) => purchaseGiftCard(ctx, (req.params as P).cid, (req.body ?? {}) as object),
    },
    {
      method: 'GET',
      url: `${BASE}/client/orders/:item_id`,
      operationId: 'getClientGiftCardOrder',
      auth: 'bearer',
      summary: 'One gift card purchase of the calling client',
      params: S.params('cid', ['item_id', 'The gift card purchase (its contract).']),
      response: { 200: clientContractSchema, ...errors },
      handler: (ctx, req) => clientOrder(ctx, (req.params as P).cid, (req.params as P).item_id),
    },
  ]);
}
