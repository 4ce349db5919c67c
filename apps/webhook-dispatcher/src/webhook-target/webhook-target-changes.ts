import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { NumberReleasedEvent, NumberUpdatedEvent } from '@switchboard/contracts';
import { MESSAGING_CONFIG, NATS_CONNECTION, eventSubject, type MessagingConfig } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { KeptWebhookTargets } from './kept-webhook-targets';

/** The number events that change a webhook target: a new URL or secret (number.updated), a release. */
const TARGET_CHANGING_EVENTS = [NumberUpdatedEvent, NumberReleasedEvent] as const;

/**
 * Tells this replica's `KeptWebhookTargets` of every change of a number (ADR 0075). It hears numbers-billing's
 * `number.updated` and `number.released` as they are published to JetStream, on plain subscriptions of its own (the
 * durable consumers hand each event to one replica only; every replica must forget). What it cannot hear it
 * assumes missed: targets are kept only once its subscriptions stand, all are forgotten when the connection drops (as
 * it does when the server finds this client too slow), and none are kept while NATS is away or after a subscription
 * ended.
 */
@Injectable()
export class WebhookTargetChanges implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly subscriptions: Subscription[] = [];
  private stopping = false;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(MESSAGING_CONFIG) private readonly messaging: MessagingConfig,
    private readonly targets: KeptWebhookTargets,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    void this.followConnection();
    for (const event of TARGET_CHANGING_EVENTS) {
      const subscription = this.nc.subscribe(eventSubject(this.messaging, event.type), {
        callback: (error, msg) => (error ? this.targets.forgetAll() : this.heard(msg)),
      });
      this.subscriptions.push(subscription);
      void subscription.closed.then((error) => this.ended(event.type, error));
    }
    // Once the server has our subscriptions, every change published after this is heard.
    await this.nc.flush();
    if (this.subscriptions.every((subscription) => !subscription.isClosed())) this.targets.startKeeping();
  }

  beforeApplicationShutdown(): void {
    this.stopping = true;
    this.targets.stopKeeping();
    for (const subscription of this.subscriptions) subscription.unsubscribe();
  }

  private heard(msg: Msg): void {
    const numberId = numberIdOf(msg);
    if (numberId === undefined) this.targets.forgetAll();
    else this.targets.forget(numberId);
  }

  private ended(type: string, error: void | Error): void {
    this.targets.stopKeeping();
    if (this.stopping || this.nc.isClosed()) return;
    this.logger.warn(
      { event_type: type, err: error ?? undefined },
      'no longer hearing number changes: every delivery asks numbers-billing for its webhook target',
    );
  }

  private async followConnection(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect' || status.type === 'close') this.targets.stopKeeping();
      else if (status.type === 'reconnect' && !this.stopping) {
        // The client subscribed again before it reported the reconnection: changes are heard again.
        if (this.subscriptions.every((subscription) => !subscription.isClosed())) this.targets.startKeeping();
      }
    }
  }
}

/** The number an event is about; undefined when the message cannot be read (then everything is forgotten). */
function numberIdOf(msg: Msg): string | undefined {
  try {
    const envelope = msg.json<{ data?: { number_id?: unknown } }>();
    const id = envelope.data?.number_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
