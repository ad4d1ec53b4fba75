import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../shared/ids';
import type { Actor, Clock } from './context';

/**
 * Who changed what: every write made while an audit scope is active is recorded in
 * `audit_entry`, in the transaction of the write. The scope (actor, request id, clock) is set
 * once per request by the server and once per background worker, and travels with the async
 * work (AsyncLocalStorage), so code far from the request (stores, settlement handlers, ORM
 * subscribers) records without being handed a context. ORM flushes are recorded by the audit
 * module's subscriber; writes made with SQL call `recordAudit` (or embed `auditInsert`).
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

export interface AuditChange {
  before?: unknown;
  after?: unknown;
}

/** One recorded change of one record. */
export interface AuditRecord {
  /** null for records above companies (API keys, merchants) */
  companyId: string | null;
  /** `create`, `update`, `delete`, `status`, or an operation's own name */
  action: string;
  recordType: string;
  recordId: string;
  changes: Record<string, AuditChange>;
}

const scopes = new AsyncLocalStorage<AuditScope>();

/** The audit scope of the running work, if any. Writes outside one (start-up, CLI) are not recorded. */
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

export const MASKED = '[masked]';

/** Fields whose values never reach the audit log: secrets, tokens, passwords, key hashes. */
const SECRET_FIELD = /secret|token|password|passwd|key_?hash|keyhash|credential|private_?key|signing/i;

export const isSecretField = (name: string): boolean => SECRET_FIELD.test(name);

/** Comparable, JSON-safe form of a value (dates as ISO strings). */
export function auditValue(v: unknown): unknown {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  // file contents are recorded by size only
  if (v instanceof Uint8Array) return `[${v.byteLength} bytes]`;
  return v;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(auditValue(a)) === JSON.stringify(auditValue(b));

/** Fields never worth recording: they change with every write. */
const NOISE = new Set(['updatedAt']);

/**
 * The changed fields between two states of a record (null: it did not exist / no longer
 * exists), secrets masked. Only the fields named in `fields` when given.
 */
export function auditChanges(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  fields?: readonly string[],
): Record<string, AuditChange> {
  const keys = fields ?? [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const out: Record<string, AuditChange> = {};
  for (const k of keys) {
    if (NOISE.has(k)) continue;
    const b = before ? before[k] : undefined;
    const a = after ? after[k] : undefined;
    if (typeof a === 'function' || typeof b === 'function') continue;
    if (before && after && same(b, a)) continue;
    const change: AuditChange = {};
    if (before) change.before = isSecretField(k) && b !== null && b !== undefined ? MASKED : auditValue(b);
    if (after) change.after = isSecretField(k) && a !== null && a !== undefined ? MASKED : auditValue(a);
    out[k] = change;
  }
  return out;
}

const COLUMNS =
  'id, company_id, merchant_id, actor_type, actor_id, actor_name, action, record_type, record_id, changes, request_id, created_at';

/**
 * `insert into audit_entry` for `records` under the current scope, as SQL and parameters, or
 * null when there is nothing to record (no scope, no records). A caller may embed it in its own
 * statement as a CTE, so a single-statement write stays one round trip.
 */
export function auditInsert(records: readonly AuditRecord[]): { sql: string; params: unknown[] } | null {
  const rows = auditRows(records);
  if (!rows) return null;
  const params: unknown[] = [];
  for (const r of rows) {
    params.push(r.id, r.company_id, r.merchant_id, r.actor_type, r.actor_id, r.actor_name, r.action, r.record_type, r.record_id);
    params.push(JSON.stringify(r.changes), r.request_id, r.created_at);
  }
  const values = rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?::timestamptz)');
  return { sql: `insert into audit_entry (${COLUMNS}) values ${values.join(', ')}`, params };
}

/** An audit_entry row keyed by column, as `auditRows` gives it. */
export interface AuditRow {
  id: string;
  company_id: string | null;
  merchant_id: string | null;
  actor_type: string;
  actor_id: string;
  actor_name: string | null;
  action: string;
  record_type: string;
  record_id: string;
  changes: Record<string, AuditChange>;
  request_id: string | null;
  created_at: string;
}

/**
 * The audit_entry rows of `records` under the current scope, keyed by column (for a database
 * function that inserts them from JSON), or null when there is nothing to record.
 */
export function auditRows(records: readonly AuditRecord[]): AuditRow[] | null {
  const scope = auditScope();
  if (!scope || !records.length) return null;
  const at = new Date(scope.clock.now()).toISOString();
  return records.map((r) => ({
    id: newId(),
    company_id: r.companyId,
    merchant_id: scope.merchantId,
    actor_type: scope.actor.type,
    actor_id: scope.actor.id,
    actor_name: scope.actor.name,
    action: r.action,
    record_type: r.recordType,
    record_id: r.recordId,
    changes: r.changes,
    request_id: scope.requestId,
    created_at: at,
  }));
}

/** Records changes made with SQL, in `em`'s transaction (call it inside the transaction of the write). */
export async function recordAudit(em: EntityManager, records: readonly AuditRecord[]): Promise<void> {
  const q = auditInsert(records);
  if (q) await em.execute(q.sql, q.params, 'run');
}
