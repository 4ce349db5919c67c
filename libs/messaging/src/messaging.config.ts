/**
 * Where messages go. `prefix` (`NATS_SUBJECT_PREFIX`) namespaces every subject and stream of one deployment, so
 * test runs (and staging beside production on one NATS) never see each other's traffic. Read from the environment
 * by `messagingConfigFromEnv` in libs/service-runtime, with the service's other variables.
 */
export interface MessagingConfig {
  natsUrl: string;
  prefix: string;
  /** How long a request waits for a reply before the caller is told the service is unavailable. */
  requestTimeoutMs: number;
  /**
   * How many copies of each stream a NATS cluster keeps (`num_replicas`), set when `ensureStream` creates it; unset:
   * 1, all a single server can hold. A stream that already exists keeps its count.
   */
  streamReplicas?: number;
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

export function rpcSubject(config: Pick<MessagingConfig, 'prefix'>, subject: string): string {
  return `${config.prefix}.${subject}`;
}

export function eventSubject(config: Pick<MessagingConfig, 'prefix'>, type: string): string {
  return `${config.prefix}.events.v1.${type}`;
}

export function streamName(config: Pick<MessagingConfig, 'prefix'>, stream: string): string {
  return `${config.prefix.toUpperCase().replace(/-/g, '_')}_${stream}`;
}
