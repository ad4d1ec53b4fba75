import type { FastifyInstance, FastifyRequest } from 'fastify';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { createClient, getClient, listClients, searchClients, updateClient } from './client.service';
import { clientLogin, clientProfile, refreshClientTokens } from './client-auth.service';

const language = {
  type: ['string', 'null'],
  description: "BCP 47 language tag (en, lv, en-GB): the language of the client's e-mails when a template exists for it; null: none",
};

export const clientSchema = S.out({
  id: S.uuid,
  companyID: S.uuid,
  externalUserID: S.str,
  email: S.str,
  firstName: S.nstr,
  lastName: S.nstr,
  language,
  metaData: S.obj,
  metaDataVersion: S.int,
  state: { type: 'string', enum: ['active', 'blocked'] },
  createdAt: S.ts,
  updatedAt: S.ts,
});

const clientPageSchema = S.out({ clients: S.array(clientSchema), limit: S.int, offset: S.int, total: S.int });

const tokenPairSchema = S.out({ accessToken: S.str, refreshToken: S.str, expiresAt: S.ts, expiresIn: S.int });

type P = { cid: string; client_id: string };

/** The refresh token travels as `Authorization: Bearer <refreshToken>`, outside the access-token auth hook. */
function bearerOf(req: FastifyRequest): string | undefined {
  const auth = req.headers.authorization;
  const m = typeof auth === 'string' ? /^bearer\s+(\S+)\s*$/i.exec(auth) : null;
  return m?.[1];
}

export function clientRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: '/v1/companies/:cid/clients',
      auth: 'key',
      summary: 'Get list of clients',
      tags: ['clients'],
      params: S.params('cid'),
      querystring: S.object({ limit: S.str, offset: S.str }),
      response: { 200: clientPageSchema, ...errors },
      heavy: { lane: 'lists' },
      handler: (ctx, req) => listClients(ctx, (req.params as P).cid, req.query as object),
    },
    {
      method: 'POST',
      url: '/v1/companies/:cid/clients',
      auth: 'key',
      summary: 'Create client',
      tags: ['clients'],
      params: S.params('cid'),
      status: 201,
      body: S.object({ email: S.str, externalUserID: S.str, firstName: S.nstr, lastName: S.nstr, language, metaData: S.nobj }, [
        'email',
        'externalUserID',
      ]),
      response: { 201: clientSchema, 409: S.error, ...errors },
      handler: (ctx, req) => createClient(ctx, (req.params as P).cid, req.body as object),
    },
    {
      method: 'GET',
      url: '/v1/companies/:cid/clients/search',
      auth: 'key',
      summary: 'Search for clients',
      tags: ['clients'],
      params: S.params('cid'),
      querystring: S.object({ clientID: S.str, email: S.str, externalUserID: S.str, query: S.str }),
      response: { 200: S.array(clientSchema), ...errors },
      heavy: { lane: 'lists' },
      handler: (ctx, req) => searchClients(ctx, (req.params as P).cid, req.query as object),
    },
    {
      method: 'GET',
      url: '/v1/companies/:cid/clients/:client_id',
      auth: 'key',
      summary: 'Get client',
      tags: ['clients'],
      params: S.params('cid', 'client_id'),
      response: { 200: clientSchema, ...errors },
      handler: (ctx, req) => getClient(ctx, (req.params as P).cid, (req.params as P).client_id),
    },
    {
      method: 'PATCH',
      url: '/v1/companies/:cid/clients/:client_id',
      auth: 'key',
      summary: 'Update client',
      tags: ['clients'],
      params: S.params('cid', 'client_id'),
      body: S.object({ email: S.str, firstName: S.nstr, lastName: S.nstr, language, metaDataUpdate: S.metaDataUpdate, state: S.str }),
      response: { 200: clientSchema, 409: S.error, ...errors },
      handler: (ctx, req) => updateClient(ctx, (req.params as P).cid, (req.params as P).client_id, req.body as object),
    },
    {
      method: 'POST',
      url: '/v1/client/auth/login',
      auth: 'key',
      summary: 'Client authorization',
      tags: ['client interface'],
      body: S.object(
        { companyID: S.str, email: S.str, externalUserID: S.str, firstName: S.nstr, lastName: S.nstr, language, metaData: S.nobj },
        ['companyID', 'email', 'externalUserID'],
      ),
      response: { 200: tokenPairSchema, ...errors },
      handler: (ctx, req) => clientLogin(ctx, req.body as object),
    },
    {
      method: 'POST',
      url: '/v1/client/auth/refresh',
      auth: 'none',
      summary: 'Refresh tokens (Authorization: Bearer <refreshToken>)',
      tags: ['client interface'],
      response: { 200: tokenPairSchema, 400: S.error, 401: S.error, 403: S.error },
      handler: (ctx, req) => refreshClientTokens(ctx, bearerOf(req)),
    },
    {
      method: 'GET',
      url: '/v1/client/profile',
      auth: 'bearer',
      summary: 'Client profile',
      tags: ['client interface'],
      response: { 200: clientSchema, ...errors },
      handler: (ctx) => clientProfile(ctx),
    },
  ]);
}
