import { ConfigError } from '@switchboard/service-runtime';

/** Stripe as numbers-billing uses it (docs/adr/0131-auto-top-up-and-stripe.md); undefined when not configured. */
export interface StripeConfig {
  /** `STRIPE_SECRET_KEY`: a secret (`sk_...`) or restricted (`rk_...`) key of the Stripe account. */
  secretKey: string;
  /** `STRIPE_API_BASE_URL`: another address for Stripe's API, for a local stand-in only (refused in production). */
  apiBaseUrl: URL | undefined;
}

export function loadStripeConfig(env: NodeJS.ProcessEnv, production: boolean): StripeConfig | undefined {
  const secretKey = env.STRIPE_SECRET_KEY?.trim() || undefined;
  const base = env.STRIPE_API_BASE_URL?.trim() || undefined;
  if (secretKey === undefined) {
    if (base !== undefined)
      throw new ConfigError('STRIPE_API_BASE_URL is set without Stripe; missing: STRIPE_SECRET_KEY');
    return undefined;
  }
  if (!/^(sk|rk)_(live|test)_[A-Za-z0-9]+$/.test(secretKey))
    throw new ConfigError('STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_live_..., rk_live_...)');
  if (base !== undefined && production)
    throw new ConfigError(
      'STRIPE_API_BASE_URL points Stripe elsewhere and is for local stand-ins only; unset it in production',
    );
  let apiBaseUrl: URL | undefined;
  if (base !== undefined) {
    try {
      apiBaseUrl = new URL(base);
    } catch {
      throw new ConfigError(`STRIPE_API_BASE_URL: "${base}" is not a URL`);
    }
    if (apiBaseUrl.protocol !== 'http:' && apiBaseUrl.protocol !== 'https:')
      throw new ConfigError('STRIPE_API_BASE_URL must be an http or https URL');
  }
  return { secretKey, apiBaseUrl };
}
