import { defineEnvVariables, sharedServiceVariables, type EnvVariable } from '@switchboard/service-runtime';

/** The gateway's own variables, with their defaults; `loadGatewayConfig` reads them, the README's table lists them. */
export const GATEWAY_VARIABLES = defineEnvVariables({
  PORT: { default: 3000, meaning: 'public server: `/v1`, the console, `/healthz`, `/readyz`, `/docs`' },
  HOST: { default: '0.0.0.0', meaning: 'address the public server listens on' },
  ADMIN_PORT: { default: 3001, meaning: 'operator server (`/admin`, `/metrics`)' },
  ADMIN_HOST: { default: '127.0.0.1', meaning: 'address the operator server listens on' },
  ADMIN_TOKEN: {
    shown: 'required when `NODE_ENV=production`; else a development token kept in `DATA_DIR/admin-token`',
    meaning: 'operator bearer token (at least 16 visible characters, about 64 bits)',
  },
  ADMIN_TOKEN_PREVIOUS: { meaning: 'the token being retired during a rotation, accepted too' },
  TRUSTED_PROXIES: {
    shown: 'empty (trust no one)',
    meaning: 'proxies whose `X-Forwarded-For`/`-Proto` are believed (IPs/CIDRs, at most a /16 or IPv6 /64)',
  },
  TLS_CERT: { shown: 'unset (plain HTTP)', meaning: 'PEM certificate file, with `TLS_KEY`: serve HTTPS' },
  TLS_KEY: { shown: 'unset (plain HTTP)', meaning: 'PEM key file, with `TLS_CERT`' },
  BODY_LIMIT_BYTES: { default: 65536, meaning: 'largest request body; larger: `413 payload_too_large`' },
  HTTP_HEADERS_TIMEOUT_MS: { default: 10000, meaning: "time for a request's headers (ADR 0055)" },
  HTTP_REQUEST_TIMEOUT_MS: { default: 30000, meaning: 'time for a whole request with its body (ADR 0055)' },
  HTTP_KEEP_ALIVE_TIMEOUT_MS: { default: 72000, meaning: 'idle keep-alive connections are closed after this' },
  HTTP_MAX_CONNECTIONS: { default: 10000, meaning: 'open connections per server, all clients together (ADR 0055)' },
  HTTP_MAX_CONNECTIONS_PER_CLIENT: {
    default: 100,
    meaning: 'open connections per client address, trusted proxies excepted (ADR 0055)',
  },
  RATE_LIMIT_REQUESTS: { default: 60, meaning: 'requests per key per window (spec part 8)' },
  RATE_LIMIT_WINDOW_SECONDS: { default: 60, meaning: "the key's rate-limit window" },
  CLAIMANT_RATE_LIMIT_REQUESTS: {
    default: 20,
    meaning: 'claimant-page requests per client address per window (ADR 0079)',
  },
  CLAIMANT_RATE_LIMIT_WINDOW_SECONDS: { default: 600, meaning: "the claimant page's window" },
  CLAIMANT_BODY_LIMIT_BYTES: { default: 8192, meaning: 'largest claimant-page body' },
  WEBHOOK_LISTEN_MAX_SECONDS: {
    default: 3600,
    meaning:
      'longest a `webhook/listen` stream stays open, 1 to 86400 (each ends between 90 % and 100 % of it); `npm run listen` connects again (ADR 0128)',
  },
  DATA_DIR: { default: '.data', meaning: 'where the embedded database and the development admin token live' },
  NODE_ENV: { meaning: '`production` requires `ADMIN_TOKEN`, `CONSOLE_URL` and https provider addresses' },
  CONSOLE_DIST_DIR: {
    shown: '`apps/console/dist` of the repository',
    meaning: 'the built console front-end served at `/console/`',
  },
  CONSOLE_URL: {
    shown: 'required when `NODE_ENV=production`; else `http://127.0.0.1:<PORT>/console/`',
    meaning:
      "the console's public base: invitation and password-reset e-mails link to `<CONSOLE_URL>accept-invite#token=...` and `<CONSOLE_URL>reset-password#token=...`, and its origin is accepted as `Origin` of console changes",
  },
  PUBLIC_BASE_URL: {
    meaning:
      "the https address providers reach the public port at (e.g. `https://api.example.com`); Twilio's signatures are checked against it (docs/providers.md)",
  },
  STRIPE_WEBHOOK_SECRET: {
    shown: 'unset (`/provider-webhooks/stripe` answers 404)',
    meaning: "the Stripe webhook endpoint's signing secret (`whsec_...`)",
  },
  TWILIO_AUTH_TOKEN: {
    shown: 'unset (`/provider-webhooks/twilio/*` answer 404)',
    meaning: "Twilio's auth token, which signs its callbacks; needs `TWILIO_ACCOUNT_SID` and `PUBLIC_BASE_URL`",
  },
  TWILIO_ACCOUNT_SID: {
    meaning: "the Twilio account (`AC...`) whose callbacks are ours; another account's are refused",
  },
  RETELL_API_KEY: {
    shown: 'unset (`/provider-webhooks/retell` answers 404)',
    meaning: "the Retell API key its webhooks are signed with (one with Retell's webhook badge)",
  },
});

/** Every variable the gateway reads, its own and its libraries', in the README's order. */
export const gatewayVariables: readonly EnvVariable[] = [
  ...Object.values(GATEWAY_VARIABLES),
  ...sharedServiceVariables({ prefix: 'GATEWAY', directory: 'gateway', healthServer: false }),
];
