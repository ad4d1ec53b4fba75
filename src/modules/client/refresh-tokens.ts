import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAudit } from '../../kernel/audit';

/**
 * Revokes the live refresh tokens of a family (a replayed token) or of a client (blocked), in
 * the caller's transaction, with one audit entry per token revoked.
 */
export async function revokeRefreshTokens(
  em: EntityManager,
  companyId: string,
  of: { familyId: string } | { clientId: string },
  now: Date,
): Promise<void> {
  const [column, value] = 'familyId' in of ? ['family_id', of.familyId] : ['client_id', of.clientId];
  const rows = await em.execute<{ id: string }[]>(
    `update client_refresh_token set revoked_at = ?::timestamptz where company_id = ? and ${column} = ? and revoked_at is null returning id`,
    [now.toISOString(), companyId, value],
  );
  await recordAudit(
    em,
    rows.map((r) => ({
      companyId,
      action: 'update',
      recordType: 'client_refresh_token',
      recordId: r.id,
      changes: { revokedAt: { before: null, after: now.toISOString() } },
    })),
  );
}
