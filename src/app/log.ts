import pino, { type Logger } from 'pino';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type PinoPretty from 'pino-pretty';

// Query parameters that carry a capability (a booking's access token, a payment provider's
// session on its return, a redirect's signature); never logged.
const SECRET_PARAMS = /([?&](?:accessToken|access_token|token|refreshToken|session_id|sig)=)[^&#]*/gi;
// Path segments that are credentials: a calendar feed's token, a code being validated.
const SECRET_SEGMENTS = [/^(\/+v1\/+calendar\/+)[^/?#]+/i, /^(\/+v1\/+client\/+codes\/+)[^/?#]+/i];
// A payment provider's return to the server: its whole query string (session ids, provider state).
const PAYMENT_RETURN = /^\/+v1\/+payments\/+(?:[^/]+\/+)*return(?:\/|$)/i;

/** The path percent-decoded as the router matches it, an encoded slash kept as it is (it stays inside its segment). */
function decoded(path: string): string {
  try {
    return decodeURIComponent(path.replace(/%2f/gi, '%252F'));
  } catch {
    return path;
  }
}

/**
 * The request URL as logged: credentials in the path (calendar feeds, codes) and the query
 * string (access tokens, payment return parameters) are replaced. The path is matched as the
 * router reads it (percent-decoded), so an encoded spelling is redacted too.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const raw = q < 0 ? url : url.slice(0, q);
  const path = decoded(raw);
  const secretPath = SECRET_SEGMENTS.some((re) => re.test(path));
  const shownPath = secretPath ? SECRET_SEGMENTS.reduce((p, re) => p.replace(re, '$1[redacted]'), path) : raw;
  if (q < 0) return shownPath;
  if (PAYMENT_RETURN.test(path)) return `${shownPath}?[redacted]`;
  return `${shownPath}${url.slice(q).replace(SECRET_PARAMS, '$1[redacted]')}`;
}

/** The redaction and request serialiser of the HTTP server's logger: credentials never reach the log, whatever the serialisers print. */
export const requestLogRedaction = {
  redact: { paths: ['req.headers["x-api-key"]', 'req.headers.authorization', '*.signing_secret', '*.password'], censor: '[redacted]' },
  serializers: {
    req: (req: { method: string; url: string; hostname?: string; ip?: string }) => ({
      method: req.method,
      url: redactUrl(req.url),
      host: req.hostname,
      remoteAddress: req.ip,
    }),
  },
};

/** Probes a load balancer or Prometheus sends every few seconds: logged at debug. */
const PROBES = new Set(['/health', '/ready', '/metrics']);

/**
 * The one log line of a request, written when its answer is complete (or failed while being sent): method, path (secrets
 * redacted), status and duration in the message for people, and as fields (`req`, `status`,
 * `ms`, `reqId`) for machines. Probes are logged at debug, so they do not drown the rest.
 */
function logRequest(req: FastifyRequest, reply: FastifyReply, error: Error | null | undefined): void {
  const path = req.url.split('?', 1)[0];
  const level = error ? 'error' : PROBES.has(path) && reply.statusCode < 500 ? 'debug' : 'info';
  // (Fastify's logger without a destination has no isLevelEnabled: nothing is written then)
  const enabled = (reply.log as { isLevelEnabled?: (l: string) => boolean }).isLevelEnabled;
  if (!enabled?.call(reply.log, level)) return;
  const ms = Math.round(reply.elapsedTime * 10) / 10;
  const line = { req, status: reply.statusCode, ms, ...(error ? { err: error } : {}) };
  reply.log[level](line, `${req.method} ${redactUrl(req.url)} ${reply.statusCode} ${ms} ms${error ? ' (the answer failed)' : ''}`);
}

/** Fastify's request log made one line per request (`logRequest`) instead of two. */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    logRequest(req, reply, error);
  }
}

/** Whether log lines are for people: `LOG_FORMAT=pretty`, or `auto` with a terminal on stdout. */
export function prettyLogs(format: 'json' | 'pretty' | 'auto', isTTY = !!process.stdout.isTTY): boolean {
  return format === 'pretty' || (format === 'auto' && isTTY);
}

/** The destination of log lines: stdout as JSON, or readable lines through pino-pretty. */
export function logStream(format: 'json' | 'pretty' | 'auto'): NodeJS.WritableStream | undefined {
  if (!prettyLogs(format)) return undefined;
  // loaded only for readable lines: JSON logs, the default of a server, never need it
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pretty = require('pino-pretty') as typeof PinoPretty;
  return pretty({
    colorize: !!process.stdout.isTTY,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
    sync: true,
  });
}

/** The process logger (the HTTP server's own logger writes to the same destination). */
export function createLogger(config: { logLevel: string; logFormat: 'json' | 'pretty' | 'auto' }): Logger {
  const stream = logStream(config.logFormat);
  return stream ? pino({ level: config.logLevel }, stream) : pino({ level: config.logLevel });
}
