import type { FastifyInstance } from 'fastify';
import { DOC } from '../../kernel/graphql-types';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { createContract, getContract, searchContracts, updateContract } from './contract.service';
import { addVisit, ADMIN_TRANSACTION_TYPES, listVisits } from './ledger.service';
import { offeredSubscriptions } from './offered.service';
import { capacityAvailability, createRule, listRules, updateRule } from './rules.service';
import { RECURRING_INTERVALS, ROLL_OVER_TYPES, USAGE_STATUSES, VISIT_TRANSACTION_TYPES } from './subscription.entity';
import { CONTRACT_STATUSES, CREATED_STATUSES } from './subscription.status';
import {
  createSubscription,
  getSettings,
  getSubscription,
  listSubscriptions,
  updateSettings,
  updateSubscription,
} from './subscription.service';

const nuuid = { type: ['string', 'null'], format: 'uuid' };
const nint = S.nint;
const LIMITATIONS = {
  type: 'object',
  description:
    '{bookingsCount, daysOfWeek (Mon 64 ... Sun 1), maxDuration (ISO 8601), maxSpotsPerBooking, maxTicketsPerBooking {ticketID: n}, times [{startTime, endTime}]}',
  additionalProperties: true,
};
const limitationsSchema = S.named('SubscriptionLimitations', LIMITATIONS);
const rollOverSchema = S.named(
  'SubscriptionRollOverSettings',
  S.out({ rollOverType: S.oneOf(ROLL_OVER_TYPES), settings: { ...S.obj, description: 'Values of the rule: `{maxVisits}` for capped.' } }),
);

const subscriptionProps = {
  id: S.uuid,
  companyID: S.uuid,
  title: S.str,
  duration: S.nstr,
  availableFrom: S.nts,
  availableTo: S.nts,
  limitations: limitationsSchema,
  rRule: S.nstr,
  recurringConfig: S.nobj,
  recurringEnabled: S.bool,
  recurringInterval: S.nOneOf(RECURRING_INTERVALS),
  recurringIntervalCount: nint,
  recurringProvider: S.nstr,
  renewPeriod: S.nstr,
  serviceIDs: S.uuids,
  resourceIDs: S.uuids,
  ticketIDs: S.uuids,
  rollOverSettings: rollOverSchema,
  metaData: S.obj,
  metaDataVersion: S.int,
  archivedAt: S.nts,
  createdAt: S.ts,
  updatedAt: S.ts,
};
const subscriptionSchema = S.named('Subscription', S.out(subscriptionProps));

const offeredSchema = S.named(
  'OfferedSubscription',
  S.out({
    id: S.uuid,
    title: S.str,
    duration: S.nstr,
    availableFrom: S.nts,
    availableTo: S.nts,
    limitations: limitationsSchema,
    rRule: S.nstr,
    recurringEnabled: S.bool,
    recurringInterval: subscriptionProps.recurringInterval,
    recurringIntervalCount: nint,
    recurringProvider: S.nstr,
    serviceIDs: S.uuids,
    resourceIDs: S.uuids,
    rollOverSettings: rollOverSchema,
    price: S.int,
    comparedPrice: nint,
    currency: S.nstr,
    metaData: S.obj,
  }),
);

