import type { MessagingConfig } from '@switchboard/messaging';
import { ConfigError, defineEnvVariables, envIntBetween, envPositiveInt } from './env';

/** The NATS variables every service reads (each README's table lists them). */
export const MESSAGING_VARIABLES = defineEnvVariables({
  NATS_URL: { default: 'nats://127.0.0.1:4222', meaning: 'NATS with JetStream' },
  NATS_SUBJECT_PREFIX: { default: 'sb', meaning: 'namespaces every subject and stream of one deployment' },
  NATS_REQUEST_TIMEOUT_MS: { default: 5000, meaning: 'how long a NATS request waits for its answer' },
  NATS_STREAM_REPLICAS: {
    default: 1,
    meaning:
      'copies a NATS cluster keeps of each JetStream stream this service creates (1 to 5; 3 on a 3-node cluster)',
  },
  NATS_USER: {
    shown: 'unset (an open server is warned about)',
    meaning:
      'this service\'s own NATS user, with `NATS_PASSWORD`: both or neither (docs/operations.md, "The message bus")',
  },
  NATS_PASSWORD: { meaning: "the NATS user's password" },
  NATS_TLS_CA: {
    shown: 'unset (system CAs)',
    meaning: "CA that signed the NATS server's certificate, for `tls://` URLs",
  },
});

/**
 * The service's NATS settings from its environment, with the other typed variables (libs/messaging takes a
 * `MessagingConfig` and reads no environment): `NATS_URL`, `NATS_SUBJECT_PREFIX` (namespaces every subject and stream
 * of one deployment), `NATS_REQUEST_TIMEOUT_MS`, `NATS_STREAM_REPLICAS`, `NATS_USER` with `NATS_PASSWORD` (docs/operations.md, "The message
 * bus") and `NATS_TLS_CA`.
 */
export function messagingConfigFromEnv(env: NodeJS.ProcessEnv = process.env): MessagingConfig {
  const prefix = env.NATS_SUBJECT_PREFIX ?? MESSAGING_VARIABLES.NATS_SUBJECT_PREFIX.default;
  if (!/^[a-z][a-z0-9_-]{0,31}$/i.test(prefix)) {
    throw new ConfigError(`NATS_SUBJECT_PREFIX must be letters, digits, '_' or '-' (got "${prefix}")`);
  }
  const config: MessagingConfig = {
    natsUrl: env.NATS_URL ?? MESSAGING_VARIABLES.NATS_URL.default,
    prefix,
    requestTimeoutMs: envPositiveInt(
      env,
      'NATS_REQUEST_TIMEOUT_MS',
      MESSAGING_VARIABLES.NATS_REQUEST_TIMEOUT_MS.default,
    ),
    streamReplicas: envIntBetween(env, 'NATS_STREAM_REPLICAS', MESSAGING_VARIABLES.NATS_STREAM_REPLICAS.default, 1, 5),
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
