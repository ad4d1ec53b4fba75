import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DomainError } from '../shared/errors';
import { costExtension } from './graphql-cost';

/**
 * `/graphql` answers every failure as a GraphQL response, `{errors: [{message, extensions:
 * {code, details?}}]}`, whatever layer refuses the request (credentials, rate limit, body
 * parser, router), so GraphQL clients read them like any other error. The HTTP status follows
 * the GraphQL-over-HTTP specification:
 *
 * - `Accept: application/graphql-response+json` (preferred over `application/json`): the
 *   status of the failure (401, 403, 429, 400, 413, ...);
 * - `application/json` (the default without an Accept header): 200 for every well-formed
 *   GraphQL request, whatever its errors; a request that never was one (a body that is not JSON,
 *   too large, of another content type, a malformed URL) keeps its 4xx status.
 *
 * A server failure keeps its 5xx status in both (a 503 while shutting down or shedding load).
 */

export const GRAPHQL_PATH = '/graphql';
export const GRAPHQL_RESPONSE_JSON = 'application/graphql-response+json';
export const APPLICATION_JSON = 'application/json';

export type GraphqlMediaType = typeof GRAPHQL_RESPONSE_JSON | typeof APPLICATION_JSON;

interface Accepted {
  type: string;
  subtype: string;
  q: number;
  index: number;
}

function parseAccept(header: string): Accepted[] {
  const out: Accepted[] = [];
  header.split(',').forEach((part, index) => {
    const [range, ...params] = part.trim().split(';');
    const [type, subtype] = range.trim().toLowerCase().split('/');
    if (!type || !subtype) return;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split('=');
      if (k?.toLowerCase() === 'q') q = Number(v);
    }
    if (Number.isFinite(q)) out.push({ type, subtype, q, index });
  });
  return out;
}

/** The most specific range of the Accept header matching `media`, or null. */
function matchOf(accepted: Accepted[], media: string): { q: number; index: number; specificity: number } | null {
  const [type, subtype] = media.split('/');
  let best: { q: number; index: number; specificity: number } | null = null;
  for (const a of accepted) {
    const specificity = a.type === type && a.subtype === subtype ? 2 : a.type === type && a.subtype === '*' ? 1 : a.type === '*' ? 0 : -1;
    if (specificity < 0) continue;
    if (!best || specificity > best.specificity) best = { q: a.q, index: a.index, specificity };
  }
  return best && best.q > 0 ? best : null;
}

/**
 * The media type of the answer: `application/graphql-response+json` when the client prefers it
 * (a higher q, or named earlier at the same q), else `application/json` (also without an
 * Accept header); null when the client accepts neither.
 */
export function graphqlMediaType(accept: string | undefined): GraphqlMediaType | null {
  if (!accept || !accept.trim()) return APPLICATION_JSON;
  const accepted = parseAccept(accept);
  const gql = matchOf(accepted, GRAPHQL_RESPONSE_JSON);
  const json = matchOf(accepted, APPLICATION_JSON);
  if (!gql) return json ? APPLICATION_JSON : null;
  if (!json) return GRAPHQL_RESPONSE_JSON;
  if (gql.q !== json.q) return gql.q > json.q ? GRAPHQL_RESPONSE_JSON : APPLICATION_JSON;
  if (gql.specificity !== json.specificity) return gql.specificity > json.specificity ? GRAPHQL_RESPONSE_JSON : APPLICATION_JSON;
  return gql.index < json.index ? GRAPHQL_RESPONSE_JSON : APPLICATION_JSON;
}

/**
 * The HTTP status of a GraphQL answer carrying only errors: the failure's own status for
 * `application/graphql-response+json`; 200 for `application/json` when the request was a
 * well-formed GraphQL request. A server failure (500, 503) keeps its status in both.
 */
export function graphqlErrorStatus(media: GraphqlMediaType, status: number, wellFormed: boolean): number {
  if (status >= 500) return status;
  if (media === GRAPHQL_RESPONSE_JSON || !wellFormed) return status;
  return 200;
}

/** True for a request addressed to the GraphQL endpoint (path only; the query string is ignored). */
export function isGraphqlRequest(url: string | undefined): boolean {
  if (!url) return false;
  const path = url.split('?')[0];
  return path === GRAPHQL_PATH || path === `${GRAPHQL_PATH}/`;
}

/** The GraphQL body of a failure met before the document was evaluated (its cost unknown). */
export function graphqlErrorBody(err: Pick<DomainError, 'code' | 'message' | 'details'>): { errors: unknown[]; extensions: object } {
  return {
    errors: [{ message: err.message, extensions: { code: err.code, ...(err.details ? { details: err.details } : {}) } }],
    extensions: costExtension(null),
  };
}

/**
 * Answers a failure raised before GraphQL execution (hooks, body parser, router) as a GraphQL
 * response. `wellFormed`: whether the request was a well-formed GraphQL request (credentials
 * and rate limits refuse those; an unreadable body or URL never was one).
 */
export function sendGraphqlError(
  req: FastifyRequest,
  reply: FastifyReply,
  err: Pick<DomainError, 'code' | 'message' | 'details' | 'status'>,
  wellFormed: boolean,
): FastifyReply {
  const media = graphqlMediaType(req.headers.accept) ?? APPLICATION_JSON;
  return reply
    .code(graphqlErrorStatus(media, err.status, wellFormed))
    .type(`${media}; charset=utf-8`)
    .send(graphqlErrorBody(err));
}
