import { Args, Ctx as GqlCtx, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { mapNodes } from '../../kernel/connection';
import { auditLogConnection } from './audit.service';
import { AuditEntryConnectionType, AuditEntryType, AuditLogArgs } from './audit.types';

@Resolver(() => AuditEntryType)
export class AuditResolver {
  @Query(() => AuditEntryConnectionType, {
    nullable: true,
    description: "The company's audit log, newest first (audit.read); errors: invalid_request, forbidden, not_found.",
  })
  async auditLog(@GqlCtx() ctx: Ctx, @Args(() => AuditLogArgs) a: AuditLogArgs) {
    const iso = (d: Date | null | undefined) => (d ? d.toISOString() : undefined);
    const { companyID, recordID, actorID, from, to, ...page } = a;
    const conn = await auditLogConnection(ctx, companyID, { recordID, actorID, from: iso(from), to: iso(to) }, page);
    return mapNodes(conn, 'entries', (e) => ({
      ...e,
      changes: Object.entries(e.changes).map(([field, c]) => ({ field, before: c.before ?? null, after: c.after ?? null })),
    }));
  }
}
