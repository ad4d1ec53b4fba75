/** The five providers that support redirect templating, and the built-in `test` provider. */
export const PROVIDER_NAMES = ['stripe', 'klix', 'decta', 'montonio', 'mercadopago', 'test'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export const isProviderName = (v: unknown): v is ProviderName => typeof v === 'string' && (PROVIDER_NAMES as readonly string[]).includes(v);
