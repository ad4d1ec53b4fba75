import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { Ctx } from '../kernel/context';

/**
 * Persisted-operation safelisting (`GRAPHQL_PERSISTED_ONLY`): the server runs only the
 * operations of a manifest in the format Apollo's persisted-query tooling writes
 * (`@apollo/generate-persisted-query-manifest`):
 *
 *   {"format": "apollo-persisted-query-manifest", "version": 1,
 *    "operations": [{"id": "<sha256 of body>", "name": "...", "type": "query", "body": "..."}]}
 *
 * An operation is sent by its id as APQ sends a hash (`extensions.persistedQuery.sha256Hash`,
 * what Apollo Client's persisted-query links send), or as its exact text. Nothing else runs,
 * not even the registration APQ would otherwise accept (hash and text together).
 */

const FORMAT = 'apollo-persisted-query-manifest';
const TYPES = new Set(['query', 'mutation', 'subscription']);
/** Apollo Server's prefix of the keys it asks its APQ cache for. */
const APQ_PREFIX = 'apq:';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The operations of a manifest, by id and by the SHA-256 of their text. */
export class PersistedManifest {
  private readonly bodies = new Map<string, string>();
  private readonly hashes = new Set<string>();

  constructor(operations: readonly { id: string; body: string }[]) {
    for (const op of operations) {
      this.bodies.set(op.id, op.body);
      this.hashes.add(sha256(op.body));
    }
  }

  get size(): number {
    return this.bodies.size;
  }

  /** The text of the operation with this id. */
  byId(id: string): string | undefined {
    return this.bodies.get(id);
  }

  /** Whether the text is exactly that of a listed operation. */
  listed(text: string): boolean {
    return this.hashes.has(sha256(text));
  }

  /**
   * Apollo Server's APQ cache (`persistedQueries.cache`) holding the manifest: a hash is read
   * from it, and what a client would register is not kept.
   */
  apqCache() {
    return {
      get: async (key: string) => this.byId(key.startsWith(APQ_PREFIX) ? key.slice(APQ_PREFIX.length) : key),
      set: async () => undefined,
      delete: async () => false,
    };
  }
}

/** Reads and checks a manifest; a file that is missing or not a manifest stops the server's start. */
export function loadPersistedManifest(path: string): PersistedManifest {
  const fail = (why: string): never => {
    throw new Error(`the persisted-operation manifest ${path} ${why}`);
  };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    return fail(`cannot be read as JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const m = raw as { format?: unknown; version?: unknown; operations?: unknown };
  if (!m || typeof m !== 'object' || m.format !== FORMAT || m.version !== 1 || !Array.isArray(m.operations))
    return fail(`is not an Apollo persisted-query manifest ({"format": "${FORMAT}", "version": 1, "operations": [...]})`);
  const seen = new Map<string, string>();
  m.operations.forEach((op: { id?: unknown; type?: unknown; body?: unknown }, i) => {
    if (!op || typeof op.id !== 'string' || !op.id || typeof op.body !== 'string' || !op.body || !TYPES.has(op.type as string))
      fail(`has an invalid operation at index ${i}: each needs an id, a body and a type (query, mutation or subscription)`);
    const known = seen.get(op.id as string);
    if (known !== undefined && known !== op.body) fail(`lists the id ${String(op.id)} for two different operations`);
    seen.set(op.id as string, op.body as string);
  });
  return new PersistedManifest([...seen].map(([id, body]) => ({ id, body })));
}

export const PERSISTED_ONLY_MESSAGE =
  'this server runs only the operations of its persisted-operation manifest (GRAPHQL_PERSISTED_ONLY): send a listed operation ' +
  'by its id (extensions.persistedQuery.sha256Hash) or as its exact text';

/**
 * Refuses a request whose text is not a listed operation: it never executes, and its answer is
 * the refusal alone (no parse or validation error telling what the schema holds), `forbidden`,
 * HTTP 403 under `application/graphql-response+json`. Requests by hash need nothing here:
 * Apollo reads their text from the manifest (apqCache), and an unknown hash is its
 * `PersistedQueryNotFound`. First among the plugins: the others' `willSendResponse` (the cost,
 * the status) then apply to the refusal.
 */
export function persistedOnlyPlugin(manifest: PersistedManifest): ApolloServerPlugin<Ctx> {
  return {
    async requestDidStart({ request }) {
      if (typeof request.query !== 'string' || manifest.listed(request.query)) return {};
      return {
        async didResolveOperation() {
          throw new GraphQLError(PERSISTED_ONLY_MESSAGE, { extensions: { code: 'forbidden', http: { status: 403 } } });
        },
        async willSendResponse({ response }) {
          response.body = {
            kind: 'single',
            singleResult: { errors: [{ message: PERSISTED_ONLY_MESSAGE, extensions: { code: 'forbidden' } }] },
          };
          response.http.status = 403;
        },
      };
    },
  };
}
