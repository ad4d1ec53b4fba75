import type { AppDeps } from '../../kernel/context';
import { invalid } from '../../shared/errors';
import type { PaymentProviderSettings, PaymentTransaction } from './payment.entity';
import { readSigningSecret } from './settings.service';
import { SecretBoxError } from './redirect/secret-box';
import { renderRedirect, type RedirectValues, type RenderResult } from './redirect/template';
import { isHeaderSafeUrl, toAsciiUrl } from './redirect/ascii';

export const REDIRECT_KINDS = ['success', 'failure', 'cancel'] as const;
export type RedirectKind = (typeof REDIRECT_KINDS)[number];

const FIELD: Record<RedirectKind, 'successRedirectUrl' | 'failureRedirectUrl' | 'cancelRedirectUrl'> = {
  success: 'successRedirectUrl',
  failure: 'failureRedirectUrl',
  cancel: 'cancelRedirectUrl',
};

/** The eight placeholder values of a transaction. */
export function redirectValues(tx: PaymentTransaction): RedirectValues {
  return {
    ID: tx.id,
    ItemID: tx.itemId,
    ItemIDs: tx.itemIds,
    ItemType: tx.itemType,
    PluginNamespace: tx.pluginNamespace,
    Amount: tx.amount,
    Currency: tx.currency,
    ReferenceID: tx.referenceId,
  };
}

/**
 * The configured template of one outcome, or null. Settings saved before URLs were stored as
 * ASCII are converted here; one that has no ASCII form is returned as stored, and the header
 * check of the caller refuses it.
 */
export function templateFor(p: PaymentProviderSettings, kind: RedirectKind): string | null {
  const template = p[FIELD[kind]] || null;
  return template === null ? null : (toAsciiUrl(template) ?? template);
}

/**
 * The redirect URL of one outcome, templated and signed per the settings; null when no URL is
 * configured for it. Throws SecretBoxError when the stored secret cannot be decrypted.
 */
export function renderFor(
  deps: AppDeps,
  p: PaymentProviderSettings,
  kind: RedirectKind,
  tx: PaymentTransaction,
  now: Date,
): RenderResult | null {
  const template = templateFor(p, kind);
  if (!template) return null;
  const secret = p.enableUrlTemplating ? readSigningSecret(deps, p) : null;
  return renderRedirect({ template, values: redirectValues(tx), secret, now: now.getTime(), templating: p.enableUrlTemplating });
}

/**
 * Runs the save-time checks again for a new transaction (settings may predate them) by
 * rendering every configured redirect with the transaction's own values: templating without a
 * secret, an invalid template or a final URL above 2000 characters refuses the payment URL.
 */
export function checkRedirects(deps: AppDeps, p: PaymentProviderSettings, tx: PaymentTransaction, now: Date): void {
  let secret: string | null = null;
  if (p.enableUrlTemplating) {
    try {
      secret = readSigningSecret(deps, p);
    } catch (e) {
      if (!(e instanceof SecretBoxError)) throw e;
      throw invalid(
        'cannot create the payment URL: the stored signing secret cannot be read; save the provider settings again with the signing secret',
        [{ path: 'signing_secret', message: 'cannot be read' }],
      );
    }
    if (!secret)
      throw invalid('cannot create the payment URL: URL templating is enabled but no signing secret is configured', [
        { path: 'signing_secret', message: 'is not configured' },
      ]);
  }
  for (const kind of REDIRECT_KINDS) {
    const template = templateFor(p, kind);
    if (!template) continue;
    let r = renderRedirect({ template, values: redirectValues(tx), secret, now: now.getTime(), templating: p.enableUrlTemplating });
    if (r.ok && !isHeaderSafeUrl(r.url))
      r = {
        ok: false,
        code: 'invalid_template',
        message: 'invalid redirect URL: it cannot be written as ASCII; save the provider settings again',
      };
    if (!r.ok) {
      const path = `${kind}_redirect_url`;
      throw invalid(`cannot create the payment URL: ${path}: ${r.message}`, [{ path, message: r.message }]);
    }
  }
}
