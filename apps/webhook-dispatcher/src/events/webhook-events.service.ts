import { Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_WEBHOOK_EVENT_PAGE,
  MAX_RECOVERY_DAYS,
  ServiceError,
  type ListWebhookEventsQuery,
  type RecoverWebhookEventsCommand,
  type RedeliverWebhookEventCommand,
  type SendTestWebhookCommand,
  type WebhookEventList,
  type WebhookEventsRecovered,
  type WebhookEventType,
  type WebhookEventView,
  type WebhookTestResult,
} from '@switchboard/contracts';
import { RetryLater } from '@switchboard/messaging';
import { WEBHOOK_TEST_TYPE, type WebhookTestBody } from '@switchboard/signing';
import { randomUUID } from 'node:crypto';
import { DeliverCallCompleted } from '../deliveries/deliver-call-completed';
import { WebhookEventsRepository, type EventAttemptRow, type EventRow } from './webhook-events.repository';

/** How much of a receiver's answer to a test event is shown. */
export const TEST_RESPONSE_BYTES = 1024;
const DAY_MS = 24 * 3600 * 1000;

/** The integrator's webhook requests (docs/adr/0075-webhook-delivery.md), for a number the gateway checked is theirs. */
@Injectable()
export class WebhookEventsService {
  constructor(
    private readonly events: WebhookEventsRepository,
    @Inject(DeliverCallCompleted) private readonly deliver: DeliverCallCompleted,
  ) {}

  async list(accountId: string, query: ListWebhookEventsQuery): Promise<WebhookEventList> {
    const limit = query.limit ?? DEFAULT_WEBHOOK_EVENT_PAGE;
    const rows = await this.events.page(accountId, query.number_id, limit + 1, query.starting_after);
    if (!rows) throw new ServiceError('invalid_request', 'starting_after is not an event of this number.');
    const page = rows.slice(0, limit);
    return { data: await this.views(page), has_more: rows.length > limit };
  }

  async redeliver(
    accountId: string,
    command: RedeliverWebhookEventCommand,
    now = new Date(),
  ): Promise<WebhookEventView> {
    const queued = await this.events.redeliver(accountId, command.number_id, command.event_id, now);
    const row = await this.events.find(accountId, command.number_id, command.event_id);
    if (!row) throw new ServiceError('not_found', `No webhook event ${command.event_id} on ${command.number_id}.`);
    if (!queued && !row.redeliverable) {
      throw new ServiceError(
        'event_not_redeliverable',
        'This event was delivered before event bodies were kept; it cannot be sent again.',
      );
    }
    // Not queued but redeliverable: it is pending already (queued or retrying), and is sent once.
    const [view] = await this.views([row]);
    return view;
  }

  async recover(
    accountId: string,
    command: RecoverWebhookEventsCommand,
    now = new Date(),
  ): Promise<WebhookEventsRecovered> {
    const since = new Date(command.since);
    if (now.getTime() - since.getTime() > MAX_RECOVERY_DAYS * DAY_MS) {
      throw new ServiceError('invalid_request', `since must be within the last ${MAX_RECOVERY_DAYS} days.`);
    }
    return { queued: await this.events.recover(accountId, command.number_id, since, now) };
  }

  /** Sends a signed `webhook.test` event now, once, and answers what the receiver said. */
  async test(accountId: string, command: SendTestWebhookCommand, correlationId: string): Promise<WebhookTestResult> {
    const eventId = randomUUID();
    const body: WebhookTestBody = {
      type: WEBHOOK_TEST_TYPE,
      number_id: command.number_id,
      occurred_at: new Date().toISOString(),
    };
    let result;
    try {
      result = await this.deliver.send(
        {
          event_id: eventId,
          event_type: WEBHOOK_TEST_TYPE,
          call_sid: '',
          number_id: command.number_id,
          account_id: accountId,
          body: JSON.stringify(body),
        },
        correlationId,
        { maxAttempts: 1, captureResponseBytes: TEST_RESPONSE_BYTES, probe: true },
      );
    } catch (error) {
      if (error instanceof RetryLater) {
        // The receiver already has its share of attempts on the wire (or a lookup failed): the caller's to retry.
        const seconds = Math.max(1, Math.ceil(error.delayMs / 1000));
        if (error.message.startsWith('receiver host busy')) {
          throw new ServiceError(
            'rate_limited',
            `The receiver has its share of deliveries on the wire; send the test again in ${seconds} s.`,
            seconds,
          );
        }
        throw new ServiceError(
          'service_unavailable',
          `The test event could not be sent now (${error.message}); try again.`,
          seconds,
        );
      }
      throw error;
    }
    if (result.skipped === 'unknown_number') throw new ServiceError('not_found', `No number ${command.number_id}.`);
    if (result.verdict === 'skipped') throw new ServiceError('no_webhook', `${command.number_id} has no webhook_url.`);
    const attempt = result.attempt!;
    return {
      event_id: eventId,
      delivered: result.verdict === 'delivered',
      status_code: attempt.status_code,
      error: attempt.error,
      response_body: attempt.response_body,
      latency_ms: attempt.duration_ms,
    };
  }

  private async views(rows: EventRow[]): Promise<WebhookEventView[]> {
    const attempts = new Map<string, EventAttemptRow[]>();
    for (const attempt of await this.events.attemptsOf(rows.map((row) => row.event_id))) {
      const list = attempts.get(attempt.event_id) ?? [];
      list.push(attempt);
      attempts.set(attempt.event_id, list);
    }
    return rows.map((row) => ({
      id: row.event_id,
      type: row.event_type as WebhookEventType,
      number_id: row.number_id,
      status: row.status,
      next_attempt_at: row.status === 'pending' && row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
      redeliverable: row.redeliverable,
      created_at: row.created_at.toISOString(),
      attempts: (attempts.get(row.event_id) ?? []).map((attempt) => ({
        attempt: attempt.attempt,
        url: attempt.url,
        status_code: attempt.status_code,
        error: attempt.error,
        latency_ms: attempt.duration_ms,
        attempted_at: attempt.attempted_at.toISOString(),
      })),
    }));
  }
}
