import { companyForMerchant } from '../company/company.access';
import { readSigningSecret, loadRedirectSettings } from './settings.service';
import { checkRedirectEnvelope, verifyRedirect, type RedirectQuery, type VerifyResult } from './redirect/verify';
import type { Ctx } from '../../kernel/context';

/** Query values as a query-string parser yields them; GraphQL's JSON numbers count as their text. */
function asQuery(raw: unknown): RedirectQuery {
  const out: Record<string, string | string[]> = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  const text = (v: unknown): string | null =>
    typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;
  for (const [k, v] of Object.entries(raw)) {
    if (Array.isArray(v)) {
      const items = v.map(text);
      if (items.every((i) => i !== null)) out[k] = items as string[];
    } else {
      const s = text(v);
      if (s !== null) out[k] = s;
    }
  }
  return out;
}

/**
 * Verifies a signed redirect URL from the query parameters the merchant received
 * (`payments.read`). Always answers a verification result; only access errors throw. The
 * settings are loaded only once the parameters themselves look right, and the secret is
 * decrypted only after that.
 */
export async function verifyRedirectSignature(ctx: Ctx, companyId: string, rawQuery: unknown): Promise<VerifyResult> {
  const company = await companyForMerchant(ctx, companyId, 'payments.read');
  const query = asQuery(rawQuery);
  const now = ctx.now.getTime();
  const envelope = checkRedirectEnvelope(query, now);
  if (!envelope.ok) return { valid: false, reason: envelope.reason };
  let loaded;
  try {
    loaded = await loadRedirectSettings(ctx, company.id);
  } catch (err) {
    ctx.log.error({ err }, 'loading payment settings for signature verification failed');
    return { valid: false, reason: 'internal_error' };
  }
  const p = loaded.provider;
  return verifyRedirect({
    query,
    now,
    settings: {
      paymentSettings: loaded.settings ? { preferredProvider: loaded.settings.preferredProvider } : null,
      provider: p
        ? {
            enableUrlTemplating: p.enableUrlTemplating,
            successUrl: p.successRedirectUrl,
            failureUrl: p.failureRedirectUrl,
            cancelUrl: p.cancelRedirectUrl,
            decryptSecret: () => readSigningSecret(ctx.deps, p),
          }
        : null,
    },
  });
}
