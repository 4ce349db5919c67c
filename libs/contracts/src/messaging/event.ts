/**
 * An integration event: published to JetStream through the owning service's outbox, consumed by durable
 * consumers. `type` is the versioned subject without the deployment prefix; `stream` the JetStream stream
 * that holds it (one stream per owning service).
 */
import type { ClassOf } from './rpc';

export interface StreamDefinition {
  /** Stream name without the deployment prefix. */
  readonly name: string;
  /** Event types the stream holds, as a NATS wildcard below `events.v1.`. */
  readonly types: string;
}

export interface EventDescriptor<T extends object> {
  readonly type: string;
  readonly stream: StreamDefinition;
  readonly payload: ClassOf<T>;
}

export type EventPayloadOf<D> = D extends EventDescriptor<infer T> ? T : never;

export function defineEvent<T extends object>(
  type: string,
  stream: StreamDefinition,
  payload: ClassOf<T>,
): EventDescriptor<T> {
  return { type, stream, payload };
}

/** The envelope every event travels in (domain-driven-hexagon's integration event metadata). */
export interface EventEnvelope<T> {
  /** Unique id; also the JetStream message id, so a republished event is de-duplicated. */
  id: string;
  type: string;
  occurred_at: string;
  /** The request or report this event ultimately comes from (an HTTP request id, a call SID). */
  correlation_id: string;
  /** The message that directly caused this one. */
  causation_id: string | null;
  data: T;
}

/** Streams, one per owning service; subjects below them are `<prefix>.events.v1.<type>`. */
export const STREAMS = {
  numbers: { name: 'NUMBERS', types: 'number.>' },
  /** Account-level billing events of numbers-billing (docs/adr/0131-auto-top-up-and-stripe.md). */
  billing: { name: 'BILLING', types: 'billing.>' },
  calls: { name: 'CALLS', types: 'call.>' },
  lostfound: { name: 'LOSTFOUND', types: 'lostfound.>' },
  webhooks: { name: 'WEBHOOKS', types: 'webhook.>' },
  /** Verified webhooks of outside providers, published by the gateway (docs/adr/0083-real-providers.md). */
  provider: { name: 'PROVIDER', types: 'provider.>' },
} as const satisfies Record<string, StreamDefinition>;
