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

export const promoCodeSchema = S.out({
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
  discountType: { type: 'string', enum: [...DISCOUNT_TYPES] },
  discountAmount: S.nint,
  discountPercent: { type: ['number', 'null'] },
  maxDiscountAmount: S.nint,
  serviceIds: S.uuids,
  usageType: { type: 'string', enum: [...USAGE_TYPES] },
  usageLimit: S.nint,
  currentUsageCount: S.int,
  metaData: S.obj,
  metaDataVersion: S.int,
  archivedAt: S.nts,
  createdAt: S.ts,
  updatedAt: S.ts,
});

const usageSchema = S.out({
  id: S.uuid,
  promoCodeID: S.uuid,
  companyID: S.uuid,
  clientID: { type: ['string', 'null'], format: 'uuid' },
  reservationID: { type: ['string', 'null'], format: 'uuid' },
  discountAmount: S.int,
  currency: S.nstr,
  status: { type: 'string', enum: [...PROMO_USAGE_STATUSES] },
  metaData: S.obj,
  metaDataVersion: S.int,
  createdAt: S.ts,
  updatedAt: S.ts,
});

const validationSchema = S.out({
  valid: S.bool,
  discountAmount: S.nint,
  errorMessage: S.nstr,
  promoCode: { anyOf: [promoCodeSchema, { type: 'null' }] },
});

const fields = {
  active: S.bool,
  activeFrom: S.nstr,
  activeTo: S.nstr,
  code: S.str,
  description: S.nstr,
  discountAmount: { type: ['integer', 'null'] },
  discountPercent: { type: ['number', 'null'] },
  discountType: S.str,
  maxDiscountAmount: { type: ['integer', 'null'] },
  reservationAllowanceFrom: S.nstr,
  reservationAllowanceTo: S.nstr,
  serviceIds: { type: ['array', 'null'], items: S.str },
  title: S.str,
  usageLimit: { type: ['integer', 'null'] },
  usageType: S.str,
};

type P = { cid: string; promo_code_id: string };
const BASE = '/v1/companies/:cid/plugins/promocodes';
const tags = ['promo codes'];

export function promoCodeRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: `${BASE}/codes`,
      auth: 'key',
      summary: 'List of promo codes in company (oldest first; limit 1-100, default 100)',
      tags,
      params: S.params('cid'),
      querystring: S.pageQuery,
      response: { 200: S.array(promoCodeSchema), ...errors },
      handler: async (ctx, req) => (await listPromoCodes(ctx, (req.params as P).cid, req.query as object)).promoCodes,
    },
    {
      method: 'POST',
      url: `${BASE}/codes`,
      auth: 'key',
      summary: 'Create a new promo code',
      tags,
      params: S.params('cid'),
      status: 201,
      body: S.object({ ...fields, metaData: S.nobj }, ['code', 'discountType']),
      response: { 201: promoCodeSchema, 409: S.error, ...errors },
      handler: (ctx, req) => createPromoCode(ctx, (req.params as P).cid, req.body as object),
    },
    {
      method: 'GET',
      url: `${BASE}/codes/:promo_code_id`,
      auth: 'key',
      summary: 'Get one promo code',
      tags,
      params: S.params('cid', 'promo_code_id'),
      response: { 200: promoCodeSchema, ...errors },
      handler: (ctx, req) => getPromoCode(ctx, (req.params as P).cid, (req.params as P).promo_code_id),
    },
    {
      method: 'PATCH',
      url: `${BASE}/codes/:promo_code_id`,
      auth: 'key',
      summary: 'Update promo code',
      tags,
      params: S.params('cid', 'promo_code_id'),
      body: S.object({ ...fields, code: S.nstr, title: S.nstr, metaDataUpdate: S.metaDataUpdate }),
      response: { 200: promoCodeSchema, 409: S.error, ...errors },
      handler: (ctx, req) => updatePromoCode(ctx, (req.params as P).cid, (req.params as P).promo_code_id, (req.body ?? {}) as object),
    },
    {
      method: 'POST',
      url: `${BASE}/codes/:promo_code_id/archive`,
      auth: 'key',
      summary: 'Archive or unarchive promo code (archived defaults to true)',
      tags,
      params: S.params('cid', 'promo_code_id'),
      body: S.object({ archived: S.bool }),
      response: { 200: promoCodeSchema, ...errors },
      handler: (ctx, req) => archivePromoCode(ctx, (req.params as P).cid, (req.params as P).promo_code_id, req.body as object),
    },
    {
      method: 'GET',
      url: `${BASE}/codes/:promo_code_id/usages`,
      auth: 'key',
      summary: 'List usages for a promo code (oldest first; limit 1-100, default 100)',
      tags,
      params: S.params('cid', 'promo_code_id'),
      querystring: S.pageQuery,
      response: { 200: S.array(usageSchema), ...errors },
      handler: async (ctx, req) =>
        (await listPromoUsages(ctx, (req.params as P).cid, (req.params as P).promo_code_id, req.query as object)).promoUsages,
    },
    {
      method: 'POST',
      url: `${BASE}/validate`,
      auth: 'key',
      summary: 'Validate promo code for a booking (a code that cannot apply is 200 {valid: false})',
      tags,
      params: S.params('cid'),
      body: S.object(
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
      response: { 200: validationSchema, ...errors },
      handler: (ctx, req) => validatePromoCode(ctx, (req.params as P).cid, req.body as object),
    },
  ]);
}
