import type { FastifyInstance } from 'fastify';
import { CHECKED_BY_SERVICE, defineRoutes, errors, S } from '../../kernel/rest';
import { GRANTABLE } from '../../kernel/permissions';
import { API_KEY_STATES } from './company.entity';

import { createCompany, getCompany, listCompanies } from './company.service';
import { createApiKey, listApiKeys, revokeApiKey } from './apikey.service';

export const companySchema = S.named(
  'Company',
  S.out({
    id: S.uuid,
    name: S.str,
    ownerID: S.uuid,
    timeZone: S.str,
    enabled: S.bool,
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

const PERMISSIONS_TEXT =
  'What the key may do: permissions (`bookings.read`, `bookings.*`, `*`) by company id, or under `*` for every company.';
const apiKeyProps = {
  id: S.uuid,
  name: S.str,
  keyPrefix: S.str,
  permissions: { type: 'object', description: PERMISSIONS_TEXT, additionalProperties: S.array(S.oneOf(GRANTABLE)) },
  state: S.oneOf(API_KEY_STATES),
  createdAt: S.ts,
  revokedAt: S.nts,
};
const apiKeySchema = S.named('ApiKey', S.out(apiKeyProps));
/** The secret `key` is returned once, by the create call (contract section 2). */
const newApiKeySchema = S.named('CreatedApiKey', S.out({ ...apiKeyProps, key: S.str }));
// the service checks the permissions, and names the scope at fault
const createKeyBody = S.named(
  'CreateApiKeyInput',
  S.object(
    {
      name: S.str,
      permissions: {
        ...S.obj,
        description: PERMISSIONS_TEXT,
        [CHECKED_BY_SERVICE]: { additionalProperties: S.array(S.choice(GRANTABLE)) },
      },
    },
    ['name', 'permissions'],
  ),
);

type P = { cid: string; key_id: string };

export function companyRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: '/v1/companies',
      operationId: 'listCompanies',
      auth: 'key',
      summary: 'List companies',
      response: { 200: S.array(companySchema), ...errors },
      handler: (ctx) => listCompanies(ctx),
    },
    {
      method: 'POST',
      url: '/v1/companies',
      operationId: 'createCompany',
      auth: 'key',
      summary: 'Create company',
      status: 201,
      body: S.named('CreateCompanyInput', S.object({ name: S.str, timeZone: S.str }, ['name', 'timeZone'])),
      response: { 201: companySchema, ...errors },
      handler: (ctx, req) => createCompany(ctx, req.body as object),
    },
    {
      method: 'GET',
      url: '/v1/companies/:cid',
      operationId: 'getCompany',
      auth: 'key',
      summary: 'Get company',
      params: S.params('cid'),
      response: { 200: companySchema, ...errors },
      handler: (ctx, req) => getCompany(ctx, (req.params as P).cid),
    },
    {
      method: 'POST',
      url: '/v1/api-keys',
      operationId: 'createApiKey',
      auth: 'key',
      summary: 'Create a new API key',
      status: 201,
      body: createKeyBody,
      response: { 201: newApiKeySchema, ...errors },
      handler: (ctx, req) => createApiKey(ctx, req.body as object),
    },
    {
      method: 'GET',
      url: '/v1/api-keys',
      operationId: 'listApiKeys',
      auth: 'key',
      summary: 'List API keys',
      response: { 200: S.array(apiKeySchema), ...errors },
      handler: (ctx) => listApiKeys(ctx),
    },
    {
      method: 'DELETE',
      url: '/v1/api-keys/:key_id',
      operationId: 'revokeApiKey',
      auth: 'key',
      summary: 'Revoke an API key',
      params: S.params('key_id'),
      response: { 200: apiKeySchema, ...errors },
      handler: (ctx, req) => revokeApiKey(ctx, (req.params as P).key_id),
    },
  ]);
}
