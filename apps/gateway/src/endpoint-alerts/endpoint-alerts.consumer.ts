import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EndpointDisabledEvent, type EndpointDisabledData, type EventEnvelope } from '@switchboard/contracts';
import { DurableEventPattern } from '@switchboard/messaging';
import { EndpointAlertsService } from './endpoint-alerts.service';

export const ENDPOINT_ALERTS_DURABLE = 'gateway-endpoint-alerts';

/**
 * `webhook.endpoint_disabled` from the WEBHOOKS stream (docs/adr/0075), durable and at least once: each event mails
 * the account's owners (EndpointAlertsService, which sends each mail once under redelivery). The gateway listens
 * before NATS answers, so its event server starts this consumer once the connection is there, in the background
 * (`startMessaging` with `eventsInBackground`).
 */
@Controller()
export class EndpointAlertsConsumer {
  constructor(private readonly alerts: EndpointAlertsService) {}

  @DurableEventPattern(EndpointDisabledEvent, { durable: ENDPOINT_ALERTS_DURABLE, concurrency: 1 })
  async endpointDisabled(@Payload() envelope: EventEnvelope<EndpointDisabledData>): Promise<void> {
    await this.alerts.handle(envelope);
  }
}
