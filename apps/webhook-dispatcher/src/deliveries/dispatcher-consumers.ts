import type { EventConsumerSettings } from '@switchboard/messaging';
import type { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { BALANCE_LOW_DURABLE, TOP_UP_FAILED_DURABLE } from './billing-events.consumer';
import { CALL_COMPLETED_DURABLE } from './call-completed.consumer';
import { NUMBER_RELEASED_DURABLE, NUMBER_UPDATED_DURABLE } from './number-events.consumer';
import { CALL_STARTED_DURABLE, CALL_UPDATED_DURABLE } from './opt-in-call-events.consumer';

/** The durable consumers of events that become webhooks. */
export const DISPATCHER_DURABLES = [
  CALL_COMPLETED_DURABLE,
  CALL_STARTED_DURABLE,
  CALL_UPDATED_DURABLE,
  NUMBER_UPDATED_DURABLE,
  NUMBER_RELEASED_DURABLE,
  BALANCE_LOW_DURABLE,
  TOP_UP_FAILED_DURABLE,
] as const;

/**
 * The settings of every consumer of events that become webhooks, all alike (`EVENT_CONSUMER_SETTINGS`): the
 * dispatcher's concurrency and ack wait (`WEBHOOK_CONCURRENCY`, `WEBHOOK_ACK_WAIT_MS`), and a deep pending window:
 * events waiting for a delayed retry stay unacknowledged, and a dead receiver's backlog must not fill the window and
 * hold up every other receiver's deliveries (ADR 0075).
 */
export function dispatcherConsumerSettings(config: WebhookDispatcherConfig): EventConsumerSettings {
  const settings = { concurrency: config.concurrency, ackWaitMs: config.ackWaitMs, maxAckPending: 100_000 };
  return Object.fromEntries(DISPATCHER_DURABLES.map((durable) => [durable, settings]));
}
