import { Args, Ctx as GqlCtx, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { listAuditLog } from './audit.service';
import { AuditEntryPageType, AuditEntryType, AuditLogArgs } from './audit.types';

@Resolver(() => AuditEntryType)
export class AuditResolver {
  @Query(() => AuditEntryPageType, {
    nullable: true,
    description: "A page of the company's audit log, newest first (audit.read); errors: invalid_request, forbidden, not_found.",
  })
  async auditLog(@GqlCtx() ctx: Ctx, @Args(() => AuditLogArgs) a: AuditLogArgs) {
    const iso = (d: Date | null | undefined) => (d ? d.toISOString() : undefined);
    const page = await listAuditLog(ctx, a.companyID, { ...a, from: iso(a.from), to: iso(a.to) });
    return {
      total: page.total,
      limit: page.limit,
      offset: page.offset,
      entries: page.items.map((e) => ({
        ...e,
        changes: Object.entries(e.changes).map(([field, c]) => ({ field, before: c.before ?? null, after: c.after ?? null })),
      })),
    };
  }
}
