import type { MessagingConfig } from '@switchboard/messaging';
import { ConfigError, envPositiveInt } from './env';

/**
 * The service's NATS settings from its environment, with the other typed variables (libs/messaging takes a
 * `MessagingConfig` and reads no environment): `NATS_URL`, `NATS_SUBJECT_PREFIX` (namespaces every subject and stream
 * of one deployment), `NATS_REQUEST_TIMEOUT_MS`, `NATS_USER` with `NATS_PASSWORD` (docs/operations.md, "The message
 * bus") and `NATS_TLS_CA`.
 */
export function messagingConfigFromEnv(env: NodeJS.ProcessEnv = process.env): MessagingConfig {
  const prefix = env.NATS_SUBJECT_PREFIX ?? 'sb';
  if (!/^[a-z][a-z0-9_-]{0,31}$/i.test(prefix)) {
    throw new ConfigError(`NATS_SUBJECT_PREFIX must be letters, digits, '_' or '-' (got "${prefix}")`);
  }
  const config: MessagingConfig = {
    natsUrl: env.NATS_URL ?? 'nats://127.0.0.1:4222',
    prefix,
    requestTimeoutMs: envPositiveInt(env, 'NATS_REQUEST_TIMEOUT_MS', 5000),
  };
  const user = env.NATS_USER?.trim();
  const password = env.NATS_PASSWORD;
  if (Boolean(user) !== Boolean(password)) {
    // Half a configuration would connect anonymously or fail late; say which half is missing.
    throw new ConfigError(
      `NATS_USER and NATS_PASSWORD go together (only ${user ? 'NATS_USER' : 'NATS_PASSWORD'} is set)`,
    );
  }
  if (user && password) config.credentials = { user, password };
  if (env.NATS_TLS_CA?.trim()) config.tlsCaFile = env.NATS_TLS_CA.trim();
  return config;
}
