import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { webhookCopySubject, type WebhookCopy } from '@switchboard/contracts';
import { MESSAGING_CONFIG, NATS_CONNECTION, rpcSubject, type MessagingConfig } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import type { WebhookCopies } from './webhook-copies.port';

/**
 * Publishes each copy on the number's core NATS subject (`<prefix>.webhook-copies.v1.<account>.<number>`), where the
 * gateway subscribes while a listener is connected. No stream: a copy is worth something only to a listener connected
 * now, so nothing is kept, and with no listener the server drops it at once.
 */
@Injectable()
export class NatsWebhookCopies implements WebhookCopies {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(MESSAGING_CONFIG) private readonly messaging: MessagingConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  publish(accountId: string, copy: WebhookCopy): void {
    try {
      this.nc.publish(rpcSubject(this.messaging, webhookCopySubject(accountId, copy.number_id)), JSON.stringify(copy));
    } catch (err) {
      // A closed or draining connection: the delivery itself goes on; only a listener misses this copy.
      this.logger.warn({ err, event_id: copy.event_id, number_id: copy.number_id }, 'webhook copy not published');
    }
  }
}
