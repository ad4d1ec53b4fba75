import type Stripe from 'stripe';
import type { AppDeps, Ctx } from '../../../kernel/context';
import { conflict, unavailable } from '../../../shared/errors';
import { PaymentProviderSettings } from '../payment.entity';
import { decryptSecret, SecretBoxError } from '../redirect/secret-box';

/**
 * The official Stripe library, one client per secret key (a company's key is its Stripe
 * account), pointed at STRIPE_API_URL when it is set. Calls made while a database transaction
 * holds row locks must not hang: a request gives up after REQUEST_TIMEOUT_MS, and the library
 * retries a failed request once with the same idempotency key.
 */

export type StripeClient = InstanceType<typeof Stripe>;
export type CheckoutSession = Stripe.Checkout.Session;
export type StripeEvent = Stripe.Event;
export type StripeRefund = Stripe.Refund;

export const REQUEST_TIMEOUT_MS = 10_000;
const MAX_CLIENTS = 500;

const clients = new Map<string, StripeClient>();

/** The library, loaded when first needed: most processes never talk to Stripe. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const library = (): typeof Stripe => require('stripe');

/** The Stripe client of a secret key, for the configured API host. */
export function stripeClient(apiUrl: string | null, secretKey: string): StripeClient {
  const cacheKey = `${apiUrl ?? ''}\n${secretKey}`;
  let client = clients.get(cacheKey);
  if (!client) {
    const target = apiUrl ? new URL(apiUrl) : null;
    client = new (library())(secretKey, {
      maxNetworkRetries: 1,
      timeout: REQUEST_TIMEOUT_MS,
      telemetry: false,
      ...(target
        ? {
            protocol: target.protocol === 'http:' ? 'http' : 'https',
            host: target.hostname,
            port: target.port || (target.protocol === 'http:' ? 80 : 443),
          }
        : {}),
    });
    // Keys rotate rarely; a bounded map keeps a process that sees many companies from growing without end.
    if (clients.size >= MAX_CLIENTS) clients.delete(clients.keys().next().value!);
    clients.set(cacheKey, client);
  }
  return client;
}

/** The library's webhook helpers need no key; one client serves every company. */
export const webhooks = (): StripeClient['webhooks'] => stripeClient(null, 'sk_webhooks_only').webhooks;

export const secretKeyContext = (companyId: string) => `payment_provider_settings/${companyId}/stripe/secret_key`;
export const webhookSecretContext = (companyId: string) => `payment_provider_settings/${companyId}/stripe/webhook_secret`;

/** The company's stripe settings row, or null. */
export function stripeSettings(ctx: Ctx, companyId: string): Promise<PaymentProviderSettings | null> {
  return ctx.em.findOne(PaymentProviderSettings, { companyId, provider: 'stripe' });
}

function readSecret(deps: AppDeps, enc: string | null, context: string, what: string): string | null {
  if (!enc) return null;
  try {
    return decryptSecret(enc, deps.encryptionKey, context);
  } catch (e) {
    if (!(e instanceof SecretBoxError)) throw e;
    throw conflict(`the stored Stripe ${what} cannot be read (the encryption key changed); save it again`);
  }
}

/** The company's Stripe client; 409 when no secret key is saved. */
export async function companyStripe(ctx: Ctx, companyId: string): Promise<StripeClient> {
  const settings = await stripeSettings(ctx, companyId);
  const key = settings ? readSecret(ctx.deps, settings.secretKeyEnc, secretKeyContext(companyId), 'secret key') : null;
  if (!key)
    throw conflict('payment provider stripe is not set up for this company: save its secret_key in the stripe provider settings', [
      { path: 'secret_key', message: 'is not configured' },
    ]);
  return stripeClient(ctx.deps.config.stripeApiUrl, key);
}

/** The company's webhook signing secret, or null when none is saved (or it cannot be read). */
export function webhookSecretOf(deps: AppDeps, settings: PaymentProviderSettings | null): string | null {
  if (!settings?.webhookSecretEnc) return null;
  try {
    return decryptSecret(settings.webhookSecretEnc, deps.encryptionKey, webhookSecretContext(settings.companyId));
  } catch (e) {
    if (e instanceof SecretBoxError) return null;
    throw e;
  }
}

/**
 * Whether Stripe answered that the request itself is refused (a 4xx other than rate limiting):
 * retrying it unchanged cannot succeed. Anything else (no answer, a 5xx, a rate limit) may.
 */
export function isRefusal(err: unknown): boolean {
  const { errors } = library();
  if (!(err instanceof errors.StripeError)) return false;
  if (err instanceof errors.StripeRateLimitError || err instanceof errors.StripeConnectionError) return false;
  if (err instanceof errors.StripeAPIError) return false;
  const status = err.statusCode ?? 0;
  return status >= 400 && status < 500;
}

/**
 * A Stripe failure as the API answers it: a refusal caused by the company's Stripe account or
 * settings is a 409 naming Stripe's reason; an unreachable or failing Stripe is a 503 to retry.
 * Never the secret key, which Stripe's messages do not contain either.
 */
export function stripeFailure(err: unknown, doing: string): Error {
  if (isRefusal(err)) {
    const e = err as InstanceType<typeof Stripe.errors.StripeError>;
    const { errors } = library();
    const auth = e instanceof errors.StripeAuthenticationError || e instanceof errors.StripePermissionError;
    const reason = auth ? 'the secret key was refused' : String(e.message ?? 'refused').slice(0, 300);
    return conflict(`Stripe refused to ${doing}: ${reason}`);
  }
  return unavailable(`Stripe could not be reached to ${doing}; try again`, 5);
}
