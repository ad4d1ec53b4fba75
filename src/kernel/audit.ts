import { AsyncLocalStorage } from 'node:async_hooks';
import type { EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';
import type { Actor, Clock } from './context';

/**
 * Who changed what (docs/audit-log.md). The database records every write to a table that holds
 * merchant data in `audit_entry`, in the transaction of the write, by a row trigger
 * (src/db/functions/audit_record.sql): no code has to remember to. What the code provides is
 * who is writing: the audit scope (actor, merchant, request id, clock), set once per request
 * by the server and once per background worker, travels with the async work
 * (AsyncLocalStorage), and reaches the database as transaction-local settings that
 * `audit_begin` sets: at the start of every ORM transaction (`AuditScopeSubscriber`), or
 * folded into a single statement that runs outside one (`AUDIT_BEGIN`).
 */

export const AUDIT_ACTOR_TYPES = ['api_key', 'client', 'system'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

export interface AuditActor {
  type: AuditActorType;
  id: string;
  name: string | null;
}

export interface AuditScope {
  actor: AuditActor;
  /** the merchant of the calling API key, when there is one */
  merchantId: string | null;
  requestId: string | null;
  clock: Clock;
}

/** One changed field of an entry: absent `before` on creation, absent `after` on deletion. */
export interface AuditChange {
  before?: unknown;
  after?: unknown;
}

const scopes = new AsyncLocalStorage<AuditScope>();

/** The audit scope of the running work, if any. Writes outside one (start-up, CLI) are recorded as the database's own. */
export const auditScope = (): AuditScope | undefined => scopes.getStore();

/** Runs `fn` (and all async work it starts) under `scope`. */
export function runAudited<T>(scope: AuditScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/** The actor a request's credentials make: an API key, a client, or (no credentials) the public. */
export function auditActorOf(actor: Actor | null): AuditActor {
  if (!actor) return { type: 'system', id: 'public', name: 'unauthenticated request' };
  if (actor.kind === 'merchant') return { type: 'api_key', id: actor.apiKeyId, name: actor.apiKeyName ?? null };
  return { type: 'client', id: actor.clientId, name: null };
}

/** The scope of background work (sweepers), recorded as the system. */
export function systemScope(name: string, clock: Clock): AuditScope {
  return { actor: { type: 'system', id: name, name: `${name} (background work)` }, merchantId: null, requestId: null, clock };
}

/**
 * The scope as the argument of `audit_begin(?::jsonb)`, or null outside a scope (the database
 * then records the write as the system, `database`). `at` is the scope's clock now: the time
 * of the transaction's entries.
 */
export function auditScopeArg(scope = auditScope()): string | null {
  if (!scope) return null;
  const { actor, merchantId, requestId, clock } = scope;
  const at = new Date(clock.now()).toISOString();
  return JSON.stringify({ actorType: actor.type, actorId: actor.id, actorName: actor.name, merchantId, requestId, at });
}

/**
 * Opens the scope inside a single statement that runs outside a transaction, at no round trip
 * of its own: put it in the statement's FROM list (`select f(?) from ${AUDIT_BEGIN}`, `update t
 * set ... from ${AUDIT_BEGIN} where ...`) and pass `auditScopeArg()` as its parameter. The
 * function row is produced before the statement writes, and the trigger runs after.
 */
export const AUDIT_BEGIN = 'audit_begin(?::jsonb)';

/**
 * Opens the running scope in every ORM transaction (`em.transactional`, `em.begin`, a flush's
 * own transaction) as it starts: one statement, only when there is a scope.
 */
export class AuditScopeSubscriber implements EventSubscriber {
  async afterTransactionStart(args: TransactionEventArgs): Promise<void> {
    const arg = auditScopeArg();
    if (arg === null || !args.transaction) return;
    await args.em.getConnection('write').execute(`select ${AUDIT_BEGIN}`, [arg], 'run', args.transaction);
  }
}
