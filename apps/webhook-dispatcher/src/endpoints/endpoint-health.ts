import { Inject, Injectable } from '@nestjs/common';
import {
  EndpointDisabledEvent,
  type EndpointDisabledReason,
  type WebhookEndpointEnabled,
  type WebhookEndpointView,
} from '@switchboard/contracts';
import { writeOutboxEvent } from '@switchboard/messaging';
import { OutboxRelay } from '@switchboard/service-runtime';
import { randomUUID } from 'node:crypto';
import { LOGGER, type Logger } from '@switchboard/observability';
import { DISPATCHER_CONFIG } from '../config/tokens';
import type { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { WebhookDispatcherTransactions } from '../prisma/webhook-dispatcher-prisma';
import type { CountedAttempt, EndpointHealthPort, EndpointHealthRow } from './endpoint-health.port';
import { WebhookEndpointsRepository, type EndpointRow } from './webhook-endpoints.repository';

/**
 * Endpoint health (docs/adr/0075-webhook-delivery.md). Every counted attempt is recorded (by the attempt's
 * own statement, `healthCountSql`): a success ends the run of failures, a failure extends it. The endpoint is
 * disabled at once on `410 Gone`, or when the run has lasted `WEBHOOK_DISABLE_AFTER_MS` (5 days) with at least
 * `WEBHOOK_DISABLE_MIN_FAILURES` (10) failed attempts; the account is told with `webhook.endpoint_disabled` (outbox,
 * in the same transaction). While disabled, events wait (`paused`); enabling queues them all again.
 */
@Injectable()
export class EndpointHealth implements EndpointHealthPort {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly transactions: WebhookDispatcherTransactions,
    private readonly outbox: OutboxRelay,
    @Inject(DISPATCHER_CONFIG) private readonly config: WebhookDispatcherConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Judges one counted attempt (`row`: the endpoint after the count); the reason when this outcome disabled it. */
  async judge(input: CountedAttempt, row: EndpointHealthRow): Promise<EndpointDisabledReason | undefined> {
    if (input.succeeded || row.disabled_at !== null) return undefined;
    let reason: EndpointDisabledReason | undefined;
    if (input.statusCode === 410) reason = 'gone';
    else if (
      row.consecutive_failures >= this.config.disableMinFailures &&
      row.failing_since !== null &&
      input.at.getTime() - row.failing_since.getTime() >= this.config.disableAfterMs
    ) {
      reason = 'failing';
    }
    if (!reason) return undefined;
    const disabledReason = reason;
    const at = input.at.toISOString();
    const disabled = await this.transactions.run(async (tx) => {
      if (!(await this.endpoints.disable(tx, input.numberId, disabledReason, at))) return false;
      await writeOutboxEvent(
        tx,
        EndpointDisabledEvent,
        {
          account_id: input.accountId,
          number_id: input.numberId,
          reason: disabledReason,
          consecutive_failures: row.consecutive_failures,
          failing_since: row.failing_since?.toISOString() ?? null,
          disabled_at: at,
        },
        { correlationId: randomUUID() },
      );
      return true;
    });
    if (!disabled) return undefined;
    this.outbox.kick();
    this.logger.warn(
      { number_id: input.numberId, reason, consecutive_failures: row.consecutive_failures },
      'webhook endpoint disabled; events wait until it is enabled',
    );
    return reason;
  }

  async view(accountId: string, numberId: string): Promise<WebhookEndpointView> {
    return toView(numberId, await this.endpoints.find(accountId, numberId));
  }

  /** Enables the endpoint and queues every event that waited (a new round each). */
  async enable(accountId: string, numberId: string, now = new Date()): Promise<WebhookEndpointEnabled> {
    const resumed = await this.transactions.run(async (tx) => {
      await this.endpoints.enable(tx, accountId, numberId);
      return this.endpoints.resumePaused(tx, accountId, numberId, now);
    });
    if (resumed > 0)
      this.logger.info({ number_id: numberId, resumed }, 'webhook endpoint enabled; waiting events queued');
    return { ...(await this.view(accountId, numberId)), resumed };
  }
}

function toView(numberId: string, row: EndpointRow | undefined): WebhookEndpointView {
  // No row: nothing was attempted yet (the gateway has checked the number is the caller's).
  if (!row)
    return {
      number_id: numberId,
      status: 'enabled',
      disabled_reason: null,
      disabled_at: null,
      consecutive_failures: 0,
      failing_since: null,
    };
  return {
    number_id: numberId,
    status: row.disabled_at ? 'disabled' : 'enabled',
    disabled_reason: (row.disabled_reason as EndpointDisabledReason | null) ?? null,
    disabled_at: row.disabled_at?.toISOString() ?? null,
    consecutive_failures: row.consecutive_failures,
    failing_since: row.failing_since?.toISOString() ?? null,
  };
}
