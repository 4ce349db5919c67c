import { Inject, Injectable } from '@nestjs/common';
import {
  ServiceError,
  type CallCompletedData,
  type EventEnvelope,
  type WebhookCopy,
  type WebhookCopyKind,
} from '@switchboard/contracts';
import { RetryLater } from '@switchboard/messaging';
import {
  CALL_COMPLETED_WEBHOOK_TYPE,
  EVENT_ID_HEADER,
  signedHeaders,
  standardWebhookHeaders,
} from '@switchboard/signing';
import { LOGGER, type Logger } from '@switchboard/observability';
import { DISPATCHER_CONFIG } from '../config/tokens';
import { MAX_ATTEMPTS, type WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { WebhookEgress, type EgressDecision } from '../egress/webhook-egress';
import { WEBHOOK_SENDER, type WebhookResponse, type WebhookSender } from '../webhook-sender/webhook-sender.port';
import { ENDPOINT_HEALTH, type EndpointHealthPort } from '../endpoints/endpoint-health.port';
import { WEBHOOK_TARGETS, type WebhookTarget, type WebhookTargets } from '../webhook-target/webhook-targets.port';
import { WEBHOOK_COPIES, type WebhookCopies } from '../webhook-copies/webhook-copies.port';
import { backoffDelayMs } from './backoff';
import { DeliveriesRepository } from './deliveries.repository';
import type { ClaimHeld, DeliveryStore, NewDelivery } from './delivery-store.port';
import { HostLimiter } from './host-limiter';
import { callCompletedWebhookBody, encodeBody } from './webhook-body';

export const USER_AGENT = 'Switchboard-Webhooks/1.0';

/** What to do with the message once `deliver` returns: it resolves to acknowledge, or throws `RetryLater`. */
export type Verdict = 'delivered' | 'failed' | 'refused' | 'skipped' | 'paused' | 'duplicate' | 'unsubscribed';

/** One event's body to send, and the delivery row it belongs to. */
export type OutgoingDelivery = NewDelivery & { body: string };

export interface SendOptions {
  /** Attempts in this round before the event is given up (default MAX_ATTEMPTS; a test event has 1). */
  maxAttempts?: number;
  /** Keep up to this many bytes of the receiver's answer (the test event shows them). */
  captureResponseBytes?: number;
  /** How many times JetStream has handed the message out (1 the first time), for the host-busy wait. */
  deliveryCount?: number;
  /** A test event: sent even to a disabled endpoint, and not counted in its health. */
  probe?: boolean;
  /**
   * An opt-in event (`call.started`, `call.updated`): sent only when the number's `webhook_events` lists its type.
   * For any other number, and one numbers-billing does not know, nothing is written (`unsubscribed`).
   */
  optIn?: boolean;
}

/** What one call of `send` came to. */
export interface SendResult {
  verdict: Verdict;
  /** Why nothing was sent, for `skipped`. */
  skipped?: 'unknown_number' | 'no_webhook';
  /** Set when an attempt was made. */
  attempt?: { status_code: number | null; error: string | null; duration_ms: number; response_body: string | null };
}

/** The first wait of an event whose receiver host already has its share of attempts on the wire; it doubles. */
const HOST_BUSY_FIRST_DELAY_MS = 250;

/**
 * The webhook delivery use case (docs/adr/0075-webhook-delivery.md), for `call.completed` from JetStream and
 * for every event sent again from its stored body (docs/adr/0075-webhook-delivery.md). One call per JetStream
 * delivery of the event (or per sweep of a detached delivery). Resolves when the event has its verdict (a 2xx, the
 * last failed attempt of the round, a refused URL, or nothing to send), so the message is acknowledged; throws
 * `RetryLater` to have it handed back after the backoff. All state lives in the database, so any worker (or a
 * restarted one) picks up where the last one stopped.
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
    @Inject(ENDPOINT_HEALTH) private readonly health: EndpointHealthPort,
    @Inject(WEBHOOK_COPIES) private readonly copies: WebhookCopies,
  ) {}

  /** `deliveryCount`: how many times JetStream has handed this message out (1 the first time). */
  async deliver(event: EventEnvelope<CallCompletedData>, deliveryCount = 1): Promise<Verdict> {
    const call = event.data;
    const body = encodeBody(callCompletedWebhookBody(event)).toString('utf8');
    const delivery: OutgoingDelivery = {
      event_id: event.id,
      event_type: CALL_COMPLETED_WEBHOOK_TYPE,
      call_sid: call.call_sid,
      number_id: call.number_id,
      account_id: call.account_id,
      body,
    };
    return (await this.send(delivery, event.correlation_id, { deliveryCount })).verdict;
  }

  /** Sends one event's next attempt (the stored body, signed anew with the number's current secrets). */
  async send(delivery: OutgoingDelivery, correlationId: string, options: SendOptions = {}): Promise<SendResult> {
    const log = {
      event_id: delivery.event_id,
      event_type: delivery.event_type,
      call_sid: delivery.call_sid || undefined,
      number_id: delivery.number_id,
    };

    // The target first: the claim that follows reads and writes the delivery in one statement, which also answers
    // for an event that already has its verdict (a duplicate) or waits for its backoff.
    let target: WebhookTarget;
    try {
      target = await this.targets.find(delivery.number_id, correlationId, { fresh: options.probe });
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'not_found') {
        if (options.optIn) return this.unsubscribed(delivery, log, options);
        await this.store.close(delivery, 'skipped');
        this.logger.warn(log, 'webhook not sent: numbers-billing does not know the number');
        return { verdict: 'skipped', skipped: 'unknown_number' };
      }
      // numbers-billing is down or slow: not an attempt; ask again later, never drop the event.
      const delay = this.backoff(1);
      this.logger.warn(
        { ...log, err_code: error instanceof ServiceError ? error.code : 'unknown', retry_in_ms: delay },
        'webhook target lookup failed; will retry',
      );
      throw new RetryLater(delay, 'webhook target lookup failed');
    }
    if (options.optIn && !target.webhook_events.includes(delivery.event_type))
      return this.unsubscribed(delivery, log, options);
    // During a rotation's overlap every delivery is signed with the new secret and the old one (ADR 0128).
    const secrets = target.previous_webhook_secret
      ? [target.webhook_secret, target.previous_webhook_secret]
      : [target.webhook_secret];
    const url = target.webhook_url;
    if (!url) {
      await this.store.close(delivery, 'skipped');
      // Sent nowhere, but signed all the same for the number's listeners, if any (ADR 0128).
      this.copy(delivery, 'not_sent', null, this.sign(delivery, secrets));
      this.logger.debug(log, 'number has no webhook_url; nothing to send');
      return { verdict: 'skipped', skipped: 'no_webhook' };
    }

    // The host's share: this process's first (no database round trip when it is full; an attempt on the wire to the
    // host is waited for briefly, to reuse its connection: ADR 0075), then every replica's, taken with the claim
    // (ADR 0075).
    const host = HostLimiter.keyOf(url);
    const slot = await this.hosts.acquire(host);
    if (!slot) throw new RetryLater(this.hostBusyDelay(options.deliveryCount ?? 1), 'receiver host busy');
    try {
      return await this.attempt(delivery, url, host, secrets, log, options);
    } finally {
      slot.release();
    }
  }

  private async attempt(
    delivery: OutgoingDelivery,
    url: string,
    host: string,
    secrets: string[],
    log: Record<string, unknown>,
    options: SendOptions,
  ): Promise<SendResult> {
    const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
    const started = new Date();
    const claim = await this.store.claimAttempt({
      delivery,
      url,
      host,
      now: started,
      leaseUntil: new Date(started.getTime() + this.config.leaseMs),
      // A disabled endpoint gets nothing: the event waits, paused, until the account enables it (ADR 0075). A test
      // event is sent all the same.
      pauseIfDisabled: !options.probe,
    });
    if (claim.kind === 'host_busy')
      throw new RetryLater(this.hostBusyDelay(options.deliveryCount ?? 1), 'receiver host busy on another replica');
    if (claim.kind === 'closed') return { verdict: 'duplicate' };
    if (claim.kind === 'paused') {
      await this.store.close(delivery, 'paused');
      this.logger.info(log, 'webhook endpoint disabled; event paused until it is enabled');
      return { verdict: 'paused' };
    }
    if (claim.kind === 'waiting') throw new RetryLater(claim.until.getTime() - started.getTime(), 'backoff');
    if (claim.kind === 'busy')
      throw new RetryLater(
        Math.max(claim.until.getTime() - started.getTime(), 0) + 100,
        'another worker is sending this event',
      );
    if (claim.interrupted > 0)
      this.logger.warn(
        { ...log, attempt: claim.attempt },
        'an attempt interrupted by a stopped dispatcher is sent again',
      );

    const attemptLog = { ...log, url: redactUrl(url), attempt: claim.attempt };
    const held: ClaimHeld = {
      eventId: delivery.event_id,
      numberId: delivery.number_id,
      attemptId: claim.attemptId,
      leaseUntil: claim.leaseUntil,
      host,
      slot: claim.slot,
    };
    let decision: EgressDecision;
    let response: WebhookResponse;
    try {
      // The number's listeners get the first attempt of each round, not the retries of a failing URL (ADR 0128).
      const copied = claim.attempt - claim.attemptBase === 1 ? claim.attempt : null;
      ({ decision, response } = await this.post(delivery, url, secrets, started, copied, options));
    } catch (error) {
      // Not an attempt's outcome (the sender answers every failure): the host slot is given back at once, the
      // lease runs out and JetStream hands the event out again.
      await this.store.giveBackSlot(held).catch(() => undefined);
      throw error;
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
    else if (claim.attempt - claim.attemptBase >= maxAttempts) verdict = 'failed';
    else verdict = 'retry';
    const delay = verdict === 'retry' ? this.retryDelay(claim.attempt - claim.attemptBase, response) : 0;
    const durationMs = finished.getTime() - started.getTime();

    // A test event and a refused URL are not counted in the endpoint's health (ADR 0075).
    const counted = !options.probe && !refused;
    const finish = await this.store.finishAttempt(
      held,
      { status_code: statusCode, error, finished_at: finished, duration_ms: durationMs },
      {
        status: verdict === 'retry' ? 'pending' : verdict,
        attempts: claim.attempt,
        next_attempt_at: verdict === 'retry' ? new Date(finished.getTime() + delay) : null,
      },
      counted ? { accountId: delivery.account_id, succeeded } : undefined,
    );
    const outcome = { ...attemptLog, status_code: statusCode, error, duration_ms: durationMs };
    if (!finish.kept) {
      // Another worker took the event over after our lease ran out: the database tells the next delivery what to do.
      this.logger.warn(outcome, 'webhook attempt finished after its lease; state left to the worker that took over');
      throw new RetryLater(this.config.leaseMs, 'lease lost');
    }
    if (finish.endpoint) {
      await this.health
        .judge(
          { numberId: delivery.number_id, accountId: delivery.account_id, succeeded, statusCode, at: finished },
          finish.endpoint,
        )
        .catch((err: unknown) => this.logger.warn({ ...attemptLog, err }, 'endpoint health not judged'));
    }
    const result = (final: Verdict): SendResult => ({
      verdict: final,
      attempt: {
        status_code: statusCode,
        error,
        duration_ms: durationMs,
        response_body: 'statusCode' in response ? (response.body ?? null) : null,
      },
    });
    switch (verdict) {
      case 'delivered':
        this.logger.info(outcome, 'webhook delivered');
        return result(verdict);
      case 'refused':
        this.logger.warn(outcome, 'webhook refused by the egress rule; not retried');
        return result(verdict);
      case 'failed':
        this.logger.warn(outcome, `webhook failed ${maxAttempts} attempts; giving up`);
        return result(verdict);
      default:
        this.logger.info({ ...outcome, retry_in_ms: delay }, 'webhook attempt failed; will retry');
        throw new RetryLater(delay, `attempt ${claim.attempt} failed`);
    }
  }

  /**
   * An opt-in event for a number not subscribed to it: nothing is written, the message is acknowledged. A delivery
   * JetStream hands out again may have begun before the number opted out: it is closed `skipped`, so it does not
   * stay pending for ever.
   */
  private async unsubscribed(
    delivery: OutgoingDelivery,
    log: Record<string, unknown>,
    options: SendOptions,
  ): Promise<SendResult> {
    if ((options.deliveryCount ?? 1) > 1) await this.store.closeBegun(delivery.event_id, 'skipped');
    this.logger.debug(log, 'number not subscribed to the event; nothing to send');
    return { verdict: 'unsubscribed' };
  }

  /**
   * The egress check of `url`, then the signed POST to the address it allowed (or why nothing was sent). `copied`: the
   * attempt's number when the number's listeners get a copy of it, else null.
   */
  private async post(
    delivery: OutgoingDelivery,
    url: string,
    secrets: string[],
    started: Date,
    copied: number | null,
    options: SendOptions,
  ): Promise<{ decision: EgressDecision; response: WebhookResponse }> {
    const decision = await this.egress.check(url, this.config.timeoutMs);
    if (decision.kind !== 'allowed') {
      // Nothing goes out; the number's listeners still get the event as it would have been sent (ADR 0128).
      if (copied !== null) this.copy(delivery, 'not_sent', copied, this.sign(delivery, secrets));
      const error = decision.kind === 'refused' ? `refused: ${decision.reason}` : decision.reason;
      return { decision, response: { error } };
    }
    const remainingMs = Math.max(this.config.timeoutMs - (Date.now() - started.getTime()), 1);
    // Signed just before sending, so the timestamp is the moment of signing.
    const headers = this.sign(delivery, secrets);
    // The listeners' copy carries these very bytes and headers (ADR 0128).
    if (copied !== null) this.copy(delivery, 'attempt', copied, headers);
    const response = await this.sender.send({
      target: decision.target,
      body: Buffer.from(delivery.body, 'utf8'),
      headers,
      timeoutMs: remainingMs,
      captureResponseBytes: options.captureResponseBytes,
    });
    return { decision, response };
  }

  /** The headers of one delivery of `delivery.body`, signed now with every secret; both header sets share the time. */
  private sign(delivery: OutgoingDelivery, secrets: string[]): Record<string, string> {
    const body = Buffer.from(delivery.body, 'utf8');
    const timestamp = Math.floor(Date.now() / 1000);
    return {
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      [EVENT_ID_HEADER]: delivery.event_id,
      ...signedHeaders(secrets, body, timestamp),
      ...standardWebhookHeaders(secrets, delivery.event_id, body, timestamp),
    };
  }

  /** Hands the number's listeners (if any) the delivery as signed: fire and forget (ADR 0128). */
  private copy(
    delivery: OutgoingDelivery,
    kind: WebhookCopyKind,
    attempt: number | null,
    headers: Record<string, string>,
  ): void {
    const copy: WebhookCopy = {
      event_id: delivery.event_id,
      type: delivery.event_type,
      number_id: delivery.number_id,
      kind,
      attempt,
      headers,
      body: delivery.body,
    };
    this.copies.publish(delivery.account_id, copy);
  }

  /**
   * A busy host frees a slot within one time-out at worst: wait 250 ms, doubling with each hand-back up to the
   * time-out, with jitter, so events queued behind a dead receiver cost few look-ups while they wait.
   */
  private hostBusyDelay(deliveryCount: number): number {
    const delay = Math.min(
      this.config.timeoutMs,
      HOST_BUSY_FIRST_DELAY_MS * 2 ** Math.min(Math.max(deliveryCount - 1, 0), 16),
    );
    return Math.round(delay * (0.5 + Math.random()));
  }

  /**
   * The wait before the next attempt: the backoff, or longer when a 429 or 503 said when to come back
   * (`Retry-After`, seconds or a date, honoured up to WEBHOOK_RETRY_AFTER_MAX_MS).
   */
  private retryDelay(attempt: number, response: WebhookResponse): number {
    const backoff = this.backoff(attempt);
    if (
      !('statusCode' in response) ||
      (response.statusCode !== 429 && response.statusCode !== 503) ||
      !response.retryAfter
    )
      return backoff;
    const asked = retryAfterMs(response.retryAfter);
    return asked === undefined ? backoff : Math.max(backoff, Math.min(asked, this.config.retryAfterMaxMs));
  }

  private backoff(attempt: number): number {
    return backoffDelayMs(attempt, { baseMs: this.config.backoffBaseMs, maxMs: this.config.backoffMaxMs });
  }
}

/** `Retry-After` in milliseconds (seconds, or an HTTP date); undefined when unreadable. */
export function retryAfterMs(value: string, now = Date.now()): number | undefined {
  const trimmed = value.trim();
  if (/^\d{1,9}$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(at - now, 0);
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
