import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  WebhookTargetRpc,
  webhookSecretSealContext,
  type GetWebhookTargetQuery,
  type RpcReply,
  type WebhookTarget,
} from '@switchboard/contracts';
import { rpcSubject, sealFor } from '@switchboard/messaging';

/** What the fake knows of a number: its webhook URL and secret (sealed for each asker, as numbers-billing does). */
export interface FakeTarget {
  webhook_url: string | null;
  webhook_secret: string;
  /** The secret before a rotation, while its overlap lasts. */
  previous_webhook_secret?: string;
}

/**
 * Stands in for numbers-billing on `WebhookTargetRpc` (a plain NATS subscription), so these tests do not
 * depend on that service. Numbers it was not told about answer `not_found`.
 */
export class FakeNumbersBilling {
  private readonly targets = new Map<string, FakeTarget>();
  private subscription: Subscription | undefined;
  /** Number ids asked for, in order. */
  readonly asked: string[] = [];

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
  ) {}

  setTarget(numberId: string, target: FakeTarget): this {
    this.targets.set(numberId, target);
    return this;
  }

  /** Starts answering (numbers-billing comes up). */
  start(): this {
    this.subscription ??= this.nc.subscribe(rpcSubject({ prefix: this.prefix }, WebhookTargetRpc.subject), {
      callback: (err, msg) => {
        if (err) return;
        const { number_id, recipient_key } = msg.json<GetWebhookTargetQuery>();
        this.asked.push(number_id);
        const target = this.targets.get(number_id);
        const reply: RpcReply<WebhookTarget> = target
          ? {
              ok: true,
              data: {
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
              },
            }
          : { ok: false, error: { code: 'not_found', message: 'No number with that id.' } };
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
