import type { EntityManager, IsolationLevel } from '@mikro-orm/postgresql';
import type { Ctx } from './context';

/**
 * One way to hold a database transaction (docs/design/architecture.md, "Transactions"): the
 * context carries it. `inTransaction(ctx, async (tx) => ...)` runs `fn` with `tx`, a context
 * like `ctx` (the same actor, time, dependencies, request id, log and checked companies) whose
 * `em` is the transaction's EntityManager; every function called with `tx` reads and writes in
 * the transaction, and nothing else in the code opens one.
 *
 * - Nesting: called with a context that is already in a transaction, `fn` joins it (no new
 *   transaction, no savepoint), unless `savepoint` asks for one.
 * - Loaders are fresh inside a transaction: nothing read outside it (before its locks were
 *   taken) is answered from a DataLoader's cache inside. Companies, checked once per request
 *   and never written by a transaction, are shared.
 * - The audit scope of the running work (kernel/audit.ts) reaches the transaction as it starts
 *   (`AuditScopeSubscriber`), so every write in it carries the actor and the request id.
 */

export interface TransactionOptions {
  /** The isolation level of a new transaction (PostgreSQL's default, read committed, when absent). A joined transaction keeps its own. */
  isolationLevel?: IsolationLevel;
  /** Inside a running transaction: a savepoint, so that a failure of `fn` rolls back only what `fn` wrote. */
  savepoint?: boolean;
}

/** Runs `fn` in a transaction carried by the context it is given: committed when `fn` resolves, rolled back when it throws. */
export async function inTransaction<T>(ctx: Ctx, fn: (tx: Ctx) => Promise<T>, opts: TransactionOptions = {}): Promise<T> {
  if (ctx.em.isInTransaction() && !opts.savepoint) return fn(ctx);
  const { isolationLevel } = opts;
  return ctx.em.transactional((em) => fn(transactionCtx(ctx, em as EntityManager)), isolationLevel ? { isolationLevel } : {});
}

function transactionCtx(ctx: Ctx, em: EntityManager): Ctx {
  return { ...ctx, em, loaders: new Map() };
}
