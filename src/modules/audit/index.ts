import type { AppModule } from '../../kernel/module';
import { AuditEntry } from './audit.entity';
import { AuditResolver } from './audit.resolver';
import { auditRoutes } from './audit.routes';
import { AuditSubscriber } from './audit.subscriber';

/** The audit log: every write's actor, operation and changed fields (kernel/audit.ts), read per company. */
export const auditModule: AppModule = {
  name: 'audit',
  description: 'The audit log: who changed which record, when, through which request.',
  entities: [AuditEntry],
  resolvers: [AuditResolver],
  routes: auditRoutes,
  subscribers: [new AuditSubscriber()],
};
