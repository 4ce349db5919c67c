import { defineEnvVariables, sharedServiceVariables, type EnvVariable } from '@switchboard/service-runtime';

/** lostfound's own variables, with their defaults; `loadLostfoundConfig` reads them, the README's table lists them. */
export const LOSTFOUND_VARIABLES = defineEnvVariables({
  DATA_DIR: { default: '.data', meaning: 'where the embedded database lives' },
  LOSTFOUND_SMS_PROVIDER: {
    default: 'simulated',
    meaning:
      "which adapter texts claimants: `simulated` (texts kept in lostfound's database) or `twilio` (live accounts' texts through Twilio Messaging, ADR 0083)",
  },
  TWILIO_ACCOUNT_SID: { meaning: 'with `LOSTFOUND_SMS_PROVIDER=twilio`: the Twilio account (`AC...`)' },
  TWILIO_AUTH_TOKEN: { meaning: "with `LOSTFOUND_SMS_PROVIDER=twilio`: the account's auth token" },
  TWILIO_API_BASE_URL: {
    meaning: "another address for Twilio's API, for a local stand-in only (refused in production)",
  },
  TWILIO_SMS_FROM: {
    meaning: 'with `twilio`: the Twilio number texts come from (E.164); or else `TWILIO_MESSAGING_SERVICE_SID`',
  },
  TWILIO_MESSAGING_SERVICE_SID: { meaning: 'with `twilio`: a Messaging Service (`MG...`) that picks the sender' },
  NODE_ENV: { meaning: '`production` refuses `TWILIO_API_BASE_URL`' },
  LOSTFOUND_NOTIFY_RETRY_MS: {
    default: 10000,
    meaning: 'how often texts that failed to send are retried (100-3600000)',
  },
  LOSTFOUND_SMS_ACCOUNT_DAILY_LIMIT: {
    default: 200,
    meaning: 'texts to claimants one account may cause per UTC day; beyond: 429 `text_limit` (ADR 0053)',
  },
  LOSTFOUND_SMS_PHONE_DAILY_LIMIT: {
    default: 3,
    meaning: 'texts one claimant phone may get per UTC day, all accounts together (ADR 0053)',
  },
});

/** Every variable lostfound reads, its own and its libraries', in the README's order. */
export const lostfoundVariables: readonly EnvVariable[] = [
  ...Object.values(LOSTFOUND_VARIABLES),
  ...sharedServiceVariables({ prefix: 'LOSTFOUND', directory: 'lostfound', healthServer: true }),
];
