import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  NumberUpdatedEvent,
  WebhookTargetRpc,
  webhookSecretSealContext,
  type GetWebhookTargetQuery,
  type NumberStateChanged,
  type WebhookTarget,
} from '@switchboard/contracts';
import { eventSubject, rpcSubject, sealFor } from '@switchboard/messaging';

/** The account the fake's numbers belong to in the events it publishes. */
const FAKE_ACCOUNT = 'acct_0123456789abcdefghij';

/** What the fake knows of a number: its webhook URL and secret (sealed for each asker, as numbers-billing does). */
export interface FakeTarget {
  webhook_url: string | null;
  webhook_secret: string;
  /** The secret before a rotation, while its overlap lasts. */
  previous_webhook_secret?: string;
  /** The number's `webhook_events`; left out of the reply when not set, as an older numbers-billing answers. */
  webhook_events?: string[];
}

/**
 * Stands in for numbers-billing on `WebhookTargetRpc` (a plain NATS subscription), so these tests do not
 * depend on that service. Numbers it was not told about answer `not_found`.
 */
export class FakeNumbersBilling {
  private readonly targets = new Map<string, FakeTarget>();
  private readonly versions = new Map<string, number>();
  private subscription: Subscription | undefined;
  /** Number ids asked for, in order. */
  readonly asked: string[] = [];

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
  ) {}

  /**
   * A number's target, new or changed. A change is published as numbers-billing's relay publishes it, a
   * `number.updated` of a new version, so dispatchers forget the target they kept (ADR 0075); `setTarget` resolves
   * once JetStream has it (and so every dispatcher subscribed has heard it).
   */
  async setTarget(numberId: string, target: FakeTarget): Promise<void> {
    const version = (this.versions.get(numberId) ?? 0) + 1;
    this.versions.set(numberId, version);
    const known = this.targets.has(numberId);
    this.targets.set(numberId, target);
    if (!known) return;
    const data: NumberStateChanged = {
      number_id: numberId,
      account_id: FAKE_ACCOUNT,
      phone_number: '+14155550100',
      business_phone: '+14155550123',
      status: 'active',
      webhook_url: target.webhook_url,
      answering: true,
      version: String(version),
      changed_at: new Date().toISOString(),
    };
    const envelope = {
      id: randomUUID(),
      type: NumberUpdatedEvent.type,
      occurred_at: data.changed_at,
      correlation_id: randomUUID(),
      causation_id: null,
      data,
    };
    await jetstream(this.nc).publish(
      eventSubject({ prefix: this.prefix }, NumberUpdatedEvent.type),
      JSON.stringify(envelope),
      { msgID: envelope.id },
    );
  }

  /** Starts answering (numbers-billing comes up). */
  start(): this {
    this.subscription ??= this.nc.subscribe(rpcSubject({ prefix: this.prefix }, WebhookTargetRpc.subject), {
      callback: (err, msg) => {
        if (err) return;
        // A request as Nest's NATS client sends it, answered as Nest's server answers (`id`, `response` or `err`).
        const { id, data: query } = msg.json<{ id: string; data: GetWebhookTargetQuery }>();
        const { number_id, recipient_key } = query;
        this.asked.push(number_id);
        const target = this.targets.get(number_id);
        const reply: { id: string; isDisposed: true; response?: WebhookTarget; err?: object } = target
          ? {
              id,
              isDisposed: true,
              response: {
                number_id,
                webhook_url: target.webhook_url,
                webhook_secret_sealed: sealFor(
                  recipient_key,
                  target.webhook_secret,
                  webhookSecretSealContext(number_id),
                ),
                previous_webhook_secret_sealed: target.previous_webhook_secret
                  ? sealFor(recipient_key, target.previous_webhook_secret, webhookSecretSealContext(number_id))
                  : null,
                ...(target.webhook_events ? { webhook_events: target.webhook_events } : {}),
              },
            }
          : { id, isDisposed: true, err: { code: 'not_found', message: 'No number with that id.' } };
        msg.respond(JSON.stringify(reply));
      },
    });
    return this;
  }

  /** Stops answering (numbers-billing goes down). */
  stop(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
  }
}
