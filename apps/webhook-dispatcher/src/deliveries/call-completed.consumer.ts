import { Controller, Inject, type OnApplicationBootstrap } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { CallCompletedEvent, type CallCompletedData, type EventEnvelope } from '@switchboard/contracts';
import { DurableEventPattern, JetStreamContext } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { DISPATCHER_CONFIG } from '../config/tokens';
import type { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { DeliverCallCompleted } from './deliver-call-completed';

/** The durable JetStream consumer of `call.completed` that webhook-dispatcher reads from. */
export const CALL_COMPLETED_DURABLE = 'webhook-dispatcher';

/**
 * Transport of the delivery use case: a durable pull consumer with explicit acknowledgement. Up to
 * `WEBHOOK_CONCURRENCY` events are handled at once (its settings: `dispatcherConsumerSettings`); an event is
 * acknowledged only when it has its verdict; scheduled retries go back to JetStream with a delay (nak), so no slot is
 * held while an event waits. On shutdown it stops pulling and lets attempts on the wire finish (each bounded by
 * `WEBHOOK_TIMEOUT_MS`).
 */
@Controller()
export class CallCompletedConsumer implements OnApplicationBootstrap {
  constructor(
    @Inject(DISPATCHER_CONFIG) private readonly config: WebhookDispatcherConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly deliver: DeliverCallCompleted,
  ) {}

  onApplicationBootstrap(): void {
    const allowed = [...this.config.egress.allowedPrivateHosts];
    if (allowed.length > 0) {
      this.logger.warn(
        { hosts: allowed },
        'WEBHOOK_ALLOWED_PRIVATE_HOSTS is set: webhooks may be sent to private addresses of these hosts (for local testing only)',
      );
    }
  }

  @DurableEventPattern(CallCompletedEvent, { durable: CALL_COMPLETED_DURABLE })
  async callCompleted(@Payload() event: EventEnvelope<CallCompletedData>, @Ctx() ctx: JetStreamContext): Promise<void> {
    await this.deliver.deliver(event, ctx.deliveryCount);
  }
}
