import { gunzipSync } from 'node:zlib';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { S } from '../../src/kernel/rest';

/**
 * Checks every REST response against the response schema its route declares for the status
 * sent (the schemas that the OpenAPI document publishes). Installed by the integration test
 * app only: production serialises plain JSON and never validates what it sends.
 *
 * - A route that declares `schema.response` must declare the status it answers, except the
 *   statuses any route can answer from the HTTP layer or the error mapper (`ANY_ROUTE`).
 * - Every 4xx/5xx body must also be the contract's error body `{code, message, details?}`
 *   (section 3 of the REST contract), whatever the route declares; so must the not-found
 *   answer of an unknown route.
 * - Schemas are read as declared (`required`, `additionalProperties`, enums, nullability),
 *   with the contract's formats: lowercase UUIDs, UTC timestamps ending in `Z`.
 */

/** Statuses every route may answer without declaring them (contract section 3). */
export const ANY_ROUTE = new Set([413, 415, 429, 500, 503]);

type JsonSchema = Record<string, unknown> | boolean;

export interface CheckedResponse {
  method: string;
  /** The route's URL pattern (`/v1/companies/:cid`), undefined when no route matched. */
  route: string | undefined;
  /** The route's declared response schemas by status, undefined when it declares none. */
  responseSchemas: Record<string, JsonSchema> | undefined;
  status: number;
  contentType: string | undefined;
  /** The body as sent (a string), or undefined when there is none. */
  payload: string | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UTC_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;

export function createResponseChecker(): (res: CheckedResponse) => string | null {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    allowUnionTypes: true,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
  });
  addFormats(ajv);
  // The contract's forms (section 1): identifiers lowercase, response timestamps in UTC with `Z`.
  ajv.addFormat('uuid', UUID);
  ajv.addFormat('date-time', { validate: (s: string) => UTC_TIMESTAMP.test(s) && !Number.isNaN(Date.parse(s)) });
  // OpenAPI's response headers (Retry-After) ride along in the response schema; they describe headers, not the body.
  ajv.addKeyword({ keyword: 'headers', schemaType: 'object' });
  const compiled = new WeakMap<object, ValidateFunction>();
  const validator = (schema: JsonSchema): ValidateFunction => {
    if (typeof schema === 'boolean') return ajv.compile(schema);
    let v = compiled.get(schema);
    if (!v) {
      v = ajv.compile(schema);
      compiled.set(schema, v);
    }
    return v;
  };
  const errorValidator = validator(S.error);

  return (res) => {
    const where = `${res.method} ${res.route ?? '(no route matched)'} answered ${res.status}`;
    const isError = res.status >= 400;
    if (!res.route && !isError) return null;
    if (res.route && !res.responseSchemas) return null;

    const declared = res.responseSchemas ? schemaFor(res.responseSchemas, res.status) : undefined;
    if (res.route && declared === undefined && !ANY_ROUTE.has(res.status)) {
      return `${where}, a status its route does not declare (declared: ${Object.keys(res.responseSchemas ?? {}).join(', ')})\n  body: ${snippet(res.payload)}`;
    }

    let body: unknown;
    const json = !res.contentType || /[/+]json\b/i.test(res.contentType);
    if (res.payload === undefined || res.payload === '') body = null;
    else if (!json) body = res.payload;
    else {
      try {
        body = JSON.parse(res.payload);
      } catch {
        return `${where} with a body that is not JSON (content-type ${res.contentType})\n  body: ${snippet(res.payload)}`;
      }
    }

    const problems: string[] = [];
    if (declared !== undefined) {
      const v = validator(declared);
      if (!v(body)) problems.push(`does not match the schema declared for ${res.status}:\n${describe(v.errors)}`);
    }
    if (isError && !errorValidator(body))
      problems.push(`is not the contract's error body {code, message, details?}:\n${describe(errorValidator.errors)}`);
    if (!problems.length) return null;
    return `${where}; the body ${problems.join('\n  and ')}\n  body: ${snippet(res.payload)}`;
  };
}

