import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { isGraphqlRequest } from './graphql-http';

/**
 * CORS for browser widgets on the merchants' own sites (contract section 1): the origins of
 * `CORS_ORIGINS` (or `*`) may call `/graphql` and `/v1/*`; nothing else answers CORS. The API
 * authenticates with the `X-API-Key` header or a bearer token, never with cookies, so
 * credentials are never allowed (which is also what makes `*` safe to offer).
 */

/**
 * Request headers a browser script may send: the API's own, `X-Request-Id` (echoed, to follow a
 * request in the logs), and what Apollo Client sends (its client name and version, which Apollo
 * tooling reports by, and the headers that pass Apollo Server's CSRF check on GET queries and
 * multipart requests: `Apollo-Require-Preflight`, `X-Apollo-Operation-Name`).
 */
export const CORS_ALLOWED_HEADERS = [
  'Content-Type',
  'X-API-Key',
  'Authorization',
  'Idempotency-Key',
  'X-Request-Id',
  'Apollographql-Client-Name',
  'Apollographql-Client-Version',
  'Apollo-Require-Preflight',
  'X-Apollo-Operation-Name',
];
/** What a browser script may read from an answer besides the safelisted headers. */
export const CORS_EXPOSED_HEADERS = ['Retry-After', 'X-Request-Id'];
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Seconds a browser may cache a preflight answer. */
export const CORS_MAX_AGE = 600;

const isApiPath = (url: string): boolean => isGraphqlRequest(url) || url.startsWith('/v1/');

/** Registers the CORS hook; call before any hook that may refuse a request, so refusals carry the headers too. */
export async function installCors(app: FastifyInstance, origins: string[]): Promise<void> {
  const origin: string | string[] | false = origins.length === 0 ? false : origins.includes('*') ? '*' : origins;
  await app.register(cors, {
    hideOptionsRoute: true,
    delegator: (req, cb) =>
      cb(null, {
        origin: isApiPath(req.url ?? '') ? origin : false,
        credentials: false,
        methods: CORS_METHODS,
        allowedHeaders: CORS_ALLOWED_HEADERS,
        exposedHeaders: CORS_EXPOSED_HEADERS,
        maxAge: CORS_MAX_AGE,
        strictPreflight: false,
      }),
  });
}
