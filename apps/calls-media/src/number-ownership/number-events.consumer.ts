import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  NumberProvisionedEvent,
  NumberReleasedEvent,
  NumberUpdatedEvent,
  type EventEnvelope,
  type NumberStateChanged,
} from '@switchboard/contracts';
import { DurableEventPattern } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { NumberStatesRepository } from './number-states.repository';
import { WAITING_REPORTS, type WaitingReports } from './waiting-reports.port';

const MAX_VERSION = 2n ** 63n - 1n;

/**
 * calls-media's own copy of who owns which phone number: every `number.*` state numbers-billing publishes, kept
 * by a durable consumer per event type. A new state may settle reports that were waiting for it.
 */
@Controller()
export class NumberEventsConsumer {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly states: NumberStatesRepository,
    @Inject(WAITING_REPORTS) private readonly reports: WaitingReports,
  ) {}

  @DurableEventPattern(NumberProvisionedEvent, { durable: 'calls-media-number-provisioned', concurrency: 8 })
  async provisioned(@Payload() envelope: EventEnvelope<NumberStateChanged>): Promise<void> {
    await this.handle(envelope);
  }

  @DurableEventPattern(NumberUpdatedEvent, { durable: 'calls-media-number-updated', concurrency: 8 })
  async updated(@Payload() envelope: EventEnvelope<NumberStateChanged>): Promise<void> {
    await this.handle(envelope);
  }

  @DurableEventPattern(NumberReleasedEvent, { durable: 'calls-media-number-released', concurrency: 8 })
  async released(@Payload() envelope: EventEnvelope<NumberStateChanged>): Promise<void> {
    await this.handle(envelope);
  }

  async handle(envelope: EventEnvelope<NumberStateChanged>): Promise<void> {
    const data = envelope.data;
    const version = BigInt(data.version);
    if (version > MAX_VERSION) {
      this.logger.error(
        { event_id: envelope.id, number_id: data.number_id, version: data.version },
        'number state version out of range; ignored',
      );
      return;
    }
    await this.states.add({
      number_id: data.number_id,
      version,
      account_id: data.account_id,
      phone_number: data.phone_number,
      status: data.status,
      answering: data.answering,
      max_call_minutes: data.max_call_minutes ?? null,
      changed_at: new Date(data.changed_at),
    });
    await this.reports.settleWaitingFor(data.phone_number);
  }
}
