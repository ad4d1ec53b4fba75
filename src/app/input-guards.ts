import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../shared/errors';
import { isGraphqlRequest, sendGraphqlError } from './graphql-http';

/**
 * Checks every request passes before any route sees it (contract, section 3):
 *
 * - an empty body with `content-type: application/json` is no body (the vendor's client SDK
 *   refreshes tokens with exactly such a request);
 * - a NUL character anywhere in a path parameter, query parameter, body string or body key is
 *   400: PostgreSQL cannot store it, and rejecting it up front changes nothing;
 * - a body nested more than MAX_BODY_DEPTH levels is 400, before code that walks it
 *   recursively (cloning, canonical forms) can overflow the stack. `metaData` has its own,
 *   lower limit (shared/metadata.ts);
 * - errors the router raises itself (an over-long path parameter, a malformed URL) answer the
 *   contract's error body instead of Fastify's.
 */

/** Deeper than any body the API takes: metaData (32 levels) sits two or three levels down. */
export const MAX_BODY_DEPTH = 64;

export interface OddInput {
  path: string;
  message: string;
}

/**
 * The first NUL character or over-deep nesting in a parsed JSON value, or null. Iterative, so
 * that a value nested far beyond the limit cannot overflow the stack here either.
 */
export function findOddInput(value: unknown, root: string, maxDepth = MAX_BODY_DEPTH): OddInput | null {
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: value, path: root, depth: 0 }];
  while (stack.length) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return { path, message: 'must not contain NUL characters' };
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= maxDepth) return { path, message: `is nested more than ${maxDepth} levels deep` };
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push({ v: v[i], path: `${path}[${i}]`, depth: depth + 1 });
      continue;
    }
    for (const key of Object.keys(v)) {
      const at = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return { path: at.replace(/\u0000/g, '\\u0000'), message: 'key must not contain NUL characters' };
      stack.push({ v: (v as Record<string, unknown>)[key], path: at, depth: depth + 1 });
    }
  }
  return null;
}

function oddRequest(req: FastifyRequest): OddInput | null {
  return findOddInput(req.params, 'path') ?? findOddInput(req.query, 'query') ?? findOddInput(req.body, '');
}

/** Installs the checks; call before the routes are registered. */
export function installInputGuards(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '') return done(null, undefined);
    json(req, body as string, done);
  });

  app.addHook('preValidation', async (req) => {
    const odd = oddRequest(req);
    if (!odd) return;
    const path = odd.path || 'body';
    const message = `invalid request: ${path} ${odd.message}`;
    // On /graphql the error handler answers it as a GraphQL response (graphql-http.ts).
    throw new DomainError('invalid_request', message, [{ path, message: odd.message }]);
  });
}

/** Fastify's `frameworkErrors`: router errors in the contract's body (a GraphQL response on /graphql). */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const message = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a path parameter is too long' : 'the URL is malformed';
  if (isGraphqlRequest(req.url)) {
    sendGraphqlError(req, reply, new DomainError('invalid_request', message), false);
    return;
  }
  reply.code(400).type('application/json').send({ code: 'invalid_request', message });
}

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses before Fastify sees them
 * (an over-long URL or header, a malformed header line) keep their status (431, 400, 408) and
 * get the contract's error body.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'the request took too long to arrive']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'the URL or the request headers are too large']
        : [400, 'the HTTP request is malformed'];
  const body = JSON.stringify({ code: 'invalid_request', message });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(err);
}
