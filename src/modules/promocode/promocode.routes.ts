import type { FastifyInstance } from 'fastify';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { DISCOUNT_TYPES, USAGE_TYPES } from './discount';
import { PROMO_USAGE_STATUSES } from './promo-usage.status';
import {
  archivePromoCode,
  createPromoCode,
  getPromoCode,
  listPromoCodes,
  listPromoUsages,
  updatePromoCode,
  validatePromoCode,
} from './promocode.service';

export const promoCodeSchema = S.named(
  'PromoCode',
  S.out({
    id: S.uuid,
    companyID: S.uuid,
    title: S.str,
    code: S.str,
    description: S.nstr,
    active: S.bool,
    activeFrom: S.nts,
    activeTo: S.nts,
    reservationAllowanceFrom: S.nts,
    reservationAllowanceTo: S.nts,
    discountType: S.oneOf(DISCOUNT_TYPES),
    discountAmount: S.nint,
    discountPercent: { type: ['number', 'null'] },
    maxDiscountAmount: S.nint,
    serviceIds: S.uuids,
    usageType: S.oneOf(USAGE_TYPES),
    usageLimit: S.nint,
    currentUsageCount: S.int,
    metaData: S.obj,
    metaDataVersion: S.int,
    archivedAt: S.nts,
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

const usageSchema = S.named(
  'PromoUsage',
  S.out({
    id: S.uuid,
    promoCodeID: S.uuid,
    companyID: S.uuid,
    clientID: { type: ['string', 'null'], format: 'uuid' },
    reservationID: { type: ['string', 'null'], format: 'uuid' },
    discountAmount: S.int,
    currency: S.nstr,
    status: S.oneOf(PROMO_USAGE_STATUSES),
    metaData: S.obj,
    metaDataVersion: S.int,
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

const validationSchema = S.named(
  'PromoCodeValidation',
  S.out({
    valid: S.bool,
    discountAmount: S.nint,
    errorMessage: S.nstr,
    promoCode: { anyOf: [promoCodeSchema, { type: 'null' }] },
  }),
);

const fields = {
  active: S.bool,
  activeFrom: S.nstr,
  activeTo: S.nstr,
  code: S.str,
  description: S.nstr,
  discountAmount: { type: ['integer', 'null'] },
  discountPercent: { type: ['number', 'null'] },
  discountType: S.choice(DISCOUNT_TYPES),
  maxDiscountAmount: { type: ['integer', 'null'] },
  reservationAllowanceFrom: S.nstr,
  reservationAllowanceTo: S.nstr,
  serviceIds: { type: ['array', 'null'], items: S.str },
  title: S.str,
  usageLimit: { type: ['integer', 'null'] },
  usageType: S.choice(USAGE_TYPES),
};

type P = { cid: string; promo_code_id: string };
const BASE = '/v1/companies/:cid/plugins/promocodes';

export function promoCodeRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: `${BASE}/codes`,
      operationId: 'listPromoCodes',
      auth: 'key',
      summary: 'List of promo codes in company (oldest first; limit 1-100, default 100)',
      params: S.params('cid'),
      querystring: S.pageQuery,
      response: { 200: S.array(promoCodeSchema), ...errors },
      handler: async (ctx, req) => (await listPromoCodes(ctx, (req.params as P).cid, req.query as object)).promoCodes,
    },
    {
      method: 'POST',
      url: `${BASE}/codes`,
      operationId: 'createPromoCode',
      auth: 'key',
      summary: 'Create a new promo code',
      params: S.params('cid'),
      status: 201,
      body: S.named('CreatePromoCodeInput', S.object({ ...fields, metaData: S.nobj }, ['code', 'discountType'])),
      response: { 201: promoCodeSchema, 409: S.error, ...errors },
      handler: (ctx, req) => createPromoCode(ctx, (req.params as P).cid, req.body as object),
    },
    {
      method: 'GET',
      url: `${BASE}/codes/:promo_code_id`,
      operationId: 'getPromoCode',
      auth: 'key',
      summary: 'Get one promo code',
      params: S.params('cid', 'promo_code_id'),
      response: { 200: promoCodeSchema, ...errors },
      handler: (ctx, req) => getPromoCode(ctx, (req.params as P).cid, (req.params as P).promo_code_id),
    },
    {
      method: 'PATCH',
      url: `${BASE}/codes/:promo_code_id`,
      operationId: 'updatePromoCode',
      auth: 'key',
      summary: 'Update promo code',
      params: S.params('cid', 'promo_code_id'),
      body: S.named('UpdatePromoCodeInput', S.object({ ...fields, code: S.nstr, title: S.nstr, metaDataUpdate: S.metaDataUpdate })),
      response: { 200: promoCodeSchema, 409: S.error, ...errors },
      handler: (ctx, req) => updatePromoCode(ctx, (req.params as P).cid, (req.params as P).promo_code_id, (req.body ?? {}) as object),
    },
    {
      method: 'POST',
      url: `${BASE}/codes/:promo_code_id/archive`,
      operationId: 'archivePromoCode',
      auth: 'key',
      summary: 'Archive or unarchive promo code (archived defaults to true)',
      params: S.params('cid', 'promo_code_id'),
      body: S.object({ archived: { ...S.bool, description: 'true (default) archives, false unarchives.' } }),
      response: { 200: promoCodeSchema, ...errors },
      handler: (ctx, req) => archivePromoCode(ctx, (req.params as P).cid, (req.params as P).promo_code_id, req.body as object),
    },
    {
      method: 'GET',
      url: `${BASE}/codes/:promo_code_id/usages`,
      operationId: 'listPromoCodeUsages',
      auth: 'key',
      summary: 'List usages for a promo code (oldest first; limit 1-100, default 100)',
      params: S.params('cid', 'promo_code_id'),
      querystring: S.pageQuery,
      response: { 200: S.array(usageSchema), ...errors },
      handler: async (ctx, req) =>
        (await listPromoUsages(ctx, (req.params as P).cid, (req.params as P).promo_code_id, req.query as object)).promoUsages,
    },
    {
      method: 'POST',
      url: `${BASE}/validate`,
      operationId: 'validatePromoCode',
      auth: 'key',
      summary: 'Validate promo code for a booking (a code that cannot apply is 200 {valid: false})',
      params: S.params('cid'),
      body: S.named(
        'ValidatePromoCodeInput',
        S.object(
          {
            bookingAmount: S.int,
            bookingDate: S.str,
            clientID: S.nstr,
            code: S.str,
            currency: S.nstr,
            serviceIDs: { type: ['array', 'null'], items: S.str },
          },
          ['code'],
        ),
      ),
      response: { 200: validationSchema, ...errors },
      handler: (ctx, req) => validatePromoCode(ctx, (req.params as P).cid, req.body as object),
    },
  ]);
}
