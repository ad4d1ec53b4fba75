import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import type { AuditActorType, AuditChange } from '../../kernel/audit';

/** One recorded change of one record, written by the database in the transaction of the change (docs/audit-log.md); never updated. */
@Entity({ tableName: 'audit_entry' })
export class AuditEntry {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  /** null for records above companies (API keys, merchants) */
  @Property({ type: 'uuid', fieldName: 'company_id', nullable: true })
  companyId: string | null = null;

  @Property({ type: 'uuid', fieldName: 'merchant_id', nullable: true })
  merchantId: string | null = null;

  @Property({ type: 'text', fieldName: 'actor_type' })
  actorType!: AuditActorType;

  @Property({ type: 'text', fieldName: 'actor_id' })
  actorId!: string;

  @Property({ type: 'text', fieldName: 'actor_name', nullable: true })
  actorName: string | null = null;

  @Property({ type: 'text' })
  action!: string;

  @Property({ type: 'text', fieldName: 'record_type' })
  recordType!: string;

  @Property({ type: 'text', fieldName: 'record_id' })
  recordId!: string;

  @Property({ type: 'json' })
  changes: Record<string, AuditChange> = {};

  @Property({ type: 'text', fieldName: 'request_id', nullable: true })
  requestId: string | null = null;

  @Property({ type: 'timestamptz', fieldName: 'created_at' })
  createdAt!: Date;
}
