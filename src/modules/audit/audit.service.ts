import type { Ctx } from '../../kernel/context';
import type { AuditActorType, AuditChange } from '../../kernel/audit';
import { companyForMerchant } from '../company/company.access';
import { parsePage } from '../../shared/pagination';
import { listSpec, type ConnectionArgs, type ConnectionJson, type SortKey } from '../../kernel/connection';
import { connectionFrom, sqlSource } from '../../kernel/keyset';
import { formatTimestamp, parseTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';

export interface AuditEntryJson {
  id: string;
  actor: { type: AuditActorType; id: string; name: string | null };
  action: string;
  recordType: string;
  recordID: string;
  changes: Record<string, AuditChange>;
  requestID: string | null;
  createdAt: string;
}

export interface AuditFilter {
  recordID?: unknown;
  actorID?: unknown;
  from?: unknown;
  to?: unknown;
  limit?: unknown;
  offset?: unknown;
}

interface Row {
  id: string;
  actor_type: AuditActorType;
  actor_id: string;
  actor_name: string | null;
  action: string;
  record_type: string;
  record_id: string;
  changes: Record<string, AuditChange> | string;
  request_id: string | null;
  created_at: Date | string;
  total: string | number;
}

const text = (c: Check, path: string, v: unknown): string | null => {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string' || v.length > 200) return (c.fail(path, 'must be a string of at most 200 characters'), null);
  return v.trim().toLowerCase();
};

const instant = (c: Check, path: string, v: unknown): string | null => {
  if (v === undefined || v === null || v === '') return null;
  const ms = parseTimestamp(v);
  if (ms === null) return (c.fail(path, 'must be an RFC 3339 date-time'), null);
  return new Date(ms).toISOString();
};

/**
 * The company's audit log, newest first (audit.read), filtered by record, actor and time
 * window ([from, to)). A client's entries name the client by its current name.
 */
export async function listAuditLog(
  ctx: Ctx,
  companyId: string,
  f: AuditFilter,
): Promise<{ items: AuditEntryJson[]; limit: number; offset: number; total: number }> {
  const { limit, offset } = parsePage({ limit: f.limit, offset: f.offset });
  const { where, params } = await auditFilter(ctx, companyId, f);
  // page and total in one statement
  const rows = await ctx.em.getConnection().execute<Row[]>(
    `select ${ENTRY_COLUMNS}, count(*) over () as total
       from audit_entry a where ${where}
      order by a.created_at desc, a.seq desc limit ? offset ?`,
    [...params, limit, offset],
  );
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && offset > 0) {
    const counted = await ctx.em.getConnection().execute<{ n: string }[]>(`select count(*) as n from audit_entry a where ${where}`, params);
    total = Number(counted[0].n);
  }
  return { items: rows.map(entryJson), limit, offset, total };
}

/**
 * GraphQL: the same log as a connection (kernel/connection.ts), newest first; ties in the
 * millisecond (the cursors' precision) by the order of writing, newest first.
 */
export async function auditLogConnection(
  ctx: Ctx,
  companyId: string,
  f: AuditFilter,
  args: ConnectionArgs,
): Promise<ConnectionJson<AuditEntryJson>> {
  const { companyId: company, where, params } = await auditFilter(ctx, companyId, f);
  const seq = new Map<string, number>();
  const keys: SortKey<AuditEntryJson>[] = [
    { column: 'created_at', time: true, micro: true, desc: true, of: (e) => e.createdAt },
    { column: 'seq', desc: true, type: 'bigint', of: (e) => seq.get(e.id) },
  ];
  const source = sqlSource(ctx.em.getConnection(), {
    select: `${ENTRY_COLUMNS}, a.seq`,
    from: 'audit_entry a',
    where,
    params,
    keys,
    alias: 'a.',
    map: (rows) =>
      (rows as unknown as (Row & { seq: string | number })[]).map((r) => {
        seq.set(r.id, Number(r.seq));
        return entryJson(r);
      }),
  });
  const filter = { recordID: f.recordID, actorID: f.actorID, from: f.from, to: f.to };
  return connectionFrom(source, args, listSpec(keys, 'auditLog', company, filter), 'entries');
}

const ENTRY_COLUMNS = `a.id, a.actor_type, a.actor_id, a.action, a.record_type, a.record_id, a.changes, a.request_id, a.created_at,
            coalesce(a.actor_name, (select nullif(trim(concat_ws(' ', cl.first_name, cl.last_name)), '') from client cl
              where a.actor_type = 'client' and cl.company_id = a.company_id and cl.id::text = a.actor_id)) as actor_name`;

/** The company checked and the log's filter as SQL (record, actor, [from, to)). */
async function auditFilter(ctx: Ctx, companyId: string, f: AuditFilter): Promise<{ companyId: string; where: string; params: unknown[] }> {
  const company = await companyForMerchant(ctx, companyId, 'audit.read');
  const c = new Check();
  const recordId = text(c, 'recordID', f.recordID);
  const actorId = text(c, 'actorID', f.actorID);
  const from = instant(c, 'from', f.from);
  const to = instant(c, 'to', f.to);
  if (from && to && from >= to) c.fail('to', 'must be after from');
  c.done('invalid audit log filter');
  const where = ['a.company_id = ?'];
  const params: unknown[] = [company.id];
  const filters: [string, string | null][] = [
    ['a.record_id = ?', recordId],
    ['a.actor_id = ?', actorId],
    ['a.created_at >= ?::timestamptz', from],
    ['a.created_at < ?::timestamptz', to],
  ];
  for (const [sql, value] of filters) {
    if (value === null) continue;
    where.push(sql);
    params.push(value);
  }
  return { companyId: company.id, where: where.join(' and '), params };
}

function entryJson(r: Row): AuditEntryJson {
  return {
    id: r.id,
    actor: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
    action: r.action,
    recordType: r.record_type,
    recordID: r.record_id,
    changes: typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes,
    requestID: r.request_id,
    createdAt: formatTimestamp(new Date(r.created_at))!,
  };
}
