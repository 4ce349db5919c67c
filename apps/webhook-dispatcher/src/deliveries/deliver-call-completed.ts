import { Inject, Injectable } from '@nestjs/common';
import { ServiceError, type CallCompletedData, type EventEnvelope } from '@switchboard/contracts';
import { RetryLater } from '@switchboard/messaging';
import { EVENT_ID_HEADER, signedHeaders } from '@switchboard/signing';
import { LOGGER, type Logger } from '@switchboard/observability';
import { DISPATCHER_CONFIG } from '../config/tokens';
import { MAX_ATTEMPTS, type WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { WebhookEgress } from '../egress/webhook-egress';
import { WEBHOOK_SENDER, type WebhookResponse, type WebhookSender } from '../webhook-sender/webhook-sender.port';
import { WEBHOOK_TARGETS, type WebhookTargets } from '../webhook-target/webhook-targets.port';
import { backoffDelayMs } from './backoff';
import { DeliveriesRepository } from './deliveries.repository';
import type { DeliveryStore, NewDelivery } from './delivery-store.port';
import { HostLimiter } from './host-limiter';
import { callCompletedWebhookBody, encodeBody } from './webhook-body';

export const USER_AGENT = 'Switchboard-Webhooks/1.0';

/** What to do with the message once `deliver` returns: it resolves to acknowledge, or throws `RetryLater`. */
type Verdict = 'delivered' | 'failed' | 'refused' | 'skipped' | 'duplicate';

/** The first wait of an event whose receiver host already has its share of attempts on the wire; it doubles. */
const HOST_BUSY_FIRST_DELAY_MS = 250;

/**
 * The `call.completed` webhook use case (docs/adr/0030-webhook-delivery-state.md): one call per JetStream
 * delivery of the event. Resolves when the event has its verdict (a 2xx, the fifth failed attempt, a refused
 * URL, or nothing to send), so the message is acknowledged; throws `RetryLater` to have it handed back after
 * the backoff. All state lives in the database, so any worker (or a restarted one) picks up where the last one
 * stopped.
 */
@Injectable()
export class DeliverCallCompleted {
  constructor(
    @Inject(DeliveriesRepository) private readonly store: DeliveryStore,
    @Inject(WEBHOOK_TARGETS) private readonly targets: WebhookTargets,
    @Inject(WEBHOOK_SENDER) private readonly sender: WebhookSender,
    private readonly egress: WebhookEgress,
    private readonly hosts: HostLimiter,
    @Inject(DISPATCHER_CONFIG) private readonly config: WebhookDispatcherConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** `deliveryCount`: how many times JetStream has handed this message out (1 the first time). */
  async deliver(event: EventEnvelope<CallCompletedData>, deliveryCount = 1): Promise<Verdict> {
    const call = event.data;
    const log = { event_id: event.id, call_sid: call.call_sid, number_id: call.number_id };
    const delivery: NewDelivery = { event_id: event.id, call_sid: call.call_sid, number_id: call.number_id, account_id: call.account_id };

    // The target first: the claim that follows reads and writes the delivery in one statement, which also answers
    // for an event that already has its verdict (a duplicate) or waits for its backoff.
    let url: string | null;
    let secret: string;
    try {
      ({ webhook_url: url, webhook_secret: secret } = await this.targets.find(call.number_id, event.correlation_id));
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'not_found') {
        await this.store.close(delivery, 'skipped');
        this.logger.warn(log, 'webhook not sent: numbers-billing does not know the number');
        return 'skipped';
      }
      // numbers-billing is down or slow: not an attempt; ask again later, never drop the event.
      const delay = this.backoff(1);
      this.logger.warn({ ...log, err_code: error instanceof ServiceError ? error.code : 'unknown', retry_in_ms: delay }, 'webhook target lookup failed; will retry');
      throw new RetryLater(delay, 'webhook target lookup failed');
    }
    if (!url) {
      await this.store.close(delivery, 'skipped');
      this.logger.debug(log, 'number has no webhook_url; nothing to send');
      return 'skipped';
    }

    const slot = this.hosts.tryAcquire(HostLimiter.keyOf(url));
    if (!slot) throw new RetryLater(this.hostBusyDelay(deliveryCount), 'receiver host busy');
    try {
      return await this.attempt(event, delivery, url, secret, log);
    } finally {
      slot.release();
    }
  }

  private async attempt(
    event: EventEnvelope<CallCompletedData>,
    delivery: NewDelivery,
    url: string,
    secret: string,
    log: Record<string, unknown>,
  ): Promise<Verdict> {
    const started = new Date();
    const claim = await this.store.claimAttempt({ delivery, url, now: started, leaseUntil: new Date(started.getTime() + this.config.leaseMs) });
    if (claim.kind === 'closed') return 'duplicate';
    if (claim.kind === 'waiting') throw new RetryLater(claim.until.getTime() - started.getTime(), 'backoff');
    if (claim.kind === 'busy') throw new RetryLater(Math.max(claim.until.getTime() - started.getTime(), 0) + 100, 'another worker is sending this event');
    if (claim.interrupted > 0) this.logger.warn({ ...log, attempt: claim.attempt }, 'an attempt interrupted by a stopped dispatcher is sent again');

    const attemptLog = { ...log, url: redactUrl(url), attempt: claim.attempt };
    const decision = await this.egress.check(url, this.config.timeoutMs);
    let response: WebhookResponse;
    if (decision.kind === 'refused') {
      response = { error: `refused: ${decision.reason}` };
    } else if (decision.kind === 'unresolvable') {
      response = { error: decision.reason };
    } else {
      const body = encodeBody(callCompletedWebhookBody(event));
      const remainingMs = Math.max(this.config.timeoutMs - (Date.now() - started.getTime()), 1);
      response = await this.sender.send({
        target: decision.target,
        body,
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': USER_AGENT,
          [EVENT_ID_HEADER]: event.id,
          // Signed just before sending, so the timestamp is the moment of signing.
          ...signedHeaders(secret, body),
        },
        timeoutMs: remainingMs,
      });
    }

    const finished = new Date();
    const statusCode = 'statusCode' in response ? response.statusCode : null;
    const succeeded = statusCode !== null && statusCode >= 200 && statusCode < 300;
    let error: string | null = null;
    if ('error' in response) error = response.timedOut ? `timed out after ${this.config.timeoutMs} ms` : response.error;
    else if (!succeeded) error = describeStatus(response.statusCode);
    const refused = decision.kind === 'refused';
    let verdict: Verdict | 'retry';
    if (succeeded) verdict = 'delivered';
    else if (refused) verdict = 'refused';
    else if (claim.attempt >= MAX_ATTEMPTS) verdict = 'failed';
    else verdict = 'retry';
    const delay = verdict === 'retry' ? this.backoff(claim.attempt) : 0;

    const kept = await this.store.finishAttempt(
      { eventId: event.id, attemptId: claim.attemptId, leaseUntil: claim.leaseUntil },
      { status_code: statusCode, error, finished_at: finished, duration_ms: finished.getTime() - started.getTime() },
      {
        status: verdict === 'retry' ? 'pending' : verdict,
        attempts: claim.attempt,
        next_attempt_at: verdict === 'retry' ? new Date(finished.getTime() + delay) : null,
      },
    );
    const outcome = { ...attemptLog, status_code: statusCode, error, duration_ms: finished.getTime() - started.getTime() };
    if (!kept) {
      // Another worker took the event over after our lease ran out: the database tells the next delivery what to do.
      this.logger.warn(outcome, 'webhook attempt finished after its lease; state left to the worker that took over');
      throw new RetryLater(this.config.leaseMs, 'lease lost');
    }
    switch (verdict) {
      case 'delivered':
        this.logger.info(outcome, 'webhook delivered');
        return verdict;
      case 'refused':
        this.logger.warn(outcome, 'webhook refused by the egress rule; not retried');
        return verdict;
      case 'failed':
        this.logger.warn(outcome, `webhook failed ${MAX_ATTEMPTS} attempts; giving up`);
        return verdict;
      default:
        this.logger.info({ ...outcome, retry_in_ms: delay }, 'webhook attempt failed; will retry');
        throw new RetryLater(delay, `attempt ${claim.attempt} failed`);
    }
  }

  /**
   * A busy host frees a slot within one time-out at worst: wait 250 ms, doubling with each hand-back up to the
   * time-out, with jitter, so events queued behind a dead receiver cost few look-ups while they wait.
   */
  private hostBusyDelay(deliveryCount: number): number {
    const delay = Math.min(this.config.timeoutMs, HOST_BUSY_FIRST_DELAY_MS * 2 ** Math.min(Math.max(deliveryCount - 1, 0), 16));
    return Math.round(delay * (0.5 + Math.random()));
  }

  private backoff(attempt: number): number {
    return backoffDelayMs(attempt, { baseMs: this.config.backoffBaseMs, maxMs: this.config.backoffMaxMs });
  }
}

function describeStatus(statusCode: number): string {
  if (statusCode >= 300 && statusCode < 400) return `redirect not followed (HTTP ${statusCode})`;
  return `receiver answered HTTP ${statusCode}`;
}

/** A URL fit for logs: the query string (where integrators sometimes put tokens) is dropped. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search ? '?[redacted]' : ''}`;
  } catch {
    return '[invalid url]';
  }
}
