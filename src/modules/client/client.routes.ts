import type { FastifyInstance, FastifyRequest } from 'fastify';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { createClient, getClient, listClients, searchClients, updateClient } from './client.service';
import { clientLogin, clientProfile, refreshClientTokens } from './client-auth.service';
import { CLIENT_STATES } from './client.entity';

// the texts of language (as of every field) are the GraphQL fields'
export const clientSchema = S.named(
  'Client',
  S.out({
    id: S.uuid,
    companyID: S.uuid,
    externalUserID: S.str,
    email: S.str,
    firstName: S.nstr,
    lastName: S.nstr,
    language: S.nstr,
    metaData: S.obj,
    metaDataVersion: S.int,
    state: S.oneOf(CLIENT_STATES),
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

const clientPageSchema = S.named('ClientPage', S.out({ clients: S.array(clientSchema), limit: S.int, offset: S.int, total: S.int }));

const tokenPairSchema = S.named('TokenPair', S.out({ accessToken: S.str, refreshToken: S.str, expiresAt: S.ts, expiresIn: S.int }));

/** A guest (an API key with client.create instead of a client token): found or made a client of the company by email. */
export const guestClientSchema = S.named(
  'GuestClientInput',
  S.object({ platformID: S.str, id: S.str, email: S.str, firstName: S.nstr, lastName: S.nstr }),
);

const bodies = {
  create: S.named(
    'CreateClientInput',
    S.object({ email: S.str, externalUserID: S.str, firstName: S.nstr, lastName: S.nstr, language: S.nstr, metaData: S.nobj }, [
      'email',
      'externalUserID',
    ]),
  ),
  update: S.named(
    'UpdateClientInput',
    S.object({
      email: S.str,
      firstName: S.nstr,
      lastName: S.nstr,
      language: S.nstr,
      metaDataUpdate: S.metaDataUpdate,
      state: S.choice(CLIENT_STATES),
    }),
  ),
  login: S.named(
    'ClientLoginInput',
    S.object(
      { companyID: S.str, email: S.str, externalUserID: S.str, firstName: S.nstr, lastName: S.nstr, language: S.nstr, metaData: S.nobj },
      ['companyID', 'email', 'externalUserID'],
    ),
  ),
};

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
      operationId: 'listClients',
      auth: 'key',
      summary: 'Get list of clients',
      params: S.params('cid'),
      querystring: S.object({ limit: S.str, offset: S.str }),
      response: { 200: clientPageSchema, ...errors },
      heavy: { lane: 'lists' },
      handler: (ctx, req) => listClients(ctx, (req.params as P).cid, req.query as object),
    },
    {
      method: 'POST',
      url: '/v1/companies/:cid/clients',
      operationId: 'createClient',
      auth: 'key',
      summary: 'Create client',
      params: S.params('cid'),
      status: 201,
      body: bodies.create,
      response: { 201: clientSchema, 409: S.error, ...errors },
      handler: (ctx, req) => createClient(ctx, (req.params as P).cid, req.body as object),
    },
    {
      method: 'GET',
      url: '/v1/companies/:cid/clients/search',
      operationId: 'searchClients',
      auth: 'key',
      summary: 'Search for clients',
      params: S.params('cid'),
      querystring: S.named('ClientSearchFilter', S.object({ clientID: S.str, email: S.str, externalUserID: S.str, query: S.str })),
      response: { 200: S.array(clientSchema), ...errors },
      heavy: { lane: 'lists' },
      handler: (ctx, req) => searchClients(ctx, (req.params as P).cid, req.query as object),
    },
    {
      method: 'GET',
      url: '/v1/companies/:cid/clients/:client_id',
      operationId: 'getClient',
      auth: 'key',
      summary: 'Get client',
      params: S.params('cid', 'client_id'),
      response: { 200: clientSchema, ...errors },
      handler: (ctx, req) => getClient(ctx, (req.params as P).cid, (req.params as P).client_id),
    },
    {
      method: 'PATCH',
      url: '/v1/companies/:cid/clients/:client_id',
      operationId: 'updateClient',
      auth: 'key',
      summary: 'Update client',
      params: S.params('cid', 'client_id'),
      body: bodies.update,
      response: { 200: clientSchema, 409: S.error, ...errors },
      handler: (ctx, req) => updateClient(ctx, (req.params as P).cid, (req.params as P).client_id, req.body as object),
    },
    {
      method: 'POST',
      url: '/v1/client/auth/login',
      operationId: 'clientLogin',
      auth: 'key',
      summary: 'Client authorization',
      body: bodies.login,
      response: { 200: tokenPairSchema, ...errors },
      handler: (ctx, req) => clientLogin(ctx, req.body as object),
    },
    {
      method: 'POST',
      url: '/v1/client/auth/refresh',
      operationId: 'refreshClientTokens',
      auth: 'none',
      summary: 'Refresh tokens (Authorization: Bearer <refreshToken>)',
      response: { 200: tokenPairSchema, 400: S.error, 401: S.error, 403: S.error },
      handler: (ctx, req) => refreshClientTokens(ctx, bearerOf(req)),
    },
    {
      method: 'GET',
      url: '/v1/client/profile',
      operationId: 'getClientProfile',
      auth: 'bearer',
      summary: 'Client profile',
      response: { 200: clientSchema, ...errors },
      handler: (ctx) => clientProfile(ctx),
    },
  ]);
}
