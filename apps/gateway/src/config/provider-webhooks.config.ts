import { ConfigError } from '@switchboard/service-runtime';

/**
 * What the gateway needs to take in each provider's webhooks (docs/providers.md). A provider whose secret is not
 * set is not configured: its route answers 404, as if it did not exist.
 */
export interface ProviderWebhooksConfig {
  /** `PUBLIC_BASE_URL` without a trailing slash: the address providers call, as set on their side. */
  publicBaseUrl: string | undefined;
  /** `STRIPE_WEBHOOK_SECRET` (`whsec_...`): the signing secret of the Stripe webhook endpoint. */
  stripeWebhookSecret: string | undefined;
  /** `TWILIO_AUTH_TOKEN`: Twilio signs its callbacks with the account's auth token. */
  twilioAuthToken: string | undefined;
  /** `TWILIO_ACCOUNT_SID`: the account whose callbacks are ours; a callback naming another is refused. */
  twilioAccountSid: string | undefined;
  /** `RETELL_API_KEY`: Retell signs its webhooks with the API key (one with the webhook badge). */
  retellApiKey: string | undefined;
}

export function loadProviderWebhooksConfig(env: NodeJS.ProcessEnv, production: boolean): ProviderWebhooksConfig {
  const value = (name: string) => env[name]?.trim() || undefined;
  const publicBaseUrl = value('PUBLIC_BASE_URL');
  const stripeWebhookSecret = value('STRIPE_WEBHOOK_SECRET');
  const twilioAuthToken = value('TWILIO_AUTH_TOKEN');
  const twilioAccountSid = value('TWILIO_ACCOUNT_SID');
  const retellApiKey = value('RETELL_API_KEY');
  if (stripeWebhookSecret !== undefined && !/^whsec_[A-Za-z0-9]+$/.test(stripeWebhookSecret))
    throw new ConfigError('STRIPE_WEBHOOK_SECRET must be the endpoint signing secret Stripe shows, starting whsec_');
  // Twilio signs the URL it calls: without the public address the signature cannot be checked.
  if (twilioAuthToken !== undefined && publicBaseUrl === undefined)
    throw new ConfigError(
      'Twilio callbacks need PUBLIC_BASE_URL (the https address Twilio calls, e.g. https://api.example.com); missing: PUBLIC_BASE_URL',
    );
  // A callback signed with our token names its account: one naming another account is not ours.
  if (twilioAuthToken !== undefined && twilioAccountSid === undefined)
    throw new ConfigError(
      'Twilio callbacks need the account they come from (AC and 32 hex digits); missing: TWILIO_ACCOUNT_SID',
    );
  if (twilioAccountSid !== undefined && !/^AC[0-9a-f]{32}$/.test(twilioAccountSid))
    throw new ConfigError('TWILIO_ACCOUNT_SID must be the account SID Twilio shows (AC and 32 hex digits)');
  return {
    publicBaseUrl: publicBaseUrl === undefined ? undefined : checkPublicBaseUrl(publicBaseUrl, production),
    stripeWebhookSecret,
    twilioAuthToken,
    twilioAccountSid: twilioAuthToken === undefined ? undefined : twilioAccountSid,
    retellApiKey,
  };
}

function checkPublicBaseUrl(raw: string, production: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`PUBLIC_BASE_URL: "${raw}" is not a URL (e.g. https://api.example.com)`);
  }
  if (url.protocol !== 'https:' && (production || url.protocol !== 'http:'))
    throw new ConfigError(`PUBLIC_BASE_URL must be an https URL${production ? ' when NODE_ENV=production' : ''}`);
  if (url.search || url.hash || url.username || url.password)
    throw new ConfigError('PUBLIC_BASE_URL must not have a query, a fragment or credentials');
  return url.href.replace(/\/+$/, '');
}
