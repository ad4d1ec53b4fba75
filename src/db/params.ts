import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import { sqlStats } from './stats';

/**
 * Runs one statement with its values sent as bind parameters, on `em`'s transaction when it
 * has one (else on a pooled connection), and returns its rows.
 *
 * `em.execute` writes every value into the statement's text instead: PostgreSQL then parses a
 * statement of several kilobytes on each call and plans it anew, and the server spends time
 * quoting each value. The hot write paths (a booking's check document and insert, each a call
 * of a server-side function whose plans PostgreSQL keeps per connection) send values apart from
 * the text. Placeholders are `?`, as for `em.execute`. Statements are counted like the ORM's;
 * errors are the driver's own (SQLSTATE in `code`), which `translateDbError` reads.
 */
export async function queryWithParams<T extends object>(em: EntityManager, sql: string, params: readonly unknown[]): Promise<T[]> {
  const q = em
    .getConnection()
    .getKnex()
    .raw(sql, params as readonly Knex.RawBinding[]);
  const trx = em.getTransactionContext();
  if (trx) q.transacting(trx);
  sqlStats.statements++;
  const res = (await q) as { rows: T[] };
  return res.rows;
}
