import { egressPolicyFromEnv, type EgressPolicy } from '@switchboard/egress';
import { loadTwilioConfig, type TwilioConfig } from '@switchboard/providers';
import { ConfigError, envNonNegativeInt } from '@switchboard/service-runtime';
import { loadEncryptionKeys, type EncryptionKeys } from '../crypto/encryption-keys';
import { loadStripeConfig, type StripeConfig } from './stripe.config';
import { NUMBERS_BILLING_VARIABLES as V } from './variables';

/** Every variable numbers-billing reads, validated once at start (a bad value stops it with a clear message). */
export interface NumbersBillingConfig {
  production: boolean;
  /** Keys sealing webhook secrets at rest: the current one and older ones still accepted for reading. */
  encryption: EncryptionKeys;
  /** Where the development encryption key was written, when SECRETS_ENCRYPTION_KEY was not set. */
  encryptionKeyFile: string | undefined;
  /** How often the monthly billing cycle runs by itself; 0 turns the schedule off (the operator route still works). */
  billingCycleIntervalMs: number;
  /** The SSRF rule for webhook URLs (WEBHOOK_ALLOWED_PRIVATE_HOSTS). */
  egress: EgressPolicy;
  /** Numbers the simulated provider sells per area code when the operator has not set a stock. */
  defaultProviderStock: number;
  /** How often numbers owned at the provider are reconciled with ours (also once at start); 0 turns it off. */
  providerReconcileIntervalMs: number;
  /** Test-only fault: the simulated provider's purchase never answers after the sale (kill tests). */
  simulatedProviderHangAfterSale: boolean;
  /** Stripe for live accounts' auto-top-ups (docs/adr/0131); undefined: the simulated processor for all. */
  stripe: StripeConfig | undefined;
  /**
   * Twilio for live accounts' numbers (docs/adr/0083), with the public address Twilio calls us back at; undefined: the
   * simulated provider for all.
   */
  twilio: { client: TwilioConfig; publicBaseUrl: string } | undefined;
  /** Retell AI for live accounts' agents (docs/adr/0083); undefined: the simulated agent platform for all. */
  retell: RetellConfig | undefined;
}

export interface RetellConfig {
  /** `RETELL_API_KEY`: also what Retell signs its webhooks with (the gateway checks them). */
  apiKey: string;
  /** `RETELL_API_BASE_URL`: another address for Retell's API, for a local stand-in only (refused in production). */
  apiBaseUrl: URL | undefined;
  /** `RETELL_VOICE_ID`: the voice of the agents we create (default `11labs-Adrian`). */
  voiceId: string;
  /** `PUBLIC_BASE_URL`: the agents' webhooks go to `<it>/provider-webhooks/retell`. */
  publicBaseUrl: string;
}

export function loadNumbersBillingConfig(env: NodeJS.ProcessEnv = process.env): NumbersBillingConfig {
  const production = env.NODE_ENV === 'production';
  const { keys, file } = loadEncryptionKeys(env, production);
  return {
    production,
    encryption: keys,
    encryptionKeyFile: file,
    billingCycleIntervalMs: envNonNegativeInt(
      env,
      'BILLING_CYCLE_INTERVAL_MS',
      env.NODE_ENV === 'test' ? 0 : V.BILLING_CYCLE_INTERVAL_MS.default,
    ),
    egress: egressPolicyFromEnv(env),
    defaultProviderStock: envNonNegativeInt(
      env,
      'SIMULATED_PROVIDER_DEFAULT_STOCK',
      V.SIMULATED_PROVIDER_DEFAULT_STOCK.default,
    ),
    providerReconcileIntervalMs: envNonNegativeInt(
      env,
      'PROVIDER_RECONCILE_INTERVAL_MS',
      V.PROVIDER_RECONCILE_INTERVAL_MS.default,
    ),
    simulatedProviderHangAfterSale: testFault(env, 'SIMULATED_PROVIDER_HANG_AFTER_SALE', production),
    stripe: loadStripeConfig(env, production),
    twilio: twilioTelephony(env, production),
    retell: retellAgents(env, production),
  };
}

/** Retell's key, the public address its webhooks come back to, and optionally a stand-in: all or nothing. */
function retellAgents(env: NodeJS.ProcessEnv, production: boolean): RetellConfig | undefined {
  const apiKey = env.RETELL_API_KEY?.trim();
  const base = env.RETELL_API_BASE_URL?.trim();
  if (!apiKey) {
    if (base) throw new ConfigError('RETELL_API_BASE_URL is set without Retell; missing: RETELL_API_KEY');
    return undefined;
  }
  if (base && production)
    throw new ConfigError(
      'RETELL_API_BASE_URL points Retell elsewhere and is for local stand-ins only; unset it in production',
    );
  let apiBaseUrl: URL | undefined;
  if (base) {
    try {
      apiBaseUrl = new URL(base);
    } catch {
      throw new ConfigError(`RETELL_API_BASE_URL: "${base}" is not a URL`);
    }
  }
  return {
    apiKey,
    apiBaseUrl,
    voiceId: env.RETELL_VOICE_ID?.trim() || V.RETELL_VOICE_ID.default,
    publicBaseUrl: publicBaseUrl(env, production, 'Retell agents send their call webhooks'),
  };
}

/** Twilio's account and the public address the numbers we buy call back: all or nothing. */
function twilioTelephony(env: NodeJS.ProcessEnv, production: boolean): NumbersBillingConfig['twilio'] {
  const client = loadTwilioConfig(env, production);
  if (!client) return undefined;
  return { client, publicBaseUrl: publicBaseUrl(env, production, 'Twilio numbers call back') };
}

/** The gateway's public address, which providers call back: required by each provider that calls back. */
function publicBaseUrl(env: NodeJS.ProcessEnv, production: boolean, who: string): string {
  const raw = env.PUBLIC_BASE_URL?.trim();
  if (!raw)
    throw new ConfigError(
      `${who} to the gateway at PUBLIC_BASE_URL (e.g. https://api.example.com); missing: PUBLIC_BASE_URL`,
    );
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`PUBLIC_BASE_URL: "${raw}" is not a URL`);
  }
  if (url.protocol !== 'https:' && (production || url.protocol !== 'http:'))
    throw new ConfigError('PUBLIC_BASE_URL must be an https URL');
  return url.href.replace(/\/+$/, '');
}

/** A fault hook for tests: `1` turns it on; refused in production, where it would strand real purchases. */
function testFault(env: NodeJS.ProcessEnv, name: string, production: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0') return false;
  if (raw !== '1') throw new ConfigError(`${name} must be 1 or unset (got "${raw}")`);
  if (production) throw new ConfigError(`${name} is a test-only fault and cannot be set with NODE_ENV=production`);
  return true;
}
