import { createServer } from 'node:net';
import { Client } from 'pg';
import { isDbOutOfResources, isDbUnavailable, toDomainError } from './errors';

/** A real driver error: a connection to a port nobody listens on. */
async function refusedConnection(): Promise<unknown> {
  const srv = createServer();
  const port = await new Promise<number>((r) => srv.listen(0, '127.0.0.1', () => r((srv.address() as { port: number }).port)));
  await new Promise((r) => srv.close(r));
  return new Client({ host: '127.0.0.1', port, user: 'x', database: 'x' }).connect().catch((e) => e);
}

describe('database unavailability', () => {
  it('a refused connection, a lost one, a shutting-down or starting server and an exhausted pool are 503 service_unavailable', async () => {
    const refused = await refusedConnection();
    const cases: unknown[] = [
      refused,
      { name: 'ConnectionException', message: 'connect failed', cause: refused },
      new Error('select 1 - Connection terminated unexpectedly'),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' }),
      { message: 'wrapped', original: Object.assign(new Error('x'), { code: 'ECONNRESET' }) },
    ];
    for (const err of cases) {
      expect(isDbUnavailable(err)).toBe(true);
      expect(toDomainError(err)).toMatchObject({ code: 'service_unavailable', status: 503, retryAfterSec: 1 });
    }
  });

  it('a statement cancelled by statement_timeout is 503 too', () => {
    expect(toDomainError(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }))).toMatchObject({
      code: 'service_unavailable',
    });
  });

  it('insufficient resources (SQLSTATE class 53: disk full, out of memory, too many connections) are 503 with Retry-After', () => {
    for (const code of ['53000', '53100', '53200', '53300', '53400']) {
      const driverError = Object.assign(new Error('could not extend file: No space left on device'), { code, severity: 'ERROR' });
      // as the driver throws it, and as the ORM wraps it
      for (const err of [driverError, { name: 'DriverException', message: 'insert ... - no space', cause: driverError }]) {
        expect(isDbOutOfResources(err)).toBe(true);
        expect(toDomainError(err)).toMatchObject({ code: 'service_unavailable', status: 503, retryAfterSec: 1 });
      }
    }
    // neighbouring classes are not resources: 54 (program limit), 55 (object state), 52 (none)
    for (const code of ['54000', '54001', '55P03', '52000', '23505', '42P01']) {
      expect(isDbOutOfResources(Object.assign(new Error('x'), { code }))).toBe(false);
    }
    expect(isDbOutOfResources(new Error('no code'))).toBe(false);
    expect(isDbOutOfResources(Object.assign(new Error('not a SQLSTATE'), { code: 'ENOSPC' }))).toBe(false);
  });

  it('other failures keep their meaning', () => {
    expect(isDbUnavailable(Object.assign(new Error('dup'), { code: '23505' }))).toBe(false);
    expect(toDomainError(Object.assign(new Error('dup'), { code: '23505' })).code).toBe('conflict');
    expect(toDomainError(new Error('Connection string is odd')).code).toBe('internal_error');
    expect(toDomainError(new TypeError('x is undefined')).code).toBe('internal_error');
    expect(toDomainError(Object.assign(new Error('statement too complex'), { code: '54001' })).code).toBe('internal_error');
    expect(toDomainError(Object.assign(new Error('relation does not exist'), { code: '42P01' })).code).toBe('internal_error');
  });
});
