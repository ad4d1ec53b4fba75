import type { FastifyInstance } from 'fastify';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { createCompany, getCompany, listCompanies } from './company.service';
import { createApiKey, listApiKeys, revokeApiKey } from './apikey.service';

export const companySchema = S.out({
  id: S.uuid,
  name: S.str,
  ownerID: S.uuid,
  timeZone: S.str,
  enabled: S.bool,
  createdAt: S.ts,
  updatedAt: S.ts,
});

const apiKeyProps = {
  id: S.uuid,
  name: S.str,
  keyPrefix: S.str,
  permissions: { type: 'object', additionalProperties: S.strs },
  state: { type: 'string', enum: ['active', 'revoked'] },
  createdAt: S.ts,
  revokedAt: S.nts,
};
const apiKeySchema = S.out(apiKeyProps);
/** The secret `key` is returned once, by the create call (contract section 2). */
const newApiKeySchema = S.out({ ...apiKeyProps, key: S.str });

type P = { cid: string; key_id: string };

export function companyRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: '/v1/companies',
      auth: 'key',
      summary: 'List companies',
      tags: ['companies'],
      response: { 200: S.array(companySchema), ...errors },
      handler: (ctx) => listCompanies(ctx),
    },
    {
      method: 'POST',
      url: '/v1/companies',
      auth: 'key',
      summary: 'Create company',
      tags: ['companies'],
      status: 201,
      body: S.object({ name: S.str, timeZone: S.str }, ['name', 'timeZone']),
      response: { 201: companySchema, ...errors },
      handler: (ctx, req) => createCompany(ctx, req.body as object),
    },
    {
      method: 'GET',
      url: '/v1/companies/:cid',
      auth: 'key',
      summary: 'Get company',
      tags: ['companies'],
      params: S.params('cid'),
      response: { 200: companySchema, ...errors },
      handler: (ctx, req) => getCompany(ctx, (req.params as P).cid),
    },
    {
      method: 'POST',
      url: '/v1/api-keys',
      auth: 'key',
      summary: 'Create a new API key',
      tags: ['api keys'],
      status: 201,
      body: S.object({ name: S.str, permissions: S.obj }, ['name', 'permissions']),
      response: { 201: newApiKeySchema, ...errors },
      handler: (ctx, req) => createApiKey(ctx, req.body as object),
    },
    {
      method: 'GET',
      url: '/v1/api-keys',
      auth: 'key',
      summary: 'List API keys',
      tags: ['api keys'],
      response: { 200: S.array(apiKeySchema), ...errors },
      handler: (ctx) => listApiKeys(ctx),
    },
    {
      method: 'DELETE',
      url: '/v1/api-keys/:key_id',
      auth: 'key',
      summary: 'Revoke an API key',
      tags: ['api keys'],
      params: S.params('key_id'),
      response: { 200: apiKeySchema, ...errors },
      handler: (ctx, req) => revokeApiKey(ctx, (req.params as P).key_id),
    },
  ]);
}