const settingsSchema = S.named(
  'SubscriptionSettings',
  S.out({
    id: S.uuid,
    companyID: S.uuid,
    cartExpiration: S.str,
    currency: S.nstr,
    taxInclusive: S.bool,
    taxRate: S.num,
    metaData: S.obj,
    metaDataVersion: S.int,
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

const ruleProps = {
  id: S.uuid,
  companyID: S.uuid,
  subscriptionIDs: S.uuids,
  priority: S.int,
  startDate: S.nts,
  endDate: S.nts,
  metaData: S.obj,
  metaDataVersion: S.int,
  archivedAt: S.nts,
  createdAt: S.ts,
  updatedAt: S.ts,
};
const priceRuleSchema = S.named('SubscriptionPriceRule', S.out({ ...ruleProps, price: S.int, comparedPrice: nint }));
const capacityRuleSchema = S.named('SubscriptionCapacityRule', S.out({ ...ruleProps, maxCount: S.int }));
const availabilitySchema = S.out({
  items: {
    ...S.array(S.named('SubscriptionCapacityAvailability', S.out({ subscriptionID: S.uuid, active: S.int, pending: S.int, max: nint }))),
    description: 'One entry per subscription asked about.',
  },
});

const usageSchema = S.named(
  'SubscriptionUsage',
  S.out({
    id: S.uuid,
    contractID: S.uuid,
    subscriptionID: S.uuid,
    clientID: nuuid,
    companyID: S.uuid,
    bookingID: nuuid,
    source: S.str,
    status: S.oneOf(USAGE_STATUSES),
    metaData: S.obj,
    metaDataVersion: S.int,
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

export const contractSchema = S.named(
  'SubscriptionContract',
  S.out({
    id: S.uuid,
    companyID: S.uuid,
    subscriptionID: S.uuid,
    clientID: nuuid,
    code: S.str,
    status: S.oneOf(CONTRACT_STATUSES),
    activeFrom: S.nts,
    expiresAt: S.nts,
    pendingExpiresAt: S.nts,
    duration: S.nstr,
    limitations: limitationsSchema,
    serviceIDs: S.uuids,
    resourceIDs: S.uuids,
    price: S.int,
    currency: S.nstr,
    periodStart: S.nts,
    periodEnd: S.nts,
    paymentURL: S.nstr,
    usages: S.array(usageSchema),
    metaData: S.obj,
    metaDataVersion: S.int,
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);
const contractPageSchema = S.out({
  items: { ...S.array(contractSchema), description: 'The contracts of this page.' },
  limit: { ...S.int, description: DOC.pageLimit },
  offset: { ...S.int, description: DOC.pageOffset },
  total: { ...S.int, description: DOC.total },
});

const visitSchema = S.named(
  'VisitTransaction',
  S.out({
    id: S.uuid,
    companyID: S.uuid,
    subscriptionID: S.uuid,
    subscriptionItemID: S.uuid,
    clientID: nuuid,
    amount: S.int,
    transactionType: S.oneOf(VISIT_TRANSACTION_TYPES),
    expiresAt: S.nts,
    reason: S.nstr,
    sourceAllocationID: nuuid,
    usageID: nuuid,
    periodStart: S.nts,
    metaData: S.obj,
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

const subscriptionFields = {
  availableFrom: S.nstr,
  availableTo: S.nstr,
  duration: S.nstr,
  limitations: S.nullable(S.named('SubscriptionLimitationsInput', LIMITATIONS)),
  rRule: S.nstr,
  recurringConfig: S.nobj,
  recurringEnabled: { type: ['boolean', 'null'] },
  recurringInterval: S.choice(RECURRING_INTERVALS, true),
  recurringIntervalCount: nint,
  recurringProvider: S.nstr,
  renewPeriod: S.nstr,
  resourceIDs: { type: ['array', 'null'], items: S.str },
  rollOverSettings: S.nullable(
    S.named('SubscriptionRollOverSettingsInput', {
      type: 'object',
      description: '{rollOverType, settings: {maxVisits}}',
      additionalProperties: true,
    }),
  ),
  serviceIDs: { type: ['array', 'null'], items: S.str },
  ticketIDs: { type: ['array', 'null'], items: S.str },
  title: S.nstr,
};
const ruleFields = {
  endDate: S.nstr,
  priority: nint,
  startDate: S.nstr,
  subscriptionIDs: { type: ['array', 'null'], items: S.str },
};
const page = S.object({ limit: S.str, offset: S.str });
const idsQuery = (name: string) =>
  S.object({ [name]: { anyOf: [S.str, S.strs], description: 'Subscription ids: comma-separated or the key repeated.' } });
const uuidList = { type: ['array', 'null'], items: S.str };

type P = { cid: string; subscription_id: string; item_id: string };
const BASE = '/v1/companies/:cid/plugins/subscription';
const CONTRACT = ['item_id', 'The subscription contract addressed.'] as const;
const CAPACITY_RULE = ['item_id', 'The capacity rule addressed.'] as const;
const PRICE_RULE = ['item_id', 'The price rule addressed.'] as const;
const p = (req: { params: unknown }) => req.params as P;

export function subscriptionRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: `${BASE}/list`,
      operationId: 'listSubscriptions',
      auth: 'key',
      summary: 'List of subscriptions in company (oldest first; limit 1-100, default 100)',
      params: S.params('cid'),
      querystring: page,
      response: { 200: S.array(subscriptionSchema), ...errors },
      handler: async (ctx, req) => (await listSubscriptions(ctx, p(req).cid, req.query as object)).subscriptions,
    },
    {
      method: 'POST',
      url: `${BASE}/list`,
      operationId: 'createSubscription',
      auth: 'key',
      summary: 'Create a new subscription',
      params: S.params('cid'),
      status: 201,
      body: S.named('CreateSubscriptionInput', S.object({ ...subscriptionFields, metaData: S.nobj }, ['title', 'duration'])),
      response: { 201: subscriptionSchema, ...errors },
      handler: (ctx, req) => createSubscription(ctx, p(req).cid, req.body as object),
    },
    {
      method: 'GET',
      url: `${BASE}/list/:subscription_id`,
      operationId: 'getSubscription',
      auth: 'key',
      summary: 'Get one subscription',
      params: S.params('cid', 'subscription_id'),
      response: { 200: subscriptionSchema, ...errors },
      handler: (ctx, req) => getSubscription(ctx, p(req).cid, p(req).subscription_id),
    },
    {
      method: 'PATCH',
      url: `${BASE}/list/:subscription_id`,
      operationId: 'updateSubscription',
      auth: 'key',
      summary: 'Update a subscription (archive: true archives, false unarchives)',
      params: S.params('cid', 'subscription_id'),
      body: S.named(
        'UpdateSubscriptionInput',
        S.object({ ...subscriptionFields, archive: { type: ['boolean', 'null'] }, metaDataUpdate: S.metaDataUpdate }),
      ),
      response: { 200: subscriptionSchema, 409: S.error, ...errors },
      handler: (ctx, req) => updateSubscription(ctx, p(req).cid, p(req).subscription_id, (req.body ?? {}) as object),
    },
    {
      method: 'POST',
      url: `${BASE}/list/:subscription_id/contracts`,
      operationId: 'createSubscriptionContract',
      auth: 'key',
      summary: 'Create client subscription contract (active with its first allocation, or pending_payment)',
      params: S.params('cid', 'subscription_id'),
      status: 201,
      body: S.named(
        'CreateSubscriptionContractInput',
        S.object({
          activeFrom: S.nstr,
          clientID: S.nstr,
          duration: S.nstr,
          expiresAt: S.nstr,
          metaData: S.nobj,
          status: S.choice(CREATED_STATUSES, true),
        }),
      ),
      response: { 201: contractSchema, 409: S.error, ...errors },
      handler: (ctx, req) => createContract(ctx, p(req).cid, p(req).subscription_id, (req.body ?? {}) as object),
    },
    {
      method: 'POST',
      url: `${BASE}/contracts/search`,
      operationId: 'searchSubscriptionContracts',
      auth: 'key',
      summary: 'Search contracts in company (oldest first; limit 1-100, default 100)',
      params: S.params('cid'),
      body: S.named(
        'SubscriptionContractFilter',
        S.object({
          clientIDs: uuidList,
          code: S.nstr,
          fromDate: S.nstr,
          ids: uuidList,
          limit: { ...nint, description: DOC.limit },
          metaDataQuery: S.nullable(
            S.named('MetaDataQueryInput', { type: 'object', description: '{path, op: eq, value}', additionalProperties: true }),
          ),
          offset: { ...nint, description: DOC.offset },
          resourceIDs: uuidList,
          serviceIDs: uuidList,
          status: { type: ['string', 'array', 'null'], items: S.choice(CONTRACT_STATUSES) },
          subscriptionIDs: uuidList,
          toDate: S.nstr,
        }),
      ),
      response: { 200: contractPageSchema, ...errors },
      handler: (ctx, req) => searchContracts(ctx, p(req).cid, (req.body ?? {}) as object),
    },
    {
      method: 'GET',
      url: `${BASE}/contracts/:item_id`,
      operationId: 'getSubscriptionContract',
      auth: 'key',
      summary: 'Get client subscription contract',
      params: S.params('cid', CONTRACT),
      response: { 200: contractSchema, ...errors },
      handler: (ctx, req) => getContract(ctx, p(req).cid, p(req).item_id),
    },
    {
      method: 'PATCH',
      url: `${BASE}/contracts/:item_id`,
      operationId: 'updateSubscriptionContract',
      auth: 'key',
      summary: 'Update client subscription contract (status transitions checked: 409 otherwise)',
      params: S.params('cid', CONTRACT),
      body: S.named(
        'UpdateSubscriptionContractInput',
        S.object({
          clientID: S.nstr,
          duration: S.nstr,
          metaDataUpdate: S.metaDataUpdate,
          status: S.choice(CONTRACT_STATUSES, true),
          subscriptionID: S.nstr,
        }),
      ),
      response: { 200: contractSchema, 409: S.error, ...errors },
      handler: (ctx, req) => updateContract(ctx, p(req).cid, p(req).item_id, (req.body ?? {}) as object),
    },
    {
      method: 'GET',
      url: `${BASE}/contracts/:item_id/visits-ledger`,
      operationId: 'listVisitTransactions',
      auth: 'key',
      summary: 'Get visit transactions log (oldest first; limit 1-100, default 100)',
      params: S.params('cid', CONTRACT),
      querystring: page,
      response: { 200: S.array(visitSchema), ...errors },
      handler: async (ctx, req) => (await listVisits(ctx, p(req).cid, p(req).item_id, req.query as object)).items,
    },
    {
      method: 'POST',
      url: `${BASE}/contracts/:item_id/visits-ledger`,
      operationId: 'addVisitTransaction',
      auth: 'key',
      summary: 'Add visit transaction (any type, signed as its type says; a negative balance is 409 insufficient_balance)',
      params: S.params('cid', CONTRACT),
      status: 201,
      body: S.named(
        'AddVisitTransactionInput',
        S.object(
          {
            amount: S.int,
            expiresAt: S.nstr,
            metaData: S.nobj,
            reason: S.nstr,
            sourceAllocationID: S.nstr,
            transactionType: S.oneOf(ADMIN_TRANSACTION_TYPES),
          },
          ['amount', 'transactionType'],
        ),
      ),
      response: { 201: visitSchema, 409: S.error, ...errors },
      handler: (ctx, req) => addVisit(ctx, p(req).cid, p(req).item_id, req.body as object),
    },
    {
      method: 'GET',
      url: `${BASE}/capacity-rules`,
      operationId: 'listSubscriptionCapacityRules',
      auth: 'key',
      summary: 'Get capacity rules for subscriptions (rules naming any of subscription_ids, oldest first)',
      params: S.params('cid'),
      querystring: idsQuery('subscription_ids'),
      response: { 200: S.array(capacityRuleSchema), ...errors },
      handler: (ctx, req) => listRules(ctx, 'capacity', p(req).cid, (req.query as { subscription_ids?: unknown }).subscription_ids),
    },
    {
      method: 'POST',
      url: `${BASE}/capacity-rules`,
      operationId: 'createSubscriptionCapacityRule',
      auth: 'key',
      summary: 'Create capacity rule for subscriptions',
      params: S.params('cid'),
      status: 201,
      body: S.named(
        'CreateSubscriptionCapacityRuleInput',
        S.object({ ...ruleFields, maxCount: S.int, metaData: S.nobj }, ['maxCount', 'subscriptionIDs']),
      ),
      response: { 201: capacityRuleSchema, ...errors },
      handler: (ctx, req) => createRule(ctx, 'capacity', p(req).cid, req.body as object),
    },
    {
      method: 'GET',
      url: `${BASE}/capacity-rules/availability`,
      operationId: 'getSubscriptionCapacityAvailability',
      auth: 'key',
      summary: 'Get capacity availability for subscriptions ({items: [{subscriptionID, active, pending, max}]})',
      params: S.params('cid'),
      querystring: idsQuery('subscription_ids'),
      response: { 200: availabilitySchema, ...errors },
      handler: (ctx, req) => capacityAvailability(ctx, p(req).cid, (req.query as { subscription_ids?: unknown }).subscription_ids),
    },
    {
      method: 'PATCH',
      url: `${BASE}/capacity-rules/:item_id`,
      operationId: 'updateSubscriptionCapacityRule',
      auth: 'key',
      summary: 'Update capacity rule for subscriptions (archive: true archives)',
      params: S.params('cid', CAPACITY_RULE),
      body: S.named(
        'UpdateSubscriptionCapacityRuleInput',
        S.object({ ...ruleFields, archive: { type: ['boolean', 'null'] }, maxCount: nint, metaDataUpdate: S.metaDataUpdate }),
      ),
      response: { 200: capacityRuleSchema, 409: S.error, ...errors },
      handler: (ctx, req) => updateRule(ctx, 'capacity', p(req).cid, p(req).item_id, (req.body ?? {}) as object),
    },
    {
      method: 'GET',
      url: `${BASE}/price-rules`,
      operationId: 'listSubscriptionPriceRules',
      auth: 'key',
      summary: 'Get price rules for subscriptions (rules naming any of subscription_ids, oldest first)',
      params: S.params('cid'),
      querystring: idsQuery('subscription_ids'),
      response: { 200: S.array(priceRuleSchema), ...errors },
      handler: (ctx, req) => listRules(ctx, 'price', p(req).cid, (req.query as { subscription_ids?: unknown }).subscription_ids),
    },
    {
      method: 'POST',
      url: `${BASE}/price-rules`,
      operationId: 'createSubscriptionPriceRule',
      auth: 'key',
      summary: 'Create price rule for subscriptions',
      params: S.params('cid'),
      status: 201,
      body: S.named(
        'CreateSubscriptionPriceRuleInput',
        S.object({ ...ruleFields, comparedPrice: nint, metaData: S.nobj, price: S.int }, ['price', 'subscriptionIDs']),
      ),
      response: { 201: priceRuleSchema, ...errors },
      handler: (ctx, req) => createRule(ctx, 'price', p(req).cid, req.body as object),
    },
    {
      method: 'PATCH',
      url: `${BASE}/price-rules/:item_id`,
      operationId: 'updateSubscriptionPriceRule',
      auth: 'key',
      summary: 'Update price rule for subscriptions (archive: true archives)',
      params: S.params('cid', PRICE_RULE),
      body: S.named(
        'UpdateSubscriptionPriceRuleInput',
        S.object({
          ...ruleFields,
          archive: { type: ['boolean', 'null'] },
          comparedPrice: nint,
          metaDataUpdate: S.metaDataUpdate,
          price: nint,
        }),
      ),
      response: { 200: priceRuleSchema, 409: S.error, ...errors },
      handler: (ctx, req) => updateRule(ctx, 'price', p(req).cid, p(req).item_id, (req.body ?? {}) as object),
    },
    {
      method: 'GET',
      url: `${BASE}/settings`,
      operationId: 'getSubscriptionSettings',
      auth: 'key',
      summary: 'Get settings for subscriptions (404 until the first update)',
      params: S.params('cid'),
      response: { 200: settingsSchema, ...errors },
      handler: (ctx, req) => getSettings(ctx, p(req).cid),
    },
    {
      method: 'PATCH',
      url: `${BASE}/settings`,
      operationId: 'updateSubscriptionSettings',
      auth: 'key',
      summary: 'Update settings for subscriptions (created on the first update)',
      params: S.params('cid'),
      body: S.named(
        'UpdateSubscriptionSettingsInput',
        S.object({
          cartExpiration: S.nstr,
          currency: S.nstr,
          metaDataUpdate: S.metaDataUpdate,
          taxInclusive: { type: ['boolean', 'null'] },
          taxRate: { type: ['number', 'null'] },
        }),
      ),
      response: { 200: settingsSchema, 409: S.error, ...errors },
      handler: (ctx, req) => updateSettings(ctx, p(req).cid, (req.body ?? {}) as object),
    },
    {
      method: 'GET',
      url: `${BASE}/client/subscriptions`,
      operationId: 'listClientSubscriptions',
      auth: 'key',
      summary: 'Get available subscriptions (on sale now and priced; ids filters)',
      params: S.params('cid'),
      querystring: S.object({ ids: { anyOf: [S.str, S.strs], description: 'Subscription ids: comma-separated or the key repeated.' } }),
      response: { 200: S.array(offeredSchema), ...errors },
      handler: (ctx, req) => offeredSubscriptions(ctx, p(req).cid, (req.query as { ids?: unknown }).ids),
    },
  ]);
}
