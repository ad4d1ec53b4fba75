import type { FastifyRequest } from 'fastify';
import { invalid } from '../shared/errors';

/**
 * Limits of a GraphQL document, applied before it is validated, so that a document of any size
 * costs at most a few milliseconds, whoever sends it (credentials are optional on /graphql):
 *
 * - MAX_DOCUMENT_CHARS: a longer document is refused before it is parsed (and before Apollo
 *   hashes it for its document cache);
 * - MAX_TOKENS: graphql-js stops parsing at the token after it (`parse(source, { maxTokens })`,
 *   Apollo's `parseOptions`). Every parse of a request's document is Apollo's: the direct and
 *   written answers (graphql-direct.ts, graphql-written.ts) work on the document it parsed.
 *
 * The largest legitimate documents are far below both: the standard introspection query with
 * every optional part is 2,100 characters and 184 tokens (the explorer's and codegen's), five
 * aliased copies of it (the most the cost limit lets pass) 345 tokens, the tests' largest
 * accepted operation about 200 tokens. Large inputs belong in variables, which neither limit
 * counts (the JSON body limit, 1 MiB, bounds them).
 */
export const MAX_DOCUMENT_CHARS = 100_000;
export const MAX_TOKENS = 3000;

/** graphql-js parse options for request documents (Apollo's `parseOptions`). */
export const PARSE_OPTIONS = { maxTokens: MAX_TOKENS } as const;

/** Refuses a request whose document (POST body or GET `query` parameter) is longer than MAX_DOCUMENT_CHARS. */
export function checkDocumentSize(req: FastifyRequest): void {
  const from = req.method === 'GET' ? req.query : req.body;
  const query = from && typeof from === 'object' ? (from as { query?: unknown }).query : undefined;
  if (typeof query === 'string' && query.length > MAX_DOCUMENT_CHARS) {
    throw invalid(`the GraphQL document is longer than ${MAX_DOCUMENT_CHARS} characters`);
  }
}
