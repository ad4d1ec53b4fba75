/** The error model of the REST contract, shared by REST and GraphQL. */

export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'version_conflict'
  | 'time_unavailable'
  | 'insufficient_balance'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal_error'
  | 'service_unavailable';

export const STATUS_OF: Record<ErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  version_conflict: 409,
  time_unavailable: 409,
  insufficient_balance: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
};

export interface ErrorDetail {
  path: string;
  message: string;
}

/** A failure the client can act on; thrown by services, mapped once to HTTP and GraphQL. */
export class DomainError extends Error {
  /** Seconds after which a retry may succeed (sent as `Retry-After`). */
  retryAfterSec?: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get status(): number {
    return STATUS_OF[this.code];
  }
}

export const invalid = (message: string, details?: ErrorDetail[]) => new DomainError('invalid_request', message, details);
export const notFound = (what: string) => new DomainError('not_found', `${what} not found`);
export const forbidden = (message = 'forbidden') => new DomainError('forbidden', message);
export const unauthorized = (message = 'missing or invalid credentials') => new DomainError('unauthorized', message);
export const conflict = (message: string, details?: ErrorDetail[]) => new DomainError('conflict', message, details);

/** `503 service_unavailable` with `Retry-After`: the database is unreachable, or the server is busy. */
export function unavailable(message: string, retryAfterSec = 1): DomainError {
  const e = new DomainError('service_unavailable', message);
  e.retryAfterSec = retryAfterSec;
  return e;
}

/** Socket-level failures: the server is down, restarting, or the network between is. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/**
 * What the pg driver says, without a code, when the server went away under a connection (the
 * query builder puts the statement before it: `<sql> - Connection terminated unexpectedly`).
 */
const LOST_CONNECTION =
  /(^|- )(Connection terminated|Client has encountered a connection error|Connection ended|timeout expired|Knex: Timeout acquiring a connection)/;

/**
 * True when an error says the database cannot be reached right now rather than that the request
 * is wrong: connection refused or lost, the server shutting down or starting (57P01-57P03),
 * connection exceptions (class 08), too many connections (53300), a pool that stays exhausted.
 */
export function isDbUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown; original?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code)) return true;
  if (e.name === 'KnexTimeoutError' || e.name === 'ConnectionException') return true;
  if (typeof e.message === 'string' && LOST_CONNECTION.test(e.message)) return true;
  // AggregateError (a refused IPv4 and IPv6 connect) lists its parts
  if (Array.isArray(e.errors) && e.errors.some((x) => isDbUnavailable(x, depth + 1))) return true;
  return isDbUnavailable(e.cause, depth + 1) || isDbUnavailable(e.original, depth + 1);
}

/**
 * True when PostgreSQL refused the work for lack of resources, SQLSTATE class 53: 53000
 * insufficient resources, 53100 disk full, 53200 out of memory, 53300 too many connections,
 * 53400 configuration limit exceeded. Nothing was written; a retry may succeed once the
 * resource is back.
 */
export function isDbOutOfResources(err: unknown): boolean {
  return pgCode(err)?.code?.startsWith('53') ?? false;
}

/** Postgres error codes we translate; everything else is internal. */
interface PgLike {
  code?: string;
  constraint?: string;
}

function pgCode(err: unknown): PgLike | null {
  if (!err || typeof err !== 'object') return null;
  const e = err as PgLike & { cause?: unknown; original?: unknown };
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e;
  // MikroORM wraps driver errors; the driver error sits in `cause` or `original`.
  return pgCode(e.cause) ?? pgCode(e.original);
}

/** The SQLSTATE of a database error (through the ORM's wrapping), or null. */
export const sqlState = (err: unknown): string | null => pgCode(err)?.code ?? null;

/**
 * Translates a database error into a domain error, the single place where SQLSTATEs
 * become API codes. Returns null for errors that are not the client's doing.
 */
/** A deadlock or serialization failure: PostgreSQL aborted the statement, and running it again may succeed. */
export function isRetryableDbError(err: unknown): boolean {
  const code = pgCode(err)?.code;
  return code === '40P01' || code === '40001';
}

export function translateDbError(err: unknown): DomainError | null {
  if (isDbUnavailable(err)) return unavailable('the database is unavailable; retry shortly');
  if (isDbOutOfResources(err)) return unavailable('the database is out of resources (disk space, memory or connections); retry later');
  const pg = pgCode(err);
  if (!pg) return null;
  switch (pg.code) {
    case '57014': // statement_timeout (or a cancelled statement)
      return unavailable('the request took too long and was cancelled; retry shortly');
    case '23P01':
      return new DomainError('time_unavailable', 'the requested time is no longer available');
    case '23505':
      return new DomainError('conflict', 'a record with the same unique value already exists');
    case '40001':
    case '40P01':
      return new DomainError('conflict', 'the request collided with a concurrent change; retry it');
    case '23514':
      return pg.constraint?.includes('balance')
        ? new DomainError('insufficient_balance', 'the balance is insufficient')
        : new DomainError('conflict', 'the change violates a constraint');
    case '22P02':
    case '22007':
    case '22008':
    case '22003':
      return new DomainError('invalid_request', 'a value is out of range or malformed');
    case '22021': // a NUL byte in text
    case '22P05': // \u0000 in jsonb
      return new DomainError('invalid_request', 'a value holds a character that cannot be stored (NUL)');
    case '23503':
      return new DomainError('not_found', 'a referenced record does not exist');
    default:
      return null;
  }
}

/** Any thrown value as a domain error; unknown failures become a bare internal error. */
export function toDomainError(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  return translateDbError(err) ?? new DomainError('internal_error', 'internal error');
}
