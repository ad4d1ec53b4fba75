import type { EntityManager } from '@mikro-orm/postgresql';
import { auditChanges, recordAudit, type AuditRecord } from '../../kernel/audit';

/**
 * Audit entries of the module's SQL writes (kernel/audit.ts): contracts, their usages and the
 * visit ledger. A contract's `code` never reaches the log: it is what spends the contract.
 */

type Fields = Record<string, unknown>;

const withoutCode = (f: Fields | null): Fields | null => {
  if (!f) return null;
  const { code: _code, ...rest } = f;
  return rest;
};

/**
 * The entry of one record's change: `create` without `before`, `update` (or `status` when the
 * status changed) with both; null when nothing changed.
 */
export function changeRecord(table: string, companyId: string, id: string, before: Fields | null, after: Fields): AuditRecord | null {
  const changes = auditChanges(withoutCode(before), withoutCode(after));
  if (before && !Object.keys(changes).length) return null;
  const action = !before ? 'create' : 'status' in changes ? 'status' : 'update';
  return { companyId, action, recordType: table, recordId: id, changes };
}

/** The entry of a contract's change (see `changeRecord`). */
export const contractChange = (companyId: string, id: string, before: Fields | null, after: Fields): AuditRecord | null =>
  changeRecord('subscription_contract', companyId, id, before, after);

/** Records the entries in `em`'s transaction, all in one statement. */
export function auditAll(em: EntityManager, records: readonly (AuditRecord | null)[]): Promise<void> {
  return recordAudit(
    em,
    records.filter((r): r is AuditRecord => r !== null),
  );
}
