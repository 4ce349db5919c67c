import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  NumberAnalysisFieldsChangedEvent,
  type EventEnvelope,
  type NumberAnalysisFieldsChanged,
} from '@switchboard/contracts';
import { DurableEventPattern } from '@switchboard/messaging';
import { AnalysisFieldsRepository } from './analysis-fields.repository';

/**
 * The analysis fields of each number's agent, as numbers-billing publishes them after each change of the settings:
 * kept by version (the newest wins whatever the order of delivery), for the call reports to read each call's
 * `analysis.custom` against.
 */
@Controller()
export class AnalysisFieldsConsumer {
  constructor(private readonly fields: AnalysisFieldsRepository) {}

  @DurableEventPattern(NumberAnalysisFieldsChangedEvent, { durable: 'calls-media-analysis-fields', concurrency: 4 })
  async changed(@Payload() envelope: EventEnvelope<NumberAnalysisFieldsChanged>): Promise<void> {
    await this.fields.keep(envelope.data);
  }
}
