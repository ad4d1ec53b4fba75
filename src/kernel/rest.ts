import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { runHeavyIf, type HeavyLane } from './bulkhead';
import type { Ctx, DbLane } from './context';

/**
 * How a route authenticates: `none` (public), `key` (merchant API key), `bearer` (client
 * access token), `key|bearer` (either; guests send a key and a `client` object), `optional`
 * (resolve credentials when present, as for /graphql).
 */
export type AuthMode = 'none' | 'key' | 'bearer' | 'key|bearer' | 'optional';

type JsonSchema = Record<string, unknown>;

export interface RouteDef {
  method: HTTPMethods;
  url: string;
  auth: AuthMode;
  summary: string;
  /** OpenAPI operationId; by default the summary in camelCase (unique per server). */
  operationId?: string;
  /** Longer OpenAPI description. */
  description?: string;
  tags?: string[];
  /** Request headers the route reads (documented as header parameters). */
  headers?: JsonSchema;
  params?: JsonSchema;
  querystring?: JsonSchema;
  body?: JsonSchema;
  /**
   * Response schemas by status, for the OpenAPI document (serialisation is plain JSON). The
   * integration tests check every response against the schema of its status.
   */
  response: Record<number, JsonSchema>;
  /** Success status, 200 by default; 204 sends no body. */
  status?: number;
  /** Returns the answer as an object, or as a Buffer (JSON already serialised, unless it sets its content type). */
  handler: (ctx: Ctx, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  /**
   * An expensive operation (a long availability window, a large list): it runs under the
   * bulkhead of expensive work (`kernel/bulkhead.ts`), for every request or those it names.
   */
  heavy?: { lane: HeavyLane; when?: (req: FastifyRequest) => boolean };
  /** The database pool the request takes (`kernel/context.ts`): by default `write` for every method but GET. */
  db?: DbLane;
}

/** A request's database pool: the route's, else `write` for methods that change something, `read` for GET. */
export function dbLaneOf(method: string, declared: DbLane | undefined): DbLane {
  return declared ?? (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 'read' : 'write');
}

declare module 'fastify' {
  interface FastifyRequest {
    ctx: Ctx;
  }
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** false for operational endpoints that a rate limit must never refuse (probes, metrics) */
    rateLimit?: boolean;
    /** the database pool of the route's requests (`dbLaneOf`) */
    db?: DbLane;
  }
}

/** `List available times` -> `listAvailableTimes`. */
export function operationIdOf(summary: string): string {
  const words = summary
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ');
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase())).join('');
}

const operationIds = new WeakMap<FastifyInstance, Set<string>>();

/** Claims an operationId on this server; a second route with the same one is a programming error. */
export function claimOperationId(app: FastifyInstance, id: string, where: string): string {
  let ids = operationIds.get(app);
  if (!ids) operationIds.set(app, (ids = new Set()));
  if (ids.has(id)) throw new Error(`duplicate OpenAPI operationId ${id} (${where}); give the route its own operationId`);
  ids.add(id);
  return id;
}

/** Registers thin REST routes: schema-validated input, one service call, JSON out. */
export function defineRoutes(app: FastifyInstance, routes: RouteDef[]): void {
  for (const r of routes) {
    const status = r.status ?? 200;
    app.route({
      method: r.method,
      url: r.url,
      config: { auth: r.auth, ...(r.db ? { db: r.db } : {}) },
      schema: Object.fromEntries(
        Object.entries({
          summary: r.summary,
          description: r.description,
          operationId: claimOperationId(app, r.operationId ?? operationIdOf(r.summary), `${r.method} ${r.url}`),
          tags: r.tags,
          params: r.params,
          querystring: r.querystring,
          headers: r.headers,
          body: r.body,
          response: { ...r.response, ...commonErrors },
          security: securityOf(r.auth),
        }).filter(([, v]) => v !== undefined),
      ),
      handler: async (req, reply) => {
        const heavy = !!r.heavy && (r.heavy.when?.(req) ?? true);
        const result = await runHeavyIf(req.ctx, heavy, r.heavy?.lane ?? 'lists', () => r.handler(req.ctx, req, reply));
        if (reply.sent) return reply;
        reply.code(status);
        if (status === 204) return reply.send();
        // A Buffer without a content type is an answer already serialised to JSON (computed on a
        // worker thread); files (PDFs) set their own type.
        if (Buffer.isBuffer(result) && !reply.hasHeader('content-type')) reply.type('application/json; charset=utf-8');
        return reply.send(result);
      },
    });
  }
}

export function securityOf(auth: AuthMode): Record<string, string[]>[] {
  switch (auth) {
    case 'none':
    case 'optional':
      return [];
    case 'key':
      return [{ apiKey: [] }];
    case 'bearer':
      return [{ bearer: [] }];
    default:
      return [{ apiKey: [] }, { bearer: [] }];
  }
}

