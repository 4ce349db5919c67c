/**
 * Where messages go. `NATS_SUBJECT_PREFIX` namespaces every subject and stream of one deployment, so test
 * runs (and staging beside production on one NATS) never see each other's traffic.
 */
export interface MessagingConfig {
  natsUrl: string;
  prefix: string;
  /** How long a request waits for a reply before the caller is told the service is unavailable. */
  requestTimeoutMs: number;
}

export function messagingConfigFromEnv(env: NodeJS.ProcessEnv = process.env): MessagingConfig {
  const prefix = env.NATS_SUBJECT_PREFIX ?? 'sb';
  if (!/^[a-z][a-z0-9_-]{0,31}$/i.test(prefix)) {
    throw new Error(`NATS_SUBJECT_PREFIX must be letters, digits, '_' or '-' (got "${prefix}")`);
  }
  const timeout = Number(env.NATS_REQUEST_TIMEOUT_MS ?? 5000);
  if (!Number.isInteger(timeout) || timeout <= 0) throw new Error('NATS_REQUEST_TIMEOUT_MS must be a positive integer');
  return { natsUrl: env.NATS_URL ?? 'nats://127.0.0.1:4222', prefix, requestTimeoutMs: timeout };
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
