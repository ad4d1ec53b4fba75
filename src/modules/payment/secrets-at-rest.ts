import { decryptSecret } from './redirect/secret-box';
import { secretContext } from './settings.service';
import type { Ctx } from '../../kernel/context';

/** Rows looked at: enough to tell which key the stored secrets were encrypted with. */
const SAMPLE = 50;

/**
 * How many stored signing secrets there are, and how many of a sample decrypt with `key`.
 * The start-up uses it to tell an installation whose secrets were encrypted with the old
 * built-in development key from a new one (see app/encryption-key.ts).
 */
export async function storedSecretsReadableWith(ctx: Ctx, key: Buffer): Promise<{ total: number; sampled: number; readable: number }> {
  const conn = ctx.em.getConnection();
  const [{ n }] = await conn.execute<{ n: string | number }[]>(
    'select count(*) as n from payment_provider_settings where signing_secret_enc is not null',
  );
  const rows = await conn.execute<{ company_id: string; provider: string; signing_secret_enc: string }[]>(
    'select company_id, provider, signing_secret_enc from payment_provider_settings where signing_secret_enc is not null order by updated_at desc limit ?',
    [SAMPLE],
  );
  let readable = 0;
  for (const r of rows) {
    try {
      decryptSecret(r.signing_secret_enc, key, secretContext(r.company_id, r.provider));
      readable++;
    } catch {
      /* encrypted with another key */
    }
  }
  return { total: Number(n), sampled: rows.length, readable };
}
