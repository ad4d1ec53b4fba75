import { ChangeSetType, type ChangeSet, type EventSubscriber, type FlushEventArgs } from '@mikro-orm/core';
import { auditChanges, auditScope, type AuditRecord } from '../../kernel/audit';
import { newId } from '../../shared/ids';
import { AuditEntry } from './audit.entity';

/** Tables whose rows are not records anyone changes: the log itself and stored responses. */
const NOT_AUDITED = new Set(['audit_entry', 'idempotency_key']);

const ACTION: Record<ChangeSetType, string> = {
  [ChangeSetType.CREATE]: 'create',
  [ChangeSetType.UPDATE]: 'update',
  [ChangeSetType.DELETE]: 'delete',
  [ChangeSetType.UPDATE_EARLY]: 'update',
  [ChangeSetType.DELETE_EARLY]: 'delete',
};

type Row = Record<string, unknown>;

/** What one change set of a flush records: the changed fields, before and after. */
export function recordOf(cs: ChangeSet<object>): AuditRecord | null {
  const meta = cs.meta;
  if (NOT_AUDITED.has(meta.tableName)) return null;
  const entity = cs.entity as Row;
  const original = (cs.originalEntity ?? null) as Row | null;
  const source = entity ?? original ?? {};
  const scalar = meta.props.filter((p) => p.persist !== false && !p.formula).map((p) => p.name);
  let changes;
  let action = ACTION[cs.type];
  if (action === 'create') changes = auditChanges(null, entity, scalar);
  else if (action === 'delete') changes = auditChanges(original ?? entity, null, scalar);
  else {
    const fields = Object.keys(cs.payload);
    changes = auditChanges(original ?? {}, entity, fields);
    if (!Object.keys(changes).length) return null;
    if ('status' in changes) action = 'status';
  }
  const companyId = (source.companyId as string | undefined) ?? (meta.tableName === 'company' ? (source.id as string) : null);
  return {
    companyId,
    action,
    recordType: meta.tableName,
    recordId: meta.primaryKeys.map((k) => String(source[k] ?? original?.[k])).join(':'),
    changes,
  };
}

/**
 * Records every create, update and delete of a flush as audit entries of the same flush, so
 * they commit (or roll back) in the flush's transaction. Writes made with SQL record
 * themselves (kernel/audit.ts `recordAudit`).
 */
export class AuditSubscriber implements EventSubscriber {
  async onFlush(args: FlushEventArgs): Promise<void> {
    const scope = auditScope();
    if (!scope) return;
    const at = new Date(scope.clock.now());
    for (const cs of [...args.uow.getChangeSets()]) {
      const r = recordOf(cs as ChangeSet<object>);
      if (!r) continue;
      const entry = Object.assign(new AuditEntry(), {
        id: newId(),
        companyId: r.companyId,
        merchantId: scope.merchantId,
        actorType: scope.actor.type,
        actorId: scope.actor.id,
        actorName: scope.actor.name,
        action: r.action,
        recordType: r.recordType,
        recordId: r.recordId,
        changes: r.changes,
        requestId: scope.requestId,
        createdAt: at,
      });
      args.uow.computeChangeSet(entry);
    }
  }
}
