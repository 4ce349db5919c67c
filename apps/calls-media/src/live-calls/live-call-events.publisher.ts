import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { liveCallsSubject, type LiveCallEvent } from '@switchboard/contracts';
import { MESSAGING_CONFIG, NATS_CONNECTION, rpcSubject, type MessagingConfig } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import type { LiveEventsOutlet } from '../call-reports/live-events.port';

/**
 * Publishes each live event, once it is committed to the log, on its account's core NATS subject, where every gateway
 * replica with a live stream of the account subscribes (docs/live-calls.md). No stream: an event missed here (NATS
 * away, a crash before this ran) is still in the log, which a stream reads when it opens, resumes, and at each
 * heartbeat.
 */
@Injectable()
export class LiveCallEventsPublisher implements LiveEventsOutlet {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(MESSAGING_CONFIG) private readonly messaging: MessagingConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  publish(events: readonly LiveCallEvent[]): void {
    for (const event of events) {
      try {
        this.nc.publish(rpcSubject(this.messaging, liveCallsSubject(event.account_id)), JSON.stringify(event));
      } catch (err) {
        this.logger.warn({ err, call_sid: event.call_id, live_event: event.id }, 'live event not published');
      }
    }
  }
}
