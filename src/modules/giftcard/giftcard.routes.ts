import type { FastifyInstance } from 'fastify';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { createContract, searchContracts } from './contract.service';
import { archiveGiftCard, createGiftCard, listGiftCards, offeredGiftCards, updateGiftCard } from './giftcard.service';
import { CONTRACT_STATUSES, USAGE_STATUSES } from './giftcard.status';
import { clientOrder, clientOrders, purchaseGiftCard } from './order.service';
import { createUsage, listUsages, updateUsage } from './usage.service';

export const giftCardSchema = S.out({
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
});

const usageSchema = S.out({
  id: S.uuid,
  purchaseId: S.uuid,
  giftCardId: S.uuid,
  clientId: { type: ['string', 'null'], format: 'uuid' },
  companyId: S.uuid,
  reservationId: { type: ['string', 'null'], format: 'uuid' },
  amount: S.int,
  currency: S.str,
  status: { type: 'string', enum: [...USAGE_STATUSES] },
  metaData: S.obj,
  metaDataVersion: S.int,
  createdAt: S.ts,
  updatedAt: S.ts,
});

const contractProps = {
  id: S.uuid,
  giftCardId: S.uuid,
  clientId: { type: ['string', 'null'], format: 'uuid' },
  companyId: S.uuid,
  code: S.nstr,
  amount: S.int,
  currency: S.str,
  balance: S.int,
  status: { type: 'string', enum: [...CONTRACT_STATUSES] },
  expiresAt: S.nts,
  validUntil: S.nts,
  metaData: S.obj,
  metaDataVersion: S.int,
  createdAt: S.ts,
  updatedAt: S.ts,
};
const contractSchema = S.out(contractProps);
const clientContractSchema = S.out({ ...contractProps, giftCardName: S.str, usages: S.array(usageSchema), paymentURL: S.nstr });
const contractPageSchema = S.out({ items: S.array(contractSchema), limit: S.int, offset: S.int, total: S.int });
const checkoutSchema = S.out({
  item: clientContractSchema,
  price: S.int,
  tax: S.int,
  taxRate: S.num,
  taxInclusive: S.bool,
  currency: S.str,
  expiresAt: S.nts,
  paymentURL: S.nstr,
  transactionID: { type: ['string', 'null'], format: 'uuid' },
});

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
const guest = S.object({ platformID: S.str, id: S.str, email: S.str, firstName: S.nstr, lastName: S.nstr });

type P = { cid: string; gift_card_id: string; contract_id: string; item_id: string; usage_id: string };
const BASE = '/v1/companies/:cid/plugins/giftcards';
const tags = ['gift cards'];

