import { Inject, Injectable } from '@nestjs/common';
import { EndpointDisabledEvent, type EndpointDisabledReason, type WebhookEndpointEnabled, type WebhookEndpointView } from '@switchboard/contracts';
import { writeOutboxEvent } from '@switchboard/messaging';
import { OutboxRelay } from '@switchboard/service-runtime';
import { randomUUID } from 'node:crypto';
import { LOGGER, type Logger } from '@switchboard/observability';
import { DISPATCHER_CONFIG } from '../config/tokens';
import type { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { WebhookDispatcherPrisma } from '../prisma/webhook-dispatcher-prisma';
import type { EndpointHealthPort } from './endpoint-health.port';

interface EndpointRow {
  number_id: string;
  consecutive_failures: number;
  failing_since: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
}

/**
 * Endpoint health (docs/adr/0075-webhook-endpoint-health.md). Every counted attempt is recorded: a success ends the
 * run of failures, a failure extends it. The endpoint is disabled at once on `410 Gone`, or when the run has lasted
 * `WEBHOOK_DISABLE_AFTER_MS` (5 days) with at least `WEBHOOK_DISABLE_MIN_FAILURES` (10) failed attempts; the account
 * is told with `webhook.endpoint_disabled` (outbox, in the same transaction). While disabled, events wait (`paused`);
 * enabling queues them all again.
 */
@Injectable()
export class EndpointHealth implements EndpointHealthPort {
  constructor(
    private readonly prisma: WebhookDispatcherPrisma,
    private readonly outbox: OutboxRelay,
    @Inject(DISPATCHER_CONFIG) private readonly config: WebhookDispatcherConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async isDisabled(numberId: string): Promise<boolean> {
    const [row] = await this.prisma.$queryRaw<{ disabled: boolean }[]>`
      SELECT disabled_at IS NOT NULL AS disabled FROM webhook_endpoints WHERE number_id = ${numberId}`;
    return row?.disabled ?? false;
  }

  /** Records one counted attempt's outcome; returns the reason when this outcome disabled the endpoint. */
  async record(input: { numberId: string; accountId: string; succeeded: boolean; statusCode: number | null; at: Date }): Promise<EndpointDisabledReason | undefined> {
    const at = input.at.toISOString();
    const [row] = await this.prisma.$queryRaw<EndpointRow[]>`
      INSERT INTO webhook_endpoints AS e (number_id, account_id, consecutive_failures, failing_since, updated_at)
      VALUES (${input.numberId}, ${input.accountId}, ${input.succeeded ? 0 : 1}::int, ${input.succeeded ? null : at}::timestamptz, now())
      ON CONFLICT (number_id) DO UPDATE SET
        consecutive_failures = CASE WHEN ${input.succeeded} THEN 0 ELSE e.consecutive_failures + 1 END,
        failing_since = CASE WHEN ${input.succeeded} THEN NULL ELSE COALESCE(e.failing_since, EXCLUDED.failing_since) END,
        updated_at = now()
      RETURNING number_id, consecutive_failures, failing_since, disabled_at, disabled_reason`;
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
    const disabled = await this.prisma.$transaction(async (tx) => {
      const count = await tx.$executeRaw`
        UPDATE webhook_endpoints SET disabled_at = ${at}::timestamptz, disabled_reason = ${disabledReason}, updated_at = now()
         WHERE number_id = ${input.numberId} AND disabled_at IS NULL`;
      if (count !== 1) return false;
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
    this.logger.warn({ number_id: input.numberId, reason, consecutive_failures: row.consecutive_failures }, 'webhook endpoint disabled; events wait until it is enabled');
    return reason;
  }

  async view(accountId: string, numberId: string): Promise<WebhookEndpointView> {
    const [row] = await this.prisma.$queryRaw<EndpointRow[]>`
      SELECT number_id, consecutive_failures, failing_since, disabled_at, disabled_reason FROM webhook_endpoints
       WHERE number_id = ${numberId} AND account_id = ${accountId}`;
    return toView(numberId, row);
  }

  /** Enables the endpoint and queues every event that waited (a new round each). */
  async enable(accountId: string, numberId: string, now = new Date()): Promise<WebhookEndpointEnabled> {
    const resumed = await this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`
        UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL, consecutive_failures = 0, failing_since = NULL, updated_at = now()
         WHERE number_id = ${numberId} AND account_id = ${accountId}`;
      return tx.$executeRaw`
        UPDATE webhook_deliveries
           SET status = 'pending', attempt_base = attempts, detached = true, next_attempt_at = ${now.toISOString()}::timestamptz,
               lease_until = NULL, updated_at = now()
         WHERE number_id = ${numberId} AND account_id = ${accountId} AND status = 'paused' AND body IS NOT NULL`;
    });
    if (resumed > 0) this.logger.info({ number_id: numberId, resumed }, 'webhook endpoint enabled; waiting events queued');
    return { ...(await this.view(accountId, numberId)), resumed };
  }
}

function toView(numberId: string, row: EndpointRow | undefined): WebhookEndpointView {
  // No row: nothing was attempted yet (the gateway has checked the number is the caller's).
  if (!row) return { number_id: numberId, status: 'enabled', disabled_reason: null, disabled_at: null, consecutive_failures: 0, failing_since: null };
  return {
    number_id: numberId,
    status: row.disabled_at ? 'disabled' : 'enabled',
    disabled_reason: (row.disabled_reason as EndpointDisabledReason | null) ?? null,
    disabled_at: row.disabled_at?.toISOString() ?? null,
    consecutive_failures: row.consecutive_failures,
    failing_since: row.failing_since?.toISOString() ?? null,
  };
}
