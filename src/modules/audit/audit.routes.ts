import type { FastifyInstance } from 'fastify';
import { AUDIT_ACTOR_TYPES } from '../../kernel/audit';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { listAuditLog, type AuditFilter } from './audit.service';

const change = { type: 'object', properties: { before: {}, after: {} }, additionalProperties: false };

export const auditEntrySchema = S.out({
  id: S.uuid,
  actor: S.out({ type: { type: 'string', enum: [...AUDIT_ACTOR_TYPES] }, id: S.str, name: S.nstr }),
  action: S.str,
  recordType: S.str,
  recordID: S.str,
  changes: { type: 'object', additionalProperties: change },
  requestID: S.nstr,
  createdAt: S.ts,
});

export function auditRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: '/v1/companies/:cid/audit-log',
      auth: 'key',
      summary: 'List audit log',
      description:
        'Who changed what in the company, newest first (audit.read): the actor (API key, client or the system), the operation, the record ' +
        'and its changed fields before and after (secrets, tokens and passwords masked), and the request id. `from`/`to` bound ' +
        '`createdAt` as [from, to).',
      tags: ['Audit'],
      params: S.params('cid'),
      querystring: S.object({ recordID: S.str, actorID: S.str, from: S.str, to: S.str, limit: S.str, offset: S.str }),
      response: {
        200: S.out({ items: S.array(auditEntrySchema), limit: S.int, offset: S.int, total: S.int }),
        ...errors,
      },
      handler: async (ctx, req) => listAuditLog(ctx, (req.params as { cid: string }).cid, req.query as AuditFilter),
    },
  ]);
}
