#!/usr/bin/env node
// Prints a .env for deploy/compose/compose.yaml with fresh random secrets:
//   node deploy/compose/make-env.mjs > deploy/compose/.env
// Compose reads .env from the compose file's folder; the file is git-ignored. Keep it: the databases and the
// sealed webhook secrets are only readable with the values it holds.
import { randomBytes } from 'node:crypto';

const hex = (bytes) => randomBytes(bytes).toString('hex');
// nats-server reads each password through a variable of its configuration (`password: $GATEWAY_NATS_PASSWORD`) and
// lexes the value as a configuration value: hex that starts like a number with an exponent (`0842e4e2...`, 18 of
// 200 values tried) is a parse error, and the node exits at start. A leading letter keeps every value a string.
const natsPassword = () => `nats${hex(24)}`;
const lines = [
  '# Made by deploy/compose/make-env.mjs. Local secrets: never commit, never reuse in another environment.',
  `ADMIN_TOKEN=adm_${randomBytes(24).toString('base64url')}`,
  '# base64 of 32 random bytes; seals webhook secrets in numbers-billing (docs/operations.md: rotating it)',
  `SECRETS_ENCRYPTION_KEY=${randomBytes(32).toString('base64')}`,
  'SECRETS_ENCRYPTION_PREVIOUS_KEYS=',
  ...['GATEWAY', 'NUMBERS_BILLING', 'CALLS_MEDIA', 'LOSTFOUND', 'WEBHOOK_DISPATCHER'].map(
    (app) => `${app}_DB_PASSWORD=${hex(24)}`,
  ),
  "# Each service's NATS password (its user is its name); nats-server reads the same variables",
  ...['GATEWAY', 'NUMBERS_BILLING', 'CALLS_MEDIA', 'LOSTFOUND', 'WEBHOOK_DISPATCHER'].map(
    (app) => `${app}_NATS_PASSWORD=${natsPassword()}`,
  ),
  '# The address people open the console at: invitation and password-reset e-mails link to it. The edge of',
  '# compose.yaml answers on this one; on a server, the name others reach it by (https://switchboard.example.com/console/).',
  'CONSOLE_URL=https://localhost:8443/console/',
  '# Optional: NATS_SUBJECT_PREFIX=sb, LOG_LEVEL=info, SWITCHBOARD_TAG=local, WEBHOOK_BACKOFF_BASE_MS=30000,',
  '# WEBHOOK_TIMEOUT_MS=10000, WEBHOOK_ALLOWED_PRIVATE_HOSTS= (hosts that may receive webhooks on private addresses)',
];
process.stdout.write(`${lines.join('\n')}\n`);
