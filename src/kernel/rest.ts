import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { runHeavyIf, type HeavyLane } from './bulkhead';
import type { Ctx, DbLane } from './context';

/**
 * How a route authenticates: `none` (public), `key` (merchant API key), `bearer` (client
 * access token), `key|bearer` (either; guests send a key and a `client` object), `optional`
 * (resolve credentials when present, as for /graphql).
 */
export type AuthMode = 'none' | 'key' | 'bearer' | 'key|bearer' | 'optional';

type JsonSchema = Record<string, unknown>;

/**
 * What the service checks in a request field beyond its type, for the OpenAPI document: the
 * keywords it holds (`enum` for `S.choice`) are the field's there. Request schemas check types
 * only, so REST and GraphQL refuse a wrong value alike (and the service's answer names the field
 * at fault): the validator ignores this keyword (unknown keywords pass, `app/server.ts`).
 */
export const CHECKED_BY_SERVICE = 'x-checked';

export interface RouteDef {
  method: HTTPMethods;
  url: string;
  auth: AuthMode;
  summary: string;
  /**
   * OpenAPI operationId, the method name generated clients give the operation: short camelCase
   * (`createBooking`, `listBookings`), unique per server. The GraphQL field's name where there is one.
   */
  operationId: string;
  /** Longer OpenAPI description. */
  description?: string;
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
  interface FastifyInstance {
    /** Compiles the request validators not compiled yet (app/validators.ts); returns how many. */
    compileValidators(): number;
  }
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** false for operational endpoints that a rate limit must never refuse (probes, metrics) */
    rateLimit?: boolean;
    /** the database pool of the route's requests (`dbLaneOf`) */
    db?: DbLane;
  }
}

const operationIds = new WeakMap<object, Set<string>>();

/** Claims an operationId on this server (any of its scopes); a second route with the same one is a programming error. */
export function claimOperationId(app: FastifyInstance, id: string, where: string): string {
  let ids = operationIds.get(app.server);
  if (!ids) operationIds.set(app.server, (ids = new Set()));
  if (ids.has(id)) throw new Error(`duplicate OpenAPI operationId ${id} (${where}); give the route its own operationId`);
  ids.add(id);
  return id;
}

/**
 * An encapsulated scope of routes, registered under `name`. Fastify names a plugin without one
 * by searching every loaded module for it, a cost paid at each start for each scope.
 */
export function registerScope(app: FastifyInstance, name: string, plugin: FastifyPluginAsync): void {
  app.register(Object.assign(plugin, { [Symbol.for('fastify.display-name')]: name }));
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
          operationId: claimOperationId(app, r.operationId, `${r.method} ${r.url}`),
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
  /** An answer's value from a closed set of strings: pass the constant the code makes values from. */
  oneOf(values: readonly string[]): JsonSchema {
    return { type: 'string', enum: [...values] };
  },
  /** An answer's value from a closed set of strings, or null. */
  nOneOf(values: readonly string[]): JsonSchema {
    return { type: ['string', 'null'], enum: [...values, null] };
  },
  /**
   * A request field whose service checks it against a closed set (pass the constant it checks
   * with): the schema checks the type, as every request schema does, and the OpenAPI document
   * lists the values (`CHECKED_BY_SERVICE`).
   */
  choice(values: readonly string[], nullable = false): JsonSchema {
    return { type: nullable ? ['string', 'null'] : 'string', [CHECKED_BY_SERVICE]: { enum: [...values, ...(nullable ? [null] : [])] } };
  },
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
  /**
   * A schema with a name: the OpenAPI document lists it once under `components.schemas` and
   * refers to it, and takes its texts from the GraphQL type of the same name (`app/openapi.ts`).
   * Name records and inputs after their GraphQL twins (`Booking`, `CreateBookingInput`).
   */
  named(name: string, schema: JsonSchema): JsonSchema {
    return { title: name, ...schema };
  },
  /** The schema or null (a named schema stays one record in the OpenAPI document: `anyOf` it or null). */
  nullable(schema: JsonSchema): JsonSchema {
    return { ...schema, type: [schema.type, 'null'].flat() };
  },
  array(items: JsonSchema): JsonSchema {
    return { type: 'array', items };
  },
  /**
   * Path parameters, all strings. A name shared by many routes is described in the OpenAPI
   * document (`app/openapi.ts`); give `[name, description]` for one that means something else
   * here (`item_id`), or `[name, schema]` (a closed set: `S.choice`).
   */
  params(...params: (string | readonly [string, string | JsonSchema])[]): JsonSchema {
    const named = params.map((p) =>
      typeof p === 'string' ? [p, { type: 'string' }] : [p[0], typeof p[1] === 'string' ? { type: 'string', description: p[1] } : p[1]],
    );
    return { type: 'object', properties: Object.fromEntries(named), required: named.map(([n]) => n) };
  },
  error: {
    title: 'Error',
    type: 'object',
    properties: {
      code: { type: 'string', description: 'What went wrong, for programs (`invalid_request`, `not_found`, `time_unavailable`, ...).' },
      message: { type: 'string', description: 'What went wrong, for people.' },
      details: {
        type: 'array',
        description: 'The fields at fault (validation errors), when known.',
        items: {
          type: 'object',
          properties: {
            path: { type: 'string', description: 'The field at fault, dot-separated (`startTime`, `client.email`, `querystring.limit`).' },
            message: { type: 'string', description: 'What is wrong with it.' },
          },
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
    title: 'MetaDataUpdateInput',
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

export const timeRangeSchema = S.named('TimeRange', S.out({ start: S.str, end: S.str }));

/**
 * The stored (normalised) limitation, shared by capacity rules, price rules and discounts: time
 * ranges always `{start, end}`; only the parts that were set.
 */
export const limitationSchema: JsonSchema = S.nullable(
  S.named('Limitation', {
    type: 'object',
    properties: {
      dates: S.array(S.named('DateRange', S.out({ start: S.str, end: S.str }))),
      daysOfWeek: S.int,
      resourceIDs: S.uuids,
      times: S.array(timeRangeSchema),
    },
    additionalProperties: false,
  }),
);

/** A limitation in a request: times as `{start, end}` or `{startTime, endTime}`. */
export const limitationBody: JsonSchema = S.nullable(
  S.named('LimitationInput', {
    type: 'object',
    description: '{dates: [{start, end}], daysOfWeek, resourceIDs, times: [{start, end} | {startTime, endTime}]}',
    additionalProperties: true,
  }),
);
