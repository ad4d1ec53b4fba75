import { LockMode } from '@mikro-orm/core';
import type { AppDeps, Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { Check } from '../../shared/validate';
import { invalid } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { formatTimestamp } from '../../shared/time';
import { PaymentProviderSettings, PaymentSettings } from './payment.entity';
import { isProviderName, PROVIDER_NAMES, type ProviderName } from './providers/provider-names';
import { decryptSecret, encryptSecret } from './redirect/secret-box';
import { validateTemplate } from './redirect/template';
import { toAsciiUrl } from './redirect/ascii';
import { providerFor, requireAvailable } from './providers/registry';
import { secretKeyContext, webhookSecretContext } from './providers/stripe-client';
import { inTransaction } from '../../kernel/transaction';

/** Shortest accepted signing secret (characters). */
export const MIN_SECRET_LENGTH = 32;
const MAX_SECRET_LENGTH = 1024;

export interface PaymentSettingsJson {
  companyID: string;
  preferredProvider: ProviderName;
  createdAt: string;
  updatedAt: string;
}

/** Provider settings as answered: the secret itself never leaves the server. */
export interface ProviderSettingsJson {
  companyID: string;
  provider: ProviderName;
  success_redirect_url: string | null;
  failure_redirect_url: string | null;
  cancel_redirect_url: string | null;
  enable_url_templating: boolean;
  signing_secret_set: boolean;
  /** stripe: whether a secret API key is stored */
  secret_key_set: boolean;
  /** stripe: whether a webhook signing secret is stored */
  webhook_secret_set: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ProviderSettingsInput {
  success_redirect_url?: unknown;
  failure_redirect_url?: unknown;
  cancel_redirect_url?: unknown;
  enable_url_templating?: unknown;
  signing_secret?: unknown;
  secret_key?: unknown;
  webhook_secret?: unknown;
}

export function paymentSettingsJson(s: PaymentSettings): PaymentSettingsJson {
  return {
    companyID: s.companyId,
    preferredProvider: s.preferredProvider,
    createdAt: formatTimestamp(s.createdAt)!,
    updatedAt: formatTimestamp(s.updatedAt)!,
  };
}

export function providerSettingsJson(p: PaymentProviderSettings): ProviderSettingsJson {
  return {
    companyID: p.companyId,
    provider: p.provider,
    success_redirect_url: p.successRedirectUrl,
    failure_redirect_url: p.failureRedirectUrl,
    cancel_redirect_url: p.cancelRedirectUrl,
    enable_url_templating: p.enableUrlTemplating,
    signing_secret_set: !!p.signingSecretEnc,
    secret_key_set: !!p.secretKeyEnc,
    webhook_secret_set: !!p.webhookSecretEnc,
    createdAt: formatTimestamp(p.createdAt)!,
    updatedAt: formatTimestamp(p.updatedAt)!,
  };
}

/**
 * Additional authenticated data of a stored secret: a box copied into another company's or
 * provider's row fails to decrypt instead of lending its secret.
 */
export const secretContext = (companyId: string, provider: string) => `payment_provider_settings/${companyId}/${provider}`;

/** The decrypted signing secret, or null when none is stored; throws SecretBoxError when unreadable. */
export function readSigningSecret(deps: AppDeps, p: PaymentProviderSettings): string | null {
  if (!p.signingSecretEnc) return null;
  return decryptSecret(p.signingSecretEnc, deps.encryptionKey, secretContext(p.companyId, p.provider));
}

function providerParam(provider: string): ProviderName {
  if (!isProviderName(provider))
    throw invalid(`unknown payment provider; use one of ${PROVIDER_NAMES.join(', ')}`, [
      { path: 'provider', message: `must be one of ${PROVIDER_NAMES.join(', ')}` },
    ]);
  return provider;
}

/** The company's payment settings and the preferred provider's settings, as stored. */
export async function loadRedirectSettings(
  ctx: Ctx,
  companyId: string,
): Promise<{ settings: PaymentSettings | null; provider: PaymentProviderSettings | null }> {
  const settings = await ctx.em.findOne(PaymentSettings, { companyId });
  if (!settings) return { settings: null, provider: null };
  const provider = await ctx.em.findOne(PaymentProviderSettings, { companyId, provider: settings.preferredProvider });
  return { settings, provider };
}

/** The company's payment settings; null when the company takes no payments. */
export async function getPaymentSettings(ctx: Ctx, companyId: string): Promise<PaymentSettingsJson | null> {
  const company = await companyForMerchant(ctx, companyId, 'payments.read');
  const s = await ctx.em.findOne(PaymentSettings, { companyId: company.id });
  return s ? paymentSettingsJson(s) : null;
}

/** Creates or replaces the company's payment settings. */
export async function updatePaymentSettings(
  ctx: Ctx,
  companyId: string,
  input: { preferredProvider?: unknown },
): Promise<PaymentSettingsJson> {
  const company = await companyForMerchant(ctx, companyId, 'payments.write');
  const c = new Check();
  const preferred = c.oneOf('preferredProvider', input?.preferredProvider, PROVIDER_NAMES, true);
  c.done('invalid payment settings');
  // A provider that cannot take payments here is refused now, not at the first booking.
  requireAvailable(providerFor(preferred!));
  // An upsert, so that two first saves racing each other both succeed; in a transaction, so the audit
  // log records it under the request's scope.
  const rows = await inTransaction(ctx, (tx) =>
    tx.em.execute<Record<string, unknown>[]>(
      `insert into payment_settings (id, company_id, preferred_provider, created_at, updated_at) values (?, ?, ?, ?, ?)
       on conflict (company_id) do update set preferred_provider = excluded.preferred_provider, updated_at = excluded.updated_at
       returning id, company_id, preferred_provider, created_at, updated_at`,
      [newId(), company.id, preferred, ctx.now, ctx.now],
    ),
  );
  return paymentSettingsJson(ctx.em.map(PaymentSettings, rows[0]));
}

/** One provider's settings; null when none are stored. */
export async function getProviderSettings(ctx: Ctx, companyId: string, provider: string): Promise<ProviderSettingsJson | null> {
  const company = await companyForMerchant(ctx, companyId, 'payments.read');
  const name = providerParam(provider);
  const p = await ctx.em.findOne(PaymentProviderSettings, { companyId: company.id, provider: name });
  return p ? providerSettingsJson(p) : null;
}

/** `sk_test_...` / `sk_live_...`: the form of Stripe's secret keys (the network is not asked). */
const STRIPE_SECRET_KEY = /^sk_(test|live)_[A-Za-z0-9]{8,1000}$/;
/** `whsec_...`: the form of Stripe's webhook signing secrets. */
const STRIPE_WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=_-]{8,1000}$/;

/**
 * A write-only Stripe credential: undefined keeps the stored one, null removes it, a string of
 * the right form replaces it. Only the stripe provider has them. The value is never echoed.
 */
function providerSecret(
  c: Check,
  provider: ProviderName,
  path: string,
  v: unknown,
  form: RegExp,
  message: string,
): string | null | undefined {
  if (v === undefined) return undefined;
  if (provider !== 'stripe') return (c.fail(path, 'is a setting of the stripe provider only'), undefined);
  if (v === null) return null;
  if (typeof v !== 'string' || !form.test(v)) return (c.fail(path, message), undefined);
  return v;
}

/** null when absent or cleared (null or blank), else the URL in its ASCII form (checked). */
function urlField(c: Check, path: string, v: unknown, templating: boolean): string | null {
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return null;
  if (typeof v !== 'string') return (c.fail(path, 'must be a string'), null);
  const ascii = toAsciiUrl(v);
  if (ascii === null)
    return (c.fail(path, 'invalid redirect URL: the host is not a valid domain name, or the text is not valid Unicode'), null);
  const r = validateTemplate(ascii, { templating });
  if (!r.ok) c.fail(path, r.message);
  return ascii;
}

/**
 * Stores one provider's settings (a full replacement, except the write-only secret: a save
 * without `signing_secret` keeps the stored one, `null` removes it). Redirect URLs are
 * absolute http(s) URLs of at most 2000 characters; with templating they may hold only the
 * eight placeholders, and a secret of at least 32 characters must then be stored.
 */
export async function updateProviderSettings(
  ctx: Ctx,
  companyId: string,
  provider: string,
  input: ProviderSettingsInput,
): Promise<ProviderSettingsJson> {
  const company = await companyForMerchant(ctx, companyId, 'payments.write');
  const name = providerParam(provider);
  const c = new Check();
  const templating = c.bool('enable_url_templating', input?.enable_url_templating) ?? false;
  const urls = {
    successRedirectUrl: urlField(c, 'success_redirect_url', input?.success_redirect_url, templating),
    failureRedirectUrl: urlField(c, 'failure_redirect_url', input?.failure_redirect_url, templating),
    cancelRedirectUrl: urlField(c, 'cancel_redirect_url', input?.cancel_redirect_url, templating),
  };
  const rawSecret = input?.signing_secret;
  let secret: string | null | undefined;
  if (rawSecret === null) secret = null;
  else if (rawSecret !== undefined) {
    // The value is never echoed: only its length matters to the message.
    if (typeof rawSecret !== 'string') c.fail('signing_secret', 'must be a string');
    else if (rawSecret.trim().length < MIN_SECRET_LENGTH) c.fail('signing_secret', `must be at least ${MIN_SECRET_LENGTH} characters`);
    else if (rawSecret.length > MAX_SECRET_LENGTH) c.fail('signing_secret', `must be at most ${MAX_SECRET_LENGTH} characters`);
    else secret = rawSecret;
  }
  const stripeKeys = {
    secretKeyEnc: providerSecret(
      c,
      name,
      'secret_key',
      input?.secret_key,
      STRIPE_SECRET_KEY,
      'must be a Stripe secret key (sk_test_... or sk_live_...)',
    ),
    webhookSecretEnc: providerSecret(
      c,
      name,
      'webhook_secret',
      input?.webhook_secret,
      STRIPE_WEBHOOK_SECRET,
      'must be a Stripe webhook signing secret (whsec_...)',
    ),
  };
  c.done('invalid provider settings');

  return inTransaction(ctx, async (tx) => {
    let p = await tx.em.findOne(
      PaymentProviderSettings,
      { companyId: company.id, provider: name },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    const keepsSecret = secret === undefined && !!p?.signingSecretEnc;
    if (templating && !secret && !keepsSecret) {
      throw invalid(
        `invalid provider settings: signing_secret is required (at least ${MIN_SECRET_LENGTH} characters) when enable_url_templating is true`,
        [{ path: 'signing_secret', message: `is required when enable_url_templating is true` }],
      );
    }
    if (!p) {
      p = tx.em.create(PaymentProviderSettings, {
        id: newId(),
        companyId: company.id,
        provider: name,
        enableUrlTemplating: templating,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      });
    }
    Object.assign(p, urls, { enableUrlTemplating: templating, updatedAt: ctx.now });
    if (secret !== undefined)
      p.signingSecretEnc = secret === null ? null : encryptSecret(secret, ctx.deps.encryptionKey, secretContext(company.id, name));
    if (stripeKeys.secretKeyEnc !== undefined)
      p.secretKeyEnc =
        stripeKeys.secretKeyEnc && encryptSecret(stripeKeys.secretKeyEnc, ctx.deps.encryptionKey, secretKeyContext(company.id));
    if (stripeKeys.webhookSecretEnc !== undefined)
      p.webhookSecretEnc =
        stripeKeys.webhookSecretEnc && encryptSecret(stripeKeys.webhookSecretEnc, ctx.deps.encryptionKey, webhookSecretContext(company.id));
    await tx.em.flush();
    return providerSettingsJson(p);
  });
}
