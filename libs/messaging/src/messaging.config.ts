/**
 * Where messages go. `NATS_SUBJECT_PREFIX` namespaces every subject and stream of one deployment, so test
 * runs (and staging beside production on one NATS) never see each other's traffic.
 */
export interface MessagingConfig {
  natsUrl: string;
  prefix: string;
  /** How long a request waits for a reply before the caller is told the service is unavailable. */
  requestTimeoutMs: number;
  /**
   * This service's own NATS user (docs/operations.md, "The message bus"); none against an open server, which
   * `connectNats` then reports as a warning.
   */
  credentials?: NatsCredentials;
  /** A CA file to verify the server's TLS certificate with (`tls://` URLs); unset: the system's CAs. */
  tlsCaFile?: string;
}

export interface NatsCredentials {
  user: string;
  password: string;
}

export function messagingConfigFromEnv(env: NodeJS.ProcessEnv = process.env): MessagingConfig {
  const prefix = env.NATS_SUBJECT_PREFIX ?? 'sb';
  if (!/^[a-z][a-z0-9_-]{0,31}$/i.test(prefix)) {
    throw new Error(`NATS_SUBJECT_PREFIX must be letters, digits, '_' or '-' (got "${prefix}")`);
  }
  const timeout = Number(env.NATS_REQUEST_TIMEOUT_MS ?? 5000);
  if (!Number.isInteger(timeout) || timeout <= 0) throw new Error('NATS_REQUEST_TIMEOUT_MS must be a positive integer');
  const config: MessagingConfig = { natsUrl: env.NATS_URL ?? 'nats://127.0.0.1:4222', prefix, requestTimeoutMs: timeout };
  const user = env.NATS_USER?.trim();
  const password = env.NATS_PASSWORD;
  if (Boolean(user) !== Boolean(password)) {
    // Half a configuration would connect anonymously or fail late; say which half is missing.
    throw new Error(`NATS_USER and NATS_PASSWORD go together (only ${user ? 'NATS_USER' : 'NATS_PASSWORD'} is set)`);
  }
  if (user && password) config.credentials = { user, password };
  if (env.NATS_TLS_CA?.trim()) config.tlsCaFile = env.NATS_TLS_CA.trim();
  return config;
}

export function rpcSubject(config: Pick<MessagingConfig, 'prefix'>, subject: string): string {
  return `${config.prefix}.${subject}`;
}

export function eventSubject(config: Pick<MessagingConfig, 'prefix'>, type: string): string {
  return `${config.prefix}.events.v1.${type}`;
}

export function streamName(config: Pick<MessagingConfig, 'prefix'>, stream: string): string {
  return `${config.prefix.toUpperCase().replace(/-/g, '_')}_${stream}`;
}