function schemaFor(schemas: Record<string, JsonSchema>, status: number): JsonSchema | undefined {
  return schemas[String(status)] ?? schemas[`${String(status)[0]}xx`] ?? schemas[`${String(status)[0]}XX`] ?? schemas.default;
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 20)
    .map((e) => {
      const p = e.params as Record<string, unknown>;
      const extra =
        p.additionalProperty !== undefined
          ? ` '${String(p.additionalProperty)}'`
          : p.allowedValues !== undefined
            ? ` ${JSON.stringify(p.allowedValues)}`
            : '';
      return `    ${e.instancePath || '(root)'} ${e.message}${extra} (schema ${e.schemaPath})`;
    })
    .join('\n');
}

function snippet(payload: string | undefined): string {
  if (payload === undefined) return '(none)';
  return payload.length > 600 ? `${payload.slice(0, 600)}... (${payload.length} characters)` : payload;
}

export interface ResponseCheck {
  /** The problem found in the response sent on this raw response object, if any; also marks it as reported. */
  take(raw: object): string | null | undefined;
  /** Problems of responses that no `take` collected (requests sent over a real socket). */
  unreported(): string[];
}

let shared: ((res: CheckedResponse) => string | null) | undefined;

/**
 * Adds the check to a test app as an `onSend` hook. Call it before `app.ready()` (hooks of a
 * route are fixed when the app gets ready). Problems are kept by the raw response object so
 * the caller that injected the request can fail with them.
 */
export function installResponseCheck(app: FastifyInstance): ResponseCheck {
  // One checker per test file: compiled validators are kept by schema object and reused.
  const check = (shared ??= createResponseChecker());
  const results = new WeakMap<object, string | null>();
  const pending = new Map<object, string>();
  app.addHook('onSend', (req, reply, payload, done) => {
    let problem: string | null;
    try {
      // a gzipped answer (large availability answers for clients that accept gzip) is judged by what it holds
      const gzipped = Buffer.isBuffer(payload) && reply.getHeader('content-encoding') === 'gzip';
      const text =
        typeof payload === 'string'
          ? payload
          : Buffer.isBuffer(payload)
            ? (gzipped ? gunzipSync(payload) : payload).toString('utf8')
            : payload == null
              ? undefined
              : null;
      if (text === null)
        problem = null; // a stream (file download): not a JSON answer
      else if (req.url.split('?')[0] === '/graphql')
        problem = null; // GraphQL answers in its own shape (errors[]), whichever layer refused the request
      else {
        const schema = req.routeOptions.schema as { response?: Record<string, JsonSchema> } | undefined;
        const type = reply.getHeader('content-type');
        problem = check({
          method: req.method,
          route: req.routeOptions.url,
          responseSchemas: schema?.response,
          status: reply.statusCode,
          contentType: typeof type === 'string' ? type : undefined,
          payload: text,
        });
      }
    } catch (err) {
      problem = `${req.method} ${req.routeOptions.url}: the response check failed: ${(err as Error).stack ?? String(err)}`;
    }
    results.set(reply.raw, problem);
    if (problem) pending.set(reply.raw, problem);
    done(null, payload);
  });
  return {
    take(raw) {
      if (!results.has(raw)) return undefined;
      pending.delete(raw);
      return results.get(raw);
    },
    unreported() {
      return [...pending.values()];
    },
  };
}

/**
 * Checks an answer that no hook saw: Fastify's router errors (an over-long or malformed path)
 * are answered before any route runs, so they must be the contract's error body like any other.
 * Requests refused before a hook runs (the input guards) are judged here too.
 */
export function checkUnrouted(
  method: string,
  path: string,
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
): string | null {
  // GraphQL answers in its own shape (errors[]), which this check does not judge.
  if (path.split('?')[0] === '/graphql') return null;
  const check = (shared ??= createResponseChecker());
  const type = res.headers['content-type'];
  return check({
    method,
    route: undefined,
    responseSchemas: undefined,
    status: res.statusCode,
    contentType: typeof type === 'string' ? type : undefined,
    payload: res.body === '' ? undefined : res.body,
  });
}
