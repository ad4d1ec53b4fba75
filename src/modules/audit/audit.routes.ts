import type { FastifyInstance } from 'fastify';
import { AUDIT_ACTOR_TYPES } from '../../kernel/audit';
import { DOC } from '../../kernel/graphql-types';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { listAuditLog, type AuditFilter } from './audit.service';

const change = {
  type: 'object',
  properties: {
    before: { description: 'The value before the change (masked for secrets).' },
    after: { description: 'The value after it (masked for secrets).' },
  },
  additionalProperties: false,
};

export const auditEntrySchema = S.named(
  'AuditEntry',
  S.out({
    id: S.uuid,
    actor: S.named('AuditActor', S.out({ type: S.oneOf(AUDIT_ACTOR_TYPES), id: S.str, name: S.nstr })),
    action: S.str,
    recordType: S.str,
    recordID: S.str,
    changes: { type: 'object', description: 'The fields changed, by field name.', additionalProperties: change },
    requestID: S.nstr,
    createdAt: S.ts,
  }),
);

const auditPage = S.out({
  items: { ...S.array(auditEntrySchema), description: 'The entries of this page, newest first.' },
  limit: { ...S.int, description: DOC.pageLimit },
  offset: { ...S.int, description: DOC.pageOffset },
  total: { ...S.int, description: DOC.total },
});

export function auditRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: '/v1/companies/:cid/audit-log',
      operationId: 'listAuditLog',
      auth: 'key',
      summary: 'List audit log',
      description:
        'Who changed what in the company, newest first (audit.read): the actor (API key, client or the system), the operation, the record ' +
        'and its changed fields before and after (secrets, tokens and passwords masked), and the request id. `from`/`to` bound ' +
        '`createdAt` as [from, to).',
      params: S.params('cid'),
      querystring: S.object({
        recordID: { ...S.str, description: 'Only the entries of this record.' },
        actorID: {
          ...S.str,
          description: 'Only the entries of this actor (its id: an API key id, a client id, or the name of background work).',
        },
        from: { ...S.str, description: 'Only the entries created at or after this instant.' },
        to: { ...S.str, description: 'Only the entries created before this instant.' },
        limit: S.str,
        offset: S.str,
      }),
      response: { 200: auditPage, ...errors },
      handler: async (ctx, req) => listAuditLog(ctx, (req.params as { cid: string }).cid, req.query as AuditFilter),
    },
  ]);
}