/** JSON-schema building blocks shared by the route files. */
export const S = {
  uuid: { type: 'string', format: 'uuid' } as JsonSchema,
  str: { type: 'string' } as JsonSchema,
  nstr: { type: ['string', 'null'] } as JsonSchema,
  int: { type: 'integer' } as JsonSchema,
  nint: { type: ['integer', 'null'] } as JsonSchema,
  num: { type: 'number' } as JsonSchema,
  bool: { type: 'boolean' } as JsonSchema,
  ts: { type: 'string', format: 'date-time' } as JsonSchema,
  nts: { type: ['string', 'null'], format: 'date-time' } as JsonSchema,
  obj: { type: 'object', additionalProperties: true } as JsonSchema,
  nobj: { type: ['object', 'null'], additionalProperties: true } as JsonSchema,
  any: {} as JsonSchema,
  uuids: { type: 'array', items: { type: 'string', format: 'uuid' } } as JsonSchema,
  strs: { type: 'array', items: { type: 'string' } } as JsonSchema,
  /** An object schema; `required` lists mandatory keys. Unknown keys are accepted and ignored. */
  object(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
    return { type: 'object', properties, required, additionalProperties: true };
  },
  /**
   * A response object: every property is always sent (null when empty) unless named in
   * `optional`, and no other property is sent. The integration tests hold every response to it.
   */
  out(properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
    return {
      type: 'object',
      properties,
      required: Object.keys(properties).filter((k) => !optional.includes(k)),
      additionalProperties: false,
    };
  },
  array(items: JsonSchema): JsonSchema {
    return { type: 'array', items };
  },
  params(...names: string[]): JsonSchema {
    return { type: 'object', properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])), required: names };
  },
  error: {
    type: 'object',
    properties: {
      code: { type: 'string' },
      message: { type: 'string' },
      details: {
        type: 'array',
        items: {
          type: 'object',
          properties: { path: { type: 'string' }, message: { type: 'string' } },
          required: ['path', 'message'],
          additionalProperties: false,
        },
      },
    },
    required: ['code', 'message'],
    additionalProperties: false,
  } as JsonSchema,
  /** The `limit` and `offset` query parameters of a paged list. */
  pageQuery: {
    type: 'object',
    properties: { limit: { type: 'string' }, offset: { type: 'string' } },
    required: [],
    additionalProperties: true,
  } as JsonSchema,
  metaDataUpdate: {
    type: 'object',
    properties: { expectedVersion: { type: ['integer', 'null'] }, path: { type: 'string' }, value: {} },
    required: ['path'],
  } as JsonSchema,
};

/** Parses a comma-separated query list (`a,b,c`), dropping blanks. */
export function csv(v: unknown): string[] | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const parts = (Array.isArray(v) ? v.join(',') : String(v))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return parts;
}

const errorAnswer = (description: string, headers?: Record<string, JsonSchema>): JsonSchema => ({
  ...S.error,
  description,
  ...(headers ? { headers } : {}),
});
const retryAfter = { 'Retry-After': { type: 'integer', minimum: 1, description: 'seconds to wait before retrying' } };

/** The error answers every authenticated route can give (contract error body). */
export const errors = {
  400: errorAnswer('invalid_request: malformed JSON, wrong types, missing fields, bad formats'),
  401: errorAnswer('unauthorized: no or bad credentials'),
  403: errorAnswer('forbidden: permission missing or company of another merchant'),
  404: errorAnswer('not_found: no such record in this company'),
};

/** The answers any route can give, added to every route's responses. */
export const commonErrors = {
  429: errorAnswer('rate_limited: too many requests for this key, client or address', retryAfter),
  500: errorAnswer('internal_error: unexpected failure; safe to retry'),
};

export const timeRangeSchema = S.out({ start: S.str, end: S.str });

/**
 * The stored (normalised) limitation, shared by capacity rules, price rules and discounts: time
 * ranges always `{start, end}`; only the parts that were set.
 */
export const limitationSchema: JsonSchema = {
  type: ['object', 'null'],
  properties: {
    dates: S.array(S.out({ start: S.str, end: S.str })),
    daysOfWeek: S.int,
    resourceIDs: S.uuids,
    times: S.array(timeRangeSchema),
  },
  additionalProperties: false,
};

/** A limitation in a request: times as `{start, end}` or `{startTime, endTime}`. */
export const limitationBody: JsonSchema = {
  type: ['object', 'null'],
  description: '{dates: [{start, end}], daysOfWeek, resourceIDs, times: [{start, end} | {startTime, endTime}]}',
  additionalProperties: true,
};
