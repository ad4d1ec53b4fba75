import { newId } from '../../src/shared/ids';
import { startPayment, type StartPaymentInput } from '../../src/modules/payment/payment.api';
import type { Res, TestApp } from './app';
import { inTransaction } from '../../src/kernel/transaction';
import { createCtx } from '../../src/kernel/context';

/** A signing secret long enough for the save-time check; tests look for it in every output. */
export const SECRET = 'sk_test_Zq8Lr3Vd9Xw2Mn7Bt5Kc1Hy6Pf4Gs0Ja';

export interface ProviderConfig {
  success?: string | null;
  failure?: string | null;
  cancel?: string | null;
  templating?: boolean;
  secret?: string | null;
  provider?: string;
}

/** Payment settings with `provider` preferred, plus that provider's redirect settings. */
export async function configurePayments(t: TestApp, companyId: string, cfg: ProviderConfig = {}): Promise<Res> {
  const provider = cfg.provider ?? 'test';
  const s = await t.call('PUT', `/v1/companies/${companyId}/payments/settings`, { body: { preferredProvider: provider } });
  if (s.status !== 200) throw new Error(`payment settings: ${s.status} ${s.text}`);
  const body: Record<string, unknown> = {
    success_redirect_url: cfg.success ?? null,
    failure_redirect_url: cfg.failure ?? null,
    cancel_redirect_url: cfg.cancel ?? null,
    enable_url_templating: cfg.templating ?? false,
  };
  if (cfg.secret !== undefined) body.signing_secret = cfg.secret;
  return t.call('PUT', `/v1/companies/${companyId}/payments/providers/${provider}`, { body });
}

/**
 * Starts a payment as the bookings context does, in its own database transaction. The items
 * need not exist: settling unknown booking ids changes no booking.
 */
export async function startTestPayment(
  t: TestApp,
  companyId: string,
  input: Partial<StartPaymentInput> = {},
): Promise<{ transactionId: string; paymentURL: string } | null> {
  const ctx = createCtx(t.deps, null, 'fixture', t.deps.log);
  const itemIDs = input.itemIDs ?? [newId()];
  const amount = input.amount ?? 1250;
  return inTransaction(ctx, (tx) =>
    startPayment(tx, {
      companyId,
      clientId: null,
      email: 'payer@example.com',
      itemType: 'booking',
      itemIDs,
      perItemAmounts: input.perItemAmounts ?? Object.fromEntries(itemIDs.map((id) => [id, Math.floor(amount / itemIDs.length)])),
      amount,
      currency: 'EUR',
      taxInclusive: true,
      taxRate: 21,
      ...input,
    }),
  );
}

export const pathOf = (url: string): string => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** Posts the outcome as the checkout page's form does. */
export function complete(t: TestApp, transactionId: string, outcome: string, asJson = false): Promise<Res> {
  return asJson
    ? t.call('POST', `/v1/payments/test-checkout/${transactionId}/complete`, { key: null, body: { outcome } })
    : t.call('POST', `/v1/payments/test-checkout/${transactionId}/complete`, {
        key: null,
        body: `outcome=${encodeURIComponent(outcome)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
}

/** Verifies a redirect URL by forwarding its query string exactly as received. */
export function verifyUrl(t: TestApp, companyId: string, redirectUrl: string, key?: string): Promise<Res> {
  const search = new URL(redirectUrl).search;
  return t.call('GET', `/v1/companies/${companyId}/payments/verify-signature${search}`, key ? { key } : {});
}