export function giftCardRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: `${BASE}/giftcards`,
      auth: 'key',
      summary: 'List gift cards in company (oldest first; limit 1-100, default 100)',
      tags,
      params: S.params('cid'),
      querystring: S.pageQuery,
      response: { 200: S.array(giftCardSchema), ...errors },
      handler: async (ctx, req) => (await listGiftCards(ctx, (req.params as P).cid, req.query as object)).giftCards,
    },
    {
      method: 'POST',
      url: `${BASE}/giftcards`,
      auth: 'key',
      summary: 'Create a new gift card',
      tags,
      params: S.params('cid'),
      status: 201,
      body: S.object({ ...cardFields, metaData: S.nobj }, ['title', 'amount', 'currency']),
      response: { 201: giftCardSchema, ...errors },
      handler: (ctx, req) => createGiftCard(ctx, (req.params as P).cid, req.body as object),
    },
    {
      method: 'PATCH',
      url: `${BASE}/giftcards/:gift_card_id`,
      auth: 'key',
      summary: 'Update a gift card',
      tags,
      params: S.params('cid', 'gift_card_id'),
      body: S.object({ ...cardFields, metaDataUpdate: S.metaDataUpdate }),
      response: { 200: giftCardSchema, 409: S.error, ...errors },
      handler: (ctx, req) => updateGiftCard(ctx, (req.params as P).cid, (req.params as P).gift_card_id, (req.body ?? {}) as object),
    },
    {
      method: 'POST',
      url: `${BASE}/giftcards/:gift_card_id/archive`,
      auth: 'key',
      summary: 'Archive a gift card (archived defaults to true; false unarchives)',
      tags,
      params: S.params('cid', 'gift_card_id'),
      body: S.object({ archived: S.bool }),
      response: { 200: giftCardSchema, ...errors },
      handler: (ctx, req) => archiveGiftCard(ctx, (req.params as P).cid, (req.params as P).gift_card_id, req.body as object),
    },
    {
      method: 'POST',
      url: `${BASE}/contracts`,
      auth: 'key',
      summary: 'Create a new gift card contract (issued active, with a new code)',
      tags,
      params: S.params('cid'),
      status: 201,
      body: S.object({ clientId: S.nstr, giftCardID: S.str, metaData: S.nobj, status: S.str }),
      response: { 201: contractSchema, ...errors },
      handler: (ctx, req) => createContract(ctx, (req.params as P).cid, (req.body ?? {}) as object),
    },
    {
      method: 'POST',
      url: `${BASE}/contracts/search`,
      auth: 'key',
      summary: 'Search gift card contracts (oldest first; limit 1-100, default 100)',
      tags,
      params: S.params('cid'),
      body: S.object({
        clientIds: uuidList,
        code: S.nstr,
        fromDate: S.nstr,
        giftCardIds: uuidList,
        ids: uuidList,
        limit: S.int,
        offset: S.int,
        status: { type: ['string', 'array', 'null'], items: S.str },
        toDate: S.nstr,
      }),
      response: { 200: contractPageSchema, ...errors },
      handler: (ctx, req) => searchContracts(ctx, (req.params as P).cid, (req.body ?? {}) as object),
    },
    {
      method: 'GET',
      url: `${BASE}/contracts/:contract_id/usages`,
      auth: 'key',
      summary: 'List usages of a gift card (oldest first; limit 1-100, default 100)',
      tags,
      params: S.params('cid', 'contract_id'),
      querystring: S.pageQuery,
      response: { 200: S.array(usageSchema), ...errors },
      handler: async (ctx, req) =>
        (await listUsages(ctx, (req.params as P).cid, (req.params as P).contract_id, req.query as object)).giftCardUsages,
    },
    {
      method: 'POST',
      url: `${BASE}/contracts/:contract_id/usages`,
      auth: 'key',
      summary: 'Create a new gift card usage (above the balance: 409 insufficient_balance)',
      tags,
      params: S.params('cid', 'contract_id'),
      status: 201,
      body: S.object({ amount: S.int, metaData: S.nobj, reservationId: S.nstr }, ['amount']),
      response: { 201: usageSchema, 409: S.error, ...errors },
      handler: (ctx, req) => createUsage(ctx, (req.params as P).cid, (req.params as P).contract_id, req.body as object),
    },
    {
      method: 'PATCH',
      url: `${BASE}/contracts/:contract_id/usages/:usage_id`,
      auth: 'key',
      summary: 'Update a gift card usage (amount, status, reservationID, metaDataUpdate)',
      tags,
      params: S.params('cid', 'contract_id', 'usage_id'),
      body: S.object({ amount: S.int, metaDataUpdate: S.metaDataUpdate, reservationID: S.nstr, status: S.str }),
      response: { 200: usageSchema, 409: S.error, ...errors },
      handler: (ctx, req) =>
        updateUsage(ctx, (req.params as P).cid, (req.params as P).contract_id, (req.params as P).usage_id, (req.body ?? {}) as object),
    },
    {
      method: 'GET',
      url: `${BASE}/client/giftcards`,
      auth: 'key',
      summary: 'Gift cards offered to clients (on sale now)',
      tags: ['client interface'],
      params: S.params('cid'),
      querystring: S.pageQuery,
      response: { 200: S.array(giftCardSchema), ...errors },
      handler: async (ctx, req) => (await offeredGiftCards(ctx, (req.params as P).cid, req.query as object)).giftCards,
    },
    {
      method: 'GET',
      url: `${BASE}/client/orders`,
      auth: 'bearer',
      summary: "The calling client's gift card purchases (newest first)",
      tags: ['client interface'],
      params: S.params('cid'),
      querystring: S.pageQuery,
      response: { 200: S.array(clientContractSchema), ...errors },
      handler: async (ctx, req) => (await clientOrders(ctx, (req.params as P).cid, req.query as object)).giftCardContracts,
    },
    {
      method: 'POST',
      url: `${BASE}/client/orders`,
      auth: 'key|bearer',
      summary: 'Make a gift card purchase: the checkout result, its item pending_payment until paid (no payment settings: 409)',
      tags: ['client interface'],
      params: S.params('cid'),
      body: S.object({ client: guest, giftCardID: S.str, metaData: S.nobj }),
      response: { 200: checkoutSchema, 409: S.error, ...errors },
      handler: (ctx, req) => purchaseGiftCard(ctx, (req.params as P).cid, (req.body ?? {}) as object),
    },
    {
      method: 'GET',
      url: `${BASE}/client/orders/:item_id`,
      auth: 'bearer',
      summary: 'One gift card purchase of the calling client',
      tags: ['client interface'],
      params: S.params('cid', 'item_id'),
      response: { 200: clientContractSchema, ...errors },
      handler: (ctx, req) => clientOrder(ctx, (req.params as P).cid, (req.params as P).item_id),
    },
  ]);
}
