import type { Twilio } from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient';
import { ConfigError } from '@switchboard/service-runtime';

type RequestOptions<TData> = RequestClient.RequestOptions<TData>;

/** The Twilio account a service talks to (docs/adr/0083-real-providers.md). */
export interface TwilioConfig {
  /** `TWILIO_ACCOUNT_SID`: `AC` and 32 hex digits. */
  accountSid: string;
  /** `TWILIO_AUTH_TOKEN`: the account's auth token (also what Twilio signs its callbacks with). */
  authToken: string;
  /** `TWILIO_API_BASE_URL`: another address for Twilio's API, for a local stand-in only (refused in production). */
  apiBaseUrl: URL | undefined;
}

const VARIABLES = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'] as const;

/**
 * Twilio's variables, checked together: none set is "not configured" (undefined); some set without the others is a
 * half configuration, refused with the names of the missing ones.
 */
export function loadTwilioConfig(env: NodeJS.ProcessEnv, production: boolean): TwilioConfig | undefined {
  const value = (name: string) => env[name]?.trim() || undefined;
  const set = VARIABLES.filter((name) => value(name) !== undefined);
  const base = value('TWILIO_API_BASE_URL');
  if (set.length === 0) {
    if (base !== undefined)
      throw new ConfigError(`TWILIO_API_BASE_URL is set without Twilio; missing: ${VARIABLES.join(', ')}`);
    return undefined;
  }
  if (set.length < VARIABLES.length)
    throw new ConfigError(
      `Twilio needs ${VARIABLES.join(' and ')}; missing: ${VARIABLES.filter((name) => !set.includes(name)).join(', ')}`,
    );
  const accountSid = value('TWILIO_ACCOUNT_SID')!;
  if (!/^AC[0-9a-f]{32}$/.test(accountSid))
    throw new ConfigError('TWILIO_ACCOUNT_SID must be the account SID Twilio shows (AC and 32 hex digits)');
  if (base !== undefined && production)
    throw new ConfigError(
      'TWILIO_API_BASE_URL points Twilio elsewhere and is for local stand-ins only; unset it in production',
    );
  let apiBaseUrl: URL | undefined;
  if (base !== undefined) {
    try {
      apiBaseUrl = new URL(base);
    } catch {
      throw new ConfigError(`TWILIO_API_BASE_URL: "${base}" is not a URL`);
    }
    if (apiBaseUrl.protocol !== 'http:' && apiBaseUrl.protocol !== 'https:')
      throw new ConfigError('TWILIO_API_BASE_URL must be an http or https URL');
  }
  return { accountSid, authToken: value('TWILIO_AUTH_TOKEN')!, apiBaseUrl };
}

/** How long one request to Twilio may take before it counts as failed (the caller's retry rules then apply). */
export const TWILIO_TIMEOUT_MS = 10_000;

/**
 * The SDK's client, loaded only by a service configured for Twilio. With `apiBaseUrl` (a stand-in) every request the
 * SDK makes to `https://<product>.twilio.com` goes to that address instead, path and query unchanged; everything else
 * (authentication, bodies, paging, errors) is the SDK's own.
 */
export async function createTwilioClient(config: TwilioConfig, options: { timeoutMs?: number } = {}): Promise<Twilio> {
  const twilio = (await import('twilio')).default;
  const timeout = options.timeoutMs ?? TWILIO_TIMEOUT_MS;
  const base = config.apiBaseUrl;
  const httpClient = base
    ? new (class StandInRequestClient extends twilio.RequestClient {
        override request<TData>(opts: RequestOptions<TData>) {
          const target = new URL(opts.uri);
          return super.request<TData>({ ...opts, uri: `${base.origin}${target.pathname}${target.search}` });
        }
      })({ timeout })
    : new twilio.RequestClient({ timeout });
  return twilio(config.accountSid, config.authToken, { httpClient });
}
