import { defineEnvVariables, sharedServiceVariables, type EnvVariable } from '@switchboard/service-runtime';

/** calls-media's own variables, with their defaults; `loadCallsMediaConfig` reads them, the README's table lists them. */
export const CALLS_MEDIA_VARIABLES = defineEnvVariables({
  DATA_DIR: {
    default: '.data',
    meaning: 'recordings go to `DATA_DIR/calls-media/recordings` (mode 0700, files 0600) unless S3 is configured',
  },
  S3_ENDPOINT: {
    shown: 'unset (recordings on disk)',
    meaning:
      "the S3-compatible store's URL (e.g. `https://s3.us-east-1.amazonaws.com`); with `S3_BUCKET`, `S3_ACCESS_KEY_ID` and `S3_SECRET_ACCESS_KEY`, all four or none: recordings in that bucket (path-style, ADR 0121; docs/providers.md)",
  },
  S3_BUCKET: { meaning: 'the bucket recordings are kept in' },
  S3_ACCESS_KEY_ID: { meaning: 'access key of an identity allowed the calls docs/providers.md lists' },
  S3_SECRET_ACCESS_KEY: { meaning: 'its secret' },
  S3_REGION: { default: 'us-east-1', meaning: "the region requests are signed for: the bucket's region on AWS" },
  CALL_ATTRIBUTION_GRACE_MS: {
    default: 60000,
    meaning: "how long a report for a number nobody owns waits for the number's events",
  },
  CALL_ATTRIBUTION_SWEEP_MS: { default: 5000, meaning: 'how often waiting reports are retried' },
  SIMULATED_CALL_SETTLE_MS: {
    default: 2000,
    meaning: "how long the simulated provider's operator route waits for its report to be settled",
  },
  TWILIO_ACCOUNT_SID: {
    shown: "unset (Twilio's recording callbacks are acknowledged and left alone)",
    meaning: 'with `TWILIO_AUTH_TOKEN`: fetch the recordings of live calls from Twilio (ADR 0083)',
  },
  TWILIO_AUTH_TOKEN: { meaning: "the Twilio account's auth token" },
  TWILIO_API_BASE_URL: {
    meaning: "another address for Twilio's API, for a local stand-in only (refused in production)",
  },
  CALL_RECORDING_WAIT_MS: {
    default: 120000,
    meaning: "how long an agent's call report waits for its Twilio recording before it is recorded without one",
  },
  RETENTION_SWEEP_MS: {
    default: 900000,
    meaning:
      'how often the retention sweep deletes expired recordings and transcripts (one replica at a time; docs/call-data.md)',
  },
  LIVE_CALLS_SWEEP_MS: {
    default: 30000,
    meaning:
      "how often calls in progress past their number's max_call_minutes are closed as incomplete (docs/live-calls.md)",
  },
  NODE_ENV: { meaning: '`production` refuses `TWILIO_API_BASE_URL`' },
});

/** Every variable calls-media reads, its own and its libraries', in the README's order. */
export const callsMediaVariables: readonly EnvVariable[] = [
  ...Object.values(CALLS_MEDIA_VARIABLES),
  ...sharedServiceVariables({ prefix: 'CALLS_MEDIA', directory: 'calls-media', healthServer: true }),
];
