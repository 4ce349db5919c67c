import { defineEnvVariables, sharedServiceVariables, type EnvVariable } from '@switchboard/service-runtime';

/**
 * numbers-billing's own variables, with their defaults; `loadNumbersBillingConfig` reads them, the README's table lists
 * them.
 */
export const NUMBERS_BILLING_VARIABLES = defineEnvVariables({
  SECRETS_ENCRYPTION_KEY: {
    shown: 'required in production; elsewhere made once in `DATA_DIR/secrets-encryption-key` (0600)',
    meaning: 'base64 of 32 bytes; seals webhook secrets',
  },
  SECRETS_ENCRYPTION_PREVIOUS_KEYS: {
    shown: 'empty',
    meaning:
      'comma-separated older keys, still accepted for reading; secrets are sealed again with the current key at start',
  },
  BILLING_CYCLE_INTERVAL_MS: {
    default: 3600000,
    shown: '`3600000` (`0` when `NODE_ENV=test`)',
    meaning: 'how often the billing cycle runs by itself; `0` = never',
  },
  SIMULATED_PROVIDER_DEFAULT_STOCK: {
    default: 100,
    meaning: 'numbers per area code the simulated provider sells unless the operator set a stock',
  },
  PROVIDER_RECONCILE_INTERVAL_MS: {
    default: 300000,
    meaning: 'how often numbers owned at the provider are reconciled with our orders (also once at start); `0` = never',
  },
  SIMULATED_PROVIDER_HANG_AFTER_SALE: {
    meaning:
      "test-only fault (`1`; refused with `NODE_ENV=production`): the simulated provider's purchase never answers after the sale, for kill tests",
  },
  WEBHOOK_ALLOWED_PRIVATE_HOSTS: {
    shown: 'empty',
    meaning: 'hosts exempt from the private-address rule for webhook URLs (local testing; a warning is logged)',
  },
  DATA_DIR: { default: '.data', meaning: 'embedded database and development encryption key' },
  NODE_ENV: {
    meaning: '`production` requires `SECRETS_ENCRYPTION_KEY` and refuses test faults and stand-in addresses',
  },
  STRIPE_SECRET_KEY: {
    shown: 'unset (the simulated card processor for every account)',
    meaning: "a secret (`sk_...`) or restricted (`rk_...`) key: live accounts' auto-top-ups through Stripe (ADR 0131)",
  },
  STRIPE_API_BASE_URL: {
    meaning: "another address for Stripe's API, for a local stand-in only (refused in production)",
  },
  TWILIO_ACCOUNT_SID: {
    shown: 'unset (the simulated telephony provider for every account)',
    meaning: "with `TWILIO_AUTH_TOKEN` and `PUBLIC_BASE_URL`: live accounts' numbers are bought from Twilio (ADR 0083)",
  },
  TWILIO_AUTH_TOKEN: { meaning: "the Twilio account's auth token" },
  TWILIO_API_BASE_URL: {
    meaning: "another address for Twilio's API, for a local stand-in only (refused in production)",
  },
  RETELL_API_KEY: {
    shown: 'unset (the simulated agent platform for every account)',
    meaning: "with `PUBLIC_BASE_URL`: live accounts' agents on Retell AI (ADR 0083)",
  },
  RETELL_API_BASE_URL: {
    meaning: "another address for Retell's API, for a local stand-in only (refused in production)",
  },
  RETELL_VOICE_ID: { default: '11labs-Adrian', meaning: 'the voice of the agents we create' },
  PUBLIC_BASE_URL: {
    meaning:
      "the gateway's public address (e.g. `https://api.example.com`), which Twilio numbers and Retell agents call back; required with either",
  },
});

/** Every variable numbers-billing reads, its own and its libraries', in the README's order. */
export const numbersBillingVariables: readonly EnvVariable[] = [
  ...Object.values(NUMBERS_BILLING_VARIABLES),
  ...sharedServiceVariables({ prefix: 'NUMBERS_BILLING', directory: 'numbers-billing', healthServer: true }),
];
