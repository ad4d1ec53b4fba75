import { AuditScopeSubscriber } from '../../kernel/audit';
import type { AppModule } from '../../kernel/module';
import { AuditEntry } from './audit.entity';
import { AuditResolver } from './audit.resolver';
import { auditRoutes } from './audit.routes';

/**
 * The audit log: every write's actor, operation and changed fields, recorded by the database's
 * row trigger (src/db/functions/audit_record.sql) under the scope kernel/audit.ts opens in each
 * transaction, read per company.
 */
export const auditModule: AppModule = {
  name: 'audit',
  description: 'The audit log: who changed which record, when, through which request.',
  entities: [AuditEntry],
  resolvers: [AuditResolver],
  routes: auditRoutes,
  subscribers: [new AuditScopeSubscriber()],
};
