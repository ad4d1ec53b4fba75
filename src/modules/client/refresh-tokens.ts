import type { Ctx } from '../../kernel/context';

/**
 * Revokes the live refresh tokens of a family (a replayed token) or of a client (blocked), in
 * the caller's transaction (the audit log records each token revoked).
 */
export async function revokeRefreshTokens(
  ctx: Ctx,
  companyId: string,
  of: { familyId: string } | { clientId: string },
  now: Date,
): Promise<void> {
  const [column, value] = 'familyId' in of ? ['family_id', of.familyId] : ['client_id', of.clientId];
  await ctx.em.execute(
    `update client_refresh_token set revoked_at = ?::timestamptz where company_id = ? and ${column} = ? and revoked_at is null`,
    [now.toISOString(), companyId, value],
    'run',
  );
}
